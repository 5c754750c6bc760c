package provider

// Work returns the bookkeeping steps a has taken (see tracker.work), for
// tests that check it grows linearly with the events.
func Work(a *Adapter) int { return a.t.work }
