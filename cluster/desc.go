// Package cluster runs an algorithm's nodes as separate processes that talk
// over TCP with mutual TLS: the TCP runtime of elect. A cluster is a
// directory: cluster.json (the description: algorithm, parameters, seed,
// and for each node its index, ID, name and address), a private
// certificate authority (ca.pem, and ca.key, which no node ever needs), and
// one directory per node, node-I, holding only what node I needs and may
// hold: the description, the CA's certificate, its own certificate and its
// own key. `elect cluster init` writes it, `elect node DIR/node-I --index
// I` runs one node (on its machine, with only that directory), and `elect
// cluster up DIR` runs them all as child processes and judges the election
// as the simulator does.
//
// # Links and frames
//
// Every link of the network is one TLS 1.3 connection, dialled by the node
// of smaller index, which says in its first frame (hello) who it is, from
// which of its ports it dials, and the digest of its description; both
// ends require a certificate from the cluster's CA, and each checks that
// the peer's names the node expected on that link. The node dialled
// answers with its own hello, and two nodes whose digests differ refuse
// each other, naming the fields (digest.go). A node admits its peers ahead
// of strangers (admission.go). Frames are length-prefixed (4 bytes, big-endian),
// then a version byte, a type byte and varint fields; a body longer than
// MaxFrame is refused before anything is allocated, and anything malformed
// closes the connection. TCP keeps each link FIFO, so the runtime serves
// the algorithms that run under the simulator's fifo delivery; synchronous
// algorithms are refused (there is no round synchroniser over TCP).
//
// # When a node may stop: termination detection
//
// A node cannot tell from its own state that the election is over: under
// most algorithms a node that has decided may still have to forward
// messages. So the cluster detects termination, which holds for every
// algorithm. Node 0 is the detector, and every other node keeps a control
// connection to it. Node 0 runs waves: it asks every node for its counters
// (messages sent and received so far), which a node reads between two of
// its handlers, and sums them. Mattern's four-counter method (1987): if the
// received total R of one wave equals the sent total S' of the next wave,
// the computation had terminated when the first wave ended. Counters only
// grow and every received message was sent, so R <= R(t) <= S(t) <= S' at
// the first wave's end t; R = S' forces R(t) = S(t), no message in
// transit, and R = R(t), no node received anything after reporting, so
// every node was idle (a report is only taken between handlers, and a
// node becomes active only by receiving). Node 0 then sends stop; each
// node says bye on each data link, waits for its neighbours' byes (all data
// is then read), prints its line and exits.
//
// A node that loses a peer (a connection closed without bye, an error, or
// silence longer than the timeout) reports it, naming the peer, and exits
// with status 3; node 0 then tells every other node to abort, so that no
// node waits for ever.
//
// # Records
//
// With --trace each node writes its events as election.Tracer lines stamped
// with Lamport times (frames carry the sender's clock); `cluster up`
// merges them by (time, node), an order consistent with causality, so
// that `elect run ALG ... --replay FILE` replays the execution.
package cluster

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/big"
	mathrand "math/rand/v2"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/electkit/elect"
	"github.com/electkit/elect/catalog"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/faultplan"
	"github.com/electkit/elect/internal/atomicfile"
	"github.com/electkit/elect/internal/bounded"
	"github.com/electkit/elect/scenario"
)

// DescriptionFile is the name of a cluster's description in its directory.
const DescriptionFile = "cluster.json"

// MaxNodes is the largest cluster: init, up and node all refuse more.
const MaxNodes = 1 << 16

// Description is a cluster: the run every node rebuilds, and the nodes.
type Description struct {
	Format     string            `json:"format"` // "elect-cluster"
	Version    int               `json:"version"`
	Algorithm  string            `json:"algorithm"`
	Params     map[string]string `json:"params,omitempty"`
	N          int               `json:"n"`
	Topology   string            `json:"topology"`
	Initiators string            `json:"initiators"`
	Seed       uint64            `json:"seed"`
	Announce   bool              `json:"announce"`
	// Faults is the run's fault specification (--faults, canonical form;
	// empty: none). A delay is in the simulator's time units (a
	// description's "fault_tick", from before, is ignored).
	Faults string `json:"faults,omitempty"`
	CA     string `json:"ca"` // the CA certificate's file, in the directory
	Nodes  []Node `json:"nodes"`
	// FaultPlan is, in node I's own directory, node I's part of the run's
	// fault schedule, which Init resolved (package faultplan, docs/faults.md):
	// all the node needs to apply the schedule alone. The cluster's own
	// description has none. It is the last field: Init writes each node's
	// description as the shared one with it appended (nodeDescription).
	FaultPlan *faultplan.Part `json:"fault_plan,omitempty"`
}

// Node is one node of a cluster.
type Node struct {
	Index     int      `json:"index"`
	ID        elect.ID `json:"id"`
	Name      string   `json:"name"`    // the name its certificate carries, node-I
	Address   string   `json:"address"` // host:port it listens on
	Neighbors []int    `json:"neighbors"`
	Cert      string   `json:"cert"` // its certificate's file, in the directory
	Key       string   `json:"key"`  // its key's file (mode 0600)
}

// NodeName is the name node i's certificate carries.
func NodeName(i int) string { return "node-" + strconv.Itoa(i) }

// InitOptions are what `elect cluster init` takes besides the run.
type InitOptions struct {
	// Host is every node's host, or a pattern in which {i} stands for the
	// node's index (node-{i}.elect for a Kubernetes headless service).
	Host string
	// BasePort: node i listens on BasePort+i, or on BasePort itself when
	// Host is a pattern (each node then has a host of its own). 0 finds n
	// consecutive ports free on Host now (FreeBasePort).
	BasePort int
	// ResolveFaults resolves the fault schedule of a run with faults
	// (package faultplan/resolve, which the CLI sets here): Init writes
	// each node's part into its directory. A run with faults needs it.
	ResolveFaults func(election.Config) (*faultplan.Plan, error)
}

// FreeBasePort returns a port P such that P..P+n-1 are free on host now:
// for local clusters and tests. It looks below the kernel's range of
// ephemeral ports, so that the outgoing connections of other programs do
// not take them between now and the nodes' start; another program may
// still listen on them first, and the nodes then say so.
func FreeBasePort(host string, n int) (int, error) {
	low, high := 10000, ephemeralLow()-n
	rng := mathrand.New(mathrand.NewPCG(uint64(time.Now().UnixNano()), uint64(os.Getpid())))
	for try := 0; try < 200 && high > low; try++ {
		base := low + rng.IntN(high-low)
		var held []net.Listener
		for p := base; p < base+n; p++ {
			h, err := net.Listen("tcp", net.JoinHostPort(host, strconv.Itoa(p)))
			if err != nil {
				break
			}
			held = append(held, h)
		}
		for _, h := range held {
			h.Close()
		}
		if len(held) == n {
			return base, nil
		}
	}
	return 0, fmt.Errorf("found no %d consecutive free ports on %s", n, host)
}

// ephemeralLow is the first port of the kernel's ephemeral range (Linux;
// 32768 elsewhere).
func ephemeralLow() int {
	data, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range")
	if err != nil {
		return 32768
	}
	f := strings.Fields(string(data))
	if len(f) == 0 {
		return 32768
	}
	low, err := strconv.Atoi(f[0])
	if err != nil || low < 12000 {
		return 32768
	}
	return low
}

// Init builds the run of spec, checks that the TCP runtime can serve it,
// and writes the cluster's directory: the description, the CA (certificate
// and key), and one directory per node (NodeDir) with the description, the
// CA's certificate and the node's certificate and key, and nothing else.
func Init(dir string, spec scenario.Spec, opt InitOptions) (*Description, error) {
	spec.Delivery = "fifo"
	spec.Timing = ""
	cfg, err := scenario.Build(spec)
	var model *election.AssumptionError
	switch {
	case errors.As(err, &model) && model.Assumption == "synchronous model":
		// Built with fifo delivery, a synchronous algorithm breaks its
		// model; what init can say is that the runtime does not serve it.
		return nil, refuseSynchronous(spec.Algorithm)
	case errors.As(err, &model):
		// No flag of init runs an algorithm off its model (its --force
		// replaces a cluster's directory).
		return nil, fmt.Errorf("%s (assumption: %s; a cluster runs an algorithm in its model only)", model.Detail, model.Assumption)
	}
	if err != nil {
		return nil, err
	}
	if err := Serves(cfg); err != nil {
		return nil, err
	}
	n := cfg.Graph.N
	pattern := strings.Contains(opt.Host, "{i}")
	if opt.BasePort == 0 && !pattern {
		if opt.BasePort, err = FreeBasePort(opt.Host, n); err != nil {
			return nil, err
		}
	}
	if opt.BasePort < 1 || !pattern && opt.BasePort+n-1 > 65535 || opt.BasePort > 65535 {
		return nil, fmt.Errorf("ports %d..%d are not all valid TCP ports (1..65535); choose --base-port", opt.BasePort, opt.BasePort+n-1)
	}
	topo := spec.Topology
	if topo == "" {
		topo = cfg.Graph.Name
	}
	if path, ok := strings.CutPrefix(topo, "file:"); ok {
		abs, err := filepath.Abs(path)
		if err != nil {
			return nil, err
		}
		topo = "file:" + abs
	}
	d := &Description{
		Format: "elect-cluster", Version: 1, Algorithm: cfg.Algorithm.Name, N: n, Topology: topo,
		Initiators: spec.Initiators, Seed: spec.Seed, Announce: cfg.Announce, CA: "ca.pem",
	}
	if cfg.Faults != nil {
		d.Faults = cfg.Faults.String()
		if opt.ResolveFaults == nil {
			return nil, fmt.Errorf("cluster: a run with faults needs its schedule resolved before the nodes start (InitOptions.ResolveFaults)")
		}
	}
	if d.Initiators == "" {
		d.Initiators = "all"
	}
	if len(cfg.Params) > 0 {
		d.Params = cfg.Params
	}
	for i := range n {
		host, port := opt.Host, opt.BasePort+i
		if pattern {
			host, port = strings.ReplaceAll(opt.Host, "{i}", strconv.Itoa(i)), opt.BasePort
		}
		nd := Node{
			Index: i, ID: cfg.IDs[i], Name: NodeName(i), Address: net.JoinHostPort(host, strconv.Itoa(port)),
			Cert: NodeName(i) + ".pem", Key: NodeName(i) + ".key",
		}
		for p := range cfg.Graph.Degree(i) {
			to, _ := cfg.Graph.Neighbor(int32(i), elect.Port(p))
			nd.Neighbors = append(nd.Neighbors, int(to))
		}
		d.Nodes = append(d.Nodes, nd)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	for i := range n {
		if err := os.Mkdir(filepath.Join(dir, NodeName(i)), 0o700); err != nil && !os.IsExist(err) {
			return nil, err
		}
	}
	if err := writeCertificates(dir, d); err != nil {
		return nil, err
	}
	data, err := json.MarshalIndent(d, "", "  ")
	if err != nil {
		return nil, err
	}
	data = append(data, '\n')
	var plan *faultplan.Plan
	if d.Faults != "" {
		// Resolved on the run as every node rebuilds it.
		rebuilt, err := scenario.Build(d.Spec(spec.Catalog))
		if err != nil {
			return nil, err
		}
		if plan, err = opt.ResolveFaults(*rebuilt); err != nil {
			return nil, err
		}
	}
	for i := range n {
		own := data
		if plan != nil {
			if own, err = nodeDescription(data, plan.Part(int32(i))); err != nil {
				return nil, err
			}
		}
		if err := atomicfile.WriteFileMode(filepath.Join(dir, NodeName(i), DescriptionFile), own, 0o644); err != nil {
			return nil, err
		}
	}
	if err := writeDeployFiles(dir, d); err != nil {
		return nil, err
	}
	return d, atomicfile.WriteFileMode(filepath.Join(dir, DescriptionFile), data, 0o644)
}

// nodeDescription is a node's own description: shared, the cluster's
// description as json.MarshalIndent writes it (with its final newline),
// with the node's part of the fault plan as its last field. Appending it
// costs the part's length, where marshalling every node's description
// whole would cost n times the description's.
func nodeDescription(shared []byte, part faultplan.Part) ([]byte, error) {
	p, err := json.MarshalIndent(part, "  ", "  ")
	if err != nil {
		return nil, err
	}
	body, ok := bytes.CutSuffix(shared, []byte("\n}\n"))
	if !ok {
		return nil, fmt.Errorf("cluster: the description does not end as a JSON object")
	}
	out := make([]byte, 0, len(shared)+len(p)+32)
	out = append(out, body...)
	out = append(out, ",\n  \"fault_plan\": "...)
	out = append(out, p...)
	return append(out, "\n}\n"...), nil
}

// NodeDir is the directory node i runs from: dir/node-I, the directory
// Init writes for it, or dir itself when that is a node's directory
// already (or a cluster written before node directories).
func NodeDir(dir string, i int) string {
	sub := filepath.Join(dir, NodeName(i))
	if _, err := os.Stat(filepath.Join(sub, DescriptionFile)); err == nil {
		return sub
	}
	return dir
}

// KeyWarning returns a warning when the key file at path may be read or
// written by anyone but its owner (any group or other permission bit), or
// "" when not (or when it cannot be examined). One case is not warned
// about: a key this process does not own and reads through its group, as
// a Kubernetes Secret is handed to a pod's user (mode 0440, fsGroup), has
// its group bits for this node's sake; its other bits still count.
func KeyWarning(path string) string {
	fi, err := os.Stat(path)
	if err != nil {
		return ""
	}
	perm := fi.Mode().Perm()
	exposed := perm & 0o077
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Geteuid() && inGroup(int(st.Gid)) {
		exposed &^= 0o070
	}
	if exposed == 0 {
		return ""
	}
	return fmt.Sprintf("warning: the key %s may be read by others (mode %04o): anyone who reads it can act as this node; chmod 600 it", path, perm)
}

// inGroup reports whether this process is in group gid.
func inGroup(gid int) bool {
	if os.Getegid() == gid {
		return true
	}
	groups, _ := os.Getgroups()
	return slices.Contains(groups, gid)
}

// Serves returns an error for a run the TCP runtime cannot serve.
func Serves(cfg *election.Config) error {
	if cfg.Delivery == election.Sync {
		return refuseSynchronous(cfg.Algorithm.Name)
	}
	if cfg.Graph.N < 2 {
		return fmt.Errorf("a cluster needs at least 2 nodes")
	}
	return nil
}

// refuseSynchronous is the one refusal of a synchronous algorithm by
// init, node and up: no option of theirs makes the runtime serve it.
func refuseSynchronous(alg string) error {
	return fmt.Errorf("%s is a synchronous algorithm, and the TCP runtime has no round synchroniser: run it in the simulator (elect run %s) or on --runtime goroutines", alg, alg)
}

// Spec is the run the description describes, as every node rebuilds it:
// the same algorithm (looked up in cat; nil: the default catalog),
// parameters, topology, seed and IDs.
func (d *Description) Spec(cat *catalog.Catalog) scenario.Spec {
	idText := make([]string, len(d.Nodes))
	for i, nd := range d.Nodes {
		idText[i] = strconv.FormatInt(int64(nd.ID), 10)
	}
	return scenario.Spec{
		Algorithm: d.Algorithm, N: d.N, IDs: "list:" + strings.Join(idText, ","), Topology: d.Topology,
		Delivery: "fifo", Initiators: d.Initiators, Announce: d.Announce, Params: d.Params, Seed: d.Seed,
		Catalog: cat, Faults: d.Faults,
	}
}

// DescriptionLimits bound what Load reads as a cluster.json: the file
// 'cluster init' writes for MaxNodes nodes of a sparse topology is a few tens
// of MiB, with short lines.
var DescriptionLimits = bounded.Limits{What: "a cluster description (cluster.json)", MaxBytes: 256 << 20, MaxLine: 1 << 20}

// Load reads and checks a cluster's description, and rebuilds its run
// with the algorithms of cat (nil: the default catalog).
func Load(dir string, cat *catalog.Catalog) (*Description, *election.Config, error) {
	path := filepath.Join(dir, DescriptionFile)
	d, err := ReadDescriptionFile(path)
	var unreadable *fs.PathError
	if errors.As(err, &unreadable) {
		return nil, nil, fmt.Errorf("%v (is %s a cluster directory from 'elect cluster init'?)", err, dir)
	}
	if err != nil {
		return nil, nil, err
	}
	cfg, err := scenario.Build(d.Spec(cat))
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %v", path, err)
	}
	if err := Serves(cfg); err != nil {
		return nil, nil, err
	}
	return d, cfg, nil
}

// ReadDescriptionFile reads and checks the description at path
// (ReadDescription), refusing a file larger than DescriptionLimits allow
// before reading it; an error that the file cannot be read is an
// *fs.PathError, one of its contents names path.
func ReadDescriptionFile(path string) (*Description, error) {
	f, err := bounded.Open(path, DescriptionLimits)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	d, err := ReadDescription(f, path)
	var limit *bounded.Error
	var unreadable *fs.PathError
	if err != nil && !errors.As(err, &limit) && !errors.As(err, &unreadable) {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return d, err
}

// ParseDescription decodes a description held in memory and checks it
// (ReadDescription).
func ParseDescription(data []byte) (*Description, error) {
	return ReadDescription(bytes.NewReader(data), "")
}

// ReadDescription decodes a description from r and checks that it is
// whole: one node per index, distinct addresses, file names inside the
// directory. It parses the JSON as it reads it, under DescriptionLimits
// (name names r in their errors): a byte that cannot continue a JSON
// document stops it at once, and its errors quote at most
// bounded.MaxExcerpt bytes of r.
func ReadDescription(r io.Reader, name string) (*Description, error) {
	dec := json.NewDecoder(bounded.NewReader(r, name, DescriptionLimits))
	var d Description
	err := dec.Decode(&d)
	if err == nil {
		if _, after := dec.Token(); after != io.EOF {
			err = errors.New("more follows the description's JSON object")
			if after != nil {
				err = after
			}
		}
	}
	var limit *bounded.Error
	var unreadable *fs.PathError
	switch {
	case errors.As(err, &limit), errors.As(err, &unreadable):
		return nil, err
	case err == io.EOF:
		return nil, errors.New("not a cluster description: the file is empty")
	case err != nil:
		return nil, fmt.Errorf("not a cluster description: %s", bounded.Cut(err.Error()))
	}
	if err := d.check(); err != nil {
		return nil, bounded.CutError(err)
	}
	return &d, nil
}

// check checks a decoded description (ReadDescription).
func (d *Description) check() error {
	if d.Format != "elect-cluster" || d.Version != 1 {
		return fmt.Errorf("format %q version %d; this elect reads elect-cluster version 1", d.Format, d.Version)
	}
	if d.N < 2 || d.N > MaxNodes || len(d.Nodes) != d.N {
		return fmt.Errorf("n = %d with %d nodes listed; a cluster has 2..65536 nodes, each listed once", d.N, len(d.Nodes))
	}
	seen := map[string]bool{}
	for i, nd := range d.Nodes {
		if nd.Index != i {
			return fmt.Errorf("node %d is listed at position %d; list the nodes in index order", nd.Index, i)
		}
		if _, _, err := net.SplitHostPort(nd.Address); err != nil || seen[nd.Address] {
			return fmt.Errorf("node %d: address %q is not host:port, or another node has it", i, nd.Address)
		}
		seen[nd.Address] = true
		for _, f := range []string{nd.Cert, nd.Key} {
			if f == "" || filepath.Base(f) != f {
				return fmt.Errorf("node %d: file %q must be a file name inside the cluster directory", i, f)
			}
		}
	}
	if p := d.FaultPlan; p != nil && (d.Faults == "" || int(p.Node) >= d.N) {
		return fmt.Errorf("fault_plan of node %d in a description of %d nodes with faults %q: a node's part of a schedule belongs to a run with faults, and to one of its nodes", p.Node, d.N, d.Faults)
	}
	if d.CA == "" || filepath.Base(d.CA) != d.CA {
		return fmt.Errorf("ca %q must be a file name inside the cluster directory", d.CA)
	}
	return nil
}

// writeCertificates makes the cluster's CA and a certificate and key for
// every node: ECDSA P-256, valid for a year, each node's naming it
// (NodeName) and its host.
func writeCertificates(dir string, d *Description) error {
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return err
	}
	now := time.Now()
	caTmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "elect cluster CA", Organization: []string{"elect"}},
		NotBefore: now.Add(-time.Hour), NotAfter: now.AddDate(1, 0, 0),
		IsCA: true, BasicConstraintsValid: true, MaxPathLenZero: true,
		KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageCRLSign,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		return err
	}
	caCert, err := x509.ParseCertificate(caDER)
	if err != nil {
		return err
	}
	if err := writePEM(filepath.Join(dir, d.CA), "CERTIFICATE", caDER, 0o644); err != nil {
		return err
	}
	for _, nd := range d.Nodes {
		if err := writePEM(filepath.Join(dir, nd.Name, d.CA), "CERTIFICATE", caDER, 0o644); err != nil {
			return err
		}
	}
	if err := writeKey(filepath.Join(dir, "ca.key"), caKey); err != nil {
		return err
	}
	for _, nd := range d.Nodes {
		key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			return err
		}
		host, _, _ := net.SplitHostPort(nd.Address)
		tmpl := &x509.Certificate{
			SerialNumber: big.NewInt(int64(nd.Index) + 2), Subject: pkix.Name{CommonName: nd.Name, Organization: []string{"elect"}},
			NotBefore: now.Add(-time.Hour), NotAfter: now.AddDate(1, 0, 0),
			KeyUsage:    x509.KeyUsageDigitalSignature,
			ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth},
			DNSNames:    []string{nd.Name},
		}
		if ip := net.ParseIP(host); ip != nil {
			tmpl.IPAddresses = []net.IP{ip}
		} else if !slices.Contains(tmpl.DNSNames, host) {
			tmpl.DNSNames = append(tmpl.DNSNames, host)
		}
		der, err := x509.CreateCertificate(rand.Reader, tmpl, caCert, &key.PublicKey, caKey)
		if err != nil {
			return err
		}
		if err := writePEM(filepath.Join(dir, nd.Name, nd.Cert), "CERTIFICATE", der, 0o644); err != nil {
			return err
		}
		if err := writeKey(filepath.Join(dir, nd.Name, nd.Key), key); err != nil {
			return err
		}
	}
	return nil
}

func writeKey(path string, key *ecdsa.PrivateKey) error {
	der, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return err
	}
	return writePEM(path, "PRIVATE KEY", der, 0o600)
}

func writePEM(path, kind string, der []byte, mode os.FileMode) error {
	return atomicfile.WriteFileMode(path, pem.EncodeToMemory(&pem.Block{Type: kind, Bytes: der}), mode)
}
