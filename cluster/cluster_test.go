package cluster

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"math/big"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/electkit/elect/election"
	"github.com/electkit/elect/faultplan/resolve"
	"github.com/electkit/elect/scenario"
	"github.com/electkit/elect/sim"
)

// initCluster writes a cluster for spec in a temporary directory.
func initCluster(t testing.TB, spec scenario.Spec) (string, *Description) {
	dir := t.TempDir()
	d, err := Init(dir, spec, InitOptions{Host: "127.0.0.1", ResolveFaults: resolve.Faults})
	if err != nil {
		t.Fatal(err)
	}
	return dir, d
}

// runInProcess runs every node of the cluster on goroutines of this
// process (each with real sockets and TLS) and returns their lines.
func runInProcess(t testing.TB, dir string, n int, opt NodeOptions) ([]*NodeResult, []error) {
	res := make([]*NodeResult, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			o := opt
			o.Index = i
			res[i], errs[i] = RunNode(dir, o)
		}()
	}
	wg.Wait()
	return res, errs
}

func TestClusterInProcess(t *testing.T) {
	for _, c := range []struct {
		alg string
		n   int
	}{{"lcr", 8}, {"hs", 12}, {"peterson", 16}, {"afek-gafni", 10}, {"echo", 9}} {
		t.Run(c.alg, func(t *testing.T) {
			spec := scenario.Spec{Algorithm: c.alg, N: c.n, Seed: 3}
			if c.alg == "echo" {
				spec.Topology = "grid:3x3"
			}
			dir, d := initCluster(t, spec)
			res, errs := runInProcess(t, dir, c.n, NodeOptions{Timeout: 5 * time.Second})
			for i, err := range errs {
				if err != nil {
					t.Fatalf("node %d: %v", i, err)
				}
			}
			rec, err := Judge(d, nil, res, nil)
			if err != nil {
				t.Fatal(err)
			}
			cfg, _ := scenario.Build(d.Spec(nil))
			want, _ := sim.Run(*cfg)
			if rec.Outcome != election.OutcomeElected || rec.LeaderID != want.LeaderID && c.alg != "afek-gafni" {
				t.Fatalf("tcp: %s leader %d (%s); simulator: leader %d", rec.Outcome, rec.LeaderID, rec.Violation, want.LeaderID)
			}
			if c.alg == "lcr" && rec.Messages != want.Messages {
				t.Errorf("lcr on tcp: %d messages; simulator %d", rec.Messages, want.Messages)
			}
			for _, ch := range rec.Checks {
				if !ch.Holds {
					t.Errorf("check failed: %s %v %s %v", ch.Name, ch.Actual, ch.Relation, ch.Expected)
				}
			}
		})
	}
}

// TestRefusesStrangers: while the cluster waits for its last node, a client
// speaking plain TCP, a client with a self-signed certificate, and a node of
// the cluster claiming another node's identity are each refused with one
// logged line; then the last node starts and the election completes.
func TestRefusesStrangers(t *testing.T) {
	dir, d := initCluster(t, scenario.Spec{Algorithm: "hs", N: 4, Seed: 1})
	var logs [4]bytes.Buffer
	var logMu sync.Mutex
	res := make([]*NodeResult, 4)
	errs := make([]error, 4)
	var wg sync.WaitGroup
	start := func(i int) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res[i], errs[i] = RunNode(dir, NodeOptions{Index: i, Timeout: 10 * time.Second, Log: &lockedWriter{&logMu, &logs[i]}})
		}()
	}
	for i := range 3 {
		start(i)
	}
	target := d.Nodes[1].Address
	// Plain TCP, garbage.
	var conn net.Conn
	var err error
	for k := 0; k < 100; k++ {
		if conn, err = net.Dial("tcp", target); err == nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err != nil {
		t.Fatal(err)
	}
	conn.Write([]byte("GET / HTTP/1.0\r\n\r\n\x00\x01garbage"))
	conn.Close()
	// A self-signed certificate.
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(9), Subject: pkix.Name{CommonName: "node-2"}, DNSNames: []string{"node-2"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}}
	der, _ := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	self := tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}
	present := func(*tls.CertificateRequestInfo) (*tls.Certificate, error) { return &self, nil } // sent even though the CA differs
	if c, err := tls.Dial("tcp", target, &tls.Config{GetClientCertificate: present, InsecureSkipVerify: true, MinVersion: tls.VersionTLS13}); err == nil {
		c.Write(AppendFrame(nil, &Frame{Type: FrameHello, A: 0, B: 0}))
		c.Read(make([]byte, 1)) // the server refuses the certificate
		c.Close()
	}
	// Node 3's certificate, claiming to be node 0.
	tc, err := tlsConfig(dir, d, 3)
	if err != nil {
		t.Fatal(err)
	}
	tc.ServerName = "node-1"
	if c, err := tls.Dial("tcp", target, tc); err == nil {
		c.Write(AppendFrame(nil, &Frame{Type: FrameHello, A: 0, B: 0}))
		c.Read(make([]byte, 1))
		c.Close()
	} else {
		t.Fatal(err)
	}
	waitFor(t, func() bool {
		logMu.Lock()
		defer logMu.Unlock()
		return strings.Count(logs[1].String(), "refused a connection") >= 3
	})
	start(3)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("node %d: %v", i, err)
		}
	}
	rec, err := Judge(d, nil, res, nil)
	if err != nil || rec.Outcome != election.OutcomeElected {
		t.Fatalf("after the strangers: %v %v", rec, err)
	}
	got := logs[1].String()
	for _, want := range []string{"first record does not look like a TLS handshake", "certificate signed by unknown authority", "it says it is node 0, but its certificate names [node-3"} {
		if !strings.Contains(got, want) {
			t.Errorf("node 1's log lacks %q:\n%s", want, got)
		}
	}
	t.Logf("node 1's log:\n%s", got)
	if n := strings.Count(got, "\n"); n != 3 {
		t.Errorf("node 1 logged %d lines for 3 strangers:\n%s", n, got)
	}
}

type lockedWriter struct {
	mu *sync.Mutex
	w  *bytes.Buffer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for k := 0; k < 500; k++ {
		if cond() {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("timed out waiting")
}
