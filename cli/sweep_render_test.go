package cli

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"sigs.k8s.io/yaml"
)

// renderedK8sSweep is the grid of the rendering tests: 2 algorithms x 2
// sizes x 5 trials, 20 runs.
var renderedK8sSweep = []string{"sweep", "lcr,hs", "--n", "16,32", "--trials", "5", "--seed", "3"}

// TestSweepRenderKubernetesIsAnIndexedJob (issue 42): 'sweep --shards K
// --render kubernetes' prints an Indexed Job of K completions, at most K at
// once, whose pods run the sweep's shard I+1/K into their own file with
// --resume; the arguments, substituted as the kubelet does for every index
// and run, give shards that merge into the unsharded sweep's output.
func TestSweepRenderKubernetesIsAnIndexedJob(t *testing.T) {
	const k = 3
	code, manifest, errOut := runCLI(append(renderedK8sSweep, "--shards", strconv.Itoa(k), "--render", "kubernetes", "--workers", "2")...)
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var job map[string]any
	if err := yaml.Unmarshal([]byte(manifest), &job); err != nil {
		t.Fatalf("the manifest is not YAML: %v\n%s", err, manifest)
	}
	for _, c := range []struct {
		path []any
		want any
	}{
		{[]any{"apiVersion"}, "batch/v1"},
		{[]any{"kind"}, "Job"},
		{[]any{"spec", "completionMode"}, "Indexed"},
		{[]any{"spec", "completions"}, float64(k)},
		{[]any{"spec", "template", "spec", "restartPolicy"}, "Never"},
		{[]any{"spec", "template", "spec", "containers", 0, "image"}, "elect:local"},
		{[]any{"spec", "template", "spec", "containers", 0, "env", 0, "name"}, "JOB_COMPLETION_INDEX"},
		{[]any{"spec", "template", "spec", "containers", 0, "env", 0, "valueFrom", "fieldRef", "fieldPath"}, "metadata.annotations['batch.kubernetes.io/job-completion-index']"},
		{[]any{"spec", "template", "spec", "containers", 0, "resources", "requests", "cpu"}, "2"},
		{[]any{"spec", "template", "spec", "containers", 0, "volumeMounts", 0, "mountPath"}, "/results"},
		{[]any{"spec", "template", "spec", "volumes", 0, "persistentVolumeClaim", "claimName"}, "elect-results"},
		{[]any{"spec", "podFailurePolicy", "rules", 0, "onExitCodes", "values", 0}, float64(2)},
		{[]any{"spec", "podFailurePolicy", "rules", 1, "onPodConditions", 0, "type"}, "DisruptionTarget"},
	} {
		if got := get(job, c.path...); got != c.want {
			t.Errorf("%v = %#v, want %#v", c.path, got, c.want)
		}
	}
	if p, ok := get(job, "spec", "parallelism").(float64); !ok || p < 1 || p > k {
		t.Errorf("parallelism %v, want 1..%d", get(job, "spec", "parallelism"), k)
	}
	if name, _ := get(job, "metadata", "name").(string); !regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`).MatchString(name) || len(name) > 63 {
		t.Errorf("metadata.name %q is not a DNS label", name)
	}
	var args []string
	for _, a := range get(job, "spec", "template", "spec", "containers", 0, "args").([]any) {
		args = append(args, a.(string))
	}
	file := "/results/shard-$(JOB_COMPLETION_INDEX).jsonl"
	want := append(slices.Clone(renderedK8sSweep[:2]), "--n=16,32", "--seed=3", "--trials=5", "--workers=2",
		"--shard", "$(JOB_COMPLETION_INDEX)+1/3", "--out", file, "--resume", file)
	if !slices.Equal(args, want) {
		t.Fatalf("args %q, want %q", args, want)
	}
	// Every pod, as the kubelet would start it.
	dir := t.TempDir()
	var shards []string
	for i := range k {
		pod := make([]string, len(args))
		for j, a := range args {
			a = strings.ReplaceAll(a, "$(JOB_COMPLETION_INDEX)", strconv.Itoa(i))
			pod[j] = strings.ReplaceAll(a, "/results", dir)
		}
		if code, _, errOut := runCLI(pod...); code != 0 {
			t.Fatalf("pod %d: exit %d: %s", i, code, errOut)
		}
		shards = append(shards, filepath.Join(dir, "shard-"+strconv.Itoa(i)+".jsonl"))
	}
	code, merged, errOut := runCLI(append([]string{"merge"}, shards...)...)
	_, whole, _ := runCLI(renderedK8sSweep...)
	if code != 0 || merged != whole {
		t.Errorf("the pods' shards merge (exit %d, %s) into\n%s\nnot the sweep's\n%s", code, errOut, merged, whole)
	}
}

// TestSweepRenderRefusals: the render flags are checked before anything is
// printed.
func TestSweepRenderRefusals(t *testing.T) {
	for _, c := range []badInput{
		{append(slices.Clone(renderedK8sSweep), "--shards", "3"), "--shards 3 goes with --render kubernetes or slurm"},
		{append(slices.Clone(renderedK8sSweep), "--render", "slurm"), "--render needs --shards K"},
		{append(slices.Clone(renderedK8sSweep), "--render", "nomad", "--shards", "2"), `unknown --render "nomad"`},
		{append(slices.Clone(renderedK8sSweep), "--render", "slurm", "--shards", "21"), "--shards 21, but the sweep has 20 runs"},
		{append(slices.Clone(renderedK8sSweep), "--render", "slurm", "--shards", "2", "--out", "x.jsonl"), "leave out --out"},
		{append(slices.Clone(renderedK8sSweep), "--render", "slurm", "--shards", "2", "--shard", "1/2"), "leave out --shard"},
		{[]string{"sweep", "lcr,lcr", "--render", "slurm", "--shards", "2"}, "lcr is listed twice"},
	} {
		wantBadInput(t, c.args, c.want)
	}
}

// TestSweepShardsSurviveSignalsAndRestarts (issue 42): the Slurm script
// that 'sweep --render slurm' prints runs under sh, a task at a time, as
// the job array would (SLURM_ARRAY_TASK_ID, SLURM_CPUS_PER_TASK). A task is
// stopped by a signal half-way and started again with the same command; it
// resumes its file, 'elect merge' refuses the shards while one is missing
// or incomplete, and then merges them into exactly the unsharded sweep's
// output.
//
// SIGINT keeps the finished lines today, so its restart runs only the rest.
// After SIGTERM (what Slurm and Kubernetes send on preemption) a restart
// must also complete the shard; that it keeps the finished lines too is
// the work of issue 42's outputs (helper "oneway"), after which this test
// checks it for SIGTERM as well.
func TestSweepShardsSurviveSignalsAndRestarts(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	sweep := []string{"sweep", "lcr", "--n", "2000", "--trials", "400"}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			dir := t.TempDir()
			// elect on the script's PATH: this test binary, as main.
			bin := filepath.Join(dir, "bin")
			if err := os.Mkdir(bin, 0o755); err != nil {
				t.Fatal(err)
			}
			wrapper := "#!/bin/sh\nELECT_CLI_AS_MAIN=1 exec " + shellWord(self) + " \"$@\"\n"
			if err := os.WriteFile(filepath.Join(bin, "elect"), []byte(wrapper), 0o755); err != nil {
				t.Fatal(err)
			}
			code, script, errOut := runCLI(append(slices.Clone(sweep), "--shards", "2", "--render", "slurm")...)
			if code != 0 {
				t.Fatalf("render: exit %d: %s", code, errOut)
			}
			if err := os.WriteFile(filepath.Join(dir, "sweep.sh"), []byte(script), 0o755); err != nil {
				t.Fatal(err)
			}
			task := func(i int) *exec.Cmd {
				cmd := exec.Command("sh", "sweep.sh")
				cmd.Dir = dir
				cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
					"SLURM_ARRAY_TASK_ID="+strconv.Itoa(i), "SLURM_CPUS_PER_TASK=1")
				return cmd
			}
			shard1 := filepath.Join(dir, "shard-1.jsonl")
			// Task 1, stopped once it has finished some runs.
			cmd := task(1)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			waitForLines(t, dir, "shard-1.jsonl", 2)
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			err := cmd.Wait()
			var exit *exec.ExitError
			if !errors.As(err, &exit) {
				t.Fatalf("task 1 was not stopped by %v: %v; stderr %q", sig, err, stderr.String())
			}
			kept := 0
			if data, err := os.ReadFile(shard1); err == nil {
				kept = bytes.Count(data, []byte("\n"))
			}
			if sig == syscall.SIGINT && (exit.ExitCode() != 130 || kept == 0 || kept == 200) {
				t.Fatalf("SIGINT: exit %d with %d of 200 lines kept; want 130 and some; stderr %q", exit.ExitCode(), kept, stderr.String())
			}
			if kept > 0 {
				code, _, errOut := runCLI("merge", shard1)
				if code != 2 || !strings.Contains(errOut, "runs: run it to the end") {
					t.Errorf("merge of a cut shard: exit %d, %q; want it refused", code, errOut)
				}
			}
			// Task 1 again, the same command: it resumes.
			stderr.Reset()
			cmd = task(1)
			cmd.Stderr = &stderr
			if err := cmd.Run(); err != nil {
				t.Fatalf("task 1 restarted: %v; stderr %q", err, stderr.String())
			}
			if want := strconv.Itoa(kept) + " of 200 runs are already in shard-1.jsonl"; !strings.Contains(stderr.String(), want) {
				t.Errorf("task 1 restarted: stderr %q, want %q", stderr.String(), want)
			}
			if code, _, errOut := runCLI("merge", shard1); code != 2 || !strings.Contains(errOut, "shard 2/2 of the sweep is missing") {
				t.Errorf("merge without shard 2: exit %d, %q; want it refused", code, errOut)
			}
			stderr.Reset()
			cmd = task(2)
			cmd.Stderr = &stderr
			if err := cmd.Run(); err != nil {
				t.Fatalf("task 2: %v; stderr %q", err, stderr.String())
			}
			code, merged, errOut := runCLI("merge", filepath.Join(dir, "shard-2.jsonl"), shard1)
			_, whole, _ := runCLI(sweep...)
			if code != 0 || merged != whole {
				t.Errorf("merge: exit %d, %s; the merged shards differ from the unsharded sweep", code, errOut)
			}
		})
	}
}

// waitForLines waits until the file name in dir, or the temporary file
// that an output is written to before its rename, holds at least n lines
// (a minute at most).
func waitForLines(t *testing.T, dir, name string, n int) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		paths, _ := filepath.Glob(filepath.Join(dir, "."+name+".elect-*.tmp"))
		for _, p := range append(paths, filepath.Join(dir, name)) {
			if data, err := os.ReadFile(p); err == nil && bytes.Count(data, []byte("\n")) >= n {
				return
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("%s has no %d lines after a minute", name, n)
}

// shellWord quotes s as one word of sh.
func shellWord(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
