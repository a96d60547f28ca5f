package catalog

import (
	"strconv"
	"strings"
)

// Reference is a work that an algorithm's Source names: one of the five seed
// documents the project was specified from (keys "seed 000" to "seed 004"),
// or a paper or book beyond them (keys such as "Franklin" or "Lynch", the
// words a Source uses for it). docs/sources.md gives each in full, with how
// its details were confirmed.
type Reference struct {
	// Key is how Sources name the work; it occurs verbatim in them.
	Key string
	// Authors is empty when the work does not name them and they could not
	// be confirmed.
	Authors string
	Title   string
	// Venue is the journal, book publisher, course or repository, or says
	// that it is unknown.
	Venue string
	// Year is 0 when the work states none and none could be confirmed.
	Year int
	// Sections lists the parts of the work the tool cites, in the work's
	// own numbering.
	Sections string
	// Brief names a seed in a few words (its authors, or what it is), for
	// the lines that cite it often: bounds, claims, protocols. It does not
	// end in "s", lest a key form again where it meets the text after it
	// ("seed 001eed 000").
	Brief string
}

// References lists the seed documents, then every other work that a Source
// of the catalog or of the population protocols (pp/protocols) names.
var References = []Reference{
	{
		Key:      "seed 000",
		Brief:    "Chaturvedi, Dymond and Jenkin",
		Authors:  "R. Chaturvedi, P. Dymond and M. Jenkin",
		Title:    "Efficient leader election among numbered agents",
		Venue:    "York University, Canada (affiliation); the venue is not stated in the text and could not be confirmed",
		Sections: "Sections I-V; Algorithms 1 and 2 (Section III), Algorithm 3 (Section IV); Theorems 1-3; Figure 1; reference [1]",
	},
	{
		Key:      "seed 001",
		Brief:    "Aspnes (lecture notes)",
		Authors:  "James Aspnes",
		Title:    "Notes on Theory of Distributed Systems, chapter 5: Leader election",
		Venue:    "lecture notes for CPSC 465/565, Yale University (the edition is not identified)",
		Sections: "5.1 (Lemma 5.1.1); 5.2.1 (Algorithm 5.1) and 5.2.1.1; 5.2.2; 5.2.3 (Algorithm 5.2); 5.2.4; 5.3; 5.4.1; 5.4.2 (Figure 5.1)",
	},
	{
		Key:     "seed 002",
		Brief:   "Wąs (Afek-Gafni notes)",
		Authors: "Jakub Wąs",
		Title:   "notes on Afek-Gafni algorithm B",
		Venue: "Distributed Systems course, Jagiellonian University; repository krzysztof-turowski/distributed-framework, " +
			"file text/1180971/async_afek_gafni.tex",
		Year: 2024,
		Sections: "unnumbered: Algorithm (the naive algorithm; algorithm B), Capturing and Elimination rule, State of the node, " +
			"Candidate Process, Ordinary Process, Messages, Implementation details, Proof of complexity (Lemma 1, Corollary 1, Lemma 2)",
	},
	{
		Key:   "seed 003",
		Brief: "COOPERATIVE DS (slides)",
		Title: "Algorithms for COOPERATIVE DS: Leader Election in the MPS model",
		Venue: "lecture slides; author, course and year are not stated in the text and could not be confirmed",
		Sections: "unnumbered slides: impossibility for anonymous rings; the Chang-Roberts algorithm (pseudo-code, worst, best and " +
			"average case); the Hirschberg-Sinclair algorithm (pseudo-code, message complexity); " +
			"\"A Θ(n)-messages Synchronous Algorithm\"; the slow-fast algorithm (prose, analysis, pseudo-code)",
	},
	{
		Key:     "seed 004",
		Brief:   "Sudo et al. 2020",
		Authors: "Yuichi Sudo, Fukuhito Ooshita, Taisuke Izumi, Hirotsugu Kakugawa and Toshimitsu Masuzawa",
		Title:   "Time-Optimal Leader Election in Population Protocols",
		Venue:   "IEEE Transactions on Parallel and Distributed Systems, pp. 2620-2632, doi:10.1109/TPDS.2020.2991771",
		Year:    2020,
		Sections: "Section 1 (Tables 1 and 2); Section 3 (Algorithms 1-5: P_LL, CountUp, QuickElimination, Tournament, BackUp; " +
			"Lemma 10; pseudo-code lines 9, 43 and 46); Section 4 (the symmetric variant, Algorithm 6)",
	},
	{
		Key:      "Chang and Roberts",
		Authors:  "E. Chang and R. Roberts",
		Title:    "An improved algorithm for decentralized extrema-finding in circular configurations of processes",
		Venue:    "Communications of the ACM 22(5), pp. 281-283",
		Year:     1979,
		Sections: "the average-case analysis",
	},
	{
		Key:      "Franklin",
		Authors:  "Randolph Franklin",
		Title:    "On an improved algorithm for decentralized extrema finding in circular configurations of processors",
		Venue:    "Communications of the ACM 25(5)",
		Year:     1982,
		Sections: "the algorithm and its 2n*floor(lg n) + 3n bound",
	},
	{
		Key:      "Dolev, Klawe and Rodeh",
		Authors:  "Danny Dolev, Maria Klawe and Michael Rodeh",
		Title:    "An O(n log n) unidirectional distributed algorithm for extrema finding in a circle",
		Venue:    "Journal of Algorithms 3(3), pp. 245-260",
		Year:     1982,
		Sections: "the simple algorithm and its 2n log n + O(n) bound; algorithm B and its 1.5n log n + O(n) bound",
	},
	{
		Key:      "Higham and Przytycka",
		Authors:  "Lisa Higham and Teresa Przytycka",
		Title:    "A simple, efficient algorithm for maximum finding on rings",
		Venue:    "Information Processing Letters 58(6), pp. 319-324 (conference version: WDAG 1993)",
		Year:     1996,
		Sections: "algorithm ELECT and its 1.271 n log n + O(n) message bound",
	},
	{
		Key:      "Korach, Rotem and Santoro",
		Authors:  "Ephraim Korach, Doron Rotem and Nicola Santoro",
		Title:    "Distributed election in a circle without a global sense of orientation",
		Venue:    "International Journal of Computer Mathematics 16 (not confirmed)",
		Year:     1984,
		Sections: "stages with feedback and its 3n log3 n + O(n) bound",
	},
	{
		Key:      "Bakhshi, Fokkink, Pang and van de Pol",
		Authors:  "Rena Bakhshi, Wan Fokkink, Jun Pang and Jaco van de Pol",
		Title:    "Leader election in anonymous rings: Franklin goes probabilistic",
		Venue:    "Fifth IFIP International Conference on Theoretical Computer Science (TCS 2008), Springer, pp. 57-72",
		Year:     2008,
		Sections: "the probabilistic Franklin algorithm (messages (id, hop, bit))",
	},
	{
		Key:     "Gallager, Humblet, Spira",
		Authors: "R. G. Gallager, P. A. Humblet and P. M. Spira",
		Title:   "A distributed algorithm for minimum-weight spanning trees",
		Venue:   "ACM Transactions on Programming Languages and Systems 5(1), pp. 66-77",
		Year:    1983,
		Sections: "section 3 and the appendix (the algorithm), section 5 (5N log2 N + 2E messages; time 5N log2 N " +
			"when all nodes awaken at once)",
	},
	{
		Key:      "Itai and Rodeh",
		Authors:  "Alon Itai and Michael Rodeh",
		Title:    "Symmetry breaking in distributed networks",
		Venue:    "Information and Computation 88, pp. 60-87 (a conference version appeared in 1981)",
		Year:     1990,
		Sections: "the asynchronous ring of known size",
	},
	{
		Key:      "Fokkink",
		Authors:  "Wan Fokkink",
		Title:    "Distributed Algorithms: An Intuitive Approach",
		Venue:    "MIT Press (the edition the section number refers to is not confirmed)",
		Sections: "9.1 (the Itai-Rodeh election algorithm)",
	},
	{
		Key:      "Lynch",
		Authors:  "Nancy A. Lynch",
		Title:    "Distributed Algorithms",
		Venue:    "Morgan Kaufmann",
		Year:     1996,
		Sections: "4.1.2 (FloodMax), 4.1.3 (OptFloodMax)",
	},
	{
		Key:      "Humblet",
		Authors:  "Pierre A. Humblet",
		Title:    "Selecting a leader in a clique in O(N log N) messages",
		Venue:    "23rd IEEE Conference on Decision and Control, doi:10.1109/CDC.1984.272191 (also MIT LIDS report, DTIC ADA146581)",
		Year:     1984,
		Sections: "the algorithm (states active/stopped, SIZE, MASTER; messages TEST and WINNER) and its O(N log K) bound",
	},
	{
		Key:      "Flocchini and Mans",
		Authors:  "Paola Flocchini and Bernard Mans",
		Title:    "Optimal elections in labeled hypercubes",
		Venue:    "Journal of Parallel and Distributed Computing 33(1), pp. 76-83",
		Year:     1996,
		Sections: "HyperElect: duels along one dimension per stage, defeated nodes' routes to their winners",
	},
	{
		Key:      "Santoro",
		Authors:  "Nicola Santoro",
		Title:    "Design and Analysis of Distributed Algorithms",
		Venue:    "Wiley Series on Parallel and Distributed Computing, John Wiley & Sons, doi:10.1002/0470072644",
		Year:     2007,
		Sections: "3.4 (election in meshes: the unoriented mesh, election among the corners); 3.8 (YO-YO: set-up, YO- and -YO, pruning, the number of iterations)",
	},
	{
		Key:      "Peterson 1984",
		Authors:  "Gary L. Peterson",
		Title:    "Efficient algorithms for elections in meshes and complete networks",
		Venue:    "Technical Report TR-140, Department of Computer Science, University of Rochester (not available here: not read)",
		Year:     1984,
		Sections: "the election on meshes, as credited; its rules and constant could not be read",
	},
	{
		Key:      "Korach, Moran and Zaks",
		Authors:  "Ephraim Korach, Shlomo Moran and Shmuel Zaks",
		Title:    "Tight lower and upper bounds for some distributed algorithms for a complete network of processors",
		Venue:    "Third ACM Symposium on Principles of Distributed Computing (PODC 1984) (pages and DOI not confirmed)",
		Year:     1984,
		Sections: "the election by kings, kingdoms and phases and its 5n log n + O(n) message bound (as the source framework's write-up states them)",
	},
	{
		Key:      "Loui, Matsushita and West",
		Authors:  "Michael C. Loui, Teresa A. Matsushita and Douglas B. West",
		Title:    "Election in a complete network with a sense of direction",
		Venue:    "Information Processing Letters 22(4), pp. 185-187, doi:10.1016/0020-0190(86)90025-6",
		Year:     1986,
		Sections: "the algorithm and its message analysis (the recurrence on active nodes per phase)",
	},
	{
		Key:      "Garcia-Molina",
		Authors:  "Hector Garcia-Molina",
		Title:    "Elections in a distributed computing system",
		Venue:    "IEEE Transactions on Computers C-31(1), pp. 48-59 (volume and pages as recalled, not confirmed)",
		Year:     1982,
		Sections: "the Bully algorithm for the synchronous model with crash failures (ELECTION, answer, COORDINATOR; timeouts)",
	},
	{
		Key:      "Coulouris et al.",
		Authors:  "George Coulouris, Jean Dollimore, Tim Kindberg and Gordon Blair",
		Title:    "Distributed Systems: Concepts and Design",
		Venue:    "Addison-Wesley, 5th edition (edition and section number as recalled, not confirmed)",
		Year:     2012,
		Sections: "15.3.2 (the bully algorithm: worst case O(n^2) messages, best case n-2)",
	},
	{
		Key:      "Tanenbaum and van Steen",
		Authors:  "Andrew S. Tanenbaum and Maarten van Steen",
		Title:    "Distributed Systems: Principles and Paradigms",
		Venue:    "Pearson Prentice Hall, 2nd edition (edition and section number as recalled, not confirmed)",
		Year:     2007,
		Sections: "6.5.1 (election algorithms: the ring algorithm, which skips a successor that is down)",
	},
	{
		Key:      "Angluin et al.",
		Authors:  "Dana Angluin, James Aspnes, Zoë Diamadi, Michael J. Fischer and René Peralta",
		Title:    "Computation in networks of passively mobile finite-state sensors",
		Venue:    "Distributed Computing 18(4), pp. 235-253 (conference version: PODC 2004)",
		Year:     2006,
		Sections: "the two-state leader election protocol",
	},
	{
		Key:      "Angluin, Aspnes and Eisenstat",
		Authors:  "Dana Angluin, James Aspnes and David Eisenstat",
		Title:    "A simple population protocol for fast robust approximate majority",
		Venue:    "Distributed Computing 21(2), pp. 87-102 (conference version: DISC 2007)",
		Year:     2008,
		Sections: "the three-state approximate majority protocol; Theorem 1 (consensus on the initial majority w.h.p. in O(log n) parallel time for a gap of omega(sqrt(n) log n))",
	},
}

// Short returns the reference as authors, title and year: the form Cite
// puts in place of a seed key.
func (r Reference) Short() string {
	year := "year not stated"
	if r.Year != 0 {
		year = strconv.Itoa(r.Year)
	}
	if r.Authors == "" {
		return r.Title + " (" + year + ")"
	}
	return r.Authors + ", " + r.Title + " (" + year + ")"
}

// Cited returns the references that source names by their keys, in the
// order of References.
func Cited(source string) []Reference {
	var refs []Reference
	for _, r := range References {
		if strings.Contains(source, r.Key) {
			refs = append(refs, r)
		}
	}
	return refs
}

// Cite returns source with every seed key replaced by the seed's short
// reference (Reference.Short). A parenthesis right after a key describes
// the document ("seed 001 (lecture notes)") and goes with it: "seed 001
// (lecture notes), section 5.2.1" becomes "James Aspnes, Notes on Theory of
// Distributed Systems, chapter 5: Leader election (year not stated), section
// 5.2.1". Other works' names are left as they are.
func Cite(source string) string {
	return cite(source, Reference.Short)
}

// CiteBrief is Cite with each seed's Brief name in place of its key: for
// lines that cite a seed again and again (a bound, a claim), where the full
// reference stands once nearby or in docs/sources.md. "seed 001
// §5.2.1.1" becomes "Aspnes (lecture notes) §5.2.1.1".
func CiteBrief(source string) string {
	return cite(source, func(r Reference) string { return r.Brief })
}

// cite replaces every seed key of source, with the parenthesis that
// describes it, by name(the seed's reference).
func cite(source string, name func(Reference) string) string {
	var b strings.Builder
	for {
		at, ref := firstSeedKey(source)
		if at < 0 {
			b.WriteString(source)
			return b.String()
		}
		b.WriteString(source[:at])
		b.WriteString(name(ref))
		rest := source[at+len(ref.Key):]
		if strings.HasPrefix(rest, " (") {
			if end := strings.IndexByte(rest, ')'); end >= 0 {
				if next, _ := firstSeedKey(rest[:end]); next < 0 {
					rest = rest[end+1:]
				}
			}
		}
		source = rest
	}
}

// firstSeedKey returns the position of the earliest seed key in s and its
// reference, or -1.
func firstSeedKey(s string) (int, Reference) {
	at, found := -1, Reference{}
	for _, r := range References {
		if !strings.HasPrefix(r.Key, "seed ") {
			continue
		}
		if i := strings.Index(s, r.Key); i >= 0 && (at < 0 || i < at) {
			at, found = i, r
		}
	}
	return at, found
}
