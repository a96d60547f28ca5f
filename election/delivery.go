package election

import (
	"fmt"
	"strings"
)

// Delivery is how messages travel: the synchronous model, or one of the
// asynchronous delivery models.
type Delivery uint8

// The delivery models.
const (
	// Sync: synchronous rounds; a message sent in round r is delivered at the
	// start of round r+1.
	Sync Delivery = iota
	// FIFO: asynchronous, every message takes exactly one time unit, so
	// channels are FIFO and all messages sent at one time arrive together.
	FIFO
	// Random: asynchronous, i.i.d. delays uniform on {1..1024}/1024 time
	// units; channels are not FIFO.
	Random
	// RandomFIFO: random delays as in Random, but a message never overtakes
	// an earlier one on the same link.
	RandomFIFO
	// NewestFirst: adversarial; after the spontaneous wake-ups, the pending
	// message sent most recently is always delivered next (LIFO, not FIFO).
	// Time is the causal depth: the longest chain of messages each caused by
	// the previous one, i.e. the time if every message took one unit.
	NewestFirst
)

var deliveryNames = [...]string{"sync", "fifo", "random", "random-fifo", "newest-first"}

func (d Delivery) String() string {
	if int(d) < len(deliveryNames) {
		return deliveryNames[d]
	}
	return "delivery(?)"
}

// IsSync reports whether d is the synchronous model.
func (d Delivery) IsSync() bool { return d == Sync }

// IsFIFO reports whether d keeps the order of messages on every link.
func (d Delivery) IsFIFO() bool { return d == Sync || d == FIFO || d == RandomFIFO }

// DeliveryNames lists the delivery models by name.
func DeliveryNames() string { return strings.Join(deliveryNames[:], ", ") }

// ParseDelivery reads a delivery model by name.
func ParseDelivery(name string) (Delivery, error) {
	for i, n := range deliveryNames {
		if n == name {
			return Delivery(i), nil
		}
	}
	return 0, fmt.Errorf("election: unknown delivery model %q; use one of %s", name, DeliveryNames())
}

// RandomDelayTicks is the number of ticks in one time unit under random
// delays: a delay is uniform on 1..RandomDelayTicks ticks, so the largest
// possible delay is one unit.
const RandomDelayTicks = 1024
