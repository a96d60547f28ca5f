package faults

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/electkit/elect"
)

func stream(seed uint64) func(string, uint64) *rand.Rand {
	return func(purpose string, index uint64) *rand.Rand {
		h := seed
		for _, c := range purpose {
			h = h*131 + uint64(c)
		}
		return rand.New(rand.NewPCG(h, index))
	}
}

// The spellings of issue 36, each read and written back unchanged.
func TestParseTheIssuesSpellings(t *testing.T) {
	for _, text := range []string{
		"crash:k=2", "crash:node=3@t=10", "crash:node=3@step=2", "loss:k=1", "loss:p=0.01", "dup:k=1", "dup:k=2,by=9",
		"dup:p=0.01", "delay:p=0.01,d=50", "partition:0-3|4-7@10-20", "loss:msg=5",
		"crash:k=2,by=50;loss:k=1,by=40", "partition:0-3|4-7@10-20;crash:node=3@t=10;dup:p=0.01",
	} {
		s, err := Parse(text)
		if err != nil {
			t.Errorf("Parse(%q): %v", text, err)
			continue
		}
		if got := s.String(); got != text {
			t.Errorf("Parse(%q).String() = %q", text, got)
		}
	}
}

func TestParseRefusesWithOneLine(t *testing.T) {
	for _, text := range []string{
		"", "crash", "crash:", "crash:p=0.5", "loss:k=0", "loss:p=2", "loss:p=0", "dup:k=0", "delay:k=1", "delay:p=0.1",
		"loss:p=0.1,d=3", "partition:0-3@1-2", "partition:0-3|3-4@1-2", "partition:0-3|4-7@5-5",
		"crash:node=x@t=1", "crash:node=1@when=2", "crash:node=1@step=0", "loss:k=1;;dup:p=0.1",
		"quake:k=1", "loss:k=1,k=2", "loss:by=3", "loss:k=1,p=0.1", "partition:3-1|4@0-1",
	} {
		_, err := Parse(text)
		if err == nil {
			t.Errorf("Parse(%q) accepted it", text)
			continue
		}
		if msg := err.Error(); !strings.HasPrefix(msg, "faults: ") || strings.Contains(msg, "\n") {
			t.Errorf("Parse(%q): %q is not one line starting faults:", text, msg)
		}
	}
}

func TestCheckAgainstN(t *testing.T) {
	for _, text := range []string{"crash:node=8@t=1", "crash:k=9", "partition:0|8@0-1", "crash:k=5;crash:k=4"} {
		s, err := Parse(text)
		if err != nil {
			t.Fatal(err)
		}
		if s.Check(8) == nil {
			t.Errorf("%q accepted for n = 8", text)
		}
	}
}

// Same spec, n and seed: the same schedule; drawn crashes are distinct
// nodes at times in 0..by.
func TestScheduleIsSeededAndDistinct(t *testing.T) {
	s, _ := Parse("crash:k=5,by=7;crash:node=2@t=3")
	a, _ := s.Schedule(10, stream(1))
	b, _ := s.Schedule(10, stream(1))
	if !reflect.DeepEqual(a.Crashes(), b.Crashes()) {
		t.Fatalf("two schedules of seed 1 differ: %v and %v", a.Crashes(), b.Crashes())
	}
	seen := map[int32]bool{}
	for _, c := range a.Crashes() {
		if seen[c.Node] || c.At < 0 || c.At > 7 {
			t.Fatalf("crashes %v: a node twice or a time outside 0..7", a.Crashes())
		}
		seen[c.Node] = true
	}
	if len(seen) != 6 || !seen[2] {
		t.Fatalf("crashes %v: want 6 nodes with node 2", a.Crashes())
	}
}

// loss:k=3,by=10 loses exactly 3 of the first 10 messages and none after.
func TestDrawnLossesAreKOfTheFirstBy(t *testing.T) {
	s, _ := Parse("loss:k=3,by=10")
	for seed := range uint64(50) {
		sc, _ := s.Schedule(4, stream(seed))
		lost := 0
		for m := range 30 {
			if f := sc.Next(0, 1, 0, 1); f.Lost != 0 {
				if m >= 10 {
					t.Fatalf("seed %d: message %d lost", seed, m+1)
				}
				lost++
			}
		}
		if lost != 3 {
			t.Fatalf("seed %d: %d lost, want 3", seed, lost)
		}
	}
}

// A partition loses the messages across it while it lasts, and only those.
func TestPartitionLosesAcrossWhileItLasts(t *testing.T) {
	s, _ := Parse("partition:0-1|2-3@10-20")
	sc, _ := s.Schedule(5, stream(1))
	cases := []struct {
		from, to int32
		now      int64
		lost     bool
	}{
		{0, 2, 10 * 4, true}, {3, 1, 19*4 + 3, true}, {0, 2, 9*4 + 3, false}, {0, 2, 20 * 4, false},
		{0, 1, 15 * 4, false}, {0, 4, 15 * 4, false}, {4, 2, 15 * 4, false},
	}
	for _, c := range cases {
		if got := sc.Next(c.from, c.to, c.now, 4).Lost == elect.FaultPartition; got != c.lost {
			t.Errorf("%d -> %d at tick %d: lost %v, want %v", c.from, c.to, c.now, got, c.lost)
		}
	}
}

// loss:p=0.2 on 20000 messages: the count is within 4 standard errors of
// 4000 (sd = sqrt(20000 * 0.2 * 0.8) = 56.6).
func TestLossProbability(t *testing.T) {
	s, _ := Parse("loss:p=0.2;dup:msg=3;delay:msg=4,d=7")
	sc, _ := s.Schedule(2, stream(3))
	lost := 0
	for m := 1; m <= 20000; m++ {
		f := sc.Next(0, 1, 0, 1)
		if f.Lost != 0 {
			lost++
		}
		if m == 3 && f.Lost == 0 && !f.Dup || m != 3 && f.Dup {
			t.Fatalf("message %d: dup %v", m, f.Dup)
		}
		if m == 4 && f.Lost == 0 && f.Delay != 7 || m != 4 && f.Delay != 0 {
			t.Fatalf("message %d: delay %d", m, f.Delay)
		}
	}
	if d := float64(lost) - 4000; d > 4*56.6 || d < -4*56.6 {
		t.Fatalf("lost %d of 20000 at p = 0.2", lost)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"crash:k=2", "crash:node=3@t=10", "loss:k=1", "loss:p=0.01", "dup:p=0.01",
		"delay:p=0.01,d=50", "partition:0-3|4-7@10-20", "crash:k=2;loss:msg=3", "partition:1,3|0-0@0-1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		s, err := Parse(text)
		if err != nil {
			if msg := err.Error(); !strings.HasPrefix(msg, "faults: ") || strings.Contains(msg, "\n") {
				t.Fatalf("error %q", msg)
			}
			return
		}
		back, err := Parse(s.String())
		if err != nil {
			t.Fatalf("%q -> %q does not parse: %v", text, s.String(), err)
		}
		if !reflect.DeepEqual(back, s) {
			t.Fatalf("%q -> %q reads back as %+v, not %+v", text, s.String(), back, s)
		}
		if s.Check(8) == nil {
			sc, err := s.Schedule(8, stream(1))
			if err != nil {
				t.Fatal(err)
			}
			for range 20 {
				sc.Next(0, 7, 5, 1)
			}
		}
	})
}
