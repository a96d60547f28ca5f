package cluster

import (
	"bytes"
	"crypto/tls"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/electkit/elect"
	"github.com/electkit/elect/scenario"
)

func TestFrameRoundTrip(t *testing.T) {
	frames := []Frame{
		{Type: FrameMessage, Msg: elect.Message{Type: 3, ID: -1 << 62, A: 1<<63 - 1, B: -7}, Lamport: 12, Depth: 5},
		{Type: FrameHello, A: 3, B: ControlPort, Digest: &Digest{1, 2, 3, 4, 5, 6, 7, 8, 1<<64 - 1}},
		{Type: FrameBye},
		{Type: FrameProbe, A: 9},
		{Type: FrameReport, A: 9, B: 100, C: 99},
		{Type: FrameStop, A: 10},
		{Type: FrameAbort, A: 4},
	}
	var b []byte
	for i := range frames {
		b = AppendFrame(b, &frames[i])
	}
	fr := NewFrameReader(bytes.NewReader(b))
	for i, want := range frames {
		var got Frame
		if err := fr.Read(&got); err != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("frame %d: got %+v, %v; want %+v", i, got, err, want)
		}
	}
	if err := fr.Read(&Frame{}); err != io.EOF {
		t.Fatalf("after the last frame: %v, want EOF", err)
	}
}

// malformed are the byte strings an authenticated peer might send that are
// not frames, each with what the error must say.
var malformed = []struct {
	name, want string
	data       []byte
}{
	{"bad length", "outside 2..", []byte{0, 0, 0, 1, 1}},
	{"over the maximum", "outside 2..", []byte{0x7f, 0, 0, 0}},
	{"unknown type", "unknown type 99", []byte{0, 0, 0, 2, FrameVersion, 99}},
	{"unknown version", "version 7", []byte{0, 0, 0, 2, 7, byte(FrameBye)}},
	{"truncated", "truncated body", []byte{0, 0, 0, 9, FrameVersion, byte(FrameMessage), 1}},
	{"trailing garbage", "garbage after the fields", append(AppendFrame(nil, &Frame{Type: FrameProbe, A: 1})[4:], 0xff)},
	{"bad varint", "bad varint", []byte{0, 0, 0, 4, FrameVersion, byte(FrameProbe), 0x80, 0x80}},
	{"hello of another version", "a hello with 2 field digests, where this node sends 9", []byte{0, 0, 0, 22, FrameVersion, byte(FrameHello), 0, 0, 0, 2, 1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 5, 6, 7, 8}},
	{"truncated digest", "truncated digest", []byte{0, 0, 0, 14, FrameVersion, byte(FrameHello), 0, 0, 0, 9, 1, 2, 3, 4, 5, 6, 7, 8}},
}

func TestMalformedFrames(t *testing.T) {
	for _, m := range malformed {
		data := m.data
		if m.name == "trailing garbage" {
			data = binary.BigEndian.AppendUint32(nil, uint32(len(m.data)))
			data = append(data, m.data...)
		}
		err := NewFrameReader(bytes.NewReader(data)).Read(&Frame{})
		if !errors.Is(err, ErrFrame) || !strings.Contains(err.Error(), m.want) {
			t.Errorf("%s: %v; want a malformed-frame error saying %q", m.name, err, m.want)
		}
	}
}

// FuzzFrameReader: any byte stream gives frames or an error, never a panic
// or an allocation beyond MaxFrame per frame, and every frame read
// re-encodes to the bytes it came from.
func FuzzFrameReader(f *testing.F) {
	f.Add(AppendFrame(AppendFrame(nil, &Frame{Type: FrameMessage, Msg: elect.Message{Type: 1, ID: 5}, Lamport: 3, Depth: 1}), &Frame{Type: FrameBye}))
	f.Add(AppendFrame(nil, &Frame{Type: FrameHello, A: 2, B: ControlPort, Digest: &Digest{1, 2, 3, 4, 5, 6, 7, 8, 9}}))
	for _, m := range malformed {
		f.Add(m.data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fr := NewFrameReader(bytes.NewReader(data))
		consumed := 0
		for {
			var fm Frame
			err := fr.Read(&fm)
			if err != nil {
				return
			}
			enc := AppendFrame(nil, &fm)
			if consumed+len(enc) > len(data) {
				t.Fatalf("frame %+v re-encodes to more bytes than were read", fm)
			}
			consumed += len(enc)
		}
	})
}

// TestMalformedFrameFromAPeer: a peer holding a valid certificate (node 0's)
// sends a malformed frame on its link to node 1: node 1 logs one line about
// the frame, closes the link, and reports the lost peer; it does not panic
// or hang.
func TestMalformedFrameFromAPeer(t *testing.T) {
	for _, m := range malformed[:3] {
		t.Run(m.name, func(t *testing.T) {
			dir, d := initCluster(t, scenario.Spec{Algorithm: "lcr", N: 3, Seed: 1})
			// The impostor holds node 0's place: it accepts the control
			// links and dials node 1's data link.
			tc, err := tlsConfig(dir, d, 0)
			if err != nil {
				t.Fatal(err)
			}
			digest := testDigest(t, dir)
			ln, err := tls.Listen("tcp", d.Nodes[0].Address, tc)
			if err != nil {
				t.Fatal(err)
			}
			defer ln.Close()
			go func() {
				for {
					c, err := ln.Accept()
					if err != nil {
						return
					}
					go func() {
						// It answers the nodes' hellos as node 0 would.
						var hello Frame
						if NewFrameReader(c).Read(&hello) == nil {
							c.Write(AppendFrame(nil, &Frame{Type: FrameHello, A: 0, B: hello.B, Digest: &digest}))
						}
						io.Copy(io.Discard, c)
					}()
				}
			}()
			var log bytes.Buffer
			mu := &lockedWriter{w: &log, mu: new(sync.Mutex)}
			done := make(chan error, 2)
			go func() {
				_, err := RunNode(dir, NodeOptions{Index: 2, Timeout: time.Second})
				done <- err
			}()
			go func() {
				_, err := RunNode(dir, NodeOptions{Index: 1, Timeout: time.Second, Log: mu})
				done <- err
			}()
			dial := tc.Clone()
			dial.ServerName = "node-1"
			var c net.Conn
			for k := 0; k < 100; k++ {
				if c, err = tls.Dial("tcp", d.Nodes[1].Address, dial); err == nil {
					break
				}
				time.Sleep(20 * time.Millisecond)
			}
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			c.Write(AppendFrame(nil, &Frame{Type: FrameHello, A: 0, B: int64(elect.Left), Digest: &digest}))
			c.Write(m.data)
			err1, err2 := <-done, <-done
			var fe *FaultError
			if !errors.As(err1, &fe) || !errors.As(err2, &fe) {
				t.Fatalf("nodes ended with %v and %v; want faults", err1, err2)
			}
			mu.mu.Lock()
			got := log.String()
			mu.mu.Unlock()
			t.Logf("node 1:\n%s", got)
			if strings.Count(got, "malformed frame") != 2 || !strings.Contains(got, "node 0") {
				t.Errorf("node 1's log:\n%s", got)
			}
		})
	}
}
