//go:build race

package pattern

// scale divides the sizes of the generated tests: the race detector makes
// compiling automata about ten times slower, and the checks stay the same.
const scale = 4
