package store

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/jido-run/jido/tools/definitions"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// issueDAG is the DAG of issue 25: C depends on A and B.
func issueDAG() map[string]any {
	return map[string]any{"tasks": []any{
		map[string]any{"id": "A", "dependencies": []any{}},
		map[string]any{"id": "B"},
		map[string]any{"id": "C", "dependencies": []any{"B", "A"}},
	}}
}

func TestSetDAG(t *testing.T) {
	r, root := newRun(t)
	addTasks(t, r, map[string][]string{"A": nil, "B": nil, "C": {"A", "B"}})
	p, err := r.SetDAG(issueDAG())
	require.NoError(t, err)
	assert.Equal(t, "artifacts/run1/dag.json", p)
	assert.FileExists(t, filepath.Join(root.Path(), p))

	d, err := r.ReadDAG()
	require.NoError(t, err)
	assert.Equal(t, &DAG{Tasks: []DAGTask{
		{ID: "A", Dependencies: []string{}},
		{ID: "B", Dependencies: []string{}},
		{ID: "C", Dependencies: []string{"B", "A"}},
	}}, d)
	assert.Equal(t, []string{"A", "B", "C"}, d.Order())

	_, err = r.SetDAG(d)
	require.NoError(t, err, "the typed DAG is accepted too")
}

func TestSetDAGInvalid(t *testing.T) {
	r, _ := newRun(t)
	addTasks(t, r, map[string][]string{"A": nil, "B": {"A"}, "X": {"A"}})
	node := func(id string, deps ...string) DAGTask { return DAGTask{ID: id, Dependencies: deps} }
	cases := []struct {
		name string
		dag  any
		want string // part of the message
	}{
		{"other shape", map[string]any{"nodes": []any{}}, "shape"},
		{"wrong type", map[string]any{"tasks": "A"}, "shape"},
		{"not JSON", func() {}, "not JSON"},
		{"empty", DAG{}, "no tasks"},
		{"bad id", DAG{Tasks: []DAGTask{node("../x")}}, "invalid tasks[0].id"},
		{"duplicate", DAG{Tasks: []DAGTask{node("A"), node("A")}}, "appears twice"},
		{"unknown dependency", DAG{Tasks: []DAGTask{node("A"), node("B", "Q")}}, `depends on "Q"`},
		{"repeated dependency", DAG{Tasks: []DAGTask{node("A"), node("B", "A", "A")}}, "twice"},
		{"self cycle", DAG{Tasks: []DAGTask{node("A", "A")}}, "cycle: A -> A"},
		{"cycle", DAG{Tasks: []DAGTask{node("A", "B"), node("B", "C"), node("C", "A")}}, "cycle: A -> B -> C -> A"},
		{"inner cycle", DAG{Tasks: []DAGTask{node("A"), node("B", "A", "C"), node("C", "B")}}, "cycle: B -> C -> B"},
		{"no task file", DAG{Tasks: []DAGTask{node("A"), node("N")}}, "task N does not exist"},
		{"disagrees with front matter", DAG{Tasks: []DAGTask{node("A"), node("B")}}, "front matter [A]"},
		{"disagrees other way", DAG{Tasks: []DAGTask{node("A"), node("B", "A"), node("X", "B")}}, "task X"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := r.SetDAG(c.dag)
			var te *definitions.ToolError
			require.ErrorAs(t, err, &te)
			assert.Contains(t, te.Message, c.want)
			if c.name == "no task file" {
				assert.Equal(t, definitions.FileError, te.Type)
			} else {
				assert.Equal(t, definitions.ValidationError, te.Type)
			}
		})
	}
	toolError(t, must(r.ReadDAG()), definitions.FileError)
}

func TestReadDAGDamaged(t *testing.T) {
	r, root := newRun(t)
	dag := filepath.Join(root.Path(), "artifacts", "run1", "dag.json")
	require.NoError(t, os.WriteFile(dag, []byte(`{"tasks":[{"id":"A","dependencies":["A"]}]}`), 0o644))
	te := toolError(t, must(r.ReadDAG()), definitions.ValidationError)
	assert.Contains(t, te.Message, "A -> A")
	require.NoError(t, os.WriteFile(dag, []byte(`{"tasks":`), 0o644))
	toolError(t, must(r.ReadDAG()), definitions.ValidationError)
}

func TestReady(t *testing.T) {
	r, _ := newRun(t)
	addTasks(t, r, map[string][]string{"A": nil, "B": nil, "C": {"A", "B"}})
	_, err := r.SetDAG(issueDAG())
	require.NoError(t, err)
	d, err := r.ReadDAG()
	require.NoError(t, err)

	ready := func() []string {
		states, err := r.States()
		require.NoError(t, err)
		return d.Ready(states)
	}
	assert.Equal(t, []string{"A", "B"}, ready())
	assert.Equal(t, []string{"A", "B"}, d.Ready(nil), "absent tasks are PENDING")

	for _, s := range []Status{Running, Done} {
		_, err := r.MarkStatus("A", s)
		require.NoError(t, err)
	}
	assert.Equal(t, []string{"B"}, ready())

	_, err = r.MarkStatus("B", Running)
	require.NoError(t, err)
	assert.Empty(t, ready())
	_, err = r.MarkStatus("B", Failed)
	require.NoError(t, err)
	assert.Empty(t, ready(), "a failed dependency blocks C")
	for _, s := range []Status{Pending, Running, Done} {
		_, err := r.MarkStatus("B", s)
		require.NoError(t, err)
	}
	assert.Equal(t, []string{"C"}, ready())

	assert.Equal(t, []string{"C"}, d.Ready(map[string]Status{"A": MergeReady, "B": Merged}))
	assert.Empty(t, d.Ready(map[string]Status{"A": MergeReady, "B": Stale}))
}

func TestOrder(t *testing.T) {
	d := &DAG{Tasks: []DAGTask{
		{ID: "D", Dependencies: []string{"C"}},
		{ID: "C", Dependencies: []string{"A", "B"}},
		{ID: "B", Dependencies: []string{"A"}},
		{ID: "A"},
		{ID: "E"},
	}}
	assert.Equal(t, []string{"A", "B", "C", "D", "E"}, d.Order())
}
