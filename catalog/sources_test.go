package catalog_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/electkit/elect/catalog"
	"github.com/electkit/elect/experiment/claims"
	"github.com/electkit/elect/pp/protocols"
)

// sources returns every Source the tool prints, by the name of what it
// belongs to: the catalog's algorithms and the population protocols.
func sources() map[string]string {
	s := map[string]string{}
	for _, a := range catalog.All() {
		s[a.Name] = a.Source
	}
	for _, p := range protocols.Catalog {
		s["pp "+p.Name] = p.Source
	}
	return s
}

// TestEverySourceClauseNamesAReference: each part of a Source (the parts
// are separated by ";") names a seed document or a work listed in
// References, so that docs/sources.md and 'elect list' can give it in full.
func TestEverySourceClauseNamesAReference(t *testing.T) {
	for name, src := range sources() {
		for clause := range strings.SplitSeq(src, ";") {
			if len(catalog.Cited(clause)) == 0 {
				t.Errorf("%s: %q names no seed key and no work in catalog.References; add the work to References (and docs/sources.md)",
					name, strings.TrimSpace(clause))
			}
		}
	}
}

// TestReferencesAreTheFiveSeedsAndDistinctWorks: References starts with
// the seed keys "seed 000" to "seed 004", in order, and has no other seed
// key; no key repeats; every entry has a title and a venue and says what the
// tool cites of it.
func TestReferencesAreTheFiveSeedsAndDistinctWorks(t *testing.T) {
	want := []string{"seed 000", "seed 001", "seed 002", "seed 003", "seed 004"}
	seen := map[string]bool{}
	for i, r := range catalog.References {
		switch {
		case i < len(want) && r.Key != want[i]:
			t.Errorf("References[%d].Key = %q, want %q", i, r.Key, want[i])
		case i >= len(want) && strings.HasPrefix(r.Key, "seed "):
			t.Errorf("References[%d].Key = %q: only the five seeds have seed keys", i, r.Key)
		}
		if seen[r.Key] {
			t.Errorf("key %q repeats", r.Key)
		}
		seen[r.Key] = true
		if r.Title == "" || r.Venue == "" || r.Sections == "" {
			t.Errorf("%q: title, venue and sections must be given (say so where one is unknown)", r.Key)
		}
	}
	if len(catalog.References) < len(want) {
		t.Fatalf("References has %d entries, fewer than the five seeds", len(catalog.References))
	}
}

// TestCiteExpandsEverySeedKey: Cite leaves no seed key in any Source, and
// puts each seed's authors, title and year where its key (and the
// parenthesis describing it) stood.
func TestCiteExpandsEverySeedKey(t *testing.T) {
	for name, src := range sources() {
		cited := catalog.Cite(src)
		if strings.Contains(cited, "seed 0") {
			t.Errorf("%s: Cite(%q) = %q still holds a seed key", name, src, cited)
		}
	}
	for _, r := range catalog.References[:5] {
		got := catalog.Cite(r.Key + ", section 1")
		want := r.Short() + ", section 1"
		if got != want {
			t.Errorf("Cite(%q) = %q, want %q", r.Key+", section 1", got, want)
		}
		if r.Authors != "" && !strings.HasPrefix(got, r.Authors+", "+r.Title+" (") {
			t.Errorf("Cite(%q) = %q: want authors, title, then the year", r.Key, got)
		}
	}
}

// TestCiteExamples pins the exact text of a few expansions: the descriptive
// parenthesis after a key goes, a later parenthesis stays, a year that is
// not known is said to be so, and keys inside a parenthesis are expanded.
func TestCiteExamples(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"seed 004, Algorithms 1-5 (Section 3)",
			"Yuichi Sudo, Fukuhito Ooshita, Taisuke Izumi, Hirotsugu Kakugawa and Toshimitsu Masuzawa, " +
				"Time-Optimal Leader Election in Population Protocols (2020), Algorithms 1-5 (Section 3)"},
		{"seed 001 (lecture notes), section 5.2.4 (after Chang and Roberts' average-case analysis)",
			"James Aspnes, Notes on Theory of Distributed Systems, chapter 5: Leader election (year not stated), " +
				"section 5.2.4 (after Chang and Roberts' average-case analysis)"},
		{"seed 003 (slides), HS pseudo-code; seed 002 (Afek-Gafni write-up), Lemma 2",
			"Algorithms for COOPERATIVE DS: Leader Election in the MPS model (year not stated), HS pseudo-code; " +
				"Jakub Wąs, notes on Afek-Gafni algorithm B (2024), Lemma 2"},
		{"Angluin et al. (seed 000 ref. [1])",
			"Angluin et al. (R. Chaturvedi, P. Dymond and M. Jenkin, Efficient leader election among numbered agents (year not stated) ref. [1])"},
		{"Lynch, Distributed Algorithms, section 4.1.2", "Lynch, Distributed Algorithms, section 4.1.2"},
	} {
		if got := catalog.Cite(c.in); got != c.want {
			t.Errorf("Cite(%q)\n got %q\nwant %q", c.in, got, c.want)
		}
	}
}

// TestCiteBriefNamesEverySeedInAFewWords: every seed has a Brief name, and
// CiteBrief leaves no seed key in any source the tool prints in its short
// form (the bounds of 'elect list', the protocols of 'elect pp list', the
// reproductions of 'elect reproduce').
func TestCiteBriefNamesEverySeedInAFewWords(t *testing.T) {
	for _, r := range catalog.References[:5] {
		if r.Brief == "" || len(r.Brief) > 40 {
			t.Errorf("%s: Brief %q: want a few words", r.Key, r.Brief)
		}
	}
	brief := sources()
	for _, a := range catalog.All() {
		for i, b := range a.Bounds {
			brief[fmt.Sprintf("%s bound %d", a.Name, i)] = b.Source
		}
	}
	for _, r := range claims.All() {
		brief["reproduce "+r.Name] = r.Source
	}
	for name, src := range brief {
		if got := catalog.CiteBrief(src); containsSeedKey(got) {
			t.Errorf("%s: CiteBrief(%q) = %q still holds a seed key", name, src, got)
		}
	}
	for _, c := range []struct{ in, want string }{
		{"seed 001 §5.2.1.1 (decreasing ring is the worst case)", "Aspnes (lecture notes) §5.2.1.1 (decreasing ring is the worst case)"},
		{"seed 003 (slides), HS message complexity; seed 001 §5.2.2", "COOPERATIVE DS (slides), HS message complexity; Aspnes (lecture notes) §5.2.2"},
		{"Angluin et al. (seed 000 ref. [1], seed 004 ref. [3])", "Angluin et al. (Chaturvedi, Dymond and Jenkin ref. [1], Sudo et al. 2020 ref. [3])"},
	} {
		if got := catalog.CiteBrief(c.in); got != c.want {
			t.Errorf("CiteBrief(%q)\n got %q\nwant %q", c.in, got, c.want)
		}
	}
}

// FuzzCite: whatever the text, Cite and CiteBrief leave no seed key in
// it, and a text without seed keys comes back unchanged.
func FuzzCite(f *testing.F) {
	for _, src := range sources() {
		f.Add(src)
	}
	f.Add("seed 00seed 0011")
	f.Add("seed 001 (seed 002)")
	f.Add("seed 001 (")
	f.Fuzz(func(t *testing.T, s string) {
		for _, cite := range []func(string) string{catalog.Cite, catalog.CiteBrief} {
			got := cite(s)
			if containsSeedKey(got) {
				t.Errorf("%q cited as %q holds a seed key", s, got)
			}
			if !containsSeedKey(s) && got != s {
				t.Errorf("%q cited as %q: a text without seed keys changed", s, got)
			}
		}
	})
}

func containsSeedKey(s string) bool {
	for _, r := range catalog.References[:5] {
		if strings.Contains(s, r.Key) {
			return true
		}
	}
	return false
}
