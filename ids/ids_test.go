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

// duplicateByMap is Duplicate's plain reference: the first index whose ID
// an earlier node holds, and that node.
func duplicateByMap(idList []elect.ID) (i, j int, ok bool) {
	first := map[elect.ID]int{}
	for k, id := range idList {
		if prev, dup := first[id]; dup {
			return prev, k, true
		}
		first[id] = k
	}
	return 0, 0, false
}

// TestDuplicateMatchesAMap: on 20,000 random lists, dense (the bitmap) and
// sparse (the sorted copy), with and without repeats, negative IDs too,
// Duplicate returns the pair a map finds.
func TestDuplicateMatchesAMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 30))
	for trial := range 20000 {
		n := 1 + rng.IntN(40)
		span := int64(1 + rng.IntN(3*n))
		if trial%2 == 1 {
			span = 1 << (20 + rng.IntN(40))
		}
		base := rng.Int64N(1<<40) - 1<<39
		idList := make([]elect.ID, n)
		if trial%3 == 0 { // distinct: a sample of a permutation
			for k, v := range rng.Perm(n) {
				idList[k] = elect.ID(base + int64(v)*(1+span/int64(n)))
			}
		} else {
			for k := range idList {
				idList[k] = elect.ID(base + rng.Int64N(span))
			}
		}
		i, j, ok := Duplicate(idList)
		wi, wj, wok := duplicateByMap(idList)
		if i != wi || j != wj || ok != wok {
			t.Fatalf("%v: Duplicate gives %d, %d, %v; the map %d, %d, %v", idList, i, j, ok, wi, wj, wok)
		}
	}
	for _, idList := range [][]elect.ID{nil, {5}, {-1 << 63, 1<<63 - 1}, {1<<63 - 1, -1 << 63, 1<<63 - 1}} {
		i, j, ok := Duplicate(idList)
		wi, wj, wok := duplicateByMap(idList)
		if i != wi || j != wj || ok != wok {
			t.Errorf("%v: Duplicate gives %d, %d, %v; the map %d, %d, %v", idList, i, j, ok, wi, wj, wok)
		}
	}
}

// TestDistinctArrangementsGenerateDistinctIDs: every arrangement that
// Distinct vouches for gives distinct IDs, and those it does not vouch for
// can repeat one.
func TestDistinctArrangementsGenerateDistinctIDs(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, text := range []string{"random", "increasing", "decreasing", "bit-reversal", "range:10..80", "range:0..1000000000000", "anonymous", "list:1,2,3,4,5,6,7,8", "list:1,2,3,1,5,6,7,8"} {
		for _, n := range []int{1, 2, 8} {
			s, err := Parse(text)
			if err != nil {
				t.Fatal(err)
			}
			if s.Check(n) != nil {
				continue
			}
			got, err := s.Generate(n, rng)
			if err != nil {
				t.Fatal(err)
			}
			_, _, dup := Duplicate(got)
			if s.Distinct(n) && dup {
				t.Errorf("%s, n = %d: Distinct, but %v repeats an ID", text, n, got)
			}
			if !s.Distinct(n) && n == 8 && !dup && text != "list:1,2,3,4,5,6,7,8" {
				t.Errorf("%s, n = %d: not vouched for, and %v has no repeat: the test lost its negative case", text, n, got)
			}
		}
	}
}

// BenchmarkDuplicate: a permutation of 0..10^6-1 (the bitmap) and 10^6
// IDs drawn from 0..2^48 (the sorted copy).
func BenchmarkDuplicate(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	perm := make([]elect.ID, 1_000_000)
	for i, v := range rng.Perm(len(perm)) {
		perm[i] = elect.ID(v)
	}
	sparse, err := Arrange("range:0..281474976710655", len(perm), rng)
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		ids  []elect.ID
	}{{"permutation", perm}, {"sparse", sparse}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if _, _, dup := Duplicate(c.ids); dup {
					b.Fatal("duplicate")
				}
			}
		})
	}
}
