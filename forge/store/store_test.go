package store

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/jido-run/jido/tools/definitions"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNewOpenRuns(t *testing.T) {
	root := newRoot(t)
	ids, err := Runs(root)
	require.NoError(t, err)
	assert.Empty(t, ids)

	r, err := New(root, "run-b")
	require.NoError(t, err)
	assert.Equal(t, "run-b", r.ID())
	assert.DirExists(t, filepath.Join(root.Path(), "artifacts", "run-b"))
	assert.FileExists(t, filepath.Join(root.Path(), "artifacts", "run-b", "state.json"))
	_, err = New(root, "run-a")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(root.Path(), "artifacts", "stray.txt"), nil, 0o644))

	ids, err = Runs(root)
	require.NoError(t, err)
	assert.Equal(t, []string{"run-a", "run-b"}, ids)

	_, err = New(root, "run-b")
	toolError(t, err, definitions.ConflictError)

	again, err := Open(root, "run-b")
	require.NoError(t, err)
	assert.Equal(t, "run-b", again.ID())

	te := toolError(t, must(Open(root, "missing")), definitions.FileError)
	assert.NotEmpty(t, te.Recovery)
	toolError(t, must(Open(root, "stray.txt")), definitions.FileError)
}

// must drops the value of a (value, error) pair.
func must[T any](_ T, err error) error { return err }

func TestBadIDs(t *testing.T) {
	root := newRoot(t)
	r, err := New(root, "run1")
	require.NoError(t, err)
	for _, id := range []string{"", "../x", "a/b", "..", "a..b", ".hidden", "-x", "a b", "a\x00b", strings.Repeat("a", 65)} {
		t.Run(id, func(t *testing.T) {
			te := toolError(t, must(New(root, id)), definitions.ValidationError)
			assert.Equal(t, "runId", te.Details["field"])
			toolError(t, must(Open(root, id)), definitions.ValidationError)

			te = toolError(t, must(r.CreateTask(id, taskDoc("A"))), definitions.ValidationError)
			assert.Equal(t, "taskId", te.Details["field"])
			te = toolError(t, must(r.CreateSpec(id, "x")), definitions.ValidationError)
			assert.Equal(t, "filename", te.Details["field"])
			toolError(t, must(r.ReadSpec(id)), definitions.ValidationError)
			toolError(t, must(r.ReadTask(id)), definitions.ValidationError)
			toolError(t, must(r.MarkStatus(id, Running)), definitions.ValidationError)
			toolError(t, must(r.NextAttempt(id)), definitions.ValidationError)
			toolError(t, must(r.AddSubtask(id, "t", "d", 1)), definitions.ValidationError)
			toolError(t, must(r.ReadWalkthrough(id, 0)), definitions.ValidationError)
		})
	}
	_, err = os.Stat(filepath.Join(filepath.Dir(root.Path()), "x"))
	assert.True(t, os.IsNotExist(err), "nothing is written outside the root")
}

func TestReservedTaskID(t *testing.T) {
	r, _ := newRun(t)
	for _, id := range []string{"tasks", "specs", "crs", "dag.json", "state.json", "events.ndjson", "Tasks"} {
		te := toolError(t, must(r.CreateTask(id, taskDoc(id))), definitions.ValidationError)
		assert.Contains(t, te.Message, "reserved")
	}
}

func TestNewRunID(t *testing.T) {
	a, b := NewRunID(), NewRunID()
	assert.Regexp(t, regexp.MustCompile(`^\d{8}-\d{6}-[0-9a-f]{6}$`), a)
	assert.NotEqual(t, a, b)
	require.NoError(t, checkName("runId", a))
}

func TestSpecs(t *testing.T) {
	r, root := newRun(t)
	p, err := r.CreateSpec("api-design.md", "# API\n")
	require.NoError(t, err)
	assert.Equal(t, "artifacts/run1/specs/api-design.md", p)
	got, err := os.ReadFile(filepath.Join(root.Path(), p))
	require.NoError(t, err)
	assert.Equal(t, "# API\n", string(got))

	content, err := r.ReadSpec("api-design.md")
	require.NoError(t, err)
	assert.Equal(t, "# API\n", content)

	te := toolError(t, must(r.ReadSpec("nope.md")), definitions.FileError)
	assert.Equal(t, "artifacts/run1/specs/nope.md", te.Details["path"])
	assert.Contains(t, te.Recovery[0], "create_spec")

	toolError(t, must(r.CreateSpec("credentials.md", "x")), definitions.PermissionError)
}
