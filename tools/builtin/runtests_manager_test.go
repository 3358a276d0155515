package builtin_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/jido-run/jido/manager"
	"github.com/jido-run/jido/runtime"
	"github.com/jido-run/jido/test/testenv"
	"github.com/jido-run/jido/tools/builtin"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRunTestsBrokenPackageThroughManager: run_tests through a manager session on a Go
// project where one package passes and one does not build is never a pass: the package
// that did not build is an error named in the failures, and the outcome says so.
func TestRunTestsBrokenPackageThroughManager(t *testing.T) {
	testenv.Program(t, "go")
	root := t.TempDir()
	for name, content := range map[string]string{
		"go.mod":           "module example.com/p\n\ngo 1.22\n",
		"ok/ok_test.go":    "package ok\n\nimport \"testing\"\n\nfunc TestOK(t *testing.T) {}\n",
		"broken/b.go":      "package broken\n\nfunc B() int { return \"b\" }\n",
		"broken/b_test.go": "package broken\n\nimport \"testing\"\n\nfunc TestB(t *testing.T) { B() }\n",
	} {
		p := filepath.Join(root, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	}
	// A cold build of the project (in its own Go cache) may take more than a call's default 30 s.
	m, err := manager.New(manager.Config{Root: root, NoSync: true, Limits: runtime.Limits{Timeout: 5 * time.Minute}})
	require.NoError(t, err)
	t.Cleanup(func() { m.Close() })
	s, err := m.Open(t.Context(), "")
	require.NoError(t, err)
	res := s.Call(t.Context(), manager.ToolCall{Name: "run_tests", Args: map[string]any{"timeout": 300}})
	require.True(t, res.OK, "%+v", res.Error)
	r, ok := res.Result.(*builtin.RunTestsResult)
	require.True(t, ok, "%T", res.Result)
	assert.Equal(t, 1, r.Passed, r.Report)
	assert.Equal(t, 1, r.Errors, r.Report)
	assert.Equal(t, 1, r.BuildErrors)
	require.Len(t, r.Failures, 1)
	assert.Equal(t, "example.com/p/broken [build failed]", r.Failures[0].Name)
	assert.Equal(t, "broken/b.go", r.Failures[0].File)
	assert.Equal(t, "1 passed, 0 failed, 1 package failed to build", r.Outcome())
	assert.Contains(t, r.Report, "1 package failed to build")
}
