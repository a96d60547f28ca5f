package bounded

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestQuoteCutsAtMaxExcerpt(t *testing.T) {
	for _, c := range []struct {
		in, want string
	}{
		{"", `""`},
		{"abc", `"abc"`},
		{strings.Repeat("1", 200), strconv.Quote(strings.Repeat("1", 200))},
		{strings.Repeat("1", 201), strconv.Quote(strings.Repeat("1", 200)) + "…"},
		{strings.Repeat("1", 5_000_000), strconv.Quote(strings.Repeat("1", 200)) + "…"},
		// Bytes that quote to four: 50 of them fill the excerpt.
		{strings.Repeat("\x9f", 300), strconv.Quote(strings.Repeat("\x9f", 50)) + "…"},
		// A rune is not split: 66 of the 3-byte runes are 198 bytes.
		{strings.Repeat("€", 100), strconv.Quote(strings.Repeat("€", 66)) + "…"},
	} {
		if got := QuoteString(c.in); got != c.want {
			t.Errorf("QuoteString(%.20q... %d bytes) = %s, want %s", c.in, len(c.in), got, c.want)
		}
	}
}

// The reproduction: encoding/json's error echoes a 5 MB number
// whole; Cut leaves 200 bytes of it and the rest of the message.
func TestCutShortensTheNumberEncodingJSONEchoes(t *testing.T) {
	line := `{"n":` + strings.Repeat("1", 5_000_000) + `}`
	var v struct{ N int64 }
	err := json.Unmarshal([]byte(line), &v)
	if err == nil || len(err.Error()) < 5_000_000 {
		t.Fatalf("encoding/json no longer echoes the number (%d bytes): the test has no case", len(err.Error()))
	}
	got := Cut(err.Error())
	want := "json: cannot unmarshal number " + strings.Repeat("1", 200) + "… into Go struct field .N of type int64"
	if got != want {
		t.Fatalf("Cut = %q\nwant  %q", got, want)
	}
}

func TestCutQuotedStringsControlsAndShortMessages(t *testing.T) {
	long := strings.Repeat("a b ", 100)
	for _, c := range []struct{ in, want string }{
		{"line 3: unknown event \"x\"", "line 3: unknown event \"x\""},
		{"unknown event " + strconv.Quote(long) + " here", "unknown event " + QuoteString(long) + " here"},
		{"invalid character '\"' after object key", "invalid character '\"' after object key"},
		{"two\nlines\x00", `two\x0alines\x00`},
		{"bad \xff byte", `bad \xff byte`},
	} {
		if got := Cut(c.in); got != c.want {
			t.Errorf("Cut(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// FuzzQuoteAndCut: whatever the input, Quote keeps at most MaxExcerpt
// bytes of it, as a Go string that unquotes to a prefix of it; Cut's
// result is one line of valid UTF-8 with no run of more than about
// MaxExcerpt bytes, and a message without long runs is left as it is.
func FuzzQuoteAndCut(f *testing.F) {
	f.Add("abc")
	f.Add(strings.Repeat("1", 500))
	f.Add("x \"" + strings.Repeat("é", 300) + "\" y")
	f.Add("\"unclosed " + strings.Repeat("z", 300))
	f.Add("\xff\xfe\n\t")
	f.Fuzz(func(t *testing.T, s string) {
		q := QuoteString(s)
		body, cut := strings.CutSuffix(q, "…")
		u, err := strconv.Unquote(body)
		if err != nil || !strings.HasPrefix(s, u) || len(u) > MaxExcerpt || len(body) > MaxExcerpt+2 || cut != (u != s) {
			t.Fatalf("QuoteString(%q) = %s (unquoted %q, %v)", s, q, u, err)
		}
		c := Cut(s)
		if !utf8.ValidString(c) || strings.ContainsAny(c, "\n\r\x00") {
			t.Fatalf("Cut(%q) = %q: not one line of UTF-8", s, c)
		}
		for _, run := range strings.Split(c, " ") {
			if len(run) > 4*MaxExcerpt+16 {
				t.Fatalf("Cut(%q) has a run of %d bytes", s, len(run))
			}
		}
		plain := utf8.ValidString(s)
		for _, r := range s {
			plain = plain && r >= ' ' && r != 0x7f
		}
		for _, run := range strings.Split(s, " ") {
			plain = plain && len(run) <= MaxExcerpt
		}
		if plain && c != s {
			t.Fatalf("Cut(%q) = %q changed a short message", s, c)
		}
	})
}
