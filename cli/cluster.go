package cli

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/electkit/elect/catalog"
	"github.com/electkit/elect/cluster"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/faultplan/resolve"
	"github.com/electkit/elect/faults"
	"github.com/electkit/elect/ids"
	"github.com/electkit/elect/internal/cmdio"
	"github.com/electkit/elect/reference"
	"github.com/electkit/elect/scenario"
	"github.com/electkit/elect/topology"
)

func init() {
	register(command{name: "cluster", summary: "run an election as real processes over TCP with mutual TLS (init, up)", run: clusterCommand})
	register(command{name: "node", summary: "run one node of a cluster (started by 'cluster up', or by hand on each machine)", run: nodeCommand})
}

const clusterUsage = `usage: elect cluster init DIR --alg ALGORITHM [flags]
       elect cluster up DIR [--json] [--kill I@DELAY] [--stop I@DELAY] [--grace D] [--timeout D] [--trace FILE] [--mem-limit SIZE]

Runs an asynchronous algorithm's nodes as separate processes that talk over
TCP, each link a mutual TLS 1.3 connection authenticated by the cluster's own
certificate authority. 'init' writes DIR: cluster.json (the algorithm, its
parameters, the seed, and each node's index, ID and address), a CA (ca.pem,
ca.key) and one directory per node, DIR/node-I, with only what node I needs:
cluster.json, ca.pem, its certificate and its key (the CA's key is in none). 'up' starts every node as a child process on
this machine, waits for them, and prints the result as 'elect run' does,
with "runtime": "tcp". On several machines, copy DIR/node-I to machine I
and run 'elect node node-I --index I' there (docs/cluster.md). With a host
pattern (--host 'node-{i}', or 'elect-{i}.elect'), init also renders
compose.yaml (and kubernetes.yaml) into DIR for the image deploy/Dockerfile
builds.

The cluster detects termination (node 0 runs Mattern's four-counter waves
over control links), so every asynchronous algorithm stops cleanly; a node
that loses a peer says which and exits with status 3, and 'up' reports the
outcome "fault" naming the lost node.

examples:
  elect cluster init /tmp/c --alg hs --n 16
  elect cluster up /tmp/c
  elect cluster up /tmp/c --kill 3@100ms           (node 3 killed: outcome fault)
  elect cluster init /tmp/f --alg lcr --n 8 --faults 'loss:msg=3'
                                                   (the nodes apply the schedule)
  elect cluster init /tmp/k --alg lcr --n 8 --host 'node-{i}.elect' --base-port 7400

With --faults on init (the vocabulary of 'elect run', docs/faults.md), the
nodes lose, duplicate and delay messages and crash as the schedule says,
and 'up' reports them as 'elect run' does (faults, cause, verdict).

Before it starts a process, 'up' estimates the memory the cluster takes
on this machine (each node process's own, by its links; the program's
pages, which they share, once; its own) and refuses one over --mem-limit
(exit 2); each node gets its share as its own --mem-limit, and a node
whose inbox, pending writes and late messages outgrow it stops, and the
outcome is memory-limit (docs/performance.md).

SIGINT or SIGTERM stops 'up': it forwards SIGTERM to the nodes (and
SIGCONT to those --stop stopped), waits for them (5 s at most, then kills
them; a second signal: at once), removes its temporary files, says where
it stopped and which nodes ended how, and exits 130 (SIGINT) or 143
(SIGTERM).

Exit status: 0 elected and every check held; 3 a fault (a node lost,
killed, never started, or silent past --grace: the output names it); 4
failed under a --faults schedule its algorithm does not tolerate; 1
otherwise (outcome memory-limit included); 2 for bad input; 130 or 143 when a signal stopped it.

flags of init:
`

func clusterCommand(cat *catalog.Catalog, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") && args[0] != "-h" && args[0] != "--help" && args[0] != "-help" {
		return usagef("cluster needs a subcommand: init or up; 'elect help cluster' explains them")
	}
	switch args[0] {
	case "init":
		return clusterInit(cat, args[1:], stdout)
	case "up":
		return clusterUp(cat, args[1:], stdout, stderr)
	case "-h", "--help", "-help", "help":
		fs := newFlagSet("cluster init", clusterUsage)
		initFlags(fs, cat)
		fs.SetOutput(stdout)
		fs.Usage()
		return nil
	}
	return usagef("unknown cluster subcommand %q%s; use init or up", args[0], suggest(args[0], []string{"init", "up"}))
}

type clusterInitFlags struct {
	alg, idsSpec, topo, initiators, host string
	faults                               string
	n, basePort                          int
	seed                                 uint64
	announce, force                      bool
	params                               map[string]*string
}

func initFlags(fs *flag.FlagSet, cat *catalog.Catalog) *clusterInitFlags {
	f := &clusterInitFlags{}
	fs.StringVar(&f.alg, "alg", "", "the algorithm (an asynchronous one: 'elect list')")
	sizeVar(fs, &f.n, "n", 8, "number of nodes (one process each)")
	fs.StringVar(&f.idsSpec, "ids", "random", "ID arrangement: "+ids.Usage)
	fs.Uint64Var(&f.seed, "seed", 1, "master seed: IDs and node randomness derive from it")
	fs.StringVar(&f.topo, "topology", "", "network: "+topology.Usage+" (default: the algorithm's own)")
	fs.StringVar(&f.initiators, "initiators", "all", "who wakes spontaneously: all, K, nodes:I,J,...")
	fs.BoolVar(&f.announce, "announce", false, "announce the leader (algorithms with optional announcement)")
	fs.StringVar(&f.host, "host", "127.0.0.1", "every node's host, or a pattern with {i} for the node's index (node-{i}.elect)")
	fs.BoolVar(&f.force, "force", false, "replace the cluster in an existing directory: its description, CA, node directories and deployment files (other files stay)")
	fs.StringVar(&f.faults, "faults", "", "inject faults, drawn from the seed and applied by the nodes (docs/faults.md): "+faults.Usage)
	fs.IntVar(&f.basePort, "base-port", 7400, "node i listens on base-port+i (on base-port itself when --host has {i}); 0 finds n free ports now")
	f.params = registerParams(fs, cat)
	return f
}

func clusterInit(cat *catalog.Catalog, args []string, stdout io.Writer) error {
	fs := newFlagSet("cluster init", clusterUsage)
	f := initFlags(fs, cat)
	dir, err := parseOne(fs, args, stdout, "cluster init takes one directory (got %d arguments)")
	if err != nil {
		return err
	}
	if f.alg == "" {
		return usagef("cluster init needs --alg ALGORITHM; 'elect list' shows them")
	}
	spec := scenario.Spec{
		Catalog: cat, Algorithm: f.alg, N: f.n, IDs: f.idsSpec, Topology: f.topo, Initiators: f.initiators,
		Announce: f.announce, Seed: f.seed, Params: map[string]string{}, Faults: f.faults,
	}
	setParamsAndN(fs, f.params, &spec)
	// One limit, checked first: up and node refuse a larger cluster.
	if spec.N > cluster.MaxNodes {
		return usagef("cluster init: n = %d: a cluster has at most %d nodes (one process and two files each)", spec.N, cluster.MaxNodes)
	}
	old, err := existingCluster(dir, f.force)
	if err != nil {
		return err
	}
	// The new set is made in a directory of its own beside dir, and only
	// when it is whole does it take dir's place (or, with --force, the
	// place of the cluster dir held).
	parent := filepath.Dir(filepath.Clean(dir))
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return usagef("cluster init: %v", err)
	}
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(filepath.Clean(dir))+".elect-*")
	if err != nil {
		return usagef("cluster init: cannot create a directory beside %s: %v", dir, errors.Unwrap(err))
	}
	defer os.RemoveAll(tmp) // gone once renamed; otherwise only what init made
	if err := os.Chmod(tmp, 0o755); err != nil {
		return err
	}
	opt := cluster.InitOptions{Host: f.host, BasePort: f.basePort, ResolveFaults: resolve.Faults}
	d, err := cluster.Init(tmp, spec, opt)
	if err != nil {
		// Everything Init refuses is the user's to fix: the run, the
		// ports, or a directory that cannot be written.
		return usagef("%v", strings.ReplaceAll(err.Error(), tmp, dir))
	}
	if err := replaceCluster(dir, tmp, old); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s/cluster.json: %s on %s, n = %d, seed %d; a CA and %d certificates\n",
		dir, d.Algorithm, d.Topology, d.N, d.Seed, d.N)
	fmt.Fprintf(stdout, "each node needs only its directory, %s/node-I (its key, its certificate, the CA's certificate);\n", dir)
	fmt.Fprintf(stdout, "the CA's key, %s/ca.key, stays here: it is what makes certificates\n", dir)
	fmt.Fprintf(stdout, "nodes listen on %s .. %s; run them all with: elect cluster up %s\n",
		d.Nodes[0].Address, d.Nodes[d.N-1].Address, dir)
	return nil
}

func clusterUp(cat *catalog.Catalog, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("cluster up", clusterUsage)
	asJSON := fs.Bool("json", false, "print the result as one JSON object")
	kill := fs.String("kill", "", "kill nodes with SIGKILL: I@DELAY[,I@DELAY...] (e.g. 3@200ms, counted from the run's start), to watch a fault")
	stopNodes := fs.String("stop", "", "stop nodes with SIGSTOP: I@DELAY[,...], to watch a node hang silently (named and killed after --grace)")
	grace := fs.Duration("grace", 0, "how long the other nodes may run once one has exited before the rest are named silent and killed (default: twice --timeout)")
	timeout := fs.Duration("timeout", cluster.DefaultTimeout, "how long a node waits for a peer to connect or speak")
	trace := fs.String("trace", "", "write the nodes' merged events to this file (replayable: elect run ALG ... --replay FILE)")
	skip := fs.String("skip", "", "nodes not to start, I[,J...] (their peers report them)")
	var memLimit int64
	fs.Var(bytesFlag{&memLimit}, "mem-limit", "refuse a cluster whose node processes are estimated to need more memory than this on this machine, and share it among the nodes, each stopped (outcome memory-limit) when what it holds outgrows its share, as 6GiB, 500MB or 8e9 (default "+scenario.DefaultMemLimitText()+")")
	dir, err := parseOne(fs, args, stdout, "cluster up takes one directory (got %d arguments)")
	if err != nil {
		return err
	}
	if *timeout <= 0 {
		return usagef("--timeout must be positive, got %v", *timeout)
	}
	d, cfg, err := cluster.Load(dir, cat)
	if err == nil {
		err = cluster.CheckUpDir(dir, d)
	}
	if err == nil {
		err = cluster.CheckParts(dir, d)
	}
	var memLimits []int64
	if err == nil {
		memLimits, err = cluster.CheckMemory(dir, d, cfg, memLimit)
	}
	if err != nil {
		return usagef("%v", err)
	}
	if err := checkOutputs("cluster up: --trace", *trace); err != nil {
		return err
	}
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	if *grace < 0 {
		return usagef("--grace must not be negative, got %v", *grace)
	}
	opt := cluster.UpOptions{Command: []string{exe, "node"}, Catalog: cat, Timeout: *timeout, Trace: *trace, Log: stderr,
		Grace: *grace, Late: prefixWriter{stderr, "elect: cluster up: "}, Replay: reference.Replay, MemLimits: memLimits}
	for _, list := range []struct {
		flag, text string
		to         *[]cluster.Kill
	}{{"kill", *kill, &opt.Kills}, {"stop", *stopNodes, &opt.Stops}} {
		if list.text == "" {
			continue
		}
		for _, k := range strings.Split(list.text, ",") {
			kl, err := cluster.ParseKill(k, d.N)
			if err != nil {
				return usagef("%v", strings.Replace(err.Error(), "--kill", "--"+list.flag, 1))
			}
			*list.to = append(*list.to, kl)
		}
	}
	if *skip != "" {
		for _, s := range strings.Split(*skip, ",") {
			var i int
			if _, err := fmt.Sscanf(s, "%d", &i); err != nil || i < 0 || i >= d.N {
				return usagef("--skip %q: node indexes in 0..%d", *skip, d.N-1)
			}
			opt.Skip = append(opt.Skip, i)
		}
	}
	// The first signal stops the run (the nodes get SIGTERM, are waited
	// for and reported); a second one hurries it (the nodes are killed at
	// once) rather than ending elect with its nodes still running.
	ctx := cmdio.Watch()
	opt.Hurry = cmdio.Hurry()
	rec, _, err := cluster.Up(ctx, dir, opt)
	var stopped *cluster.StoppedError
	if errors.As(err, &stopped) {
		fmt.Fprintf(stderr, "elect: %v\n", err)
		return errInterrupted // exit 130, 143 or 129, as the signal says
	}
	if err != nil {
		return err
	}
	if *asJSON {
		if err := writeJSONLine(stdout, rec); err != nil {
			return err
		}
	} else {
		printRecord(stdout, cat, rec)
	}
	if rec.Outcome == election.OutcomeFault {
		return errFault
	}
	if rec.ExpectedFailure() {
		return errExpectedFailure // under --faults its algorithm does not tolerate, as 'elect run'
	}
	if !rec.Succeeded() {
		return errFailed
	}
	return nil
}

// prefixWriter writes each line with a prefix.
type prefixWriter struct {
	w      io.Writer
	prefix string
}

func (p prefixWriter) Write(b []byte) (int, error) {
	if _, err := fmt.Fprintf(p.w, "%s%s", p.prefix, b); err != nil {
		return 0, err
	}
	return len(b), nil
}

const nodeUsage = `usage: elect node DIR --index I|hostname [--listen ADDR] [--timeout D] [--trace FILE]

Runs node I of the cluster in DIR (its own directory DIR/node-I written by
'elect cluster init', which holds only its key, its certificate and the CA's
certificate; or the cluster's directory) as this process: it listens on its
address (--listen: another, as :7400 for every interface; only holders of a
certificate from the cluster's CA get past the TLS handshake), dials its
neighbours (retrying until the
timeout, so the nodes may start in any order), authenticates every link with
mutual TLS 1.3 against the cluster's CA, runs the algorithm's node code, and
when the cluster has detected termination prints one JSON line (its
decision, the leader it learned, its counts) and exits 0. A node that cannot
reach or loses a peer prints the line with "fault" and exits 3; one whose
inbox, pending writes and late messages outgrow what --mem-limit leaves
them prints it with "memory_limit": true and exits 1.

--index hostname takes the index from the number that ends this machine's
host name (elect-3 is node 3), as in a Kubernetes StatefulSet.

flags:
`

func nodeCommand(cat *catalog.Catalog, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("node", nodeUsage)
	indexText := fs.String("index", "", "this node's index in the cluster, or hostname: the number ending the host name")
	timeout := fs.Duration("timeout", cluster.DefaultTimeout, "how long to wait for a peer to connect or speak before giving up (exit 3)")
	trace := fs.String("trace", "", "write this node's events, with Lamport times, to this file")
	listen := fs.String("listen", "", "the address to listen on, host:port (default: the node's own address from cluster.json; :PORT for every interface)")
	var memLimit int64
	fs.Var(bytesFlag{&memLimit}, "mem-limit", "refuse to start when the node's process and links are estimated to need more memory than this, and stop (outcome memory-limit, exit 1) when what it holds outgrows it, as 6GiB, 500MB or 8e9 (default "+scenario.DefaultMemLimitText()+")")
	dir, err := parseOne(fs, args, stdout, "node takes one cluster directory (got %d arguments)")
	if err != nil {
		return err
	}
	index, err := nodeIndex(*indexText)
	if err != nil {
		return usagef("%v", err)
	}
	if *timeout <= 0 {
		return usagef("--timeout must be positive, got %v", *timeout)
	}
	if *listen != "" {
		if _, _, err := net.SplitHostPort(*listen); err != nil {
			return usagef("--listen %q: write host:port or :port (%v)", *listen, err)
		}
	}
	opt := cluster.NodeOptions{Index: index, Catalog: cat, Timeout: *timeout, Log: stderr, Listen: *listen, MemLimit: memLimit}
	var traceFile *cmdio.Stream
	if *trace != "" {
		// A stream of events, each in the file as soon as it is written:
		// a node killed keeps what it saw.
		if traceFile, err = createStream("node: --trace", *trace, ""); err != nil {
			return err
		}
		defer traceFile.Discard()
		opt.Trace = traceFile
	}
	res, err := cluster.RunNode(dir, opt)
	if traceFile != nil && res != nil { // what the node saw, a fault included
		if cerr := traceFile.Close(); cerr != nil && err == nil {
			return cerr
		}
	}
	var fe *cluster.FaultError
	var limited *cluster.MemoryLimitError
	if res != nil {
		line, jerr := json.Marshal(res)
		if jerr != nil {
			return jerr
		}
		fmt.Fprintf(stdout, "%s\n", line)
	}
	switch {
	case errors.As(err, &fe):
		return errFault
	case errors.As(err, &limited):
		return errFailed // as 'elect run' stopped at its --mem-limit
	case err != nil:
		return usagef("%v", err)
	}
	return nil
}

// nodeIndex reads --index: a number, or "hostname" for the number that
// ends the host name.
func nodeIndex(text string) (int, error) {
	if text == "" {
		return 0, fmt.Errorf("node needs --index I, the node's index in the cluster (or --index hostname)")
	}
	name := text
	if text == "hostname" {
		h, err := os.Hostname()
		if err != nil {
			return 0, fmt.Errorf("--index hostname: %v", err)
		}
		name = h[strings.LastIndexAny(h, "-.")+1:]
	}
	i, err := strconv.Atoi(name)
	if err != nil || i < 0 {
		if text == "hostname" {
			return 0, fmt.Errorf("--index hostname: the host name %q does not end in -N", name)
		}
		return 0, fmt.Errorf("--index %q is not a node index (0, 1, ...) or hostname", text)
	}
	return i, nil
}

// existingCluster checks dir before cluster init writes it: a directory
// that does not exist or is empty is fine; one that holds anything is
// refused unless force, and then it must hold a cluster, whose files and
// node directories (paths relative to dir) are returned for
// replaceCluster to remove. Nothing else is ever removed.
func existingCluster(dir string, force bool) ([]string, error) {
	info, err := os.Stat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, usagef("cluster init: %v", err)
	}
	if !info.IsDir() {
		return nil, usagef("cluster init: %s exists and is not a directory; choose a directory for the cluster", dir)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, usagef("cluster init: %v", err)
	}
	if len(entries) == 0 {
		return nil, nil
	}
	descPath := filepath.Join(dir, cluster.DescriptionFile)
	d, err := cluster.ReadDescriptionFile(descPath)
	if err != nil {
		return nil, usagef("cluster init: %s is not empty and holds no cluster elect made (%d files; %v); choose a new directory", dir, len(entries), err)
	}
	if !force {
		return nil, usagef("cluster init: %s holds a cluster already (%s, n = %d); --force replaces it (description, CA, node directories, deployment files), or choose a new directory", dir, d.Algorithm, d.N)
	}
	// The cluster's files: at the top, the description, the CA's
	// certificate and key and the deployment files; each node's
	// directory with what init writes in it (or, in a cluster made before
	// node directories, its certificate and key at the top). The
	// directories come last, removed once emptied.
	files := []string{cluster.DescriptionFile, d.CA, "ca.key", cluster.ComposeFile, cluster.KubernetesFile}
	var dirs []string
	for _, nd := range d.Nodes {
		files = append(files, nd.Cert, nd.Key)
		sub := filepath.Join(dir, nd.Name)
		info, err := os.Lstat(sub)
		if err != nil || !info.IsDir() {
			continue
		}
		entries, err := os.ReadDir(sub)
		if err != nil {
			return nil, usagef("cluster init: %v", err)
		}
		for _, e := range entries {
			if !slices.Contains([]string{cluster.DescriptionFile, d.CA, nd.Cert, nd.Key}, e.Name()) {
				return nil, usagef("cluster init: %s holds %s, which the cluster did not make; move it away or choose a new directory", sub, e.Name())
			}
			files = append(files, filepath.Join(nd.Name, e.Name()))
		}
		dirs = append(dirs, nd.Name)
	}
	return append(files, dirs...), nil
}

// replaceCluster puts the cluster made in tmp at dir: by renaming tmp when
// dir does not exist or is empty, or by removing the old cluster's files
// from dir (old, from existingCluster) and moving the new ones in.
func replaceCluster(dir, tmp string, old []string) error {
	if old == nil {
		if err := os.Rename(tmp, dir); err != nil {
			return usagef("cluster init: cannot put the cluster at %s: %v", dir, errors.Unwrap(err))
		}
		return nil
	}
	entries, err := os.ReadDir(tmp)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if _, err := os.Lstat(filepath.Join(dir, e.Name())); err == nil && !slices.Contains(old, e.Name()) {
			return usagef("cluster init: %s holds a file %s that the old cluster did not make and the new one would replace; move it away or choose a new directory", dir, e.Name())
		}
	}
	for _, name := range old {
		if err := os.Remove(filepath.Join(dir, name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("cluster init: removing the old cluster's %s: %v", name, err)
		}
	}
	for _, e := range entries {
		if err := os.Rename(filepath.Join(tmp, e.Name()), filepath.Join(dir, e.Name())); err != nil {
			return fmt.Errorf("cluster init: moving the new cluster's %s into %s: %v", e.Name(), dir, err)
		}
	}
	return nil
}
