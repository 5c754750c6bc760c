package client_test

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package's tests if any goroutine outlives them: every
// stream helper and connection the client starts must end with its call or
// its Close.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
