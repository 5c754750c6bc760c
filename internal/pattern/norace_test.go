//go:build !race

package pattern

// scale divides the sizes of the generated tests (see race_test.go).
const scale = 1
