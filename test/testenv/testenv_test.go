package testenv

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
)

// recorder is a testing.TB that records how a test was ended instead of ending it.
type recorder struct {
	testing.TB
	skipped, failed string
}

func (r *recorder) Helper()                           {}
func (r *recorder) Skip(args ...any)                  { r.skipped = fmt.Sprint(args...) }
func (r *recorder) Fatalf(format string, args ...any) { r.failed = fmt.Sprintf(format, args...) }

func TestProgramFound(t *testing.T) {
	r := &recorder{}
	assert.NotEmpty(t, Program(r, "go"))
	assert.Empty(t, r.skipped+r.failed)
}

func TestProgramMissingSkips(t *testing.T) {
	t.Setenv(StrictVar, "")
	r := &recorder{}
	assert.Empty(t, Program(r, "emacs-that-does-not-exist"))
	assert.Equal(t, "missing program: emacs-that-does-not-exist (not on PATH); install: install the package that provides emacs-that-does-not-exist", r.skipped)
	assert.Empty(t, r.failed)

	t.Setenv("PATH", t.TempDir())
	r = &recorder{}
	Program(r, "pytest")
	assert.Equal(t, "missing program: pytest (not on PATH); install: apt-get install -y python3-pytest", r.skipped)
}

func TestProgramMissingFailsWhenStrict(t *testing.T) {
	t.Setenv(StrictVar, "1")
	t.Setenv("PATH", t.TempDir())
	r := &recorder{}
	Program(r, "emacs")
	assert.Empty(t, r.skipped)
	assert.Equal(t, "missing program: emacs (not on PATH); install: apt-get install -y emacs-nox (JIDO_TEST_STRICT=1 makes a missing program a failure)", r.failed)
}
