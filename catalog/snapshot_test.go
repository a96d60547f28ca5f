package catalog_test

import (
	"bytes"
	"reflect"
	"testing"
	"unsafe"

	"github.com/electkit/elect"
	"github.com/electkit/elect/catalog"
)

// snapshotNode builds a node of alg with its default parameters, as a
// snapshotter, and its state as a settable struct value.
func snapshotNode(t *testing.T, alg *elect.Algorithm) (elect.Snapshotter, reflect.Value) {
	t.Helper()
	params := elect.Params{}
	for _, p := range alg.Params {
		params[p.Name] = p.Default
	}
	node := alg.New(elect.NodeInfo{ID: 7, N: 5, Degree: 4, Params: params})
	s, ok := node.(elect.Snapshotter)
	if !ok {
		t.Fatalf("%s: nodes do not implement elect.Snapshotter", alg.Name)
	}
	v := reflect.ValueOf(node)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		t.Fatalf("%s: node is a %s, not a pointer to a struct", alg.Name, v.Type())
	}
	return s, v.Elem()
}

// writable returns v (a field reached through unexported fields) as a value
// that can be set.
func writable(v reflect.Value) reflect.Value {
	return reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr())).Elem()
}

// leaves calls visit with the path and a settable value of every scalar in
// v (integers, booleans), walking structs, arrays and slice elements; grow is
// called for every slice.
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
		visit(path, reflect.Value{}) // a kind this test does not know: reported
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
func growSlices(name string, v reflect.Value) {
	leaves(name, v, func(string, reflect.Value) {}, func(_ string, sl reflect.Value) { appendZero(writable(sl)) })
}

// TestSnapshotsSeeEveryField: for every catalog algorithm, changing any one
// field of a node's state (every scalar, recursively, and the length of
// every slice) changes its AppendState encoding, so that two nodes with
// equal encodings are in the same state.
func TestSnapshotsSeeEveryField(t *testing.T) {
	for _, alg := range catalog.All() {
		s, v := snapshotNode(t, alg)
		growSlices(alg.Name, v)
		before := s.AppendState(nil)
		leaves(alg.Name, v, func(path string, leaf reflect.Value) {
			if !leaf.IsValid() {
				t.Errorf("%s: field of a kind the test cannot change", path)
				return
			}
			old := reflect.ValueOf(leaf.Interface())
			bump(leaf)
			if bytes.Equal(s.AppendState(nil), before) {
				t.Errorf("%s: changing it leaves AppendState unchanged", path)
			}
			leaf.Set(old)
		}, func(path string, sl reflect.Value) {
			w := writable(sl)
			old := w.Len()
			appendZero(w)
			if bytes.Equal(s.AppendState(nil), before) {
				t.Errorf("%s: a longer slice leaves AppendState unchanged", path)
			}
			w.SetLen(old)
		})
		if !bytes.Equal(s.AppendState(nil), before) {
			t.Errorf("%s: the state did not come back to what it was", alg.Name)
		}
	}
}

// TestClonesShareNothing: a clone's state does not change when every field
// of the original is changed afterwards, slice elements included.
func TestClonesShareNothing(t *testing.T) {
	for _, alg := range catalog.All() {
		s, v := snapshotNode(t, alg)
		growSlices(alg.Name, v)
		clone, ok := s.Clone().(elect.Snapshotter)
		if !ok {
			t.Fatalf("%s: a clone is not a snapshotter", alg.Name)
		}
		want := clone.AppendState(nil)
		if !bytes.Equal(want, s.AppendState(nil)) {
			t.Errorf("%s: the clone's state differs from the original's", alg.Name)
		}
		leaves(alg.Name, v, func(_ string, leaf reflect.Value) {
			if leaf.IsValid() {
				bump(leaf)
			}
		}, func(string, reflect.Value) {})
		if !bytes.Equal(clone.AppendState(nil), want) {
			t.Errorf("%s: changing the original changed its clone", alg.Name)
		}
	}
}
