package complete

import (
	"fmt"
	"strings"

	"github.com/electkit/elect"
)

// choice returns the index of s among the values a parameter takes, as a
// T, or an error that names them all: `unknown order "x"; use shuffle or
// index`.
func choice[T ~uint8](param string, values []string, s string) (T, error) {
	for i, v := range values {
		if s == v {
			return T(i), nil
		}
	}
	last := len(values) - 1
	return 0, fmt.Errorf("unknown %s %q; use %s or %s", param, s, strings.Join(values[:last], ", "), values[last])
}

// checkChoice is the Check of a parameter that takes one of values.
func checkChoice(param string, values ...string) func(string) error {
	return func(s string) error {
		_, err := choice[uint8](param, values, s)
		return err
	}
}

// sendAll sends m on each of a node's links, ports 0..links-1 in order.
func sendAll(env elect.Env, links int32, m elect.Message) {
	for q := range links {
		env.Send(elect.Port(q), m)
	}
}
