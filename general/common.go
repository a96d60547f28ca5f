package general

import "github.com/electkit/elect"

// noPort is no port at all: GHS's nil edge, and sendAllBut's "leave out
// none".
const noPort elect.Port = -1

// sendAllBut sends m on each of ports 0..degree-1 in order but except
// (noPort: on all of them).
func sendAllBut(env elect.Env, degree int, except elect.Port, m elect.Message) {
	for q := range elect.Port(degree) {
		if q != except {
			env.Send(q, m)
		}
	}
}
