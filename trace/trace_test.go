package trace_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/electkit/elect"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/internal/bounded"
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
	_, err := sim.Run(election.Config{Algorithm: ring.LCR, Graph: topology.NewRing(n), IDs: ids,
		Delivery: election.FIFO, Trace: &buf, TraceLimit: limit})
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

// maxErrorLine bounds the reader's error messages: the longest of its own
// wording, with two excerpts of bounded.MaxExcerpt bytes.
const maxErrorLine = 800

// FuzzRead feeds arbitrary bytes to the reader: it returns a trace or an
// error, never panics, reads the same input the same way twice, every
// node index of an accepted version 2 trace is within the header's n, and
// an error is one line that quotes at most bounded.MaxExcerpt bytes of
// the input at a time.
func FuzzRead(f *testing.F) {
	f.Add(lcrTrace(f, 4, 0))
	f.Add(lcrTrace(f, 3, 900))
	f.Add([]byte(`{"t":0,"ev":"wake","node":0,"spontaneous":true}` + "\n"))
	f.Add([]byte(`{"ev":"header","format":"elect-trace","version":2,"algorithm":"x","n":2,"ids":[1,2],"topology":{"kind":"general","edges":[[0,1]]},"messages":[{"name":"m","fields":["a"]}]}
{"t":0,"ev":"send","from":0,"to":1,"port":"0","type":"m","payload":{"a":1}}
{"t":1,"ev":"state","node":1,"vars":{"x":[1,2]}}
`))
	f.Add([]byte(populationTrace))
	f.Add([]byte(`{"t":` + strings.Repeat("1", 300) + `,"ev":"wake","node":0}` + "\n"))
	f.Add([]byte(`{"t":0,"ev":"` + strings.Repeat("x ", 300) + `","node":0}` + "\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		a, errA := trace.ReadAll(bytes.NewReader(data))
		b, errB := trace.ReadAll(bytes.NewReader(data))
		if (errA == nil) != (errB == nil) || errA == nil && !reflect.DeepEqual(a, b) {
			t.Fatalf("two reads differ: %v / %v", errA, errB)
		}
		if errA != nil && len(errA.Error()) > maxErrorLine {
			t.Fatalf("an error of %d bytes (excerpts are cut to %d): %.400s", len(errA.Error()), bounded.MaxExcerpt, errA)
		}
		if errA != nil || a.Header == nil {
			return
		}
		if a.Header.Population() {
			checkPopulation(t, a)
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

// populationTrace is a small population run (docs/trace.md, "Population
// runs"): three agents, Angluin's two states.
const populationTrace = `{"ev":"header","format":"elect-trace","version":2,"kind":"population","protocol":"angluin","algorithm":"angluin","n":3,"seed":1,"engine":"agent-array","scheduler":"ordered","time":"parallel time","runtime":"pp","states":[{"name":"L","output":"L"},{"name":"F","output":"F"}]}
{"t":0,"ev":"counts","step":0,"leaders":3,"counts":[3,0]}
{"t":1,"ev":"counts","step":3,"leaders":2,"counts":[2,1]}
{"t":2.3333333333333335,"ev":"counts","step":7,"leaders":1,"counts":[1,2]}
{"t":2.3333333333333335,"ev":"result","outcome":"elected","interactions":7,"leaders":1}
`

// checkPopulation checks what the reader promises of an accepted
// population trace: only counts, result and truncated lines, counts one
// per state adding up to n, leaders within 0..n.
func checkPopulation(t *testing.T, tr *trace.Trace) {
	t.Helper()
	n := int64(tr.Header.N)
	if len(tr.Header.States) == 0 || n < 2 {
		t.Fatalf("accepted a header with %d states and n = %d", len(tr.Header.States), n)
	}
	for _, ev := range tr.Events {
		if ev.Leaders < 0 || ev.Leaders > n {
			t.Fatalf("accepted %d leaders of %d", ev.Leaders, n)
		}
		switch ev.Ev {
		case "counts":
			if len(ev.Counts) != len(tr.Header.States) {
				t.Fatalf("accepted %d counts for %d states", len(ev.Counts), len(tr.Header.States))
			}
			var sum int64
			for _, k := range ev.Counts {
				if k < 0 {
					t.Fatalf("accepted a negative count")
				}
				sum += k
			}
			if sum != n {
				t.Fatalf("accepted counts adding up to %d, n = %d", sum, n)
			}
		case "result", "truncated":
		default:
			t.Fatalf("accepted %q in a population trace", ev.Ev)
		}
	}
}

// TestPopulationTrace reads a population trace, and refuses broken ones
// with a message naming the line.
func TestPopulationTrace(t *testing.T) {
	tr, err := trace.ReadAll(strings.NewReader(populationTrace))
	if err != nil {
		t.Fatal(err)
	}
	if !tr.Header.Population() || len(tr.Events) != 4 || tr.Events[2].Counts[1] != 2 || tr.Events[3].Outcome != "elected" {
		t.Fatalf("read %+v", tr)
	}
	lines := strings.Split(populationTrace, "\n")
	for _, c := range []struct {
		line       int
		text, want string
	}{
		{2, `{"t":1,"ev":"counts","step":3,"leaders":2,"counts":[2,2]}`, "line 3: the counts add up to more than n = 3"},
		{2, `{"t":1,"ev":"counts","step":3,"leaders":2,"counts":[3]}`, "line 3: 1 counts for the header's 2 states"},
		{2, `{"t":1,"ev":"counts","step":3,"leaders":2,"counts":[-1,4]}`, "line 3: a negative count"},
		{2, `{"t":1,"ev":"counts","step":3,"leaders":2,"counts":[1,1]}`, "line 3: the counts add up to 2, not n = 3"},
		{2, `{"t":1,"ev":"counts","step":3,"leaders":4,"counts":[2,1]}`, "line 3: 4 leaders of 3 agents"},
		{2, `{"t":1,"ev":"send","from":0,"to":1,"type":"m"}`, "line 3: send is not an event of a population run"},
		{0, strings.Replace(lines[0], `"states":[`, `"states":[{"name":"L","output":"F"},`, 1), "state \"L\" is empty or named twice"},
		{0, strings.Replace(lines[0], `"n":3`, `"n":1`, 1), "n = 1 is not in 2..2^60"},
		{0, strings.Replace(lines[0], `"population"`, `"crowd"`, 1), "kind \"crowd\""},
	} {
		l := append([]string(nil), lines...)
		l[c.line] = c.text
		_, err := trace.ReadAll(strings.NewReader(strings.Join(l, "\n")))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("line %d %s: error %v, want %q", c.line+1, c.text, err, c.want)
		}
	}
	// A network trace does not take population events.
	net := string(lcrTrace(t, 3, 0)) + `{"t":9,"ev":"counts","step":1,"counts":[1]}` + "\n"
	if _, err := trace.ReadAll(strings.NewReader(net)); err == nil || !strings.Contains(err.Error(), "counts is an event of population runs") {
		t.Errorf("a network trace with a counts line: %v", err)
	}
}

// FuzzQuickEvent: every line the quick decoder takes decodes to the same
// event as with encoding/json.
func FuzzQuickEvent(f *testing.F) {
	for _, data := range [][]byte{lcrTrace(f, 4, 0), []byte(populationTrace)} {
		for _, l := range bytes.Split(data, []byte("\n")) {
			f.Add(l)
		}
	}
	for _, l := range []string{
		`{"t":1.5e3,"ev":"state","node":1,"vars":{"x":[1,{"y":"]"}],"z":null}}`,
		`{"t":-0,"ev":"decide","node":2147483647,"decision":"elected"}`,
		`{"t":0,"ev":"learn","node":0,"leader":-9223372036854775808}`,
		`{"t":0,"ev":"wake","node":01}`,
		`{"t":0,"ev":"send","from":0,"to":1,"type":"m","payload":{"a":1,"a":2}}`,
		`{"t":0,"ev":"truncated","limit":5,"reason":"x"}`,
	} {
		f.Add([]byte(l))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		var quick, slow trace.Event
		if !trace.QuickEvent(line, &quick) {
			return
		}
		if err := json.Unmarshal(line, &slow); err != nil {
			t.Fatalf("quick took %q, which encoding/json refuses: %v", line, err)
		}
		if !reflect.DeepEqual(quick, slow) {
			t.Fatalf("%q: quick %+v, encoding/json %+v", line, quick, slow)
		}
	})
}

// BenchmarkRead reads LCR's trace on a decreasing ring of 300 event by
// event, as the viewer indexes a trace, with the quick decoder and with
// encoding/json alone.
func BenchmarkRead(b *testing.B) {
	data := lcrTrace(b, 300, 0)
	for _, quick := range []bool{true, false} {
		b.Run(fmt.Sprintf("quick=%t", quick), func(b *testing.B) {
			defer func(was bool) { *trace.QuickDecoding = was }(*trace.QuickDecoding)
			*trace.QuickDecoding = quick
			events := 0
			for b.Loop() {
				rd, err := trace.NewReader(bytes.NewReader(data))
				if err != nil {
					b.Fatal(err)
				}
				for {
					_, err := rd.Next()
					if err == io.EOF {
						break
					}
					if err != nil {
						b.Fatal(err)
					}
					events++
				}
			}
			b.SetBytes(int64(len(data)))
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(events), "ns/event")
			b.ReportMetric(float64(events)/float64(b.N), "events")
		})
	}
}

// TestErrorsCutWhatTheyQuote (issue 42): an error echoed a 5 MB JSON
// number whole; every error now quotes at most bounded.MaxExcerpt bytes
// of the trace, with an ellipsis.
func TestErrorsCutWhatTheyQuote(t *testing.T) {
	header := string(lcrTrace(t, 3, 0)[:bytes.IndexByte(lcrTrace(t, 3, 0), '\n')+1])
	long := strings.Repeat("1", 5_000_000)
	for _, c := range []struct{ trace, want string }{
		{header + `{"t":1,"ev":"wake","node":` + long + "}\n", "trace: line 2: not a trace event: json: cannot unmarshal number " + strings.Repeat("1", 200) + "… into Go struct field Event.node of type int32"},
		{header + `{"t":1,"ev":"` + long + `","node":0}` + "\n", `trace: line 2: unknown event "` + strings.Repeat("1", 200) + `"…`},
		{`{"ev":"header","version":2,"format":"` + long + `"}` + "\n", `trace: line 1, the header: format "` + strings.Repeat("1", 200) + `"…, want "elect-trace"`},
	} {
		_, err := trace.ReadAll(strings.NewReader(c.trace))
		if err == nil || err.Error() != c.want {
			t.Errorf("error of %d bytes: %.400v\nwant %.400s", len(fmt.Sprint(err)), err, c.want)
		}
	}
}
