package election

import (
	"math"
	"testing"
)

// TestLatencyQuantilesAreUpperBounds: on the latencies 1..10000 ns, p50
// and p99 are upper bounds of the true percentiles (5000 and 9900) at
// most a factor sqrt(2) above them, never above the maximum, which is
// exact; merging two halves gives the same histogram.
func TestLatencyQuantilesAreUpperBounds(t *testing.T) {
	var all, low, high Latency
	for ns := int64(1); ns <= 10000; ns++ {
		all.Add(ns)
		if ns <= 5000 {
			low.Add(ns)
		} else {
			high.Add(ns)
		}
	}
	low.Merge(&high)
	if low != all {
		t.Errorf("merged halves differ from the whole")
	}
	for q, exact := range map[float64]float64{0.5: 5000, 0.99: 9900} {
		got := all.Quantile(q)
		if got < exact || got > exact*math.Sqrt2 || got > 10000 {
			t.Errorf("q%v: %v, want in [%v, %v]", q, got, exact, exact*math.Sqrt2)
		}
	}
	s := all.Stats()
	if s.Count != 10000 || s.Max != 10000e-9 {
		t.Errorf("stats %+v", s)
	}
	var huge Latency
	huge.Add(1 << 40) // past the last bucket: counted there, the maximum exact
	if q := huge.Quantile(0.5); q != 1<<40 {
		t.Errorf("a latency past the buckets: p50 %v, want the maximum %v", q, float64(1<<40))
	}
}

// TestTransportSummarisesLinks: the link counts' min, median, max and mean,
// the busiest links first, every link listed when few.
func TestTransportSummarisesLinks(t *testing.T) {
	links := []LinkCount{{0, 1, 5}, {1, 2, 0}, {2, 0, 9}, {1, 0, 5}}
	tr := NewTransport(links, &Latency{}, 19, 2)
	if tr.MessagesPerSecond != 9.5 || tr.Links != 4 || tr.LinkMessages != (LinkStats{Min: 0, Median: 5, Max: 9, Mean: 4.75}) {
		t.Errorf("%+v", tr)
	}
	if tr.Busiest[0] != (LinkCount{2, 0, 9}) || tr.Busiest[1] != (LinkCount{0, 1, 5}) || len(tr.PerLink) != 4 {
		t.Errorf("busiest %v, per link %v", tr.Busiest, tr.PerLink)
	}
}
