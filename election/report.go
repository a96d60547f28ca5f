package election

import (
	"bytes"
	"cmp"
	"encoding/json"
	"io"
	"math"
	"math/bits"
	"slices"
	"strconv"
)

// Transport is the run report of a runtime with real timing (goroutines,
// TCP): how fast messages went, how they spread over the links, and how
// long each took from its sender's hand-over to its receiver's taking it.
type Transport struct {
	WallSeconds       float64 `json:"wall_seconds"`
	MessagesPerSecond float64 `json:"messages_per_second"`
	// Links is the number of directed links; LinkMessages summarises the
	// messages each carried.
	Links        int       `json:"links"`
	LinkMessages LinkStats `json:"link_messages"`
	// Busiest are the links that carried the most messages (at most
	// BusiestLinks, most first, ties by sender and receiver).
	Busiest []LinkCount `json:"busiest_links"`
	// PerLink is every directed link's count, by sender and receiver, when
	// there are at most MaxPerLink links (omitted beyond: Busiest and
	// LinkMessages stand for them).
	PerLink []LinkCount  `json:"per_link,omitempty"`
	Latency LatencyStats `json:"latency"`
	// MaxInbox is the most messages one inbox held at once (the goroutine
	// runtime's asynchronous runs, whose inboxes have windows).
	MaxInbox int `json:"max_inbox,omitempty"`
	// Overflows counts the times the goroutine runtime let a node hand
	// over past a full inbox to break a cycle of waiting nodes.
	Overflows int64 `json:"overflows,omitempty"`
	// ElectionSeconds is the TCP cluster's election phase, from the first
	// message a node sent to the last one a node received (WallSeconds
	// adds the processes' start, their connections and termination), and
	// ElectionMessagesPerSecond the messages over it.
	ElectionSeconds           float64 `json:"election_seconds,omitempty"`
	ElectionMessagesPerSecond float64 `json:"election_messages_per_second,omitempty"`
	// NodePeakBytes is the peak resident memory (VmHWM) of the TCP
	// cluster's node processes, the smallest, median and largest (nil
	// where the system does not say): it counts the pages of the program
	// each touched, which the processes of one machine share.
	// NodeAnonBytes is their own (anonymous) resident memory at their end.
	NodePeakBytes *PeakStats `json:"node_peak_bytes,omitempty"`
	NodeAnonBytes *PeakStats `json:"node_anon_bytes,omitempty"`
}

// PeakStats summarise the memory of processes, in bytes.
type PeakStats struct {
	Min    int64 `json:"min"`
	Median int64 `json:"median"`
	Max    int64 `json:"max"`
}

// BusiestLinks is how many links Transport.Busiest lists.
const BusiestLinks = 5

// MaxPerLink is the most links Transport.PerLink lists.
const MaxPerLink = 4096

// LinkCount is the number of messages sent from one node to another.
type LinkCount struct {
	From     int   `json:"from"`
	To       int   `json:"to"`
	Messages int64 `json:"messages"`
}

// LinkStats summarises the messages per directed link.
type LinkStats struct {
	Min    int64   `json:"min"`
	Median int64   `json:"median"`
	Max    int64   `json:"max"`
	Mean   float64 `json:"mean"`
}

// LatencyStats are delivery latencies in seconds. P50 and P99 are upper
// bounds read from a histogram whose buckets are a factor sqrt(2) wide (the
// true percentile is at most 41% below); Max is exact.
type LatencyStats struct {
	Count int64   `json:"count"`
	P50   float64 `json:"p50_seconds"`
	P99   float64 `json:"p99_seconds"`
	Max   float64 `json:"max_seconds"`
}

// NewTransport builds the report from the links' counts (every directed
// link of the graph, zero counts included), the merged latency histogram,
// the messages and the wall time.
func NewTransport(links []LinkCount, lat *Latency, messages int64, wall float64) *Transport {
	t := &Transport{WallSeconds: wall, Links: len(links), Latency: lat.Stats()}
	if wall > 0 {
		t.MessagesPerSecond = float64(messages) / wall
	}
	if len(links) == 0 {
		return t
	}
	counts := make([]int64, len(links))
	sum := 0.0
	for i, l := range links {
		counts[i] = l.Messages
		sum += float64(l.Messages)
	}
	slices.Sort(counts)
	t.LinkMessages = LinkStats{Min: counts[0], Median: counts[len(counts)/2], Max: counts[len(counts)-1], Mean: sum / float64(len(links))}
	if len(links) <= MaxPerLink {
		t.PerLink = links
	}
	t.Busiest = busiest(links, BusiestLinks)
	return t
}

// busiest returns the k links that carried the most messages, most first,
// ties by sender and receiver, then in the order of links: the first k
// of links sorted stably so, found without sorting (or copying) them all.
func busiest(links []LinkCount, k int) []LinkCount {
	before := func(a, b LinkCount) bool {
		return cmp.Or(cmp.Compare(b.Messages, a.Messages), cmp.Compare(a.From, b.From), cmp.Compare(a.To, b.To)) < 0
	}
	top := make([]LinkCount, 0, min(k, len(links)))
	if cap(top) == 0 {
		return top
	}
	for _, l := range links {
		if len(top) == cap(top) {
			if !before(l, top[len(top)-1]) {
				continue
			}
			top = top[:len(top)-1]
		}
		// After the links it does not come before (stable).
		i := len(top)
		for i > 0 && before(l, top[i-1]) {
			i--
		}
		top = slices.Insert(top, i, l)
	}
	return top
}

// WriteJSON writes t to w as json.Marshal encodes it, but with PerLink
// (thousands of links) written as it goes rather than built in a buffer
// first: for the goroutine runtime's report at n = 1000 (2000 links), the
// encoder's buffer grew to 128 KB.
func (t *Transport) WriteJSON(w io.Writer) error {
	short := *t
	short.PerLink = nil
	b, err := json.Marshal(&short)
	if err != nil {
		return err
	}
	// PerLink goes between Busiest and Latency; a report holds no
	// strings, so the key "latency" appears once, as a key.
	at := bytes.Index(b, []byte(`,"latency":`))
	if len(t.PerLink) == 0 || at < 0 {
		_, err := w.Write(b)
		return err
	}
	buf := append(make([]byte, 0, 4096), b[:at]...)
	buf = append(buf, `,"per_link":[`...)
	for i, l := range t.PerLink {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, `{"from":`...)
		buf = strconv.AppendInt(buf, int64(l.From), 10)
		buf = append(buf, `,"to":`...)
		buf = strconv.AppendInt(buf, int64(l.To), 10)
		buf = append(buf, `,"messages":`...)
		buf = strconv.AppendInt(buf, l.Messages, 10)
		buf = append(buf, '}')
		if len(buf) > 4000 {
			if _, err := w.Write(buf); err != nil {
				return err
			}
			buf = buf[:0]
		}
	}
	buf = append(buf, ']')
	buf = append(buf, b[at:]...)
	_, err = w.Write(buf)
	return err
}

// latencyBuckets is the number of buckets of a Latency: two per power of
// two of nanoseconds, up to 2^32 ns (4.3 s); the last holds every longer
// latency.
const latencyBuckets = 64

// Latency is a histogram of delivery latencies in nanoseconds, two buckets
// per power of two (Count[b]: bucket b), with their number and the exact
// maximum; it is printed as JSON by the TCP runtime's nodes and merged. The zero value is empty; it is
// not safe for concurrent use (a runtime keeps one per node and merges).
type Latency struct {
	Count   [latencyBuckets]uint32 `json:"buckets"`
	Overall int64                  `json:"count"`
	Max     int64                  `json:"max_ns"`
}

// bucket is the bucket of ns: 2k for [2^k, 1.5*2^k), 2k+1 for [1.5*2^k, 2^(k+1)).
func bucket(ns int64) int {
	if ns < 2 {
		return 0
	}
	k := bits.Len64(uint64(ns)) - 1
	half := int(uint64(ns)>>(k-1)) & 1
	return min(2*k+half, latencyBuckets-1)
}

// upper is the largest latency bucket b holds.
func upper(b int) float64 {
	k := b / 2
	if b%2 == 0 {
		return 1.5 * math.Ldexp(1, k)
	}
	return math.Ldexp(1, k+1)
}

// Add records one latency of ns nanoseconds (negative counts as zero).
func (l *Latency) Add(ns int64) {
	ns = max(ns, 0)
	b := bucket(ns)
	if l.Count[b] == math.MaxUint32 {
		return // a bucket of four billion: the percentiles are settled
	}
	l.Count[b]++
	l.Overall++
	l.Max = max(l.Max, ns)
}

// Merge adds o's latencies to l.
func (l *Latency) Merge(o *Latency) {
	for b, c := range o.Count {
		l.Count[b] = uint32(min(uint64(l.Count[b])+uint64(c), math.MaxUint32))
	}
	l.Overall += o.Overall
	l.Max = max(l.Max, o.Max)
}

// Quantile is an upper bound of the q-quantile, in nanoseconds (0 when
// empty), never above the maximum.
func (l *Latency) Quantile(q float64) float64 {
	if l.Overall == 0 {
		return 0
	}
	rank := int64(math.Ceil(q * float64(l.Overall)))
	rank = max(rank, 1)
	var seen int64
	for b, c := range l.Count {
		seen += int64(c)
		if seen >= rank {
			if b == latencyBuckets-1 {
				break
			}
			return min(upper(b), float64(l.Max))
		}
	}
	return float64(l.Max)
}

// Stats are the histogram's count, p50, p99 and maximum in seconds.
func (l *Latency) Stats() LatencyStats {
	if l == nil {
		return LatencyStats{}
	}
	return LatencyStats{Count: l.Overall, P50: l.Quantile(0.5) / 1e9, P99: l.Quantile(0.99) / 1e9, Max: float64(l.Max) / 1e9}
}
