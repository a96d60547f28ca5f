package conformance

import (
	"bytes"
	"fmt"
	"reflect"
	"slices"
	"testing"
	"unsafe"

	"github.com/electkit/elect"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/reference"
	"github.com/electkit/elect/scenario"
)

// snapshotSizes are the network sizes the snapshots check tries, in order,
// for a network of the algorithm's class: the first that builds is used.
var snapshotSizes = []int{9, 8, 12, 16, 4}

// Snapshots checks snapshots on the reference engine: for every parameter
// set and every delivery model the algorithm's model allows, on a network
// of about 9 nodes (every topology of opt.Topologies for a general-graph
// algorithm), a run stopped after k events (k = 1, 5, half and all but one
// of the run's events), snapshotted and continued, both by the engine that
// was stopped and by two engines restored from the snapshot, ends exactly
// as the run that went straight through: the same result, the same trace
// for the continued run, and the straight trace's end for the restored
// ones. A clone that shares memory with its original, or a state the
// encoding does not copy, shows as a difference.
func Snapshots(t testing.TB, alg *elect.Algorithm, opt Options) {
	t.Helper()
	o := opt.withDefaults()
	r := newReporter(t, alg, "snapshots")
	cat := catalogOf(t, alg)
	compared := 0
	for _, p := range o.paramSets() {
		model := alg.RunModel(resolved(alg, p))
		for _, delivery := range allowedDeliveries(alg, p) {
			for _, topo := range o.topologies(alg) {
				var cfg *election.Config
				var s scenario.Spec
				for _, n := range snapshotSizes {
					s = scenario.Spec{Catalog: cat, Algorithm: alg.Name, N: n, Topology: topo, Delivery: delivery, Seed: 4,
						Params: p, Announce: model.Announce == elect.OptionalAnnounce, MaxEvents: o.MaxEvents}
					if model.WakeUp == elect.AnySubset {
						s.Initiators = fmt.Sprintf("nodes:0@1,%d@0", n/2)
					}
					var err error
					if cfg, err = scenario.Build(s); err == nil {
						break
					}
				}
				if cfg == nil {
					continue
				}
				compared++
				if !snapshotRun(r, s, *cfg) {
					return
				}
			}
		}
	}
	if compared == 0 {
		r.fail("no configuration to snapshot: none of the sizes %v builds", snapshotSizes)
	}
}

// snapshotRun checks the snapshots of one run; false when the check should
// stop.
func snapshotRun(r *reporter, s scenario.Spec, cfg election.Config) bool {
	r.t.Helper()
	var straight bytes.Buffer
	cfg.Trace = &straight
	want, err := reference.Run(cfg)
	if err != nil {
		return r.fail("reference engine: %v\nthe run: %s", err, commandLine(s))
	}
	var points []int64
	for _, k := range []int64{1, 5, want.Events / 2, want.Events - 1} {
		if k >= 1 && k < want.Events && !slices.Contains(points, k) {
			points = append(points, k)
		}
	}
	for _, k := range points {
		what := fmt.Sprintf("a snapshot after %d of %d events", k, want.Events)
		var first bytes.Buffer
		cfg.Trace = &first
		e, err := reference.New(cfg)
		if err != nil {
			return r.fail("reference engine: %v\nthe run: %s", err, commandLine(s))
		}
		for range k {
			e.Step()
		}
		snap, err := e.Snapshot()
		if err != nil {
			return r.fail("%s: %v", what, err)
		}
		var restored, again bytes.Buffer
		r1, err := snap.Restore(&restored)
		if err != nil {
			return r.fail("%s: restore: %v", what, err)
		}
		got, _ := e.Run()
		gotRestored, _ := r1.Run()
		r2, err := snap.Restore(&again)
		if err != nil {
			return r.fail("%s: restore again: %v", what, err)
		}
		gotAgain, _ := r2.Run()
		for _, c := range []struct {
			which string
			res   *election.Result
		}{{"continued", got}, {"restored", gotRestored}, {"restored again", gotAgain}} {
			if !reflect.DeepEqual(c.res, want) {
				if !r.fail("%s: the %s run ended %+v, the straight one %+v\nthe run: %s", what, c.which, c.res, want, commandLine(s)) {
					return false
				}
			}
		}
		if !bytes.Equal(first.Bytes(), straight.Bytes()) {
			if !r.fail("%s: the continued run's trace differs from the straight one's near %s\nthe run: %s",
				what, firstDifference(first.Bytes(), straight.Bytes()), commandLine(s)) {
				return false
			}
		}
		if !bytes.HasSuffix(straight.Bytes(), restored.Bytes()) || !bytes.Equal(restored.Bytes(), again.Bytes()) {
			if !r.fail("%s: the restored runs' traces (%d and %d bytes) are not the end of the straight one's (%d bytes)\nthe run: %s",
				what, restored.Len(), again.Len(), straight.Len(), commandLine(s)) {
				return false
			}
		}
	}
	return true
}

// States checks a node's state encoding and copies, for every parameter
// set: a node (ID 7, n = 5, degree 4) must be a pointer to a struct that
// implements elect.Snapshotter; changing any one field of its state (every
// integer and boolean, in nested structs, arrays and slice elements, and the
// length of every slice) must change its AppendState encoding, so that two
// nodes with equal encodings are in the same state; and a clone's encoding
// must not change when every field of the original is changed afterwards,
// slice elements included. Fields of other kinds (maps, pointers,
// interfaces, strings, floats) are reported: the check cannot see through
// them (skip it with Options.Skip if the node needs them).
func States(t testing.TB, alg *elect.Algorithm, opt Options) {
	t.Helper()
	o := opt.withDefaults()
	r := newReporter(t, alg, "states")
	for _, p := range o.paramSets() {
		params := resolved(alg, p)
		s, v, problem := stateNode(alg, params)
		if problem != "" {
			r.fail("parameters %v: %s", params, problem)
			return
		}
		growSlices(v)
		before := s.AppendState(nil)
		leaves(v.Type().Name(), v, func(path string, leaf reflect.Value) {
			if !leaf.IsValid() {
				r.fail("parameters %v: %s: a field of a kind the check cannot change (integers, booleans, structs, arrays and slices of them)", params, path)
				return
			}
			old := reflect.ValueOf(leaf.Interface())
			bump(leaf)
			if bytes.Equal(s.AppendState(nil), before) {
				r.fail("parameters %v: changing %s leaves AppendState unchanged", params, path)
			}
			leaf.Set(old)
		}, func(path string, sl reflect.Value) {
			w := writable(sl)
			old := w.Len()
			appendZero(w)
			if bytes.Equal(s.AppendState(nil), before) {
				r.fail("parameters %v: a longer %s leaves AppendState unchanged", params, path)
			}
			w.SetLen(old)
		})
		if !bytes.Equal(s.AppendState(nil), before) {
			r.fail("parameters %v: the state did not come back to what it was", params)
		}

		// A fresh node again, for the clone.
		s, v, _ = stateNode(alg, params)
		growSlices(v)
		clone, ok := s.Clone().(elect.Snapshotter)
		if !ok {
			r.fail("parameters %v: a clone is not an elect.Snapshotter", params)
			return
		}
		want := clone.AppendState(nil)
		if !bytes.Equal(want, s.AppendState(nil)) {
			r.fail("parameters %v: the clone's state differs from the original's", params)
		}
		leaves(v.Type().Name(), v, func(_ string, leaf reflect.Value) {
			if leaf.IsValid() {
				bump(leaf)
			}
		}, func(string, reflect.Value) {})
		if !bytes.Equal(clone.AppendState(nil), want) {
			r.fail("parameters %v: changing the original changed its clone", params)
		}
	}
}

// stateNode builds a node of alg, as a snapshotter, and its state as a
// settable struct value, or says why it cannot.
func stateNode(alg *elect.Algorithm, params elect.Params) (elect.Snapshotter, reflect.Value, string) {
	node := alg.New(elect.NodeInfo{ID: 7, N: 5, Degree: 4, Params: params})
	s, ok := node.(elect.Snapshotter)
	if !ok {
		return nil, reflect.Value{}, fmt.Sprintf("its nodes (%T) do not implement elect.Snapshotter (Clone and AppendState): the reference engine's snapshots, the symmetry detection and the exhaustive checker need them", node)
	}
	v := reflect.ValueOf(node)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return nil, reflect.Value{}, fmt.Sprintf("a node is a %s, not a pointer to a struct", v.Type())
	}
	return s, v.Elem(), ""
}

// writable returns v (a field reached through unexported fields) as a value
// that can be set: the check changes a node's private state to see whether
// its encoding notices.
func writable(v reflect.Value) reflect.Value {
	return reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr())).Elem()
}

// leaves calls visit with the path and a settable value of every scalar in
// v (integers, booleans), walking structs, arrays and slice elements, and
// an invalid value for a field of another kind; grow is called for every
// slice.
func leaves(path string, v reflect.Value, visit func(path string, leaf reflect.Value), grow func(path string, slice reflect.Value)) {
	switch v.Kind() {
	case reflect.Struct:
		for i := range v.NumField() {
			leaves(path+"."+v.Type().Field(i).Name, v.Field(i), visit, grow)
		}
	case reflect.Array:
		for i := range v.Len() {
			leaves(path+"[]", v.Index(i), visit, grow)
		}
	case reflect.Slice:
		grow(path, v)
		for i := range v.Len() {
			leaves(path+"[]", v.Index(i), visit, grow)
		}
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		visit(path, writable(v))
	default:
		visit(path, reflect.Value{})
	}
}

// bump changes a scalar leaf.
func bump(v reflect.Value) {
	switch v.Kind() {
	case reflect.Bool:
		v.SetBool(!v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(v.Int() + 1)
	default:
		v.SetUint(v.Uint() + 1)
	}
}

// appendZero appends a zero element to the slice w.
func appendZero(w reflect.Value) { w.Set(reflect.Append(w, reflect.Zero(w.Type().Elem()))) }

// growSlices gives every slice of v one (zero) element more, so that the
// walks of leaves that follow reach its elements.
func growSlices(v reflect.Value) {
	leaves("", v, func(string, reflect.Value) {}, func(_ string, sl reflect.Value) { appendZero(writable(sl)) })
}
