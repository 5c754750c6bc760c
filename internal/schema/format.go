package schema

// lookupFormat returns the checker of a standard format of dialect d.
var lookupFormat = func(d Dialect, name string) (func(string) bool, bool) { return nil, false }
