package experiment

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// A sweep split into shards runs on a scheduler as one job per shard, each
// preemptible: killed with SIGTERM (what Slurm and Kubernetes send on
// preemption, eviction or a time limit) and restarted with the same
// command, a shard resumes its file ('--resume' of a file that does not
// exist yet starts it), and 'elect merge' refuses the shards until every one
// is complete. Render prints that job for Slurm (a job array) or Kubernetes
// (an Indexed Job).

// Render is what 'elect sweep --shards K --render FORMAT' asks for: the job
// that runs the sweep as K shards on a scheduler, printed instead of run.
type Render struct {
	Format string // RenderFormats; "" runs the sweep here
	Shards int    // K
	Image  string // the container image of a Kubernetes job
}

// RenderFormats are the values of --render.
var RenderFormats = []string{"kubernetes", "slurm"}

// RenderImage is the image a rendered Kubernetes job runs when --image
// names none: built from deploy/Dockerfile (docker build -f
// deploy/Dockerfile -t elect:local .), as 'elect cluster init' renders it.
const RenderImage = "elect:local"

// renderFlags are the flags of Render, which the rendered command leaves
// out; renderWrites are the sweep's flags that each shard's command sets
// itself.
var (
	renderFlags  = []string{"render", "shards", "image", "workers"}
	renderWrites = []string{"shard", "out", "resume", "csv"}
)

// Register adds --render, --shards and --image to a sweep's flags.
func (r *Render) Register(fs *flag.FlagSet) {
	fs.StringVar(&r.Format, "render", "", "print the job that runs the sweep as --shards shards on a scheduler instead of running it: kubernetes (an Indexed Job) or slurm (the sbatch script of a job array); see docs/experiments.md")
	fs.IntVar(&r.Shards, "shards", 0, "the number of shards of a --render job")
	fs.StringVar(&r.Image, "image", RenderImage, "the container image of a --render kubernetes job")
}

// Requested says whether the flags ask for a rendered job (or half of one,
// which Write refuses).
func (r *Render) Requested() bool { return r.Format != "" || r.Shards != 0 }

// Write prints the job of the sweep whose flags are fs (parsed) and whose
// algorithms are pos, g being the grid they describe: each shard runs the
// same sweep with --shard, --out and --resume set to its own file. The grid
// is checked first, so that a bad one is refused here rather than on the
// scheduler.
func (r *Render) Write(w io.Writer, fs *flag.FlagSet, pos []string, g *Grid) error {
	if r.Format == "" {
		return errorf("--shards %d goes with --render %s; --shard i/k runs one shard here", r.Shards, strings.Join(RenderFormats, " or "))
	}
	if !slices.Contains(RenderFormats, r.Format) {
		return errorf("unknown --render %q; use %s", r.Format, strings.Join(RenderFormats, " or "))
	}
	if r.Shards < 1 || r.Shards > maxShards {
		return errorf("--render needs --shards K, the number of shards, with 1 <= K <= %d", maxShards)
	}
	var clash error
	fs.Visit(func(f *flag.Flag) {
		if clash == nil && slices.Contains(renderWrites, f.Name) {
			clash = errorf("--render sets each shard's --shard, --out and --resume itself; leave out --%s", f.Name)
		}
	})
	if clash != nil {
		return clash
	}
	points, err := g.Points()
	if err != nil {
		return err
	}
	if runs := len(points) * g.Trials; r.Shards > runs {
		return errorf("--shards %d, but the sweep has %d runs: use at most %d shards", r.Shards, runs, runs)
	}
	args, workers := sweepArgs(fs, pos)
	job := renderedJob{Render: *r, Args: args, Workers: workers, Grid: g.Fingerprint()}
	var text string
	if r.Format == "kubernetes" {
		text = job.kubernetes()
	} else {
		text = job.slurm()
	}
	_, err = io.WriteString(w, text)
	return err
}

// maxShards is the most shards ParseShard takes.
const maxShards = 1 << 20

// sweepArgs is the command line of the sweep of fs and pos without the
// flags of Render: the algorithms, then every flag given, as --name=value,
// in name order (which parses to the same grid). workers is --workers when
// given, else 1: a shard is one task of that many CPUs.
func sweepArgs(fs *flag.FlagSet, pos []string) (args []string, workers int) {
	args = append([]string{"sweep"}, pos...)
	workers = 1
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "workers" {
			workers, _ = strconv.Atoi(f.Value.String())
		}
		if !slices.Contains(renderFlags, f.Name) {
			args = append(args, "--"+f.Name+"="+f.Value.String())
		}
	})
	return args, workers
}

// renderedJob is a job to render: the sweep's command, its shards, the
// CPUs of each, and the grid's fingerprint, which names the job.
type renderedJob struct {
	Render
	Args    []string
	Workers int
	Grid    string
}

// kubernetes is an Indexed Job of K pods, one per shard. Each pod's
// command gets its 0-based index from the Job ($(JOB_COMPLETION_INDEX),
// which the kubelet substitutes: no shell is needed, and the image of
// deploy/Dockerfile has none) and writes its file on the volume claim
// elect-results, which every pod mounts, so that the pod that replaces a
// preempted one resumes the file. Pods disrupted by preemption or eviction
// do not count as failures; bad input (exit 2) fails the Job at once.
func (j renderedJob) kubernetes() string {
	const index = "$(JOB_COMPLETION_INDEX)"
	file := "/results/shard-" + index + ".jsonl"
	args := make([]string, 0, len(j.Args)+7)
	for _, a := range j.Args {
		// The kubelet would substitute $(NAME) in an argument; $$ is a $.
		args = append(args, strings.ReplaceAll(a, "$(", "$$("))
	}
	args = append(args, "--workers="+strconv.Itoa(j.Workers), "--shard", index+"+1/"+strconv.Itoa(j.Shards), "--out", file, "--resume", file)
	quoted, _ := json.Marshal(args)
	name := "elect-sweep-" + j.Grid[:min(len(j.Grid), 12)]
	return fmt.Sprintf(`# Rendered by 'elect sweep ... --shards %[1]d --render kubernetes': the sweep
# as an Indexed Job of %[1]d pods, pod I running shard I+1/%[1]d into
# /results/shard-I.jsonl on the volume claim elect-results (ReadWriteMany, to
# be created beforehand; see docs/experiments.md). A pod preempted or evicted
# (SIGTERM) is replaced, and the new pod resumes its shard's file. When the Job
# has completed, merge the shards (it refuses a missing or incomplete one):
#
#   elect merge /results/shard-*.jsonl --out sweep.jsonl
#
# Build the image once: docker build -f deploy/Dockerfile -t elect:local .
apiVersion: batch/v1
kind: Job
metadata:
  name: %[2]s
  labels:
    app: elect-sweep
spec:
  completionMode: Indexed
  completions: %[1]d
  parallelism: %[1]d
  backoffLimitPerIndex: 3
  podFailurePolicy:
    rules:
      - action: FailJob
        onExitCodes:
          containerName: sweep
          operator: In
          values: [2]
      - action: Ignore
        onPodConditions:
          - type: DisruptionTarget
  template:
    metadata:
      labels:
        app: elect-sweep
    spec:
      restartPolicy: Never
      securityContext:
        runAsUser: 65532
        runAsGroup: 65532
        fsGroup: 65532
      containers:
        - name: sweep
          image: %[3]s
          args: %[4]s
          env:
            - name: JOB_COMPLETION_INDEX
              valueFrom:
                fieldRef:
                  fieldPath: metadata.annotations['batch.kubernetes.io/job-completion-index']
          resources:
            requests:
              cpu: "%[5]d"
          volumeMounts:
            - name: results
              mountPath: /results
      volumes:
        - name: results
          persistentVolumeClaim:
            claimName: elect-results
`, j.Shards, name, j.Image, quoted, j.Workers)
}

// slurm is an sbatch script of a job array of K tasks, one per shard, run
// from a directory that every node sees. exec makes elect the task's
// process, so that the SIGTERM Slurm sends on preemption or at the time
// limit reaches it; --requeue restarts a preempted task with the same
// command, which resumes its shard's file.
func (j renderedJob) slurm() string {
	words := make([]string, len(j.Args))
	for i, a := range j.Args {
		words[i] = shellQuote(a)
	}
	return fmt.Sprintf(`#!/bin/sh
# Rendered by 'elect sweep ... --shards %[1]d --render slurm': the sweep as a
# job array of %[1]d tasks, task I running shard I/%[1]d into shard-I.jsonl in
# the directory it is submitted from (one that every node sees):
#
#   sbatch sweep.sh
#
# A task preempted or stopped at its time limit (SIGTERM) keeps the lines it
# finished; requeued or submitted again, it resumes its shard's file. When
# every task has ended, merge the shards (it refuses a missing or
# incomplete one):
#
#   elect merge shard-*.jsonl --out sweep.jsonl
#SBATCH --job-name=%[2]s
#SBATCH --array=1-%[1]d
#SBATCH --cpus-per-task=%[3]d
#SBATCH --requeue
#SBATCH --open-mode=append
#SBATCH --output=shard-%%a.log
exec elect %[4]s --workers="$SLURM_CPUS_PER_TASK" \
  --shard "$SLURM_ARRAY_TASK_ID/%[1]d" --out "shard-$SLURM_ARRAY_TASK_ID.jsonl" --resume "shard-$SLURM_ARRAY_TASK_ID.jsonl"
`, j.Shards, "elect-sweep-"+j.Grid[:min(len(j.Grid), 12)], j.Workers, strings.Join(words, " "))
}

// shellSafe matches the words a POSIX shell reads as they are.
var shellSafe = regexp.MustCompile(`^[A-Za-z0-9_./:=,+@%^-]+$`)

// shellQuote writes s as one word of a POSIX shell.
func shellQuote(s string) string {
	if shellSafe.MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
