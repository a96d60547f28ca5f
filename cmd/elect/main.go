// Command elect runs, verifies, measures and compares leader-election
// algorithms. See the package documentation of elect/cli for the
// manual, or run "elect help".
package main

import (
	"os"

	"github.com/electkit/elect/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], os.Stdout, os.Stderr))
}
