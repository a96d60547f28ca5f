package cluster

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/electkit/elect"
)

// FrameVersion is the version byte of every frame (2: message frames carry
// the time they were handed over; 3: hellos carry the digest of the
// description, and the node dialled answers with its own hello).
const FrameVersion = 3

// MaxFrame is the largest frame body a node accepts (its length prefix
// excluded). A message frame needs at most 1 + 1 + 1 + 7*10 bytes; the
// limit leaves room and bounds what one frame can make a node allocate.
const MaxFrame = 256

// FrameType says what a frame carries.
type FrameType uint8

// The frame types.
const (
	// FrameHello opens a connection: the dialler's index, on a data link
	// its port (on a control link, ControlPort), and the digest of its
	// description (Digest). The node dialled answers with a hello of its
	// own (its index, and its digest), refusal or not, so that both ends
	// can name a mismatch.
	FrameHello FrameType = 1
	// FrameMessage is an algorithm message: its type and fields, the
	// sender's Lamport time, the message's causal depth, and the sender's
	// wall clock when it handed the message over (Unix ns, for latencies).
	FrameMessage FrameType = 2
	// FrameBye ends a data link after termination: nothing follows it.
	FrameBye FrameType = 3
	// FrameProbe asks a node for its counters (a termination wave).
	FrameProbe FrameType = 4
	// FrameReport answers a probe: the wave, messages sent and received.
	FrameReport FrameType = 5
	// FrameStop says the run has terminated: report and leave.
	FrameStop FrameType = 6
	// FrameAbort says the run failed: the node named in A is lost.
	FrameAbort FrameType = 7
)

// ControlPort is the port a hello names to open a control link to node 0.
const ControlPort = -1

// Frame is one decoded frame. The fields used depend on the type: Hello
// (A = index, B = port, Digest), Message (Msg, Lamport, Depth), Probe and
// Stop (A = wave), Report (A = wave, B = sent, C = received), Abort (A =
// lost node index).
type Frame struct {
	Type           FrameType
	Msg            elect.Message
	Lamport, Depth int64
	Sent           int64
	A, B, C        int64
	// Digest is a hello's digest of the sender's description (a pointer:
	// only hellos carry one, and message frames stay small).
	Digest *Digest
}

// AppendFrame appends f's encoding to b: a 4-byte big-endian length of
// the body, then the body: version, type, and the type's fields as
// varints.
func AppendFrame(b []byte, f *Frame) []byte {
	start := len(b)
	b = append(b, 0, 0, 0, 0, FrameVersion, byte(f.Type))
	switch f.Type {
	case FrameMessage:
		b = append(b, byte(f.Msg.Type))
		b = binary.AppendVarint(b, int64(f.Msg.ID))
		b = binary.AppendVarint(b, f.Msg.A)
		b = binary.AppendVarint(b, f.Msg.B)
		b = binary.AppendVarint(b, f.Lamport)
		b = binary.AppendVarint(b, f.Depth)
		b = binary.AppendVarint(b, f.Sent)
	case FrameHello, FrameProbe, FrameReport, FrameStop, FrameAbort:
		b = binary.AppendVarint(b, f.A)
		b = binary.AppendVarint(b, f.B)
		b = binary.AppendVarint(b, f.C)
		if f.Type == FrameHello {
			var none Digest
			g := f.Digest
			if g == nil {
				g = &none
			}
			b = append(b, byte(len(g)))
			for _, x := range g {
				b = binary.BigEndian.AppendUint64(b, x)
			}
		}
	}
	binary.BigEndian.PutUint32(b[start:], uint32(len(b)-start-4))
	return b
}

// ErrFrame is wrapped by every error about a malformed frame.
var ErrFrame = errors.New("malformed frame")

// FrameReader reads frames from a stream, reusing one buffer of at most
// MaxFrame bytes: a frame never makes it allocate more.
type FrameReader struct {
	r   *bufio.Reader
	buf [MaxFrame]byte
}

// NewFrameReader returns a reader of frames from r.
func NewFrameReader(r io.Reader) *FrameReader {
	return &FrameReader{r: bufio.NewReaderSize(r, 1<<16)}
}

// Buffered reports whether a whole frame header or more is already read
// ahead (a node flushes its writes only when no input is waiting).
func (fr *FrameReader) Buffered() int { return fr.r.Buffered() }

// Read reads the next frame. io.EOF means the stream ended cleanly between
// frames; an error wrapping ErrFrame means the peer sent something that is
// not a frame (a bad or oversized length, an unknown version or type, a
// truncated body, or bytes left over after the body's fields).
func (fr *FrameReader) Read(f *Frame) error {
	var head [4]byte
	if _, err := io.ReadFull(fr.r, head[:]); err != nil {
		if err == io.ErrUnexpectedEOF {
			return fmt.Errorf("%w: truncated length", ErrFrame)
		}
		return err
	}
	n := binary.BigEndian.Uint32(head[:])
	if n < 2 || n > MaxFrame {
		return fmt.Errorf("%w: length %d outside 2..%d", ErrFrame, n, MaxFrame)
	}
	body := fr.buf[:n]
	if _, err := io.ReadFull(fr.r, body); err != nil {
		return fmt.Errorf("%w: truncated body (%v)", ErrFrame, err)
	}
	return DecodeFrame(body, f)
}

// DecodeFrame decodes one frame body (without its length prefix).
func DecodeFrame(body []byte, f *Frame) error {
	if len(body) < 2 {
		return fmt.Errorf("%w: %d-byte body", ErrFrame, len(body))
	}
	if body[0] != FrameVersion {
		return fmt.Errorf("%w: version %d, this node speaks %d", ErrFrame, body[0], FrameVersion)
	}
	*f = Frame{Type: FrameType(body[1])}
	d := decoder{b: body[2:]}
	switch f.Type {
	case FrameMessage:
		t := d.byte()
		f.Msg = elect.Message{Type: elect.MsgType(t), ID: elect.ID(d.varint()), A: d.varint(), B: d.varint()}
		f.Lamport, f.Depth, f.Sent = d.varint(), d.varint(), d.varint()
	case FrameHello, FrameProbe, FrameReport, FrameStop, FrameAbort:
		f.A, f.B, f.C = d.varint(), d.varint(), d.varint()
		if f.Type == FrameHello {
			f.Digest = d.digest()
		}
	case FrameBye:
	default:
		return fmt.Errorf("%w: unknown type %d", ErrFrame, body[1])
	}
	switch {
	case d.err != nil:
		return fmt.Errorf("%w: %v", ErrFrame, d.err)
	case len(d.b) > 0:
		return fmt.Errorf("%w: %d bytes of garbage after the fields", ErrFrame, len(d.b))
	}
	return nil
}

type decoder struct {
	b   []byte
	err error
}

func (d *decoder) byte() byte {
	if len(d.b) == 0 {
		d.fail("truncated field")
		return 0
	}
	c := d.b[0]
	d.b = d.b[1:]
	return c
}

func (d *decoder) varint() int64 {
	x, k := binary.Varint(d.b)
	if k <= 0 {
		d.fail("bad varint")
		return 0
	}
	d.b = d.b[k:]
	return x
}

// digest reads a hello's digest: the number of field digests, which must
// be this node's (len(Digest)), then each, 8 bytes big-endian.
func (d *decoder) digest() *Digest {
	k := d.byte()
	var g Digest
	if d.err == nil && int(k) != len(g) {
		d.fail(fmt.Sprintf("a hello with %d field digests, where this node sends %d", k, len(g)))
	}
	for i := range g {
		if len(d.b) < 8 {
			d.fail("truncated digest")
			return nil
		}
		g[i] = binary.BigEndian.Uint64(d.b)
		d.b = d.b[8:]
	}
	return &g
}

func (d *decoder) fail(msg string) {
	if d.err == nil {
		d.err = errors.New(msg)
	}
	d.b = nil
}
