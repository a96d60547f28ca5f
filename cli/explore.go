package cli

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/electkit/elect/catalog"
	"github.com/electkit/elect/check"
	"github.com/electkit/elect/explore"
	"github.com/electkit/elect/ids"
	"github.com/electkit/elect/internal/cmdio"
	"github.com/electkit/elect/scenario"
	"github.com/electkit/elect/topology"
	"github.com/electkit/elect/view"
)

func init() {
	register(command{name: "explore", summary: "be the scheduler: pick each step of a small run, with what the adversary can still achieve", run: exploreCommand})
}

const exploreUsage = `usage: elect explore ALGORITHM --n N [flags]

Serves a page on which you are the scheduler of a small asynchronous run of
ALGORITHM: first the ID assignment (unless --ids gives one), then, one step
at a time, which initiator wakes or which message in flight is delivered
next, with undo. Next to every choice it shows, from the exhaustive
checker's search of every state, the most and fewest messages (of the
quantity you pick) any execution can still reach after it; "worst step"
and "best step" take a step that keeps the most or the fewest reachable,
and their runs to the end reach exactly what 'elect check' reports (LCR at
n = 5: 15 and 9 election messages). Each configuration is searched whole,
with no partial-order reduction: keep n small (up to 6 on rings and small
complete graphs).

The first ID assignment is searched before the page is served (a network
too large is refused then, with an estimate); the others are searched on
every processor while you use the page, which fills in their extremes as
they are found (an assignment you take is searched at once). On a terminal
a progress line shows the states searched, states/s and the time left.

examples:
  elect explore lcr --n 5
  elect explore hs --n 4 --ids decreasing
  elect explore chang-roberts --n 4 --delivery bag

flags:
`

func exploreCommand(cat *catalog.Catalog, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("explore", exploreUsage)
	var n int
	sizeVar(fs, &n, "n", 4, "number of nodes (1..8; every state of every configuration is searched)")
	idsFlag := fs.String("ids", "all", "all (you choose the assignment of 1..n first) or an arrangement: "+ids.Usage)
	delivery := fs.String("delivery", "fifo", "fifo (each link's oldest message next) or bag (any message in flight)")
	topo := fs.String("topology", "", "network: "+topology.Usage+" (default: the algorithm's own)")
	announce := fs.Bool("announce", false, "announce the leader (algorithms with optional announcement)")
	maxStates := fs.Int64("max-states", 2_000_000, "refuse a configuration whose search passes this many states")
	addr := fs.String("addr", "127.0.0.1:0", "address to serve on (host:port; port 0 picks a free one)")
	params := registerParams(fs, cat)
	name, err := parseOne(fs, args, stdout, "explore takes one algorithm name (got %d); 'elect list' shows them")
	if err != nil {
		return err
	}
	if n < 1 || n > 8 {
		return usagef("--n %d: explore searches every state; use 1..8 (and expect n <= 6 to be practical)", n)
	}
	if *delivery != "fifo" && *delivery != "bag" {
		return usagef("--delivery %q: use fifo or bag", *delivery)
	}
	if _, ok := cat.Lookup(name); !ok {
		return usagef("unknown algorithm %q%s; 'elect list' shows them all", name, scenario.Suggest(name, cat.Names()))
	}
	spec := scenario.Spec{Catalog: cat, Algorithm: name, N: n, Topology: *topo, Announce: *announce, Params: map[string]string{}}
	setParamsAndN(fs, params, &spec)
	ss, err := check.NewSession(check.Options{Spec: spec, IDs: *idsFlag, Delivery: *delivery, MaxStates: *maxStates})
	if err != nil {
		return usagef("%v", err)
	}
	ln, err := view.Listen(*addr)
	if err != nil {
		return usagef("explore: %v", strings.TrimPrefix(err.Error(), "view: "))
	}
	defer ln.Close()
	ln.Command = "elect explore"
	stop := cmdio.Watch()
	// The first configuration's search, now: a bad one fails here, not in
	// the page.
	first := watchExplore(ss, stderr, "explore: first IDs", 0)
	err = ss.SearchFirst()
	first()
	if stop.Err() != nil {
		fmt.Fprintf(stderr, "elect: explore %s during the first search; nothing served\n", stoppedBy())
		return errInterrupted
	}
	if err != nil {
		return usagef("%v", err)
	}
	if !ln.Loopback {
		fmt.Fprintf(stderr, "elect: warning: %s is not a loopback address; anyone who can reach it can take the scheduler's steps\n", *addr)
	}
	fmt.Fprintf(stdout, "elect explore: %s (Ctrl-C stops)\n", ln.URLs[0])
	if p := ss.Progress(); p.Done < p.Configurations {
		go func() {
			done := watchExplore(ss, stderr, "explore: all IDs", int64(p.Configurations))
			ss.SearchRoots(0, stop.Done())
			done()
			if stop.Err() == nil {
				p := ss.Progress()
				fmt.Fprintf(stderr, "elect explore: searched all %d ID assignments (%s states) in %.1f s%s\n", p.Configurations, groupInt(p.States), p.Seconds, failedNote(p.Failed))
			}
		}()
	}
	return serveUntilSignal(ln, explore.Handler(ss), stderr)
}

func failedNote(failed int) string {
	if failed == 0 {
		return ""
	}
	return fmt.Sprintf("; %d could not be searched (the page says why)", failed)
}

// watchExplore shows an explorer search's progress on stderr (a terminal)
// until the returned function is called: the states searched, states/s
// and, over configurations (total > 0), the time left.
func watchExplore(ss *check.Session, stderr io.Writer, name string, total int64) (stop func()) {
	bar := newProgressBar(stderr, name, total, "")
	if bar == nil {
		return func() {}
	}
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		tick := time.NewTicker(check.ProgressInterval)
		defer tick.Stop()
		for {
			p := ss.Progress()
			bar.set(int64(p.Done), fmt.Sprintf("%s states, %s states/s", groupInt(p.States), groupInt(int64(p.StatesPerSecond))))
			select {
			case <-tick.C:
			case <-done:
				return
			}
		}
	}()
	return func() {
		close(done)
		<-finished
		bar.finish()
	}
}
