package trace_test

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/electkit/elect"
	"github.com/electkit/elect/ring"
	"github.com/electkit/elect/sim"
	"github.com/electkit/elect/topology"
	"github.com/electkit/elect/trace"
)

// lcrTrace is the trace of LCR on a ring of n nodes with decreasing IDs
// (n, n-1, ..., 1) under FIFO delivery.
func lcrTrace(t testing.TB, n int, limit int64) []byte {
	t.Helper()
	ids := make([]elect.ID, n)
	for i := range ids {
		ids[i] = elect.ID(n - i)
	}
	var buf bytes.Buffer
	_, err := sim.Run(sim.Config{Algorithm: ring.LCR, Graph: topology.NewRing(n), IDs: ids,
		Delivery: sim.FIFO, Trace: &buf, TraceLimit: limit})
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestReadLCR reads a whole version 2 trace: the header says what ran, and
// the events count what the theory says (seed 001 §5.2.1.1: a decreasing
// ring sends n(n+1)/2 election messages; here n = 8, 36).
func TestReadLCR(t *testing.T) {
	tr, err := trace.ReadAll(bytes.NewReader(lcrTrace(t, 8, 0)))
	if err != nil {
		t.Fatal(err)
	}
	h := tr.Header
	if tr.Version != 2 || h == nil || h.Algorithm != "lcr" || h.N != 8 || h.IDs[0] != 8 || h.Topology.Kind != "ring" || h.Delivery != "fifo" {
		t.Fatalf("header %+v", h)
	}
	count := map[string]int{}
	for _, ev := range tr.Events {
		count[ev.Ev]++
	}
	if count["send"] != 36 || count["deliver"] != 36 || count["decide"] != 1 || count["wake"] != 8 {
		t.Fatalf("event counts %v, want 36 sends and deliveries, 1 decision, 8 wake-ups", count)
	}
	if tr.Truncated {
		t.Fatal("an unlimited trace reads as truncated")
	}
}

// TestLimitTruncates: a trace that reaches its size limit ends with a
// "truncated" line and stays within the limit (the marker aside).
func TestLimitTruncates(t *testing.T) {
	full := lcrTrace(t, 8, 0)
	cut := lcrTrace(t, 8, 2000)
	lines := strings.Split(strings.TrimSpace(string(cut)), "\n")
	last := lines[len(lines)-1]
	if last != `{"ev":"truncated","limit":2000}` {
		t.Fatalf("last line %s", last)
	}
	if body := len(cut) - len(last) - 1; body > 2000 || !bytes.HasPrefix(full, cut[:body]) {
		t.Fatalf("%d bytes before the marker; want at most 2000, a prefix of the whole trace", body)
	}
	tr, err := trace.ReadAll(bytes.NewReader(cut))
	if err != nil || !tr.Truncated {
		t.Fatalf("read %v, truncated %v", err, tr != nil && tr.Truncated)
	}
}

// TestVersion1 reads a headerless trace of the first format, and refuses
// a header of an unknown version with a message that names the versions.
func TestVersion1(t *testing.T) {
	v1 := `{"t":0,"ev":"wake","node":0,"spontaneous":true}
{"t":1,"ev":"deliver","from":0,"to":1,"port":"right","type":"election","payload":{"j":1}}
{"t":1,"ev":"halt","node":1}
`
	tr, err := trace.ReadAll(strings.NewReader(v1))
	if err != nil || tr.Version != 1 || tr.Header != nil || len(tr.Events) != 3 {
		t.Fatalf("version 1: %+v, %v", tr, err)
	}
	_, err = trace.ReadAll(strings.NewReader(`{"ev":"header","format":"elect-trace","version":3}` + "\n"))
	if err == nil || !strings.Contains(err.Error(), "version 3") {
		t.Fatalf("version 3: %v", err)
	}
}

// TestRefusesBadLines names the line of each kind of damage.
func TestRefusesBadLines(t *testing.T) {
	good := string(lcrTrace(t, 4, 0))
	lines := strings.SplitAfter(good, "\n")
	for _, bad := range []string{
		`{"t":0,"ev":"wake","node":9}`,
		`{"t":0,"ev":"send","from":0,"to":1,"type":"gossip"}`,
		`{"t":"x","ev":"wake","node":0}`,
		`{"t":0,"ev":"explode"}`,
		`not json`,
	} {
		text := lines[0] + lines[1] + bad + "\n"
		_, err := trace.ReadAll(strings.NewReader(text))
		if err == nil || !strings.Contains(err.Error(), "line 3") {
			t.Errorf("%s: %v", bad, err)
		}
	}
}

// FuzzRead feeds arbitrary bytes to the reader: it returns a trace or an
// error, never panics, reads the same input the same way twice, and every
// node index of an accepted version 2 trace is within the header's n.
func FuzzRead(f *testing.F) {
	f.Add(lcrTrace(f, 4, 0))
	f.Add(lcrTrace(f, 3, 900))
	f.Add([]byte(`{"t":0,"ev":"wake","node":0,"spontaneous":true}` + "\n"))
	f.Add([]byte(`{"ev":"header","format":"elect-trace","version":2,"algorithm":"x","n":2,"ids":[1,2],"topology":{"kind":"general","edges":[[0,1]]},"messages":[{"name":"m","fields":["a"]}]}
{"t":0,"ev":"send","from":0,"to":1,"port":"0","type":"m","payload":{"a":1}}
{"t":1,"ev":"state","node":1,"vars":{"x":[1,2]}}
`))
	f.Fuzz(func(t *testing.T, data []byte) {
		a, errA := trace.ReadAll(bytes.NewReader(data))
		b, errB := trace.ReadAll(bytes.NewReader(data))
		if (errA == nil) != (errB == nil) || errA == nil && !reflect.DeepEqual(a, b) {
			t.Fatalf("two reads differ: %v / %v", errA, errB)
		}
		if errA != nil || a.Header == nil {
			return
		}
		n := int32(a.Header.N)
		if len(a.Header.IDs) != int(n) {
			t.Fatalf("%d IDs for n = %d", len(a.Header.IDs), n)
		}
		for _, ev := range a.Events {
			switch ev.Ev {
			case "send", "deliver", "drop":
				if ev.From < 0 || ev.From >= n || ev.To < 0 || ev.To >= n {
					t.Fatalf("accepted %+v with n = %d", ev, n)
				}
			case "truncated", "violation":
			default:
				if ev.Node < 0 || ev.Node >= n {
					t.Fatalf("accepted %+v with n = %d", ev, n)
				}
			}
		}
	})
}
