package election

import (
	"bytes"
	"cmp"
	"encoding/json"
	"math"
	"math/rand/v2"
	"slices"
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

// TestBusiestIsTheStableSortsHead checks busiest against the dumb
// reference it replaced (sort a copy of every link stably, most messages
// first, ties by sender and receiver, and take the head) on 2000 random
// link lists with many ties, duplicate links included.
func TestBusiestIsTheStableSortsHead(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 2000 {
		links := make([]LinkCount, rng.IntN(40))
		for i := range links {
			links[i] = LinkCount{From: rng.IntN(4), To: rng.IntN(4), Messages: int64(rng.IntN(5))}
		}
		want := slices.Clone(links)
		slices.SortStableFunc(want, func(a, b LinkCount) int {
			return cmp.Or(cmp.Compare(b.Messages, a.Messages), cmp.Compare(a.From, b.From), cmp.Compare(a.To, b.To))
		})
		k := rng.IntN(7)
		want = want[:min(k, len(want))]
		if got := busiest(links, k); !slices.Equal(got, want) {
			t.Fatalf("trial %d: links %v, k %d: busiest %v, want %v", trial, links, k, got, want)
		}
	}
}

// TestTransportWriteJSONIsMarshal: WriteJSON writes what json.Marshal
// writes, byte for byte, with and without per-link counts, with and
// without the goroutine runtime's fields, with thousands of links (written
// in several pieces).
func TestTransportWriteJSONIsMarshal(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var lat Latency
	for range 100 {
		lat.Add(rng.Int64N(1 << 30))
	}
	for _, n := range []int{0, 1, 3, 2000, MaxPerLink, MaxPerLink + 1} {
		links := make([]LinkCount, n)
		for i := range links {
			links[i] = LinkCount{From: i, To: (i + 1) % n, Messages: rng.Int64N(1 << 40)}
		}
		for _, tr := range []*Transport{
			NewTransport(links, &lat, 12345, 0.123456789),
			{WallSeconds: 1e-9, MaxInbox: 12, Overflows: 3, PerLink: links},
		} {
			want, err := json.Marshal(tr)
			if err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			if err := tr.WriteJSON(&got); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), want) {
				t.Errorf("%d links: WriteJSON differs from json.Marshal:\n%.300s\n%.300s", n, got.Bytes(), want)
			}
		}
	}
}
