package pp

// SetBiasHook installs, in tests only, a perturbation of the number of fresh
// interactions sampled for each batch (see CountSim.biasHook).
func SetBiasHook[S comparable, P Protocol[S]](s *CountSim[S, P], f func(l, n int64) int64) {
	s.biasHook = f
}

// ReportAtEveryChance makes runs call Options.Progress at every chance the
// engines give, whatever the clock says, until the returned function
// restores the default.
func ReportAtEveryChance() (restore func()) {
	old := progressEvery
	progressEvery = 0
	return func() { progressEvery = old }
}

// NonNullEvents returns the number of non-null interactions a count
// engine has applied one by one (null-skipping events).
func NonNullEvents[S comparable, P Protocol[S]](s *CountSim[S, P]) int64 { return s.events }

// ForceArrayAt makes a hybrid run move onto the agent array at its first
// decision from step on (see CountSim.forceArrayAt).
func ForceArrayAt[S comparable, P Protocol[S]](s *CountSim[S, P], step int64) { s.forceArrayAt = step }

// UsedArray reports whether a hybrid run moved onto the agent array.
func UsedArray[S comparable, P Protocol[S]](s *CountSim[S, P]) bool { return s.usedArray }

// StartOnArray puts a hybrid run in auto's small-n mode (autoswitch.go:
// on the agent array, moving between it and null-skipping), checking every
// window interactions (0: the default) and, with pingPong, moving at every
// check and every decision whatever the costs.
func StartOnArray[S comparable, P Protocol[S]](s *CountSim[S, P], window int64, pingPong bool) {
	s.startOnArray()
	if window > 0 {
		s.arrWin, s.arrCheck = window, window
	}
	s.pingPong = pingPong
}

// SetQuietHotMax sets the most hot agents a quiet stretch accepts (the
// default, max(64, sqrt n), keeps most stretches out of small populations).
func SetQuietHotMax[S comparable, P Protocol[S]](s *CountSim[S, P], h int64) { s.qt.hmax = h }

// QuietSteps returns the interactions a count engine simulated in quiet
// stretches.
func QuietSteps[S comparable, P Protocol[S]](s *CountSim[S, P]) int64 { return s.qt.steps }
