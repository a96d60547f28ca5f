package sim

import (
	"fmt"
	"math"

	"github.com/electkit/elect"
)

// finish turns the final state into a Result: the outcome with the monitor's
// end-of-run checks, the measures, and every declared bound checked.
func (e *engine) finish() *Result {
	// One node is no symmetry: Lemma 5.1.1 needs a non-trivial class.
	if e.cfg.DetectSymmetry && e.n > 1 && !e.symBroken && !e.symmetric && !e.stepLimit {
		e.checkSymmetry()
		if !e.symBroken {
			e.symmetric = true
		}
	}
	r := &Result{
		LeaderIndex:    int(e.leader),
		LeaderID:       -1,
		Leaders:        e.elected,
		MessagesByType: make(map[string]int64, len(e.typeCounts)),
		Events:         e.events,
		TypeCounts:     e.typeCounts,
		Violation:      e.violation,
	}
	bitCtx := elect.BitContext{N: e.n, IDBits: idBits(e.ids), Types: len(e.alg.Messages), Params: e.cfg.Params}
	typeBits := make([]int64, len(e.alg.Messages))
	for t, mt := range e.alg.Messages {
		c := e.typeCounts[t]
		r.MessagesByType[mt.Name] = c
		r.Messages += c
		typeBits[t] = int64(elect.DefaultBits(mt, bitCtx))
		r.Bits += c * typeBits[t]
	}
	for i := range e.n {
		r.MaxNodeMessages = max(r.MaxNodeMessages, e.sent(int32(i)))
	}
	switch {
	case e.cfg.Delivery == NewestFirst:
		r.Time = float64(e.maxDepth)
	default:
		r.Time = float64(e.lastAt) / float64(e.unit)
	}
	if e.leader >= 0 {
		r.LeaderID = e.ids[e.leader]
	}

	// The leader the algorithm promised, and what everyone must know.
	model := e.alg.Model
	promisedKnown := r.LeaderID
	if model.Elects == elect.ElectsAnyKnowsMax {
		promisedKnown = maxID(e.ids)
	}
	r.AllKnowLeader = e.leader >= 0
	uninformed := 0
	for i := range e.knows {
		if e.knows[i] != promisedKnown {
			uninformed++
		}
	}
	if uninformed > 0 {
		r.AllKnowLeader = false
	}
	announcing := model.Announce == elect.AlwaysAnnounce || (model.Announce == elect.OptionalAnnounce && e.cfg.Announce)

	r.Checks = append(r.Checks, Check{Name: "exactly one leader", Relation: "==", Expected: 1, Actual: float64(e.elected), Holds: e.elected == 1})
	var wrongLeader string
	if e.elected == 1 {
		if want, ok := e.promisedLeaderID(); ok {
			holds := r.LeaderID == want
			r.Checks = append(r.Checks, Check{Name: "leader holds the " + model.Elects.String(), Relation: "==", Expected: float64(want), Actual: float64(r.LeaderID), Holds: holds})
			if !holds {
				wrongLeader = fmt.Sprintf("wrong-leader: node %d with ID %d was elected, but the algorithm promises the %s, %d", e.leader, r.LeaderID, model.Elects, want)
			}
		}
		if model.Elects == elect.ElectsAnyKnowsMax {
			got := e.knows[e.leader]
			holds := got == promisedKnown
			r.Checks = append(r.Checks, Check{Name: "leader knows the max ID", Relation: "==", Expected: float64(promisedKnown), Actual: float64(got), Holds: holds})
			if !holds && wrongLeader == "" {
				wrongLeader = fmt.Sprintf("wrong-leader-id: the leader (node %d) recorded %d as leader ID, but the algorithm promises the max ID, %d", e.leader, got, promisedKnown)
			}
		}
		if announcing {
			r.Checks = append(r.Checks, Check{Name: "nodes not knowing the leader", Relation: "==", Expected: 0, Actual: float64(uninformed), Holds: uninformed == 0})
			if uninformed > 0 && wrongLeader == "" {
				wrongLeader = fmt.Sprintf("not-informed: %d of %d nodes do not know the leader's ID after the announcement", uninformed, e.n)
			}
		}
	}
	r.Checks = append(r.Checks, e.boundChecks(r, typeBits)...)

	switch {
	case e.violation != "":
		r.Outcome = OutcomeViolation
	case e.symmetric:
		// Checked before multiple-leaders: a run that stayed symmetric has
		// every node in the same state, so all of them are elected or none
		// is (Leaders says which); symmetric names the cause (Lemma 5.1.1).
		r.Outcome = Symmetric
		r.SymmetricRound = e.symRound
	case e.elected > 1:
		r.Outcome = MultipleLeaders
	case e.stepLimit:
		r.Outcome = StepLimit
	case e.elected == 0:
		r.Outcome = NoLeader
	case wrongLeader != "":
		r.Outcome = OutcomeViolation
		r.Violation = wrongLeader
	default:
		r.Outcome = OutcomeElected
	}
	return r
}

// promisedLeaderID returns the ID the algorithm promises to elect, if it
// promises one.
func (e *engine) promisedLeaderID() (elect.ID, bool) {
	switch e.alg.Model.Elects {
	case elect.ElectsMax:
		return maxID(e.ids), true
	case elect.ElectsMin:
		return minID(e.ids), true
	case elect.ElectsMinInitiator:
		// The initiators are the nodes that woke spontaneously: a node
		// scheduled to wake late that a message woke first is not one.
		return e.minSpontID, true
	}
	return 0, false
}

// BoundContext describes cfg for evaluating bounds.
func (cfg *Config) BoundContext() elect.BoundContext {
	initiators, allAtZero := cfg.Graph.N, true
	minInit := minID(cfg.IDs)
	if cfg.Wake != nil {
		seen := make([]bool, cfg.Graph.N)
		initiators = 0
		minInit = math.MaxInt64
		for _, w := range cfg.Wake {
			if !seen[w.Node] {
				seen[w.Node] = true
				initiators++
			}
			allAtZero = allAtZero && w.At == 0
			minInit = min(minInit, cfg.IDs[w.Node])
		}
		allAtZero = allAtZero && initiators == cfg.Graph.N
	}
	return elect.BoundContext{
		N: cfg.Graph.N, Edges: int(cfg.Graph.Edges()), Initiators: initiators,
		Announce: cfg.Announce, Sync: cfg.Delivery == Sync, AllAtZero: allAtZero,
		CausalTime: cfg.Delivery == NewestFirst,
		MinID:      minID(cfg.IDs), MaxID: maxID(cfg.IDs), MinInitiatorID: minInit, Params: cfg.Params,
	}
}

// boundChecks evaluates every declared bound that applies to the run.
func (e *engine) boundChecks(r *Result, typeBits []int64) []Check {
	ctx := e.cfg.BoundContext()
	var out []Check
	for _, b := range e.alg.Bounds {
		if b.Applies != nil && !b.Applies(ctx) {
			continue
		}
		var actual float64
		switch b.Quantity {
		case elect.Time:
			actual = r.Time
		case elect.Messages, elect.Bits:
			for t, mt := range e.alg.Messages {
				if len(b.Types) > 0 && !contains(b.Types, mt.Name) {
					continue
				}
				if b.Quantity == elect.Messages {
					actual += float64(e.typeCounts[t])
				} else {
					actual += float64(e.typeCounts[t] * typeBits[t])
				}
			}
		}
		expected := b.Value(ctx)
		out = append(out, Check{
			Name:     fmt.Sprintf("%s %s %s", b.Name, b.Relation, b.Formula),
			Relation: b.Relation.String(), Expected: expected, Actual: actual,
			Holds: b.Relation.Holds(actual, expected),
		})
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func maxID(ids []elect.ID) elect.ID {
	m := elect.ID(-1)
	for _, id := range ids {
		m = max(m, id)
	}
	return m
}

func minID(ids []elect.ID) elect.ID {
	m := elect.ID(math.MaxInt64)
	for _, id := range ids {
		m = min(m, id)
	}
	return m
}

// idBits is the number of bits needed to write the largest ID.
func idBits(ids []elect.ID) int {
	return max(1, elect.CeilLog2(int(maxID(ids))+1))
}
