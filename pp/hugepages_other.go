//go:build !linux

package pp

func adviseHugePages[S any](states []S) {}
