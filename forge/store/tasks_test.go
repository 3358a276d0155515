package store

import (
	"testing"

	"github.com/jido-run/jido/tools/definitions"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCreateTask(t *testing.T) {
	r, _ := newRun(t)
	doc := "---\nid: C\ntype: refinery\ntitle: Merge\ndependencies:\n  - A\n  - B\nstatus: PENDING\ntests: go test ./...\nowner: me\n---\nBody text\n"
	p, err := r.CreateTask("C", doc)
	require.NoError(t, err)
	assert.Equal(t, "artifacts/run1/tasks/C.md", p)

	content, err := r.ReadTask("C")
	require.NoError(t, err)
	assert.Equal(t, doc, content)

	task, err := r.Task("C")
	require.NoError(t, err)
	assert.Equal(t, &Task{ID: "C", Type: "refinery", Title: "Merge", Dependencies: []string{"A", "B"}, Tests: "go test ./...", Body: "Body text\n"}, task)

	_, err = r.CreateTask("001", "---\nid: 001\ntype: \"2\"\n---\n")
	require.NoError(t, err)
	task, err = r.Task("001")
	require.NoError(t, err)
	assert.Equal(t, "2", task.Type, "quoted and bare numbers are the same type")
	assert.Equal(t, []string{}, task.Dependencies, "missing dependencies are none")

	tasks, err := r.Tasks()
	require.NoError(t, err)
	require.Len(t, tasks, 2)
	assert.Equal(t, "001", tasks[0].ID)
	assert.Equal(t, "C", tasks[1].ID)

	te := toolError(t, must(r.ReadTask("Z")), definitions.FileError)
	assert.Contains(t, te.Recovery[0], "create_task")
	toolError(t, must(r.Task("Z")), definitions.FileError)
}

func TestCreateTaskInvalid(t *testing.T) {
	r, _ := newRun(t)
	cases := []struct {
		name, content, field string
	}{
		{"no front matter", "id: A\ntype: 1\n", "content"},
		{"unclosed", "---\nid: A\ntype: 1\n", "content"},
		{"not a mapping", "---\n- a\n---\n", "front matter"},
		{"bad yaml", "---\nid: [A\n---\n", "front matter"},
		{"missing id", "---\ntype: 1\n---\n", "id"},
		{"id mismatch", "---\nid: B\ntype: 1\n---\n", "id"},
		{"id not scalar", "---\nid: [A]\ntype: 1\n---\n", "id"},
		{"missing type", "---\nid: A\n---\n", "type"},
		{"bad type", "---\nid: A\ntype: 4\n---\n", "type"},
		{"bad type word", "---\nid: A\ntype: captain\n---\n", "type"},
		{"status not pending", "---\nid: A\ntype: 1\nstatus: DONE\n---\n", "status"},
		{"deps not a list", "---\nid: A\ntype: 1\ndependencies: B\n---\n", "dependencies"},
		{"deps nested", "---\nid: A\ntype: 1\ndependencies: [[B]]\n---\n", "dependencies"},
		{"bad dependency id", "---\nid: A\ntype: 1\ndependencies: [../x]\n---\n", "dependencies"},
		{"self dependency", "---\nid: A\ntype: 1\ndependencies: [A]\n---\n", "dependencies"},
		{"repeated dependency", "---\nid: A\ntype: 1\ndependencies: [B, B]\n---\n", "dependencies"},
		{"title not scalar", "---\nid: A\ntype: 1\ntitle: {x: 1}\n---\n", "title"},
		{"tests not a command", "---\nid: A\ntype: 1\ntests: [go, test]\n---\n", "tests"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			te := toolError(t, must(r.CreateTask("A", c.content)), definitions.ValidationError)
			assert.Equal(t, c.field, te.Details["field"], te.Message)
		})
	}
	toolError(t, must(r.ReadTask("A")), definitions.FileError)
}

func TestFrontMatterEdges(t *testing.T) {
	for _, c := range []struct{ content, front, body string }{
		{"---\n---\nbody", "", "body"},
		{"---\n---", "", ""},
		{"---\nid: A\n---", "id: A\n", ""},
		{"---\nid: A\n---\n# T\n---\nx", "id: A\n", "# T\n---\nx"},
	} {
		front, body, ok := splitFrontMatter(c.content)
		require.True(t, ok, c.content)
		assert.Equal(t, c.front, front)
		assert.Equal(t, c.body, body)
	}
	_, _, ok := splitFrontMatter("--- \nid: A\n---\n")
	assert.False(t, ok)
}

func TestRewriteTask(t *testing.T) {
	r, _ := newRun(t)
	addTasks(t, r, map[string][]string{"A": nil})
	_, err := r.CreateTask("A", taskDoc("A"))
	require.NoError(t, err, "a PENDING task may be rewritten")
	_, err = r.MarkStatus("A", Running)
	require.NoError(t, err)
	te := toolError(t, must(r.CreateTask("A", taskDoc("A"))), definitions.ConflictError)
	assert.Equal(t, Running, te.Details["status"])
	_, err = r.MarkStatus("A", Stale)
	require.NoError(t, err)
	_, err = r.CreateTask("A", taskDoc("A"))
	require.NoError(t, err, "a STALE task may be re-planned")
}
