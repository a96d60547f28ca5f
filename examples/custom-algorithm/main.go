// Command myelect is the elect command with one more algorithm: a user's own
// module, importing elect as a library, gets run, list, sweep and the rest.
package main

import (
	"fmt"
	"os"

	"github.com/electkit/elect/catalog"
	"github.com/electkit/elect/cli"
)

func main() {
	cat, err := catalog.Default().With(AllTheWay)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	os.Exit(cli.MainWith(cat, os.Args[1:], os.Stdout, os.Stderr))
}
