package faultplan

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"unsafe"

	"github.com/electkit/elect"
)

// plan is a plan of 3 nodes as a resolver builds it: node 0's second
// message late by 2 and its fourth lost to a partition, node 1's first
// duplicated and lost, node 2 crashing after 3 steps.
func plan() *Plan {
	p := NewPlan(3)
	p.Message(0, 2, 5).Delay = 2
	p.Message(0, 4, 9).Lost = elect.FaultPartition
	s := p.Message(1, 1, 2)
	s.Dup = true
	p.Message(1, 1, 2).Lost = elect.FaultLoss // the same message again: one entry
	p.AddCrash(Crash{Node: 2, Steps: 3, At: 4})
	return p
}

// TestPartIsWhatTheNodeApplies: a node's part gives the same cursor and
// crash as the whole plan, and its JSON form reads back to the same part.
func TestPartIsWhatTheNodeApplies(t *testing.T) {
	p := plan()
	for i := range int32(3) {
		part := p.Part(i)
		data, err := json.Marshal(part)
		if err != nil {
			t.Fatal(err)
		}
		var back Part
		if err := json.Unmarshal(data, &back); err != nil {
			t.Fatalf("node %d: %s: %v", i, data, err)
		}
		want, _ := p.CrashOf(i)
		if c := back.CrashOf(); c != want {
			t.Errorf("node %d: crash %+v, want %+v", i, c, want)
		}
		a, b := p.Sender(i), back.Sender()
		for range 6 {
			x, hx := a.Next()
			y, hy := b.Next()
			if x != y || hx != hy {
				t.Errorf("node %d: the part says %+v %v where the plan says %+v %v", i, y, hy, x, hx)
			}
		}
	}
	data, _ := json.Marshal(p.Part(0))
	if want := `{"node":0,"sends":[{"k":2,"no":5,"delay":2},{"k":4,"no":9,"lost":"partition"}]}`; string(data) != want {
		t.Errorf("node 0's part is %s, want %s", data, want)
	}
	data, _ = json.Marshal(p.Part(2))
	if want := `{"node":2,"crash":{"steps":3,"at":4}}`; string(data) != want {
		t.Errorf("node 2's part is %s, want %s", data, want)
	}
}

// TestPartRefusesWhatNoResolverWrites: parts no resolver can write are
// refused, each with the reason.
func TestPartRefusesWhatNoResolverWrites(t *testing.T) {
	for _, c := range []struct{ json, says string }{
		{`{"node":-1}`, "not a node index"},
		{`{"node":0,"sends":[{"k":2,"no":3,"dup":true},{"k":2,"no":4,"dup":true}]}`, "counts must increase"},
		{`{"node":0,"sends":[{"k":0,"no":3,"dup":true}]}`, "counts must increase"},
		{`{"node":0,"sends":[{"k":1,"no":3,"delay":-1}]}`, "delays not negative"},
		{`{"node":0,"sends":[{"k":1,"no":3,"lost":"dup"}]}`, `lost "dup"`},
		{`{"node":0,"sends":[{"k":1,"no":3}]}`, "nothing happens"},
		{`{"node":0,"crash":{"steps":-1,"at":0}}`, "may be negative"},
		{`[]`, "not a node's part"},
	} {
		var p Part
		err := json.Unmarshal([]byte(c.json), &p)
		if err == nil || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%s: %v, want an error saying %q", c.json, err, c.says)
		}
	}
}

// FuzzPart: a part read from any bytes either is refused or writes back to
// JSON that reads to the same part.
func FuzzPart(f *testing.F) {
	for i := range int32(3) {
		data, _ := json.Marshal(plan().Part(i))
		f.Add(data)
	}
	f.Add([]byte(`{"node":1,"sends":[{"k":1,"no":1,"lost":"loss","dup":true,"delay":9}],"crash":{"steps":0,"at":0}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var p Part
		if json.Unmarshal(data, &p) != nil {
			return
		}
		again, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		var q Part
		if err := json.Unmarshal(again, &q); err != nil || !reflect.DeepEqual(p, q) {
			t.Fatalf("%s reads back as %+v (%v), not %+v", again, q, err, p)
		}
	})
}

// TestBytesCountsTheArrays: a plan's memory is its record and its arrays
// by capacity (on a 64-bit machine: the record 88 bytes, a slice header
// 24, a Crash 24, a Send 32), what a runtime holds through its run.
func TestBytesCountsTheArrays(t *testing.T) {
	if unsafe.Sizeof(uintptr(0)) != 8 {
		t.Skip("the sizes below are a 64-bit machine's")
	}
	p := NewPlan(2)
	if got := p.Bytes(); got != 88+2*24+2*24 {
		t.Errorf("an empty plan of 2 nodes: %d bytes, want 184", got)
	}
	p.Message(0, 1, 1).Dup = true
	p.Message(0, 2, 2).Dup = true // node 0's array doubles to 2
	p.Message(0, 2, 2).Lost = elect.FaultLoss
	p.AddCrash(Crash{Node: 1, Steps: 1, At: 1})
	if got := p.Bytes(); got != 184+2*32+24 {
		t.Errorf("two sends and a crash: %d bytes, want 272", got)
	}
}

// TestPartBytesCountsItsArray: a node's part is its record (a node index,
// a slice header and a pointer: 40 bytes), its sends by capacity (32 each)
// and its crash (24), what a TCP node holds through its run.
func TestPartBytesCountsItsArray(t *testing.T) {
	if unsafe.Sizeof(uintptr(0)) != 8 {
		t.Skip("the sizes below are a 64-bit machine's")
	}
	if got := (Part{Node: 3}).Bytes(); got != 40 {
		t.Errorf("an empty part: %d bytes, want 40", got)
	}
	p := Part{Node: 1, Sends: make([]Send, 2, 4), Crash: &Crash{Node: 1, Steps: 2}}
	if got := p.Bytes(); got != 40+4*32+24 {
		t.Errorf("4 sends' room and a crash: %d bytes, want 192", got)
	}
}
