package cluster

import (
	"bytes"
	"net"
	"regexp"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/electkit/elect/election"
	"github.com/electkit/elect/scenario"
)

// testDigest is the digest of the description of the cluster in dir.
func testDigest(t testing.TB, dir string) Digest {
	t.Helper()
	d, cfg, err := Load(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	return DescriptionDigest(d, cfg)
}

// TestDescriptionDigestNamesTheFieldThatDiffers: a description changed in
// one field of the run differs from the cluster's in that field's digest
// alone (so the mismatch line names it), and so in its Sum; one changed
// only where the run does not change (a node's address, the fault tick
// written out at its default) has the cluster's digest.
func TestDescriptionDigestNamesTheFieldThatDiffers(t *testing.T) {
	_, base := initCluster(t, scenario.Spec{Algorithm: "peterson", N: 5, Seed: 1})
	digest := func(d *Description) Digest {
		cfg, err := scenario.Build(d.Spec(nil))
		if err != nil {
			t.Fatal(err)
		}
		return DescriptionDigest(d, cfg)
	}
	want := digest(base)
	if base.Params["variant"] != "tagged" {
		t.Fatalf("peterson's parameters %v, want its default variant written out", base.Params)
	}
	for _, c := range []struct {
		field  string
		change func(d *Description)
	}{
		{"algorithm", func(d *Description) { d.Algorithm, d.Params, d.Topology = "afek-gafni", nil, "complete" }},
		{"params", func(d *Description) { d.Params = map[string]string{"variant": "untagged"} }},
		{"ids", func(d *Description) { d.Nodes[0].ID, d.Nodes[1].ID = d.Nodes[1].ID, d.Nodes[0].ID }},
		{"initiators", func(d *Description) { d.Initiators = "2" }},
		{"announce", func(d *Description) { d.Announce = !d.Announce }},
		{"seed", func(d *Description) { d.Seed++ }},
		{"faults", func(d *Description) { d.Faults = "loss:msg=3" }},
		{"", func(d *Description) { d.Nodes[3].Address = "127.0.0.1:1" }},
	} {
		d := *base
		d.Nodes = slices.Clone(base.Nodes)
		c.change(&d)
		got := digest(&d)
		differ := got.Differ(&want)
		if c.field == "" {
			if len(differ) != 0 || got.Sum() != want.Sum() {
				t.Errorf("a change that leaves the run alone differs in %v", differ)
			}
			continue
		}
		wantDiffer := []string{c.field}
		if c.field == "algorithm" {
			wantDiffer = []string{"algorithm", "params", "topology"} // afek-gafni takes none, on a complete graph
		}
		if !slices.Equal(differ, wantDiffer) || got.Sum() == want.Sum() {
			t.Errorf("%s changed: the digests differ in %v (sums %016x, %016x)", c.field, differ, got.Sum(), want.Sum())
		}
	}
}

// TestStrangersHoldingEverySlotMakeRoomForAPeer: node 1 holds 2
// connections unauthenticated at once (MaxHandshakes), and before its peer
// dials, strangers take both slots and more: two that send the start of a
// TLS record and stall (in their handshake, which may last 10 s here), and
// six silent ones. The silent ones are closed as newer connections come,
// the stalled ones once they have held their slot stalledAfter, so node
// 0's link reaches node 1 and the cluster elects within its 5 s timeout,
// which the strangers would have outlasted when a slot was held until the
// handshake timeout. The log sums the strangers up.
func TestStrangersHoldingEverySlotMakeRoomForAPeer(t *testing.T) {
	const n = 3
	dir, d := initCluster(t, scenario.Spec{Algorithm: "lcr", N: n, Seed: 1})
	var logs [n]bytes.Buffer
	var mu sync.Mutex
	res := make([]*NodeResult, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	start := func(i int) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res[i], errs[i] = RunNode(dir, NodeOptions{Index: i, Timeout: 5 * time.Second, HandshakeTimeout: 10 * time.Second,
				MaxHandshakes: 2, Log: &lockedWriter{&mu, &logs[i]}})
		}()
	}
	start(1)
	start(2)
	var strangers []net.Conn
	defer func() {
		for _, c := range strangers {
			c.Close()
		}
	}()
	for k := 0; k < 8; k++ {
		var c net.Conn
		var err error
		for try := 0; try < 200; try++ {
			if c, err = net.Dial("tcp", d.Nodes[1].Address); err == nil {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		if err != nil {
			t.Fatal(err)
		}
		if k < 2 {
			c.Write([]byte{0x16, 0x03, 0x01, 0x02, 0x00}) // a handshake record of 512 bytes, never sent
		}
		strangers = append(strangers, c)
	}
	start(0)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("node %d: %v\n%s", i, err, logs[i].String())
		}
	}
	if rec, err := Judge(d, nil, res, nil); err != nil || rec.Outcome != election.OutcomeElected {
		t.Fatalf("%v %v", rec, err)
	}
	closed := 0
	for _, m := range regexp.MustCompile(`(\d+) were closed to make room`).FindAllStringSubmatch(logs[1].String(), -1) {
		k, _ := strconv.Atoi(m[1])
		closed += k
	}
	if closed < 6 {
		t.Errorf("node 1 closed %d connections to make room, want the 6 silent ones at least:\n%s", closed, logs[1].String())
	}
	t.Logf("node 1's log:\n%s", logs[1].String())
}
