package pp

// SetBiasHook installs, in tests only, a perturbation of the number of fresh
// interactions sampled for each batch (see CountSim.biasHook).
func SetBiasHook[S comparable, P Protocol[S]](s *CountSim[S, P], f func(l, n int64) int64) {
	s.biasHook = f
}
