package trace

import (
	"encoding/json"
	"strconv"
)

// quickEvent decodes the event lines that elect writes itself, several
// times faster than encoding/json (which costs about 5 µs a line, 13 s for
// the viewer to index a trace of 10^6 events). It takes only a strict
// subset of JSON: one object, no white space, keys spelled exactly as
// Event's and each at most once, strings of printable ASCII without
// escapes, integers without fraction or exponent within their field's
// range, and "vars" an object. On any other line it returns false and
// decodes nothing, and the caller decodes the line with encoding/json;
// FuzzQuickEvent checks that every line it takes decodes to the same
// Event as encoding/json's.
func quickEvent(text []byte, ev *Event) bool {
	q := quickScanner{text: text}
	if !q.byte('{') {
		return false
	}
	var seen uint32
	for first := true; ; first = false {
		if q.byte('}') {
			return q.pos == len(q.text)
		}
		if !first && !q.byte(',') {
			return false
		}
		key, ok := q.str()
		if !ok || !q.byte(':') {
			return false
		}
		field := quickField(key)
		if field < 0 || seen&(1<<field) != 0 {
			return false
		}
		seen |= 1 << field
		if !q.value(field, ev) {
			return false
		}
	}
}

// The fields quickEvent decodes, by key.
const (
	qT = iota
	qEv
	qNode
	qSpontaneous
	qFrom
	qTo
	qPort
	qType
	qPayload
	qDecision
	qLeader
	qTag
	qName
	qMessage
	qVars
	qLimit
	qReason
)

// quickField returns the field of key, or -1.
func quickField(key []byte) int {
	switch string(key) {
	case "t":
		return qT
	case "ev":
		return qEv
	case "node":
		return qNode
	case "spontaneous":
		return qSpontaneous
	case "from":
		return qFrom
	case "to":
		return qTo
	case "port":
		return qPort
	case "type":
		return qType
	case "payload":
		return qPayload
	case "decision":
		return qDecision
	case "leader":
		return qLeader
	case "tag":
		return qTag
	case "name":
		return qName
	case "message":
		return qMessage
	case "vars":
		return qVars
	case "limit":
		return qLimit
	case "reason":
		return qReason
	}
	return -1
}

// quickScanner reads a line from pos.
type quickScanner struct {
	text []byte
	pos  int
}

// byte consumes c if it comes next.
func (q *quickScanner) byte(c byte) bool {
	if q.pos < len(q.text) && q.text[q.pos] == c {
		q.pos++
		return true
	}
	return false
}

// str reads a string of printable ASCII without escapes.
func (q *quickScanner) str() ([]byte, bool) {
	if !q.byte('"') {
		return nil, false
	}
	start := q.pos
	for ; q.pos < len(q.text); q.pos++ {
		switch c := q.text[q.pos]; {
		case c == '"':
			q.pos++
			return q.text[start : q.pos-1], true
		case c < 0x20 || c >= 0x7f || c == '\\':
			return nil, false
		}
	}
	return nil, false
}

// number reads a JSON number, -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?,
// and returns its text.
func (q *quickScanner) number() ([]byte, bool) {
	start := q.pos
	if !q.integerPart() {
		return nil, false
	}
	if q.byte('.') && !q.digits() {
		return nil, false
	}
	if q.byte('e') || q.byte('E') {
		if !q.byte('+') {
			q.byte('-')
		}
		if !q.digits() {
			return nil, false
		}
	}
	return q.text[start:q.pos], true
}

// integerPart consumes -?(0|[1-9][0-9]*).
func (q *quickScanner) integerPart() bool {
	q.byte('-')
	if q.byte('0') {
		return true
	}
	return q.digits()
}

// digits consumes one or more decimal digits.
func (q *quickScanner) digits() bool {
	start := q.pos
	for q.pos < len(q.text) && q.text[q.pos] >= '0' && q.text[q.pos] <= '9' {
		q.pos++
	}
	return q.pos > start
}

// integer reads a number without fraction or exponent that fits in an
// integer of the given size.
func (q *quickScanner) integer(bits int) (int64, bool) {
	start := q.pos
	if !q.integerPart() {
		return 0, false
	}
	if q.pos < len(q.text) {
		switch q.text[q.pos] {
		case '.', 'e', 'E', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
			return 0, false // a fraction or exponent, or digits after a leading zero
		}
	}
	v, err := strconv.ParseInt(string(q.text[start:q.pos]), 10, bits)
	return v, err == nil
}

// literal consumes word if it comes next.
func (q *quickScanner) literal(word string) bool {
	if len(q.text)-q.pos >= len(word) && string(q.text[q.pos:q.pos+len(word)]) == word {
		q.pos += len(word)
		return true
	}
	return false
}

// value reads the value of field into ev.
func (q *quickScanner) value(field int, ev *Event) bool {
	switch field {
	case qT:
		n, ok := q.number()
		ev.T = json.Number(n)
		return ok
	case qEv, qPort, qType, qDecision, qName, qMessage, qReason:
		b, ok := q.str()
		if !ok {
			return false
		}
		*ev.stringField(field) = string(b)
		return true
	case qNode, qFrom, qTo:
		v, ok := q.integer(32)
		switch field {
		case qNode:
			ev.Node = int32(v)
		case qFrom:
			ev.From = int32(v)
		default:
			ev.To = int32(v)
		}
		return ok
	case qLeader, qTag, qLimit:
		v, ok := q.integer(64)
		switch field {
		case qLeader:
			ev.Leader = v
		case qTag:
			ev.Tag = v
		default:
			ev.Limit = v
		}
		return ok
	case qSpontaneous:
		switch {
		case q.literal("true"):
			ev.Spontaneous = true
		case q.literal("false"):
			ev.Spontaneous = false
		default:
			return false
		}
		return true
	case qPayload:
		return q.payload(ev)
	case qVars:
		return q.vars(ev)
	}
	return false
}

// payload reads an object of integers.
func (q *quickScanner) payload(ev *Event) bool {
	if !q.byte('{') {
		return false
	}
	ev.Payload = map[string]int64{}
	for first := true; ; first = false {
		if q.byte('}') {
			return true
		}
		if !first && !q.byte(',') {
			return false
		}
		k, ok := q.str()
		if !ok || !q.byte(':') {
			return false
		}
		v, ok := q.integer(64)
		if !ok {
			return false
		}
		ev.Payload[string(k)] = v
	}
}

// vars reads an object, kept as its text: it finds the object's end (its
// closing brace, strings skipped) and lets encoding/json check it is
// valid JSON.
func (q *quickScanner) vars(ev *Event) bool {
	start := q.pos
	if !q.byte('{') {
		return false
	}
	depth := 1
	for q.pos < len(q.text) && depth > 0 {
		switch q.text[q.pos] {
		case '{', '[':
			depth++
		case '}', ']':
			depth--
		case '"':
			if _, ok := q.str(); !ok {
				return false
			}
			continue
		}
		q.pos++
	}
	raw := q.text[start:q.pos]
	if depth != 0 || !json.Valid(raw) {
		return false
	}
	ev.Vars = append(json.RawMessage(nil), raw...)
	return true
}

// stringField returns the string field that quickEvent's field names.
func (ev *Event) stringField(field int) *string {
	switch field {
	case qEv:
		return &ev.Ev
	case qPort:
		return &ev.Port
	case qType:
		return &ev.Type
	case qDecision:
		return &ev.Decision
	case qName:
		return &ev.Name
	case qMessage:
		return &ev.Message
	default:
		return &ev.Reason
	}
}
