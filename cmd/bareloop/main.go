// Command bareloop runs the simulator's yardsticks (package
// internal/bareloop) on the IDs `elect run` would give the same ring and
// seed:
//
//   - lcr, hs: LCR or Hirschberg-Sinclair under unit delays, as a plain
//     loop over two arrays;
//   - lcr-random: LCR under the simulator's random delays, a plain loop
//     over a wheel of slices;
//   - lcr-contract, hs-contract: the catalog's own LCR or HS nodes, called
//     through elect.Node and elect.Env with nothing else, the floor under
//     any runtime that keeps the contract.
//
// It prints one JSON object with the messages sent and the leader's index,
// which equal those of
//
//	elect run ALG --n N --ids IDS --seed SEED --json
//
// (with --delivery random for lcr-random), so that timing the two whole
// processes, one against the other, measures what the simulator adds to
// the algorithm's own work.
//
// Usage:
//
//	bareloop lcr|hs|lcr-random|lcr-contract|hs-contract [--n N] [--ids random|decreasing|...] [--seed S]
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/electkit/elect"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/ids"
	"github.com/electkit/elect/internal/bareloop"
	"github.com/electkit/elect/ring"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// maxN is the largest ring bareloop accepts: what elect run accepts on a
// ring held in int32 indexes.
const maxN = 1 << 30

// run runs the command and returns its exit status: 0, or 2 for bad input
// (one line on stderr).
func run(args []string, stdout, stderr io.Writer) int {
	if err := runErr(args, stdout); err != nil {
		fmt.Fprintf(stderr, "bareloop: %v\n", err)
		return 2
	}
	return 0
}

// loops are the yardsticks by name: the plain loops under unit delays
// (lcr, hs) and random delays (lcr-random), and the catalog's own nodes
// called through the contract with nothing else (lcr-contract,
// hs-contract; bareloop.Contract).
var loops = map[string]func(ids []elect.ID, seed uint64) bareloop.Result{
	"lcr":          func(ids []elect.ID, _ uint64) bareloop.Result { return bareloop.LCR(ids) },
	"hs":           func(ids []elect.ID, _ uint64) bareloop.Result { return bareloop.HS(ids) },
	"lcr-random":   bareloop.LCRRandom,
	"lcr-contract": func(ids []elect.ID, _ uint64) bareloop.Result { return bareloop.Contract(ring.LCR, ids) },
	"hs-contract":  func(ids []elect.ID, _ uint64) bareloop.Result { return bareloop.Contract(ring.HS, ids) },
}

const loopNames = "lcr, hs, lcr-random, lcr-contract or hs-contract"

var errUsage = errors.New("usage: bareloop lcr|hs|lcr-random|lcr-contract|hs-contract [--n N] [--ids ARRANGEMENT] [--seed S]")

func runErr(args []string, stdout io.Writer) error {
	if len(args) == 0 {
		return errUsage
	}
	alg := args[0]
	loop, ok := loops[alg]
	if !ok {
		return fmt.Errorf("unknown algorithm %q: %s", alg, loopNames)
	}
	fs := flag.NewFlagSet("bareloop", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	n := fs.Int("n", 1000, "ring size")
	arrangement := fs.String("ids", "random", "ID arrangement: "+ids.Usage)
	seed := fs.Uint64("seed", 1, "master seed (the IDs are elect run's for this seed)")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if *n < 1 || *n > maxN {
		return fmt.Errorf("--n %d: a ring of 1 to %d nodes", *n, maxN)
	}
	spec, err := ids.Parse(*arrangement)
	if err != nil {
		return err
	}
	if !spec.Distinct(*n) {
		return fmt.Errorf("--ids %s: the bare loops need distinct IDs", *arrangement)
	}
	idList, err := spec.Generate(*n, election.Stream(*seed, "ids", 0))
	if err != nil {
		return err
	}
	r := loop(idList, *seed)
	_, err = fmt.Fprintf(stdout, "{\"algorithm\":%q,\"n\":%d,\"ids\":%q,\"seed\":%d,\"messages\":%d,\"leader_index\":%d}\n",
		alg, *n, *arrangement, *seed, r.Messages, r.Leader)
	return err
}
