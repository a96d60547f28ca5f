package scenario

import "fmt"

// Suggest returns ` (did you mean "x"?)` for the candidate nearest to name by
// edit distance, or "" when none is close.
func Suggest(name string, candidates []string) string {
	best := Nearest(name, candidates)
	if best == "" {
		return ""
	}
	return fmt.Sprintf(" (did you mean %q?)", best)
}

// Nearest is the candidate nearest to name by edit distance, or "" when
// none is within about half of name's length.
func Nearest(name string, candidates []string) string {
	best, bestDist := "", len(name)/2+2
	for _, c := range candidates {
		if d := editDistance(name, c); d < bestDist {
			best, bestDist = c, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
