package cluster

import (
	"net"
	"testing"
	"time"

	"github.com/electkit/elect/scenario"
)

// TestListenOnTheNodesOwnAddress is the reproduction: any host name in
// --host made nodes listen on every interface. A node whose address is
// localhost:P now listens there only (127.0.0.2:P, another loopback
// address, is refused), and --listen :P exposes it on every interface.
func TestListenOnTheNodesOwnAddress(t *testing.T) {
	dir := t.TempDir()
	d, err := Init(dir, scenario.Spec{Algorithm: "lcr", N: 2, Seed: 1}, InitOptions{Host: "localhost", BasePort: 0})
	if err != nil {
		t.Fatal(err)
	}
	_, port, _ := net.SplitHostPort(d.Nodes[0].Address)
	for _, c := range []struct {
		listen string
		other  bool // 127.0.0.2 reaches it
	}{{"", false}, {":" + port, true}} {
		done := make(chan error, 1)
		go func() {
			// Alone, node 0 waits for node 1 and gives up after its timeout.
			_, err := RunNode(dir, NodeOptions{Index: 0, Timeout: time.Second, Listen: c.listen})
			done <- err
		}()
		var own net.Conn
		for k := 0; k < 100; k++ {
			if own, err = net.Dial("tcp", "127.0.0.1:"+port); err == nil {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		if err != nil {
			t.Fatalf("--listen %q: the node's own address: %v", c.listen, err)
		}
		own.Close()
		other, err := net.DialTimeout("tcp", "127.0.0.2:"+port, time.Second)
		if other != nil {
			other.Close()
		}
		if (err == nil) != c.other {
			t.Errorf("--listen %q: 127.0.0.2:%s reached: %v, want %v", c.listen, port, err == nil, c.other)
		}
		<-done
	}
}
