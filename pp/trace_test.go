package pp_test

import (
	"bytes"
	"testing"

	"github.com/electkit/elect/pp"
	"github.com/electkit/elect/pp/ppfile"
	"github.com/electkit/elect/pp/protocols"
	"github.com/electkit/elect/trace"
)

// sampledTrace runs p with snapshots and writes its trace.
func sampledTrace[S comparable, P pp.Protocol[S]](t *testing.T, p P, n int, seed uint64, e pp.Engine) ([]byte, pp.Result, *pp.Sampler) {
	t.Helper()
	smp := &pp.Sampler{Points: 100}
	res, err := pp.Simulate[S](p, n, seed, pp.Options{Engine: e, Sample: smp})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := pp.WriteTrace(&buf, pp.TraceHeader{Protocol: p.Spec().Name, Seed: seed}, smp, res); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), res, smp
}

// checkTrace reads a population trace back with package trace (whose
// reader checks that every snapshot's counts add up to n) and checks
// the snapshots' order, the leaders of each against its counts of states
// whose output is L, and the last against the result.
func checkTrace(t *testing.T, data []byte, res pp.Result, leaderOutput string) {
	t.Helper()
	tr, err := trace.ReadAll(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if !tr.Header.Population() || tr.Header.N != res.N {
		t.Fatalf("header %+v", tr.Header)
	}
	var counts []trace.Event
	for _, ev := range tr.Events {
		if ev.Ev == "counts" {
			counts = append(counts, ev)
		}
	}
	last := tr.Events[len(tr.Events)-1]
	if last.Ev != "result" || last.Outcome != string(res.Outcome) || last.Interactions != res.Interactions {
		t.Errorf("last line %+v, result %+v", last, res)
	}
	for i, ev := range counts {
		var sum, lead int64
		for j, k := range ev.Counts {
			sum += k
			if tr.Header.States[j].Output == leaderOutput {
				lead += k
			}
		}
		if sum != int64(res.N) {
			t.Fatalf("snapshot %d (step %d): counts add up to %d, n = %d", i, ev.Step, sum, res.N)
		}
		if lead != ev.Leaders {
			t.Errorf("snapshot %d (step %d): %d leaders, %d agents in leader states", i, ev.Step, ev.Leaders, lead)
		}
		if i > 0 && ev.Step <= counts[i-1].Step {
			t.Errorf("snapshot %d: step %d after step %d", i, ev.Step, counts[i-1].Step)
		}
	}
	if f := counts[len(counts)-1]; f.Step != res.Interactions || f.Leaders != int64(res.Leaders) {
		t.Errorf("final snapshot at step %d with %d leaders; the run stopped at %d with %d", f.Step, f.Leaders, res.Interactions, res.Leaders)
	}
}

// TestTraceAgentArray: Angluin at n = 1000 on the agent array. The run is
// the same as without snapshots (the agent array draws one pair per step
// whatever the stops), the counts add up to n at every snapshot, the
// first is all leaders, there are at least Points evenly spaced ones, and
// the same seed gives the same bytes.
func TestTraceAgentArray(t *testing.T) {
	const n = 1000
	data, res, smp := sampledTrace[uint8](t, protocols.NewAngluin(n), n, 7, pp.AgentArray)
	plain, err := pp.Simulate(protocols.NewAngluin(n), n, 7, pp.Options{Engine: pp.AgentArray})
	if err != nil {
		t.Fatal(err)
	}
	if res.Interactions != plain.Interactions || res.Outcome != pp.Elected {
		t.Errorf("sampled run: %d interactions, %s; the same run unsampled: %d", res.Interactions, res.Outcome, plain.Interactions)
	}
	checkTrace(t, data, res, "L")
	if first := smp.Snapshots[0]; first.Step != 0 || first.Leaders != n || len(first.Counts) != 1 || first.Counts[0] != (pp.NamedCount{Name: "L", Output: "L", Count: n}) {
		t.Errorf("first snapshot %+v, want all %d agents in L", first, n)
	}
	var even int
	for _, s := range smp.Snapshots {
		if s.Step > 0 && s.Step%smp.Delta == 0 {
			even++
		}
	}
	if even < smp.Points || len(smp.Snapshots) > 2*smp.Points+200 {
		t.Errorf("%d snapshots, %d of them at multiples of the final spacing %d; want at least %d", len(smp.Snapshots), even, smp.Delta, smp.Points)
	}
	again, _, _ := sampledTrace[uint8](t, protocols.NewAngluin(n), n, 7, pp.AgentArray)
	if !bytes.Equal(data, again) {
		t.Error("the same seed gave two different traces")
	}
}

// TestTraceCountEngines: the count engines at n = 10^5 (Angluin on
// null-skipping, approximate majority from 60% A on batches) give traces
// whose counts add up to n and whose last snapshot is the result; again the
// same seed gives the same bytes.
func TestTraceCountEngines(t *testing.T) {
	const n = 100000
	data, res, _ := sampledTrace[uint8](t, protocols.NewAngluin(n), n, 3, pp.NullSkipping)
	if res.Outcome != pp.Elected || res.Engine != string(pp.NullSkipping) {
		t.Errorf("angluin: outcome %s on %s", res.Outcome, res.Engine)
	}
	checkTrace(t, data, res, "L")
	again, _, _ := sampledTrace[uint8](t, protocols.NewAngluin(n), n, 3, pp.NullSkipping)
	if !bytes.Equal(data, again) {
		t.Error("angluin: the same seed gave two different traces")
	}
	am := func() *protocols.ApproxMajority { return protocols.NewApproxMajority(n, 6*n/10) }
	data, res, _ = sampledTrace[uint8](t, am(), n, 3, pp.Batched)
	if res.Outcome != pp.GoalReached || res.Engine != string(pp.Batched) {
		t.Errorf("approx-majority: outcome %s on %s", res.Outcome, res.Engine)
	}
	checkTrace(t, data, res, "L")
	again, _, _ = sampledTrace[uint8](t, am(), n, 3, pp.Batched)
	if !bytes.Equal(data, again) {
		t.Error("approx-majority: the same seed gave two different traces")
	}
}

// TestTraceFileProtocol: a protocol file's states keep their names and
// outputs (approximate majority: A, B, blank; no leaders).
func TestTraceFileProtocol(t *testing.T) {
	f, err := ppfile.Load("../examples/protocols/approx-majority.yaml")
	if err != nil {
		t.Fatal(err)
	}
	n := 2000
	if dn, ok := f.DefaultN(); ok {
		n = int(dn)
	}
	p, err := ppfile.New[uint8](f, int64(n))
	if err != nil {
		t.Fatal(err)
	}
	data, res, _ := sampledTrace[uint8](t, p, n, 1, pp.AgentArray)
	checkTrace(t, data, res, "leader")
	tr, _ := trace.ReadAll(bytes.NewReader(data))
	for _, s := range tr.Header.States {
		found := false
		for k, name := range f.States {
			if name == s.Name {
				found = true
				if _, out := p.StateName(uint8(k)); out != s.Output {
					t.Errorf("state %s: output %q in the trace, %q in the file", s.Name, s.Output, out)
				}
			}
		}
		if !found {
			t.Errorf("state %q is not one of the file's %q", s.Name, f.States)
		}
	}
}
