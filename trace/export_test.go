package trace

// QuickEvent is quickEvent, and QuickDecoding its switch, for the tests.
var (
	QuickEvent    = quickEvent
	QuickDecoding = &quickDecoding
)
