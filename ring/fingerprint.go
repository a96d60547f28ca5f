package ring

// fpMix folds v into the running fingerprint h (a splitmix64-style
// finaliser), so that states differing in any field almost surely get
// different fingerprints.
func fpMix(h, v uint64) uint64 {
	h ^= v + 0x9e3779b97f4a7c15 + h<<6 + h>>2
	h ^= h >> 30
	h *= 0xbf58476d1ce4e5b9
	h ^= h >> 27
	h *= 0x94d049bb133111eb
	h ^= h >> 31
	return h
}

// fpBool is 1 for true, 0 for false.
func fpBool(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}
