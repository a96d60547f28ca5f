package sim_test

import (
	"fmt"

	"github.com/electkit/elect"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/ring"
	"github.com/electkit/elect/sim"
	"github.com/electkit/elect/topology"
)

// Run one election in the simulator and read its result: LCR on the ring
// whose IDs decrease clockwise, its worst case (seed 001, section 5.2.1.1):
// n(n+1)/2 election messages.
func ExampleRun() {
	const n = 8
	ids := make([]elect.ID, n)
	for i := range ids {
		ids[i] = elect.ID(n - 1 - i)
	}
	res, err := sim.Run(election.Config{Algorithm: ring.LCR, Graph: topology.NewRing(n), IDs: ids, Delivery: election.FIFO, Seed: 1})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Outcome, "leader", res.LeaderID, "at node", res.LeaderIndex)
	fmt.Println("election messages", res.MessagesByType["election"], "time", res.Time)
	for _, c := range res.Checks {
		fmt.Println(c.Holds, c.Name)
	}
	// Output:
	// elected leader 7 at node 0
	// election messages 36 time 8
	// true exactly one leader
	// true leader holds the max ID
	// true election messages <= n(n+1)/2
	// true election messages >= 2n-1
	// true time <= n (2n with announcement)
}
