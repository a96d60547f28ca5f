package bounded

import (
	"fmt"
	"io"
)

// MaxUnwritten is the longest unwritten end that a stream of records
// (internal/cmdio.Stream) can leave after a kill: the NUL bytes of the
// window it had mapped past its last record. Its writer maps no more.
const MaxUnwritten = 16 << 20

// A writer of records killed by SIGKILL or the out-of-memory killer
// leaves its file's unwritten end (cmdio.Stream): after its last record,
// perhaps the start of the record it was copying, then NUL bytes up to
// the end of the file. The rule, here once for every reader: a run of NUL
// bytes (at most MaxUnwritten of them) that reaches the end of the input
// is not data; the input ends where it starts. Line files never hold a
// NUL byte otherwise (JSON escapes it), and a run of NUL bytes followed by
// anything else is data like any other, which its parser refuses.

// unwritten is a reader of r without the run of NUL bytes that ends r,
// if one does: it holds back each run of NUL bytes until it knows what
// follows it, counting it (it keeps no copy), and a run longer than
// MaxUnwritten is refused as what no writer leaves (/dev/zero).
type unwritten struct {
	r       io.Reader
	name    string
	what    string
	nuls    int64  // a run of NUL bytes read and held back
	give    int64  // NUL bytes of a run to hand on before held
	held    []byte // bytes read after a run, handed on after it
	scratch []byte
	err     error
}

func dropUnwritten(r io.Reader, name, what string) *unwritten {
	return &unwritten{r: r, name: name, what: what}
}

func (u *unwritten) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	for {
		if u.give > 0 {
			n := int(min(u.give, int64(len(p))))
			clear(p[:n])
			u.give -= int64(n)
			return n, nil
		}
		if len(u.held) > 0 {
			n := copy(p, u.held)
			u.held = u.held[n:]
			return n, nil
		}
		if u.err != nil {
			return 0, u.err
		}
		n, err := u.r.Read(p)
		chunk := p[:n]
		data := len(chunk)
		for data > 0 && chunk[data-1] == 0 {
			data--
		}
		if err != nil {
			u.err = err // at io.EOF the NUL bytes held are the unwritten end
		}
		switch {
		case data == 0:
			u.nuls += int64(n)
			if u.nuls > MaxUnwritten {
				u.err = &Error{Path: u.name, Msg: fmt.Sprintf("holds a run of more than %s of NUL bytes: this is not %s", Size(MaxUnwritten), u.what)}
				u.nuls = 0
			}
			continue
		case u.nuls > 0:
			// The run held is data: hand it on, then this chunk.
			u.scratch = append(u.scratch[:0], chunk[:data]...)
			u.held, u.give = u.scratch, u.nuls
			u.nuls = int64(n - data)
			continue
		}
		u.nuls = int64(n - data)
		if data == 0 && u.err != nil {
			return 0, u.err
		}
		return data, nil
	}
}
