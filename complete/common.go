package complete

import (
	"fmt"
	"strings"

	"github.com/electkit/elect"
)

// choice returns the index of s among the values a parameter takes, or an
// error that names them all: `unknown order "x"; use shuffle or index`.
func choice(param string, values []string, s string) (int, error) {
	for i, v := range values {
		if s == v {
			return i, nil
		}
	}
	last := len(values) - 1
	return 0, fmt.Errorf("unknown %s %q; use %s or %s", param, s, strings.Join(values[:last], ", "), values[last])
}

// linkOrders are the values of --order for humblet and korach-moran-zaks:
// the links in a random order per node (drawShuffled), or in port order.
var linkOrders = []string{"shuffle", "index"}

func checkLinkOrder(v string) error {
	_, err := choice("order", linkOrders, v)
	return err
}

// sendAll sends m on each of a node's links, ports 0..links-1 in order.
func sendAll(env elect.Env, links int32, m elect.Message) {
	for q := range links {
		env.Send(elect.Port(q), m)
	}
}
