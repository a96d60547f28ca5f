package experiment

import (
	"slices"
	"strings"
	"testing"
)

// TestGridSkipsCellsThatBreakAModel (issue 21): a cell that breaks its
// algorithm's model is left out and reported in one group per algorithm
// and assumption; --strict refuses the grid; a grid with nothing left is
// refused; "allowed" expands per algorithm to what its model allows.
func TestGridSkipsCellsThatBreakAModel(t *testing.T) {
	g := &Grid{Algorithms: []string{"lcr", "itai-rodeh"}, Sizes: []int{8, 16}, Deliveries: []string{"fifo", "random"}, Trials: 1, Seed: 1}
	points, err := g.Points()
	if err != nil {
		t.Fatal(err)
	}
	// lcr at 2 sizes x 2 deliveries, itai-rodeh at 2 sizes x fifo only.
	if len(points) != 6 || len(g.Skipped) != 1 {
		t.Fatalf("%d points, skipped %v; want 6 points and one group", len(points), g.Skipped)
	}
	want := "skipped 2 configurations of itai-rodeh (--delivery random, n = 8,16) that break its assumption of FIFO channels: itai-rodeh needs FIFO channels"
	if got := g.Skipped[0].String(); !strings.HasPrefix(got, want) {
		t.Errorf("skip line %q, want it to start with %q", got, want)
	}
	g.Strict = true
	if _, err := g.Points(); err == nil || !strings.Contains(err.Error(), "needs FIFO channels") {
		t.Errorf("--strict: %v, want the model's error", err)
	}
	g = &Grid{Algorithms: []string{"itai-rodeh"}, Sizes: []int{8}, Deliveries: []string{"random"}, Trials: 1}
	if _, err := g.Points(); err == nil || !strings.Contains(err.Error(), "every configuration breaks its algorithm's model") {
		t.Errorf("nothing left: %v", err)
	}
	// allowed: lcr runs under all five delivery models and both initiator
	// sets; time-slice only synchronously with every node starting at 0.
	g = &Grid{Algorithms: []string{"lcr", "time-slice"}, Sizes: []int{8}, Deliveries: []string{Allowed}, Initiators: []string{Allowed}, Trials: 1}
	points, err = g.Points()
	if err != nil {
		t.Fatal(err)
	}
	var cells []string
	for _, p := range points {
		cells = append(cells, p.Spec.Algorithm+" "+p.Spec.Delivery+" "+p.Spec.Initiators)
	}
	wantCells := []string{"lcr fifo all", "lcr fifo 1", "lcr random all", "lcr random 1", "lcr random-fifo all", "lcr random-fifo 1",
		"lcr newest-first all", "lcr newest-first 1", "lcr sync all", "lcr sync 1", "time-slice sync all"}
	if !slices.Equal(cells, wantCells) {
		t.Errorf("allowed expanded to %q, want %q", cells, wantCells)
	}
}
