//go:build !race

package validator_test

// raceEnabled reports a -race build, where sync.Pool drops items on purpose.
const raceEnabled = false
