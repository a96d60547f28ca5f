package pp

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// Scheduler chooses which two agents interact at each step.
type Scheduler int

const (
	// Ordered picks an ordered pair (initiator, responder) of distinct agents
	// uniformly at random: each of the n(n-1) pairs with probability
	// 1/(n(n-1)). This is the scheduler of both seeds and the default.
	Ordered Scheduler = iota
	// Symmetric picks an unordered pair of distinct agents uniformly at random
	// and then a fair coin decides which one is the initiator. The law of the
	// resulting ordered pair is exactly that of Ordered; it is kept as a
	// separate, independently coded scheduler so that the two can be compared.
	Symmetric
	// WithRepeats picks initiator and responder independently and uniformly,
	// so a pair may be one agent twice (probability 1/n). This is the model of
	// seed 000's proofs of Theorems 1 and 3 ("self-interaction of agents is
	// allowed"). A self-pair is a step in which nothing changes.
	WithRepeats
)

var schedulerNames = [...]string{Ordered: "ordered", Symmetric: "symmetric", WithRepeats: "with-repeats"}

// String returns the scheduler's name as accepted by ParseScheduler.
func (s Scheduler) String() string {
	if s >= 0 && int(s) < len(schedulerNames) {
		return schedulerNames[s]
	}
	return fmt.Sprintf("Scheduler(%d)", int(s))
}

// SchedulerNames lists the accepted scheduler names in order.
func SchedulerNames() []string { return append([]string(nil), schedulerNames[:]...) }

// ParseScheduler returns the scheduler with the given name ("ordered",
// "symmetric" or "with-repeats"; the empty string means "ordered").
func ParseScheduler(name string) (Scheduler, error) {
	if name == "" {
		return Ordered, nil
	}
	for i, s := range schedulerNames {
		if s == name {
			return Scheduler(i), nil
		}
	}
	return 0, fmt.Errorf("pp: unknown scheduler %q; schedulers: %s", name, strings.Join(schedulerNames[:], ", "))
}

// Pair is one scheduled interaction: initiator U, responder V (agent
// indices). With the WithRepeats scheduler U may equal V.
type Pair struct{ U, V uint32 }

// pairSource draws pairs of agents from a seeded PCG stream. Bounded draws use
// Lemire's multiply-shift with rejection, so every index is exactly uniform.
type pairSource struct {
	r     *rand.PCG
	n     uint32
	kind  Scheduler
	bits  uint64 // spare random bits for the symmetric scheduler's coins
	nbits int
}

// streamConst is the PCG stream selector of the engine; the seed selects the
// state. Changing it changes every run, so it is fixed forever.
const streamConst = 0x656c6563742d7070 // "elect-pp"

func newPairSource(n int, seed uint64, kind Scheduler) *pairSource {
	return &pairSource{r: rand.NewPCG(seed, streamConst), n: uint32(n), kind: kind}
}

// bounded maps the 32 random bits x to a uniform integer in [0, n) by
// Lemire's multiply-shift; the rare case in which the method must reject x
// (low half of the product below 2^32 mod n) draws fresh bits in boundedSlow.
// Kept small so that it is inlined.
func (s *pairSource) bounded(x uint32, n uint32) uint32 {
	m := uint64(x) * uint64(n)
	if uint32(m) < n {
		return s.boundedSlow(m, n)
	}
	return uint32(m >> 32)
}

func (s *pairSource) boundedSlow(m uint64, n uint32) uint32 {
	t := -n % n
	for uint32(m) < t {
		m = (s.r.Uint64() >> 32) * uint64(n)
	}
	return uint32(m >> 32)
}

// fill writes len(buf) pairs into buf.
func (s *pairSource) fill(buf []Pair) {
	n := s.n
	switch s.kind {
	case Ordered:
		// The hot path: bounded written out so that it stays inline.
		r, n64, n1 := s.r, uint64(n), uint64(n-1)
		for i := range buf {
			x := r.Uint64()
			mu := (x & 0xffffffff) * n64
			mv := (x >> 32) * n1
			if uint32(mu) < n || uint32(mv) < n-1 {
				s.fillSlow(buf[i:i+1], x)
				continue
			}
			u, v := uint32(mu>>32), uint32(mv>>32)
			if v >= u {
				v++
			}
			buf[i] = Pair{U: u, V: v}
		}
	case Symmetric:
		for i := range buf {
			x := s.r.Uint64()
			u := s.bounded(uint32(x), n)
			v := s.bounded(uint32(x>>32), n-1)
			if v >= u {
				v++
			}
			lo, hi := min(u, v), max(u, v) // the unordered pair {u, v}
			if s.nbits == 0 {
				s.bits, s.nbits = s.r.Uint64(), 64
			}
			coin := s.bits & 1
			s.bits >>= 1
			s.nbits--
			if coin == 0 {
				buf[i] = Pair{U: lo, V: hi}
			} else {
				buf[i] = Pair{U: hi, V: lo}
			}
		}
	case WithRepeats:
		for i := range buf {
			x := s.r.Uint64()
			buf[i] = Pair{U: s.bounded(uint32(x), n), V: s.bounded(uint32(x>>32), n)}
		}
	default:
		panic("pp: unknown scheduler")
	}
}

// fillSlow completes one ordered pair from the 64 random bits x when
// Lemire's method may have to reject one of its halves.
func (s *pairSource) fillSlow(buf []Pair, x uint64) {
	u := s.bounded(uint32(x), s.n)
	v := s.bounded(uint32(x>>32), s.n-1)
	if v >= u {
		v++
	}
	buf[0] = Pair{U: u, V: v}
}

// TrialSeed returns the seed of trial t of a run started with seed: trial 0
// uses seed itself and trial t >= 1 uses the top 53 bits of the SplitMix64
// finalizer applied to seed + t*0x9E3779B97F4A7C15 (53 bits, so that the
// seed survives any JSON reader's float64 numbers). Because trial 0 of any
// seed is that seed, a single trial is rerun alone with --seed set to the
// seed its JSON line reports and --trials 1.
func TrialSeed(seed uint64, t int) uint64 {
	if t == 0 {
		return seed
	}
	z := seed + uint64(t)*0x9E3779B97F4A7C15
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return (z ^ (z >> 31)) >> 11
}
