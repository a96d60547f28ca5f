package protocols

import (
	"math/rand/v2"
	"testing"
)

// TestPLLFieldsMatchUnpack: the layout P_LL declares for traces
// (pllFields) reads every field of a packed state as unpack does, over
// 10^4 random states of pllBits bits (seeded) and each field at its
// largest value.
func TestPLLFieldsMatchUnpack(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	field := func(s uint32, name string) uint64 {
		for _, f := range pllFields {
			if f.Name == name {
				v := uint64(s) >> f.Shift
				if f.Bits > 0 {
					v &= 1<<f.Bits - 1
				}
				return v
			}
		}
		t.Fatalf("no field %q", name)
		return 0
	}
	b2u := func(b bool) uint64 {
		if b {
			return 1
		}
		return 0
	}
	states := []uint32{1<<pllBits - 1}
	for range 10000 {
		states = append(states, rng.Uint32N(1<<pllBits))
	}
	for _, s := range states {
		a := unpack(s)
		want := map[string]uint64{"leader": b2u(a.leader), "status": uint64(a.status), "epoch": uint64(a.epoch), "color": uint64(a.color),
			"flag": b2u(a.flag), "coin": uint64(a.coin), "statusL": uint64(a.statusL), "v": uint64(a.v)}
		for name, w := range want {
			if got := field(s, name); got != w {
				t.Fatalf("state %d: field %s reads %d, unpack says %d", s, name, got, w)
			}
		}
	}
	if len(pllFields) != 8 {
		t.Errorf("%d fields declared, unpack has 8", len(pllFields))
	}
}
