package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestPPGolden pins the human-readable output of "elect pp".
func TestPPGolden(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"pp_list", []string{"pp", "list"}},
		{"pp_angluin", []string{"pp", "angluin", "--n", "100", "--trials", "5", "--seed", "7"}},
		{"pp_pll", []string{"pp", "pll", "--n", "1000", "--trials", "3", "--seed", "7"}},
	} {
		out, errs, code := runPP(tc.args...)
		if code != 0 {
			t.Fatalf("%v: exit %d, stderr %q", tc.args, code, errs)
		}
		checkGolden(t, tc.name, out)
	}
}

// TestPPJSONFields: one object per trial with the public fields.
func TestPPJSONFields(t *testing.T) {
	out, errs, code := runPP("pp", "epidemic-term", "--n", "300", "--trials", "3", "--json", "--seed", "5")
	if code != 0 && code != 1 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 {
		t.Fatalf("want 3 lines, got %d:\n%s", len(lines), out)
	}
	for _, l := range lines {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatal(err)
		}
		for _, k := range []string{"protocol", "n", "seed", "engine", "outcome", "interactions", "parallel_time", "leaders", "states_seen", "details"} {
			if _, ok := m[k]; !ok {
				t.Errorf("field %q missing in %s", k, l)
			}
		}
		if m["engine"] != "agent-array" || m["protocol"] != "epidemic-term" {
			t.Errorf("bad engine or protocol in %s", l)
		}
		d := m["details"].(map[string]any)
		for _, k := range []string{"completion_step", "declaration_step", "declared_after_completion", "declarer_holds_max"} {
			if _, ok := d[k]; !ok {
				t.Errorf("details.%s missing in %s", k, l)
			}
		}
	}
}

// TestPPTrialRerunsAlone: trial t's JSON line reports its seed, and
// "--seed S_t --trials 1" reproduces that line exactly.
func TestPPTrialRerunsAlone(t *testing.T) {
	out, _, code := runPP("pp", "pll", "--n", "500", "--trials", "4", "--seed", "11", "--json")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var third struct{ Seed uint64 }
	if err := json.Unmarshal([]byte(lines[2]), &third); err != nil {
		t.Fatal(err)
	}
	again, _, _ := runPP("pp", "--json", "--trials", "1", "--n", "500", "pll", "--seed", jsonNum(third.Seed))
	if strings.TrimSpace(again) != lines[2] {
		t.Fatalf("rerun differs:\n%s\n%s", again, lines[2])
	}
}

func jsonNum(x uint64) string { b, _ := json.Marshal(x); return string(b) }

// TestPPFlagsBeforeOrAfterProtocol: "elect pp pll --n 1000" and
// "elect pp --n 1000 pll" are the same command.
func TestPPFlagsBeforeOrAfterProtocol(t *testing.T) {
	a, _, ca := runPP("pp", "pll", "--n", "1000", "--json")
	b, _, cb := runPP("pp", "--n", "1000", "--json", "pll")
	if a != b || ca != cb || a == "" {
		t.Fatalf("outputs differ:\n%s\n%s", a, b)
	}
}

// TestPPBadInput: bad input gets one line on stderr and exit status 2.
func TestPPBadInput(t *testing.T) {
	for _, tc := range []badInput{
		{[]string{"pp", "angluin", "--n", "1"}, "--n must be between 2"},
		{[]string{"pp", "pll", "--n", "1000", "--m", "9"}, "m >= 10"},
		{[]string{"pp", "pl", "--n", "10"}, `did you mean "pll"?`},
		{[]string{"pp", "epidemc"}, `did you mean "epidemic"?`},
		{[]string{"pp", "angluin", "--m", "4"}, "angluin has no parameter --m"},
		{[]string{"pp", "angluin", "--frobnicate", "4"}, "flag provided but not defined: -frobnicate"},
		{[]string{"pp", "pll", "--variant", "litteral"}, "unknown variant"},
		{[]string{"pp", "angluin", "--scheduler", "orderd"}, `did you mean "ordered"?`},
		{[]string{"pp"}, "no protocol given"},
		{[]string{"pp", "angluin", "epidemic"}, "one protocol expected"},
		{[]string{"pp", "angluin", "--trials", "0"}, "--trials must be"},
		{[]string{"pp", "pll-sym", "--n", "2"}, "at least 3"},
		{[]string{"pp", "epidemic-term", "--m", "0"}, "--m must be at least 1"}, // not silently the default (issue 21)
	} {
		wantBadInput(t, tc.args, tc.want)
	}
}

// TestPPStepLimitExitsOne: a run stopped by --max-steps is not what the
// protocol promises: exit status 1, and the summary says so.
func TestPPStepLimitExitsOne(t *testing.T) {
	out, _, code := runPP("pp", "angluin", "--n", "1000", "--max-steps", "10")
	if code != 1 || !strings.Contains(out, "step-limit 1") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
}

// TestPPPLLDetails: pll's details give the leaders when the population left
// epochs 1 and 2 and whether BackUp was needed.
func TestPPPLLDetails(t *testing.T) {
	out, errs, code := runPP("pp", "pll", "--n", "2000", "--trials", "2", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var r struct {
			Outcome string
			Leaders int
			Details map[string]any
		}
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatal(err)
		}
		if r.Outcome != "elected" || r.Leaders != 1 {
			t.Errorf("not elected: %s", l)
		}
		for _, k := range []string{"m", "c_max", "leaders_leaving_epoch1", "leaders_leaving_epoch2", "backup_needed"} {
			if _, ok := r.Details[k]; !ok {
				t.Errorf("details.%s missing in %s", k, l)
			}
		}
	}
}

// TestPPEngines (issue 6): --engine selects the engine and every JSON line
// records the one that ran; auto keeps small populations and numbered
// protocols on the agent array and takes the count engine for large
// anonymous ones.
func TestPPEngines(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		engine string
		code   int
	}{
		// Below 4096 agents auto starts on the agent array and moves to
		// null-skipping when few pairs are non-null (angluin's last
		// leaders); P_LL's clocks keep it on the array.
		{[]string{"pp", "angluin", "--n", "1000"}, "null-skipping+agent-array", 0},
		{[]string{"pp", "pll", "--n", "1000"}, "agent-array", 0},
		{[]string{"pp", "angluin", "--n", "1000", "--engine", "batched"}, "batched", 0},
		{[]string{"pp", "angluin", "--n", "1000", "--engine", "null-skipping"}, "null-skipping", 0},
		{[]string{"pp", "angluin", "--n", "200000"}, "batched+null-skipping", 0},
		{[]string{"pp", "pll", "--n", "2000", "--engine", "batched"}, "batched", 0},
		{[]string{"pp", "epidemic", "--n", "100", "--engine", "null-skipping"}, "null-skipping", 0},
		{[]string{"pp", "epidemic", "--n", "100000"}, "agent-array", 0},
		{[]string{"pp", "angluin", "--n", "1125899906842624", "--max-steps", "1000000000000"}, "batched", 1},
	} {
		out, errs, code := runPP(append(tc.args, "--json", "--no-states")...)
		var r struct {
			Engine  string
			N       int64
			Outcome string
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil || code != tc.code || r.Engine != tc.engine {
			t.Errorf("%v: exit %d (want %d), engine %q (want %q), stderr %q", tc.args, code, tc.code, r.Engine, tc.engine, errs)
		}
	}
}

// TestPPEngineRefusals: one line and exit status 2 where the chosen engine
// cannot run the configuration (memory, numbered agents, scheduler).
func TestPPEngineRefusals(t *testing.T) {
	for _, tc := range []badInput{
		{[]string{"pp", "epidemic", "--n", "4294967296"}, "only the agent-array engine applies"},
		{[]string{"pp", "angluin", "--n", "4294967296", "--engine", "agent-array"}, "n must be between 2 and 2147483648"},
		{[]string{"pp", "epidemic", "--n", "10000000", "--engine", "batched"}, "numbers its agents"},
		{[]string{"pp", "angluin", "--n", "1000", "--engine", "batched", "--scheduler", "with-repeats"}, "with-repeats"},
		{[]string{"pp", "angluin", "--engine", "bached"}, `did you mean "batched"?`},
		{[]string{"pp", "epidemic-term", "--n", "50", "--engine", "batched"}, "agent-array engine only"},
	} {
		wantBadInput(t, tc.args, tc.want)
	}
}
