package ids

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/electkit/elect"
)

// Seed 001 §5.4.2: "For n a power of 2 we can use the bit-reversal ring,
// e.g., ID sequence 000, 100, 010, 110, 001, 101, 011, 111 (in binary) when
// n = 8."
func TestBitReversalRingOfEightIsTheNotesSequence(t *testing.T) {
	s, err := Parse("bit-reversal")
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.Generate(8, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := []elect.ID{0, 4, 2, 6, 1, 5, 3, 7}; !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

func TestArrangements(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	gen := func(spec string, n int) []elect.ID {
		s, err := Parse(spec)
		if err != nil {
			t.Fatalf("%s: %v", spec, err)
		}
		out, err := s.Generate(n, rng)
		if err != nil {
			t.Fatalf("%s: %v", spec, err)
		}
		return out
	}
	if got := gen("increasing", 4); !slices.Equal(got, []elect.ID{0, 1, 2, 3}) {
		t.Errorf("increasing: %v", got)
	}
	if got := gen("decreasing", 4); !slices.Equal(got, []elect.ID{3, 2, 1, 0}) {
		t.Errorf("decreasing: %v", got)
	}
	if got := gen("anonymous", 3); !slices.Equal(got, []elect.ID{0, 0, 0}) {
		t.Errorf("anonymous: %v", got)
	}
	if got := gen("7,3,5", 3); !slices.Equal(got, []elect.ID{7, 3, 5}) {
		t.Errorf("list: %v", got)
	}
	perm := gen("random", 100)
	sorted := slices.Clone(perm)
	slices.Sort(sorted)
	for i, id := range sorted {
		if id != elect.ID(i) {
			t.Fatalf("random is not a permutation of 0..99: %v", perm)
		}
	}
	r := gen("range:1000..1009", 10)
	slices.Sort(r)
	for i, id := range r {
		if id != elect.ID(1000+i) {
			t.Fatalf("range:1000..1009 with n = 10 must use every value once: %v", r)
		}
	}
	big := gen("range:0..1000000000000", 1000)
	if _, _, dup := Duplicate(big); dup {
		t.Fatal("range drew a duplicate")
	}
}

// FuzzParse: no arrangement text makes Parse, Check or Generate panic, and
// every error wraps ErrSpec.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"random", "bit-reversal", "1,2,3", "list:5", "range:3..9", "range:9..3", "list:", ",,", "range:..", "18446744073709551616"} {
		f.Add(s, 3)
	}
	f.Fuzz(func(t *testing.T, text string, n int) {
		if n < 1 || n > 1000 {
			return
		}
		s, err := Parse(text)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "ids: ") {
				t.Fatalf("%q: error without the package prefix: %v", text, err)
			}
			return
		}
		out, err := s.Generate(n, rand.New(rand.NewPCG(1, 1)))
		if err == nil && len(out) != n {
			t.Fatalf("%q: %d IDs for n = %d", text, len(out), n)
		}
	})
}
