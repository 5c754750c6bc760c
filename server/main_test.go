package server_test

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package's tests if any goroutine outlives them: every
// stream, receive loop and connection the server starts must end with its
// call or its server.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
