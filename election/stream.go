package election

import "math/rand/v2"

// Stream returns the random source for one purpose of a run (for example
// "ids", "initiators", "delivery", or "node" with the node's index), derived
// from the master seed. Streams of different purposes or indexes are
// independent in practice, and each depends only on (seed, purpose, index):
// adding a consumer never changes what another one draws.
func Stream(seed uint64, purpose string, index uint64) *rand.Rand {
	return rand.New(streamSource(seed, purpose, index))
}

// StreamSource is Stream's generator itself: its state is a value that can
// be copied (an engine that snapshots its runs keeps it), and calling it
// directly saves the interface call of rand.Rand on hot paths.
func StreamSource(seed uint64, purpose string, index uint64) *rand.PCG {
	return streamSource(seed, purpose, index)
}

func streamSource(seed uint64, purpose string, index uint64) *rand.PCG {
	h := uint64(0xcbf29ce484222325) // FNV-1a of the purpose
	for i := 0; i < len(purpose); i++ {
		h ^= uint64(purpose[i])
		h *= 0x100000001b3
	}
	a := splitmix(seed ^ splitmix(h))
	b := splitmix(a ^ splitmix(index+0x9e3779b97f4a7c15))
	return rand.NewPCG(a, b)
}

// splitmix is the SplitMix64 finaliser, a bijective mixer of 64-bit values.
func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}
