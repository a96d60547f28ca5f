package cluster

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/electkit/elect"
	"github.com/electkit/elect/election"
)

// DigestFields name the parts of a description that make its run, in the
// order of a Digest's field digests: two nodes whose digests agree on
// every one rebuild the same run. A node's address, certificate and key
// files are not among them (TLS checks who a peer is), nor its part of the
// fault plan (each node holds its own, resolved from the shared faults and
// seed).
var DigestFields = [...]string{"algorithm", "params", "n", "ids", "topology", "initiators", "announce", "seed", "faults"}

// Digest is a description's fingerprint as nodes exchange it in their
// hellos: one 64-bit digest per field of DigestFields, so that a mismatch
// can be named field by field. Its Sum digests them all.
type Digest [len(DigestFields)]uint64

// DescriptionDigest is the digest of the run d describes, as cfg (d
// rebuilt: Load) holds it: the IDs and the graph are digested as built, so
// that two nodes reading one topology file with different contents
// differ in "topology".
func DescriptionDigest(d *Description, cfg *election.Config) Digest {
	params := make([]string, 0, len(d.Params))
	for k, v := range d.Params {
		params = append(params, k+"="+v)
	}
	slices.Sort(params)
	var g Digest
	for i, name := range DigestFields {
		h := sha256.New()
		h.Write([]byte(name))
		h.Write([]byte{0})
		var b []byte
		switch name {
		case "algorithm":
			b = []byte(d.Algorithm)
		case "params":
			b = []byte(strings.Join(params, "\x00"))
		case "n":
			b = strconv.AppendInt(b, int64(d.N), 10)
		case "ids":
			for _, id := range cfg.IDs {
				b = binary.AppendVarint(b, int64(id))
			}
		case "topology":
			h.Write([]byte(cfg.Graph.Name))
			h.Write([]byte{0})
			for v := range cfg.Graph.N {
				deg := cfg.Graph.Degree(v)
				b = binary.AppendUvarint(b[:0], uint64(deg))
				for p := range deg {
					to, q := cfg.Graph.Neighbor(int32(v), elect.Port(p))
					b = binary.AppendUvarint(b, uint64(to))
					b = binary.AppendUvarint(b, uint64(q))
				}
				h.Write(b)
			}
			b = b[:0]
		case "initiators":
			b = []byte(d.Initiators)
		case "announce":
			b = strconv.AppendBool(b, d.Announce)
		case "seed":
			b = strconv.AppendUint(b, d.Seed, 10)
		case "faults":
			b = []byte(d.Faults)
		}
		h.Write(b)
		g[i] = binary.BigEndian.Uint64(h.Sum(nil))
	}
	return g
}

// Sum is the digest of every field digest: the description's digest.
func (g *Digest) Sum() uint64 {
	h := sha256.New()
	for _, x := range g {
		h.Write(binary.BigEndian.AppendUint64(nil, x))
	}
	return binary.BigEndian.Uint64(h.Sum(nil))
}

// Differ names the fields in which g and other differ, in DigestFields'
// order.
func (g *Digest) Differ(other *Digest) []string {
	var names []string
	for i := range g {
		if g[i] != other[i] {
			names = append(names, DigestFields[i])
		}
	}
	return names
}

// digestMismatch is the fault of node me when peer runs another
// description: one line naming both digests and the fields that differ.
func digestMismatch(me, peer int, mine, theirs *Digest) string {
	fields := mine.Differ(theirs)
	which := "in a field this version cannot name"
	if len(fields) > 0 {
		which = "in " + strings.Join(fields, ", ")
	}
	return fmt.Sprintf("node %d runs another description than node %d: digest %016x here, %016x at node %d; they differ %s (every node must run the cluster.json of one 'elect cluster init')",
		peer, me, mine.Sum(), theirs.Sum(), peer, which)
}
