// Package ids parses and generates ID arrangements: which ID each node of a
// network holds, by node index (clockwise order on a ring).
package ids

import (
	"errors"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/electkit/elect"
)

// MaxID is the largest ID accepted, leaving room for algorithms that prepend
// bits to IDs.
const MaxID = 1<<48 - 1

// Kind is an arrangement's rule.
type Kind uint8

// The arrangements.
const (
	Random      Kind = iota // a seeded random permutation of 0..n-1
	Increasing              // node i holds i: IDs grow clockwise
	Decreasing              // node i holds n-1-i: IDs shrink clockwise
	BitReversal             // node i holds the lg n-bit reversal of i (n a power of two)
	List                    // an explicit list, one ID per node
	Range                   // distinct random values drawn uniformly from lo..hi
	Anonymous               // every node holds 0
)

// Spec is a parsed arrangement.
type Spec struct {
	Kind   Kind
	List   []elect.ID
	Lo, Hi int64
	text   string
}

// String returns the arrangement as it was written.
func (s Spec) String() string { return s.text }

// Usage lists the accepted forms, for help texts and errors.
const Usage = "random, increasing, decreasing, bit-reversal, anonymous, list:ID,ID,... (or just ID,ID,...), range:LO..HI"

// ErrSpec is wrapped by every error about an arrangement.
var ErrSpec = errors.New("ids")

// named are the arrangements written as one word.
var named = map[string]Kind{
	"random":       Random,
	"increasing":   Increasing,
	"decreasing":   Decreasing,
	"bit-reversal": BitReversal,
	"anonymous":    Anonymous,
}

// Parse reads an arrangement; see Usage for the forms.
func Parse(text string) (Spec, error) {
	s := Spec{text: text}
	if text == "" {
		s.text = "random" // the default
	}
	if k, ok := named[s.text]; ok {
		s.Kind = k
		return s, nil
	}
	if rest, ok := strings.CutPrefix(text, "range:"); ok {
		lo, hi, found := strings.Cut(rest, "..")
		if !found {
			return s, fmt.Errorf("%w: range %q: want range:LO..HI", ErrSpec, rest)
		}
		var err error
		if s.Lo, err = parseID(lo); err != nil {
			return s, err
		}
		if s.Hi, err = parseID(hi); err != nil {
			return s, err
		}
		if s.Lo > s.Hi {
			return s, fmt.Errorf("%w: range %q is empty (LO > HI)", ErrSpec, rest)
		}
		s.Kind = Range
		return s, nil
	}
	list, explicit := strings.CutPrefix(text, "list:")
	if !explicit && !strings.Contains(text, ",") && !isNumber(text) {
		return s, fmt.Errorf("%w: unknown arrangement %q; use %s", ErrSpec, text, Usage)
	}
	for _, f := range strings.Split(list, ",") {
		v, err := parseID(strings.TrimSpace(f))
		if err != nil {
			return s, err
		}
		s.List = append(s.List, elect.ID(v))
	}
	s.Kind = List
	return s, nil
}

func isNumber(t string) bool {
	_, err := strconv.ParseUint(t, 10, 64)
	return err == nil
}

func parseID(t string) (int64, error) {
	v, err := strconv.ParseInt(t, 10, 64)
	if err != nil || v < 0 || v > MaxID {
		return 0, fmt.Errorf("%w: %q is not an ID (an integer in 0..%d)", ErrSpec, t, int64(MaxID))
	}
	return v, nil
}

// Check reports whether the arrangement can give n nodes IDs, without
// generating them.
func (s Spec) Check(n int) error {
	switch s.Kind {
	case BitReversal:
		if n < 1 || n&(n-1) != 0 {
			return fmt.Errorf("%w: bit-reversal needs n to be a power of two; %d is not (try %d)", ErrSpec, n, 1<<bits.Len(uint(n)))
		}
	case List:
		if len(s.List) != n {
			return fmt.Errorf("%w: the ID list has %d IDs but n is %d", ErrSpec, len(s.List), n)
		}
	case Range:
		if uint64(s.Hi-s.Lo) < uint64(n-1) {
			return fmt.Errorf("%w: range %d..%d holds %d distinct IDs, fewer than n = %d", ErrSpec, s.Lo, s.Hi, s.Hi-s.Lo+1, n)
		}
	}
	return nil
}

// Arrange parses an arrangement and generates n IDs in it: Parse and
// Generate in one call.
func Arrange(text string, n int, rng *rand.Rand) ([]elect.ID, error) {
	s, err := Parse(text)
	if err != nil {
		return nil, err
	}
	return s.Generate(n, rng)
}

// Generate returns the IDs of n nodes, by index. Random arrangements draw from
// rng.
func (s Spec) Generate(n int, rng *rand.Rand) ([]elect.ID, error) {
	if err := s.Check(n); err != nil {
		return nil, err
	}
	out := make([]elect.ID, n)
	switch s.Kind {
	case Random:
		for i := range out {
			out[i] = elect.ID(i)
		}
		rng.Shuffle(n, func(i, j int) { out[i], out[j] = out[j], out[i] })
	case Increasing:
		for i := range out {
			out[i] = elect.ID(i)
		}
	case Decreasing:
		for i := range out {
			out[i] = elect.ID(n - 1 - i)
		}
	case BitReversal:
		width := bits.Len(uint(n)) - 1
		for i := range out {
			out[i] = elect.ID(ReverseBits(uint64(i), width))
		}
	case List:
		copy(out, s.List)
	case Range:
		sampleDistinct(out, s.Lo, s.Hi, rng)
	case Anonymous:
	}
	return out, nil
}

// ReverseBits returns the lowest width bits of x in reverse order.
func ReverseBits(x uint64, width int) uint64 {
	if width == 0 {
		return 0
	}
	return bits.Reverse64(x) >> (64 - width)
}

// sampleDistinct fills out with distinct values drawn uniformly from lo..hi
// in random order (Floyd's algorithm, then a shuffle).
func sampleDistinct(out []elect.ID, lo, hi int64, rng *rand.Rand) {
	n := int64(len(out))
	size := hi - lo + 1
	chosen := make(map[int64]bool, n)
	k := 0
	for j := size - n; j < size; j++ {
		t := rng.Int64N(j + 1)
		if chosen[t] {
			t = j
		}
		chosen[t] = true
		out[k] = elect.ID(lo + t)
		k++
	}
	rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
}

// Distinct reports whether the IDs Generate gives n nodes are distinct by
// construction (a permutation, a bit reversal, a sample without
// replacement), so that no one need look for a repeated one. An explicit
// list may repeat an ID, and anonymous nodes all hold 0.
func (s Spec) Distinct(n int) bool {
	switch s.Kind {
	case Random, Increasing, Decreasing, BitReversal, Range:
		return true
	case Anonymous:
		return n <= 1
	}
	return false
}

// bitmapSpan is how many times len(idList) the span of the IDs (largest
// minus smallest, plus one) may be for Duplicate to mark them in a bitmap
// (span/8 bytes: at most the IDs' own size) rather than sort a copy.
const bitmapSpan = 64

// Duplicate returns two node indexes that hold the same ID, or ok == false
// when all IDs are distinct: i < j, j the first index whose ID an earlier
// node holds and i the first node that holds it. IDs within a span of 64
// times their number (a permutation of 0..n-1, say) are marked in a bitmap,
// others found in a sorted copy; either takes no map (a map of 10^6 IDs
// took 300 ms).
func Duplicate(idList []elect.ID) (i, j int, ok bool) {
	if len(idList) < 2 {
		return 0, 0, false
	}
	lo, hi := slices.Min(idList), slices.Max(idList)
	if span := uint64(hi) - uint64(lo); span < bitmapSpan*uint64(len(idList)) {
		seen := make([]uint64, span/64+1)
		for k, id := range idList {
			d := uint64(id) - uint64(lo)
			if seen[d/64]&(1<<(d%64)) != 0 {
				return slices.Index(idList, id), k, true
			}
			seen[d/64] |= 1 << (d % 64)
		}
		return 0, 0, false
	}
	sorted := slices.Clone(idList)
	slices.Sort(sorted)
	repeated := false
	for k := 1; k < len(sorted) && !repeated; k++ {
		repeated = sorted[k] == sorted[k-1]
	}
	if !repeated {
		return 0, 0, false
	}
	// Some ID repeats: the first index that repeats one, by a map (this
	// path is an error's, not every run's).
	first := make(map[elect.ID]int, len(idList))
	for k, id := range idList {
		if prev, dup := first[id]; dup {
			return prev, k, true
		}
		first[id] = k
	}
	return 0, 0, false
}
