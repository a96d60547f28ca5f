package footprint

// The TCP cluster's memory (package cluster): what one node process holds,
// which `cluster up` adds up for its --mem-limit check before it starts the
// processes, and which a node's memory guard counts as its fixed part
// while it runs. Measured on loopback clusters of LCR on 16, 64 and 256
// nodes (docs/performance.md), as the nodes report it at their end: their
// peak resident memory (VmHWM) and their anonymous resident memory
// (RssAnon, their own).
const (
	// TCPProgramBytes is the program's pages a node touches (its code and
	// read-only data, mapped from its file): VmHWM counts them in every
	// node, but the nodes of one machine share them, and the kernel holds
	// them once (measured: VmHWM less RssAnon, 10.7 to 11.1 MiB).
	TCPProgramBytes = 12 << 20
	// TCPProcessBytes is a node process's own memory before its links and
	// its messages: the Go runtime's heap and stacks, the catalog, its TLS
	// configuration and certificates and its main loop (measured: RssAnon
	// of the nodes that hold three links, 2.0 to 2.3 MiB, their links and
	// the description included).
	TCPProcessBytes = 5 << 19
	// TCPLinkBytes is what a node holds per link (a data link on one of its
	// ports, or a control link: node 0 has one to every other node): the
	// TLS connection and its record buffers, the frame reader's buffer,
	// its reader and writer goroutines and the link's pending writes
	// (measured: node 0, which holds a control link to every other node,
	// 56 KiB a link more than the others at 256 nodes, 72 at 64, 100 at
	// 16 where the collector's room weighs more).
	TCPLinkBytes = 80 << 10
	// TCPPeerBytes is what a node holds for every node of its cluster:
	// its entry in the description (index, ID, name, address, neighbours,
	// file names) and in the run's configuration rebuilt from it (its ID,
	// its links in the graph); every node holds the whole description.
	TCPPeerBytes = 256
	// TCPLateBytes is what a late message (a delay fault) holds while it
	// waits: its frame, a runtime timer and the closure that posts it.
	TCPLateBytes = 256
)

// TCPQueueBytes is the room a node of the given number of links is
// estimated to need for its inbox and its links' pending writes, by the
// capacity of their arrays (what its memory guard counts): 16 KiB, and
// 512 bytes a link (measured, as the guard counts them at the end of
// fault-free runs: 0.6 to 1.3 KiB for the nodes of HS on 16 nodes, 10 KiB
// for node 0 of LCR on 64 decreasing IDs, whose 66 links carry the
// termination waves).
func TCPQueueBytes(links int) int64 { return 16<<10 + int64(links)*512 }

// TCPNodeBytes is a node process's own memory (the program's pages, which
// the nodes of a machine share, aside) in a cluster of n nodes, with the
// given number of links, besides its algorithm's node (NodeBytes), its
// part of a fault plan and its messages.
func TCPNodeBytes(n, links int) int64 {
	return TCPProcessBytes + int64(links)*TCPLinkBytes + int64(n)*TCPPeerBytes
}
