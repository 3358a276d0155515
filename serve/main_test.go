package serve

import (
	"os"
	"testing"

	"github.com/jido-run/jido/sandbox"
)

// TestMain lets the test binary serve as the sandbox helper of the commands tests run.
func TestMain(m *testing.M) {
	sandbox.MaybeHelper()
	os.Exit(m.Run())
}
