package sim

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"testing"
	"unsafe"

	"github.com/electkit/elect"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/ring"
	"github.com/electkit/elect/topology"
)

// TestLargeArraysAskForHugePages: a run on a ring large enough that its
// node array and unit-delay lists pass four huge pages has each of them
// advised: the kernel's VmFlags for their mapping say "hg" (MADV_HUGEPAGE).
func TestLargeArraysAskForHugePages(t *testing.T) {
	const n = 400_000 // 32-byte slots and 40-byte deliveries: 12.8 and 16 MB
	ids := make([]elect.ID, n)
	for i := range ids {
		ids[i] = elect.ID(i)
	}
	e, err := newEngine(&election.Config{Algorithm: ring.LCR, Graph: topology.NewRing(n), IDs: ids, Delivery: election.FIFO, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer e.releaseBuffers()
	arrays := map[string]unsafe.Pointer{
		"nodes": e.nodes.first,
		"due":   unsafe.Pointer(unsafe.SliceData(e.due)),
		"soon":  unsafe.Pointer(unsafe.SliceData(e.soon)),
	}
	for name, p := range arrays {
		// The array's first page may be shared with what lies before it;
		// its middle is within the advised range.
		flags, err := vmFlags(uintptr(p) + 4<<20)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(" "+flags+" ", " hg ") {
			t.Errorf("%s: VmFlags %q, want hg (MADV_HUGEPAGE)", name, flags)
		}
	}

}

// vmFlags returns the VmFlags line of the mapping of this process that
// holds address a (/proc/self/smaps).
func vmFlags(a uintptr) (string, error) {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		return "", err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	in := false
	for sc.Scan() {
		line := sc.Text()
		var lo, hi uintptr
		if n, _ := fmt.Sscanf(line, "%x-%x ", &lo, &hi); n == 2 && strings.Contains(line, " ") && !strings.HasSuffix(strings.Fields(line)[0], ":") {
			in = lo <= a && a < hi
			continue
		}
		if in && strings.HasPrefix(line, "VmFlags:") {
			return strings.TrimSpace(strings.TrimPrefix(line, "VmFlags:")), nil
		}
	}
	if err := sc.Err(); err != nil {
		return "", err
	}
	return "", fmt.Errorf("no mapping holds %#x", a)
}
