package experiment

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// MaxSizes bounds how many sizes one --n list may expand to, so that a typo
// such as 1..1000000+1 is refused instead of building a huge grid.
const MaxSizes = 10000

// SizesUsage describes the forms ParseSizes accepts.
const SizesUsage = "a comma-separated list of sizes and ranges: 64,128,256; LO..HIxF (geometric, factor F >= 2: 64..4096x2); LO..HI+S (arithmetic, step S >= 1: 1000..10000+1000)"

// ParseSizes reads a list of network or population sizes: comma-separated
// items, each a size, a geometric range LO..HIxF (LO, LO*F, LO*F^2, ... up to
// HI) or an arithmetic range LO..HI+S. Sizes keep the order written and must
// be distinct and at least 1.
func ParseSizes(s string) ([]int, error) {
	if strings.TrimSpace(s) == "" {
		return nil, fmt.Errorf("experiment: empty size list; use %s", SizesUsage)
	}
	var out []int
	seen := map[int]bool{}
	add := func(n int) error {
		if seen[n] {
			return fmt.Errorf("experiment: size %d appears twice in %q", n, s)
		}
		seen[n] = true
		out = append(out, n)
		if len(out) > MaxSizes {
			return fmt.Errorf("experiment: %q expands to more than %d sizes", s, MaxSizes)
		}
		return nil
	}
	for _, item := range strings.Split(s, ",") {
		item = strings.TrimSpace(item)
		lo, rest, isRange := strings.Cut(item, "..")
		if !isRange {
			n, err := parseSize(item)
			if err != nil {
				return nil, err
			}
			if err := add(n); err != nil {
				return nil, err
			}
			continue
		}
		first, err := parseSize(lo)
		if err != nil {
			return nil, err
		}
		var hiText, stepText string
		geometric := false
		if h, f, ok := strings.Cut(rest, "x"); ok {
			hiText, stepText, geometric = h, f, true
		} else if h, st, ok := strings.Cut(rest, "+"); ok {
			hiText, stepText = h, st
		} else {
			return nil, fmt.Errorf("experiment: range %q needs a factor (x2) or a step (+100); use %s", item, SizesUsage)
		}
		last, err := parseSize(hiText)
		if err != nil {
			return nil, err
		}
		if last < first {
			return nil, fmt.Errorf("experiment: range %q ends below its start", item)
		}
		step, err := strconv.Atoi(stepText)
		if err != nil || step < 1 || (geometric && step < 2) {
			return nil, fmt.Errorf("experiment: bad step %q in %q; use %s", stepText, item, SizesUsage)
		}
		for n := first; n <= last; {
			if err := add(n); err != nil {
				return nil, err
			}
			var next int
			if geometric {
				next = n * step
				if next/step != n {
					break // overflow: past any last
				}
			} else {
				next = n + step
			}
			if next <= n {
				break
			}
			n = next
		}
	}
	return out, nil
}

// maxSize is the largest size a list may name (the simulators' limit).
const maxSize = 1 << 31

func parseSize(t string) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(t))
	if err != nil || n < 1 || n > maxSize {
		return 0, fmt.Errorf("experiment: %q is not a size in 1..%d; use %s", t, maxSize, SizesUsage)
	}
	return n, nil
}

// Shard selects the Index-th (1-based) of Count disjoint parts of a grid.
// The zero value (and 1/1) is the whole grid.
type Shard struct{ Index, Count int }

// ParseShard reads "i/k" with 1 <= i <= k, or "j+1/k" with 0 <= j < k, the
// shard numbered j from 0 (as a Kubernetes Indexed Job numbers its pods:
// --shard $(JOB_COMPLETION_INDEX)+1/k needs no shell to add the 1).
func ParseShard(s string) (Shard, error) {
	a, b, ok := strings.Cut(strings.TrimSpace(s), "/")
	if !ok {
		return Shard{}, errors.New("experiment: --shard takes i/k, the i-th of k parts (1 <= i <= k), e.g. 3/8")
	}
	j, fromZero := strings.CutSuffix(a, "+1")
	i, err1 := strconv.Atoi(j)
	if fromZero && err1 == nil && i >= 0 && i < math.MaxInt {
		i++
	} else if fromZero {
		err1 = strconv.ErrSyntax
	}
	k, err2 := strconv.Atoi(b)
	if err1 != nil || err2 != nil || k < 1 || i < 1 || i > k || k > 1<<20 {
		return Shard{}, fmt.Errorf("experiment: bad shard %q; use i/k with 1 <= i <= k <= %d, e.g. 3/8", s, 1<<20)
	}
	return Shard{Index: i, Count: k}, nil
}

// Contains says whether job j (0-based, grid order) belongs to the shard:
// jobs are dealt round-robin, so every shard gets a similar mix of sizes.
func (s Shard) Contains(j int) bool {
	if s.Count <= 1 {
		return true
	}
	return j%s.Count == s.Index-1
}

// String returns "i/k".
func (s Shard) String() string {
	if s.Count == 0 {
		return "1/1"
	}
	return fmt.Sprintf("%d/%d", s.Index, s.Count)
}

// ParseList splits a comma-separated list, trimming blanks and refusing empty
// items.
func ParseList(what, s string) ([]string, error) {
	var out []string
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			return nil, fmt.Errorf("experiment: empty item in the %s list %q", what, s)
		}
		out = append(out, f)
	}
	return out, nil
}
