package provider

// Work returns the bookkeeping steps a has taken (see tracker.work), for
// tests that check it grows linearly with the events.
func Work(a *Adapter) int { return a.t.work }

// StrictSteps returns the name comparisons and set operations a's strict
// reading of its events has taken (see strictReader.steps), for tests
// that check they grow linearly with the names.
func StrictSteps(a *Adapter) int { return a.t.strict.steps }
