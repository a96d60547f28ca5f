package bounded

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxExcerpt is the most bytes of an input that an error message quotes:
// a line of garbage, a 5 MB JSON number or a string of a megabyte is cut
// to this, with an ellipsis, so that the error stays one readable line.
const MaxExcerpt = 200

// ellipsis marks an excerpt that was cut.
const ellipsis = "…"

// Quote returns b as a Go-quoted string for an error message, cut to at
// most MaxExcerpt bytes of b, and to a quoted form of at most MaxExcerpt
// bytes and its quotes, followed by "…" when it was cut.
func Quote(b []byte) string { return QuoteString(string(b)) }

// QuoteString is Quote of a string.
func QuoteString(s string) string {
	if len(s) <= MaxExcerpt {
		if q := strconv.Quote(s); len(q) <= MaxExcerpt+2 {
			return q
		}
	}
	k := runeStart(s, min(len(s), MaxExcerpt))
	q := strconv.Quote(s[:k])
	for len(q) > MaxExcerpt+2 {
		// Each byte quotes to at most 4 (\x9f), a rune to at most 10
		// (\U0010ffff): shorten by what is over, at least a byte.
		k = runeStart(s, k-max(1, (len(q)-MaxExcerpt-2)/10))
		q = strconv.Quote(s[:k])
	}
	return q + ellipsis
}

// runeStart is the largest k' <= k at which a rune of s starts, looking
// back at most utf8.UTFMax-1 bytes (in bytes that are not UTF-8 there may
// be none: then k itself).
func runeStart(s string, k int) int {
	k = max(k, 0)
	for j := k; j > 0 && j > k-utf8.UTFMax && j < len(s); j-- {
		if utf8.RuneStart(s[j]) {
			return j
		}
	}
	return k
}

// Cut returns an error message made one line and with every excerpt of an
// input in it cut to MaxExcerpt bytes: a Go-quoted string longer than
// that is quoted again by Quote, any other run of non-blank characters
// longer than that (the 5 MB number that encoding/json's "cannot
// unmarshal number 1111..." echoes) is cut with "…", and control
// characters and bytes that are not UTF-8 are written as \x escapes. The
// readers pass every message about an input's contents through it.
func Cut(msg string) string {
	var b strings.Builder
	for i := 0; i < len(msg); {
		c := msg[i]
		if c == ' ' {
			b.WriteByte(c)
			i++
			continue
		}
		if c == '"' {
			if end := quoteEnd(msg, i); end > 0 {
				q := msg[i:end]
				if s, err := strconv.Unquote(q); err != nil {
					writePlain(&b, q)
				} else if len(q) <= MaxExcerpt+2 && clean(q) {
					b.WriteString(q)
				} else {
					b.WriteString(QuoteString(s))
				}
				i = end
				continue
			}
		}
		end := strings.IndexByte(msg[i+1:], ' ')
		if end < 0 {
			end = len(msg)
		} else {
			end += i + 1
		}
		writePlain(&b, msg[i:end])
		i = end
	}
	return b.String()
}

// quoteEnd is the end of the Go-quoted string that starts at msg[i] (a
// '"'), or 0 when no unescaped '"' closes it.
func quoteEnd(msg string, i int) int {
	for j := i + 1; j < len(msg); j++ {
		switch msg[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return 0
}

// clean reports whether s is UTF-8 without control characters.
func clean(s string) bool {
	for _, r := range s {
		if r == utf8.RuneError || r < ' ' || r == 0x7f {
			return false
		}
	}
	return true
}

// writePlain writes a run of msg, its control characters and bytes that
// are not UTF-8 escaped, cut after MaxExcerpt bytes of it.
func writePlain(b *strings.Builder, run string) {
	written := 0
	for i := 0; i < len(run); {
		if written >= MaxExcerpt {
			b.WriteString(ellipsis)
			return
		}
		r, size := utf8.DecodeRuneInString(run[i:])
		switch {
		case r == utf8.RuneError && size <= 1, r < ' ', r == 0x7f:
			b.WriteString(`\x`)
			b.WriteByte("0123456789abcdef"[run[i]>>4])
			b.WriteByte("0123456789abcdef"[run[i]&15])
			written += 4
		default:
			b.WriteString(run[i : i+size])
			written += size
		}
		i += size
	}
}

// CutError returns err with its message cut (Cut); errors.Is and
// errors.As see err through it.
func CutError(err error) error {
	if err == nil {
		return nil
	}
	msg := Cut(err.Error())
	if msg == err.Error() {
		return err
	}
	return &cutError{msg: msg, err: err}
}

type cutError struct {
	msg string
	err error
}

func (e *cutError) Error() string { return e.msg }
func (e *cutError) Unwrap() error { return e.err }
