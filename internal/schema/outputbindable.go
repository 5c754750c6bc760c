package schema

// outputBindableRules is the bindable output profile of DESIGN.md §4. It is
// filled in by the output profile work; until then it accepts nothing.
var outputBindableRules *rules
