package cli

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/electkit/elect/runner"
	"github.com/electkit/elect/scenario"
)

// TestRunJSONWritesTheEncodersBytes: `run --json` writes a record with a
// run report (per-link counts streamed, encodeRecord) byte for byte as
// json.Encoder writes it, on goroutines (2n links, per-link counts) and
// on the simulator (no report).
func TestRunJSONWritesTheEncodersBytes(t *testing.T) {
	for _, runtime := range []string{"goroutines", "sim"} {
		s := scenario.Spec{Algorithm: "lcr", N: 300, Seed: 1, IDs: "decreasing"}
		if runtime == "goroutines" {
			s.Runtime = "goroutines"
		}
		rec, err := runner.Run(s)
		if err != nil {
			t.Fatal(err)
		}
		if runtime == "goroutines" && (rec.Transport == nil || len(rec.Transport.PerLink) != 600) {
			t.Fatalf("goroutines: no per-link counts in %+v", rec.Transport)
		}
		var want, got bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(rec); err != nil {
			t.Fatal(err)
		}
		enc = json.NewEncoder(&got)
		enc.SetEscapeHTML(false)
		if err := encodeRecord(enc, &got, rec); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Errorf("%s: encodeRecord differs from json.Encoder:\n%s\n%s", runtime, got.Bytes(), want.Bytes())
		}
	}
}
