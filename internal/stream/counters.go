package stream

// Counters are a Session's running totals since NewSession, for metrics.
type Counters struct {
	// Started counts the calls started, by Start or by provider events,
	// those rejected at their start (an unknown tool) included.
	Started int
	// IgnoredBytes counts the argument bytes that arrived for calls which
	// already had their verdict (accepted and ignored, see Delta): what a
	// runtime that stops a call at its early result no longer pays for.
	IgnoredBytes int64
}

// Counters returns the Session's running totals.
func (s *Session) Counters() Counters {
	return Counters{Started: s.started, IgnoredBytes: s.ignored}
}
