package cluster

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
)

// CheckUpDir makes the checks `cluster up` makes before it starts a node,
// so that a run that cannot start is refused at once, naming its first
// cause, rather than failing after the whole timeout with that cause among
// its consequences: dir must be a cluster's directory (each node's
// certificate and key where NodeDir puts them; a node's own directory
// holds only its own), and each node's address must be free to listen on
// on this machine, where up runs every node.
func CheckUpDir(dir string, d *Description) error {
	for i, nd := range d.Nodes {
		sub := NodeDir(dir, i)
		for _, f := range []string{nd.Cert, nd.Key} {
			if _, err := os.Stat(filepath.Join(sub, f)); err != nil {
				return notClusterDir(dir, d, i, f)
			}
		}
	}
	for i, nd := range d.Nodes {
		ln, err := net.Listen("tcp", nd.Address)
		if err != nil {
			return fmt.Errorf("node %d cannot listen on %s: %v (another program holds the port, or the host is not this machine's); free it, or run 'elect cluster init' again with other ports (--base-port)", i, nd.Address, err)
		}
		ln.Close()
	}
	return nil
}

// notClusterDir is the refusal of a directory that lacks node i's file f:
// a node's own directory is named as such, with what to run instead.
func notClusterDir(dir string, d *Description, i int, f string) error {
	own := -1
	if d.FaultPlan != nil {
		own = int(d.FaultPlan.Node)
	} else {
		for k, nd := range d.Nodes {
			if _, err := os.Stat(filepath.Join(dir, nd.Key)); err == nil {
				if own >= 0 {
					own = -1 // more than one node's key: not a node's directory
					break
				}
				own = k
			}
		}
	}
	parent := filepath.Dir(filepath.Clean(dir))
	if own >= 0 && own < d.N {
		hint := ""
		if _, err := os.Stat(filepath.Join(parent, NodeName(i), f)); err == nil {
			hint = fmt.Sprintf(" (%s, it seems)", parent)
		}
		return fmt.Errorf("%s is node %d's directory, not a cluster's: it holds no %s of node %d; give cluster up the cluster's directory%s, or run this node alone with 'elect node %s --index %d'",
			dir, own, f, i, hint, dir, own)
	}
	return fmt.Errorf("%s is not a cluster's directory: node %d's %s is in neither %s nor %s; give cluster up the directory 'elect cluster init' wrote",
		dir, i, f, filepath.Join(dir, NodeName(i)), dir)
}
