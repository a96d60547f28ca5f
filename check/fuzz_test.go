package check

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/electkit/elect/catalog"
	"github.com/electkit/elect/scenario"
)

// FuzzCheck (issue 31) runs the checker over configurations drawn from the
// fuzzer's bytes: any algorithm of the catalog, n = 1..4, any delivery,
// initiators all or subsets (or times, synchronously), IDs all, ordered,
// equal or repeating, forced or not, with or without the announcement and
// the reduction, and a small state limit. Whatever it is given, the check
// returns a report or an error, never a panic; the report is valid JSON;
// and every counterexample it writes replays on the reference engine to
// the property the report names.
func FuzzCheck(f *testing.F) {
	f.Add(uint8(1), uint8(3), uint8(0), uint8(0), uint8(3), true, false, false, uint16(5000), uint8(1))
	f.Add(uint8(0), uint8(3), uint8(1), uint8(1), uint8(0), true, true, true, uint16(2000), uint8(1))
	f.Add(uint8(5), uint8(4), uint8(1), uint8(0), uint8(0), true, false, false, uint16(5000), uint8(1))
	f.Add(uint8(9), uint8(3), uint8(0), uint8(1), uint8(4), true, true, false, uint16(3000), uint8(2))
	names := catalog.Names()
	f.Fuzz(func(t *testing.T, alg, n, delivery, initiators, ids uint8, force, announce, noReduction bool, maxStates uint16, seed uint8) {
		name := names[int(alg)%len(names)]
		a, _ := catalog.Lookup(name)
		nn := 1 + int(n)%4
		d := []string{"fifo", "bag", "sync"}[int(delivery)%3]
		if !a.Model.Async {
			d = "sync"
		} else if d == "sync" && !a.Model.Sync {
			d = "fifo"
		}
		init := []string{"all", "subsets", "times"}[int(initiators)%3]
		if init == "times" && d != "sync" {
			init = "subsets"
		}
		var idText string
		switch ids % 5 {
		case 0:
			idText = "all"
		case 1:
			idText = "increasing"
		case 2:
			idText = "decreasing"
		case 3: // all equal
			idText = strings.TrimSuffix(strings.Repeat("1,", nn), ",")
		default: // 1,2,1,2...
			var parts []string
			for i := range nn {
				parts = append(parts, strconv.Itoa(1+i%2))
			}
			idText = strings.Join(parts, ",")
		}
		spec := scenario.Spec{Algorithm: name, N: nn, Force: force, Announce: announce, Seed: uint64(seed)}
		opt := Options{Spec: spec, IDs: idText, Delivery: d, Initiators: init, WakeRounds: 2, NoReduction: noReduction,
			MaxStates: 1 + int64(maxStates)%20_000, Workers: 1}
		if init == "times" {
			opt.WakeRounds = 1
		}
		// Keep each input quick: at most about 100,000 states in all.
		if est, err := Estimated(opt); err == nil && est.Configurations > 0 {
			opt.MaxStates = max(1, min(opt.MaxStates, 100_000/est.Configurations))
		}
		r, err := Run(opt)
		if err != nil {
			return // refused: bad input says so
		}
		if _, err := json.Marshal(r); err != nil {
			t.Fatalf("%s %+v: the report is not JSON: %v", name, opt, err)
		}
		if r.Verdict != "violation" || d == "sync" {
			return
		}
		res := replayCounterexample(t, r, spec, d)
		if got := replayedProperty(res); got != r.Property {
			t.Errorf("%s %+v: the check says %s, the replay %s (%s)", name, opt, r.Violation, got, res.Violation)
		}
	})
}

// FuzzCheckFaults runs the checker with a fault budget drawn from the
// fuzzer's bytes (at most 2 crashes, 2 losses and 1 duplicate) on any
// algorithm of the catalog at n = 1..4, fifo or bag, IDs all or in order,
// forced or not: never a panic, a report that is JSON, and every
// asynchronous counterexample replays, with the schedule the report
// names, to the property it names.
func FuzzCheckFaults(f *testing.F) {
	f.Add(uint8(0), uint8(3), uint8(0), uint8(0), uint8(1), uint8(0), false, uint16(5000))
	f.Add(uint8(3), uint8(3), uint8(1), uint8(2), uint8(0), uint8(1), true, uint16(3000))
	f.Add(uint8(18), uint8(4), uint8(0), uint8(2), uint8(0), uint8(0), false, uint16(5000))
	names := catalog.Names()
	f.Fuzz(func(t *testing.T, alg, n, delivery, crashes, losses, dups uint8, force bool, maxStates uint16) {
		name := names[int(alg)%len(names)]
		a, _ := catalog.Lookup(name)
		nn := 1 + int(n)%4
		d := []string{"fifo", "bag"}[int(delivery)%2]
		if !a.Model.Async {
			d = "sync"
		}
		var budget []string
		for _, c := range []struct {
			kind string
			k    int
		}{{"crash", int(crashes) % 3}, {"loss", int(losses) % 3}, {"dup", int(dups) % 2}} {
			if c.k > 0 {
				budget = append(budget, c.kind+":k="+strconv.Itoa(c.k))
			}
		}
		if len(budget) == 0 {
			budget = []string{"loss:k=1"}
		}
		spec := scenario.Spec{Algorithm: name, N: nn, Force: force, Seed: 1}
		ids := []string{"all", "increasing", "decreasing"}[int(maxStates)%3]
		opt := Options{Spec: spec, IDs: ids, Delivery: d, MaxStates: 1 + int64(maxStates)%20_000, Workers: 1, Faults: strings.Join(budget, ";")}
		if est, err := Estimated(opt); err == nil && est.Configurations > 0 {
			opt.MaxStates = max(1, min(opt.MaxStates, 60_000/est.Configurations))
		}
		r, err := Run(opt)
		if err != nil {
			return
		}
		if _, err := json.Marshal(r); err != nil {
			t.Fatalf("%s %+v: the report is not JSON: %v", name, opt, err)
		}
		if r.Verdict != "violation" && r.Verdict != "expected-failure" || d == "sync" {
			return
		}
		res := replayCounterexample(t, r, spec, d)
		if got := replayedProperty(res); got != r.Property {
			t.Errorf("%s %+v: the check says %s (%s), the replay %s (%s)", name, opt, r.Violation, r.FaultSchedule, got, res.Violation)
		}
	})
}

// FuzzFaultBudget: whatever the text, parseFaultBudget returns a budget
// or an error of one line, never a panic; a budget's text reads back to
// the same budget.
func FuzzFaultBudget(f *testing.F) {
	for _, s := range []string{"crash:k=2", "loss:k=1", "dup:k=1", "crash:k=2;loss:k=1", "loss:p=0.1", "crash:node=1@t=0", "loss:k=1,by=3", "partition:0|1@0-2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		b, err := parseFaultBudget(text, 4)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("%q: a message of more than one line: %q", text, err)
			}
			return
		}
		if text != "" && (b.crash+b.loss+b.dup == 0 || b.crash > 4) {
			t.Fatalf("%q: budget %+v", text, b)
		}
		again, err := parseFaultBudget(b.text, 4)
		if err != nil || again != b {
			t.Fatalf("%q: %+v reads back as %+v, %v", text, b, again, err)
		}
	})
}
