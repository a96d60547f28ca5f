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
