package protocols

import (
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/electkit/elect/pp"
)

// TestPLLExactlyOneLeaderNeverZero (seed 004, Theorem 1 and Lemma 11): in
// every trial P_LL and its symmetric variant end with exactly one leader,
// and at no step is the number of leaders zero or increasing (the engine's
// monitor turns either into a Violation outcome; the engine also recounts
// the leaders at the end). Every variant and scheduler is exercised.
func TestPLLExactlyOneLeaderNeverZero(t *testing.T) {
	type cfg struct {
		n, trials int
	}
	cfgs := []cfg{{2, 20}, {3, 20}, {10, 50}, {100, 50}, {1000, 30}, {10000, 6}}
	if testing.Short() {
		cfgs = []cfg{{2, 10}, {3, 10}, {10, 20}, {100, 20}, {1000, 8}, {10000, 2}}
	}
	for _, sym := range []bool{false, true} {
		for _, variant := range PLLVariants {
			for _, sched := range []pp.Scheduler{pp.Ordered, pp.Symmetric, pp.WithRepeats} {
				for _, c := range cfgs {
					if sym && c.n < 3 {
						continue
					}
					k := c.trials
					if variant != "prose" || sched != pp.Ordered {
						if c.n > 1000 {
							continue
						}
						k = min(k, 8)
					}
					for _, seed := range seeds(k) {
						p, err := NewPLL(c.n, 0, sym, variant)
						if err != nil {
							t.Fatal(err)
						}
						r := pp.Run(p, c.n, seed, pp.Options{Scheduler: sched})
						if r.Outcome != pp.Elected || r.Leaders != 1 {
							t.Fatalf("%s %s %v n=%d seed=%d: %s (%s), %d leaders", r.Protocol, variant, sched, c.n, seed, r.Outcome, r.Violation, r.Leaders)
						}
					}
				}
			}
		}
	}
}

// TestPLLRejectsMBelowLgN: seed 004 requires m >= lg n.
func TestPLLRejectsMBelowLgN(t *testing.T) {
	if _, err := NewPLL(1000, 9, false, ""); err == nil {
		t.Fatal("m = 9 < lg 1000 accepted")
	}
	p, err := NewPLL(1024, 10, false, "")
	if err != nil || p.M() != 10 {
		t.Fatal("m = 10 = lg 1024 refused", err)
	}
	if p, _ := NewPLL(1025, 0, false, ""); p.M() != 11 {
		t.Fatalf("default m for n = 1025 is %d, want ceil(lg n) = 11", p.M())
	}
}

// recorder wraps P_LL and records every state met.
type recorder struct {
	*PLL
	seen map[uint32]bool
}

func (r *recorder) Init(i int) uint32 {
	s := r.PLL.Init(i)
	r.seen[s] = true
	return s
}

func (r *recorder) Interact(a, b *uint32) pp.Delta {
	d := r.PLL.Interact(a, b)
	r.seen[*a], r.seen[*b] = true, true
	return d
}

// statesMet runs P_LL (sym or not) at n agents and returns the sorted
// states met: prose runs, and runs of the literal-relay variant (whose
// Tournament rarely finishes the election) until one of them has gone
// through epochs 2 and 3, so that every module's states are met.
func statesMet(t *testing.T, n int, sym bool) []uint32 {
	seen := map[uint32]bool{}
	through := false
	for i := 0; i < 40 && (i < 2 || !through); i++ {
		variant := "prose"
		if i%2 == 1 {
			variant = "literal-relay"
		}
		p, err := NewPLL(n, 0, sym, variant)
		if err != nil {
			t.Fatal(err)
		}
		rec := &recorder{PLL: p, seen: seen}
		// NoBatch: the recorder's Interact must see every interaction (the
		// promoted PLL.InteractUntil would bypass it).
		r := pp.Run[uint32](rec, n, uint64(100+i), pp.Options{NoBatch: true})
		if r.Outcome != pp.Elected {
			t.Fatalf("%s: %s", variant, r.Outcome)
		}
		through = through || (r.EventSteps[0] >= 0 && r.EventSteps[1] > r.EventSteps[0])
	}
	if !through {
		t.Fatal("no run went through epochs 2 and 3")
	}
	states := make([]uint32, 0, len(seen))
	epochs := map[uint8]int{}
	for s := range seen {
		states = append(states, s)
		epochs[unpack(s).epoch]++
	}
	slices.Sort(states)
	if epochs[1] < 10 || epochs[2] < 10 || epochs[3] < 10 {
		t.Fatalf("too few states met to check anything: %d states, by epoch %v", len(states), epochs)
	}
	return states
}

// TestPLLSymTransitionIsSymmetric (seed 004, Section 4): delta(p, q) =
// (p', q') implies delta(q, p) = (q', p'), checked on every ordered pair of
// states met in runs at n = 10^4.
func TestPLLSymTransitionIsSymmetric(t *testing.T) {
	n := 10000
	states := statesMet(t, n, true)
	p, _ := NewPLL(n, 0, true, "prose")
	epochs := map[uint8]int{}
	for _, s := range states {
		epochs[unpack(s).epoch]++
	}
	t.Logf("%d states met at n=%d (by epoch: 1:%d 2:%d 3:%d); checking %d pairs", len(states), n, epochs[1], epochs[2], epochs[3], len(states)*len(states))
	// Transition is a pure function, so the pairs are split between two
	// goroutines; the first failure found by each is reported.
	const workers = 2
	errs := make([]string, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(states); i += workers {
				x := states[i]
				for _, y := range states {
					x1, y1 := p.Transition(x, y)
					y2, x2 := p.Transition(y, x)
					if x1 != x2 || y1 != y2 {
						errs[w] = fmt.Sprintf("asymmetric: T(%+v, %+v) = (%+v, %+v) but T(q, p) = (%+v, %+v)",
							unpack(x), unpack(y), unpack(x1), unpack(y1), unpack(y2), unpack(x2))
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	for _, e := range errs {
		if e != "" {
			t.Fatal(e)
		}
	}
}

// TestPLLIsNotSymmetric shows the symmetry check has teeth: the asymmetric
// P_LL uses the roles (status assignment, coin flips, Line 57).
func TestPLLIsNotSymmetric(t *testing.T) {
	states := statesMet(t, 1000, false)
	p, _ := NewPLL(1000, 0, false, "prose")
	for _, x := range states {
		for _, y := range states {
			x1, y1 := p.Transition(x, y)
			y2, x2 := p.Transition(y, x)
			if x1 != x2 || y1 != y2 {
				return
			}
		}
	}
	t.Fatal("no asymmetric pair found in P_LL")
}

// TestPLLPackRoundTrip checks the state encoding.
func TestPLLPackRoundTrip(t *testing.T) {
	for _, a := range []pllAgent{
		{leader: true, status: statusX, epoch: 1},
		{status: statusB, epoch: 3, color: 2, v: 41*99 - 1},
		{leader: true, status: statusA, epoch: 3, flag: true, statusL: 1, v: 41 * 99},
		{status: statusA, epoch: 2, coin: coinF1, v: 255},
	} {
		if got := unpack(pack(a)); got != a {
			t.Errorf("round trip %+v -> %+v", a, got)
		}
		if pack(a) >= 1<<pllBits {
			t.Errorf("%+v packs beyond %d bits", a, pllBits)
		}
	}
}

func ExampleNewPLL() {
	p, _ := NewPLL(1000, 0, false, "prose")
	r := pp.Run(p, 1000, 1, pp.Options{})
	fmt.Println(r.Protocol, r.Outcome, r.Leaders, r.Details.Get("m"), r.Details.Get("c_max"))
	// Output: pll elected 1 10 410
}

// TestPLLFastPathMatchesTransition: Interact (with its fast path for pairs
// of followers) computes the same transition as the general Transition on
// every pair of states met in runs at n = 2000, for every variant.
func TestPLLFastPathMatchesTransition(t *testing.T) {
	states := statesMet(t, 2000, false)
	for _, variant := range PLLVariants {
		p, _ := NewPLL(2000, 0, false, variant)
		fast := 0
		for _, x := range states {
			for _, y := range states {
				w0, w1 := p.Transition(x, y)
				if _, _, ok := p.fastFollowers(x, y); ok {
					fast++
				}
				g0, g1 := x, y
				p.Interact(&g0, &g1)
				if g0 != w0 || g1 != w1 {
					t.Fatalf("%s: Interact(%+v, %+v) = (%+v, %+v), Transition gives (%+v, %+v)", variant,
						unpack(x), unpack(y), unpack(g0), unpack(g1), unpack(w0), unpack(w1))
				}
			}
		}
		t.Logf("%s: %d states, %d of %d pairs on the fast path", variant, len(states), fast, len(states)*len(states))
	}
}

// TestPLLPartnerClasses: PartnerClass keeps its promise (pp.PartnerClasser)
// on every pair of states met in runs at n = 2000, for pll and pll-sym and
// every variant: states of one class give their partner the same new state,
// as initiator and as responder.
func TestPLLPartnerClasses(t *testing.T) {
	for _, sym := range []bool{false, true} {
		states := statesMet(t, 2000, sym)
		for _, variant := range PLLVariants {
			p, _ := NewPLL(2000, 0, sym, variant)
			classes := map[uint64][]uint32{}
			for _, s := range states {
				classes[p.PartnerClass(s)] = append(classes[p.PartnerClass(s)], s)
			}
			shared := 0
			for _, members := range classes {
				if len(members) < 2 {
					continue
				}
				shared += len(members)
				for _, x := range states {
					first, _ := p.Transition(x, members[0])
					_, second := p.Transition(members[0], x)
					for _, b := range members[1:] {
						if got, _ := p.Transition(x, b); got != first {
							t.Fatalf("sym=%v %s: initiator %+v gets %+v from %+v but %+v from %+v, of the same class",
								sym, variant, unpack(x), unpack(first), unpack(members[0]), unpack(got), unpack(b))
						}
						if _, got := p.Transition(b, x); got != second {
							t.Fatalf("sym=%v %s: responder %+v gets %+v from %+v but %+v from %+v, of the same class",
								sym, variant, unpack(x), unpack(second), unpack(members[0]), unpack(got), unpack(b))
						}
					}
				}
			}
			if shared == 0 {
				t.Fatalf("sym=%v %s: no class with two states; the test checks nothing", sym, variant)
			}
			t.Logf("sym=%v %s: %d states in %d classes", sym, variant, len(states), len(classes))
		}
	}
}

// TestBatcherMatchesInteract: the batched hot loop (pp.Batcher) and the
// per-interaction loop give identical results, for every scheduler.
func TestBatcherMatchesInteract(t *testing.T) {
	for _, sched := range []pp.Scheduler{pp.Ordered, pp.Symmetric, pp.WithRepeats} {
		for seed := uint64(1); seed <= 5; seed++ {
			check := func(name string, a, b pp.Result) {
				t.Helper()
				a.Scheduler, b.Scheduler = "", ""
				if fmt.Sprint(a) != fmt.Sprint(b) {
					t.Fatalf("%s %v seed %d: batched %+v, unbatched %+v", name, sched, seed, a, b)
				}
			}
			o := pp.Options{Scheduler: sched}
			u := pp.Options{Scheduler: sched, NoBatch: true}
			check("angluin", pp.Run(NewAngluin(300), 300, seed, o), pp.Run(NewAngluin(300), 300, seed, u))
			check("epidemic", pp.Run(NewEpidemic(300, "prose"), 300, seed, o), pp.Run(NewEpidemic(300, "prose"), 300, seed, u))
			p1, _ := NewPLL(2000, 0, false, "prose")
			p2, _ := NewPLL(2000, 0, false, "prose")
			check("pll", pp.Run(p1, 2000, seed, o), pp.Run(p2, 2000, seed, u))
		}
	}
}
