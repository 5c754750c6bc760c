package server

import (
	"context"
	"testing"

	"github.com/toolgate/toolgate/internal/schema"
)

// SetProgress sets the hook that the Service tells, after each bounded step
// of a unary request's work, how far the request got: argument bytes fed
// to the validator, or tools compiled. Tests use it to see work stop when a
// request ends. Call it before the Service serves.
func SetProgress(s *Service, f func(ctx context.Context, done int64)) { s.progress = f }

// CheckEvery is how many argument bytes Validate feeds between two checks
// of its context.
const CheckEvery = checkEvery

// TakeCompileRoom takes n bytes of the Service's room to compile
// (Options.MaxCompilingBytes), as a compile in progress would, and returns
// how to give them back.
func TakeCompileRoom(t testing.TB, s *Service, n int64) (giveBack func()) {
	leave, err := s.compiling.enter(context.Background(), n, nil)
	if err != nil {
		t.Fatal(err)
	}
	return leave
}

// StreamSchemaBytes returns the bytes of compiled schemas the Service's
// open streams hold (Options.MaxStreamSchemaBytes counts them).
func StreamSchemaBytes(s *Service) int64 { return s.streamSchemas.total() }

// UnnamedCallBytes returns the argument bytes the Service's open streams
// hold for provider calls whose tool is not named yet.
func UnnamedCallBytes(s *Service) int64 { return s.unnamed.Used() }

// PatternBytes is what a compile that may build pattern automata counts
// against the room at least, under the default limits.
var PatternBytes = patternBytes(schema.Options{})

// StoredSchemas returns how many compiled schemas the Service's store
// holds.
func StoredSchemas(s *Service) int { return s.store.Len() }

// StoredBytes returns the bytes the Service's store counts for the
// compiled schemas it holds (Options.StoreBytes bounds them).
func StoredBytes(s *Service) int64 { return s.store.Bytes() }

// DecodeFailuresHeld returns how many request messages that could not be
// decoded the server made with s still remembers, not yet picked up by
// their handler.
func DecodeFailuresHeld(s *Service) int {
	n := 0
	for range s.decode.failed.Range {
		n++
	}
	return n
}
