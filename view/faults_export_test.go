package view_test

import (
	"bytes"
	"encoding/xml"
	"io"
	"strings"
	"testing"

	"github.com/electkit/elect/trace"
	"github.com/electkit/elect/view"
)

// TestExportsDrawFaults: the SVG of LCR at n = 6 under a partition, a
// loss, a crash, a duplicate and a delay has one mark of each kind per
// line of the trace (a group of class lost or cut with its cross, a dup
// and a delay label, a crash group) and one partition band, and it is
// well-formed XML; the ShiViz log names each fault on the send it hit,
// and the crash as the node's event.
func TestExportsDrawFaults(t *testing.T) {
	data := faultTrace(t, "partition:0-2|3-5@1-6;loss:msg=3;crash:node=2@t=4;dup:msg=5;delay:msg=6,d=3")
	count, _ := faultLines(t, data)
	tr, err := trace.ReadAll(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	var svg bytes.Buffer
	if err := view.SVG(&svg, tr); err != nil {
		t.Fatal(err)
	}
	classes := map[string]int{}
	dec := xml.NewDecoder(bytes.NewReader(svg.Bytes()))
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("the SVG is not well-formed: %v", err)
		}
		if se, ok := tok.(xml.StartElement); ok {
			for _, a := range se.Attr {
				if a.Name.Local == "class" {
					classes[a.Value]++
				}
			}
		}
	}
	want := map[string]int{"lost": count["lost"], "cut": count["cut"], "dup": count["dup"], "delay": count["delay"], "crash": count["crash"], "partition": 1}
	for k, w := range want {
		if classes[k] != w || w == 0 {
			t.Errorf("SVG: %d marks of class %s, want %d (the trace's lines: %v)", classes[k], k, w, count)
		}
	}
	for _, s := range []string{"lost (cut: by a partition)", "dup: the copy of a duplicate", "delay +d: late", "crash, then a dashed line", ">partition<", "partition 0-2 | 3-5"} {
		if !strings.Contains(svg.String(), s) {
			t.Errorf("SVG: no %q", s)
		}
	}
	var log bytes.Buffer
	if err := view.ShiViz(&log, tr); err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for _, l := range strings.Split(log.String(), "\n") {
		for _, s := range []string{"(FAULT: lost)", "(FAULT: lost, cut by a partition)", "(FAULT: duplicated)", "(FAULT: delayed by 3)", "} t=4 FAULT: crash"} {
			if strings.HasSuffix(l, s) {
				got[s]++
			}
		}
	}
	for s, w := range map[string]int{"(FAULT: lost)": count["lost"], "(FAULT: lost, cut by a partition)": count["cut"], "(FAULT: duplicated)": count["dup"], "(FAULT: delayed by 3)": count["delay"], "} t=4 FAULT: crash": count["crash"]} {
		if got[s] != w {
			t.Errorf("ShiViz: %d lines ending %q, want %d", got[s], s, w)
		}
	}
}
