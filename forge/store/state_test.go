package store

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/jido-run/jido/tools/definitions"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// allowed is the state machine of seed 002 §8.5, written out independently of transitions.
var allowed = map[[2]Status]bool{
	{Pending, Running}: true, {Running, Done}: true, {Done, MergeReady}: true, {MergeReady, Merged}: true,
	{Running, Failed}: true, {Failed, Pending}: true, {Stale, Pending}: true,
	{Pending, Stale}: true, {Running, Stale}: true, {Done, Stale}: true, {MergeReady, Stale}: true, {Failed, Stale}: true,
}

// pathTo lists the transitions that bring a new task to s.
var pathTo = map[Status][]Status{
	Pending:    nil,
	Running:    {Running},
	Done:       {Running, Done},
	MergeReady: {Running, Done, MergeReady},
	Merged:     {Running, Done, MergeReady, Merged},
	Failed:     {Running, Failed},
	Stale:      {Stale},
}

func TestTransitions(t *testing.T) {
	for _, from := range Statuses() {
		for _, to := range Statuses() {
			t.Run(fmt.Sprintf("%s-%s", from, to), func(t *testing.T) {
				r, _ := newRun(t)
				addTasks(t, r, map[string][]string{"T": nil})
				for _, s := range pathTo[from] {
					_, err := r.MarkStatus("T", s)
					require.NoError(t, err)
				}
				prev, err := r.MarkStatus("T", to)
				assert.Equal(t, from, prev)
				assert.Equal(t, allowed[[2]Status{from, to}], from.CanGo(to))
				got, serr := r.Status("T")
				require.NoError(t, serr)
				if allowed[[2]Status{from, to}] {
					require.NoError(t, err)
					assert.Equal(t, to, got)
					return
				}
				te := toolError(t, err, definitions.ConflictError)
				assert.Contains(t, te.Message, fmt.Sprintf("cannot go from %s to %s", from, to))
				assert.Equal(t, from.Next(), te.Details["allowed"])
				assert.Equal(t, from, got, "a refused transition changes nothing")
			})
		}
	}
}

func TestMarkStatusInvalid(t *testing.T) {
	r, _ := newRun(t)
	addTasks(t, r, map[string][]string{"A": nil})
	te := toolError(t, must(r.MarkStatus("A", "DONE ")), definitions.ValidationError)
	assert.Equal(t, "status", te.Details["field"])
	toolError(t, must(r.MarkStatus("Q", Running)), definitions.FileError)
	toolError(t, must(r.Status("Q")), definitions.FileError)
	toolError(t, must(r.Status("../A")), definitions.ValidationError)
}

func TestStatesAndEvents(t *testing.T) {
	r, _ := newRun(t)
	addTasks(t, r, map[string][]string{"A": nil, "B": nil})
	n, err := r.NextAttempt("A")
	require.NoError(t, err)
	assert.Equal(t, 1, n)
	_, err = r.MarkStatus("A", Running)
	require.NoError(t, err)

	states, err := r.States()
	require.NoError(t, err)
	assert.Equal(t, map[string]Status{"A": Running, "B": Pending}, states)

	events, err := r.Events()
	require.NoError(t, err)
	require.Len(t, events, 2)
	assert.Equal(t, EventTaskAttempt, events[0].Type)
	e := events[1]
	assert.Equal(t, Event{Type: EventTaskStatus, Task: "A", From: Pending, To: Running, Attempt: 1}, Event{Type: e.Type, Task: e.Task, From: e.From, To: e.To, Attempt: e.Attempt})
	assert.False(t, e.Time.IsZero())
}

func TestAttempts(t *testing.T) {
	r, root := newRun(t)
	addTasks(t, r, map[string][]string{"A": nil})
	assert.Equal(t, 0, r.Attempt("A"))
	for want := 1; want <= 3; want++ {
		n, err := r.NextAttempt("A")
		require.NoError(t, err)
		assert.Equal(t, want, n)
	}
	assert.Equal(t, 3, r.Attempt("A"))
	toolError(t, must(r.NextAttempt("Q")), definitions.FileError)

	again, err := Open(root, "run1")
	require.NoError(t, err)
	assert.Equal(t, 3, again.Attempt("A"), "attempts persist")
}

// TestFailRecordsWhy: a task moved to FAILED says why until it moves on, and the reason
// is kept in the events, so that a reopened run (its state file lost too) tells it.
func TestFailRecordsWhy(t *testing.T) {
	r, root := newRun(t)
	addTasks(t, r, map[string][]string{"A": nil, "B": nil})
	for _, s := range []Status{Running, Failed, Pending, Running} {
		_, err := r.MarkStatus("A", s)
		require.NoError(t, err)
	}
	assert.Empty(t, r.Reason("A"), "MarkStatus says no reason")
	prev, err := r.Fail("A", "the agent gave up")
	require.NoError(t, err)
	assert.Equal(t, Running, prev)
	assert.Equal(t, "the agent gave up", r.Reason("A"))
	toolError(t, must(r.Fail("B", "never ran")), definitions.ConflictError)
	assert.Empty(t, r.Reason("B"), "a refused move records nothing")

	require.NoError(t, root.Remove("artifacts/run1/state.json", false))
	again, err := Open(root, "run1")
	require.NoError(t, err)
	assert.Equal(t, "the agent gave up", again.Reason("A"), "replayed from the events")
	_, err = again.MarkStatus("A", Pending)
	require.NoError(t, err)
	assert.Empty(t, again.Reason("A"), "a task that moved on is no longer failed")
}

func TestCrashResume(t *testing.T) {
	r, root := newRun(t)
	addTasks(t, r, map[string][]string{"A": nil, "B": nil})
	state := filepath.Join(root.Path(), "artifacts", "run1", "state.json")
	_, err := r.NextAttempt("A")
	require.NoError(t, err)
	_, err = r.MarkStatus("A", Running)
	require.NoError(t, err)
	old, err := os.ReadFile(state)
	require.NoError(t, err)
	_, err = r.MarkStatus("A", Done)
	require.NoError(t, err)
	_, err = r.MarkStatus("B", Stale)
	require.NoError(t, err)
	want := map[string]Status{"A": Done, "B": Stale}

	reopen := func(t *testing.T) *Run {
		t.Helper()
		again, err := Open(root, "run1")
		require.NoError(t, err)
		states, err := again.States()
		require.NoError(t, err)
		assert.Equal(t, want, states)
		assert.Equal(t, 1, again.Attempt("A"))
		return again
	}
	t.Run("older state", func(t *testing.T) {
		// A crash after the events were written and before the state was.
		require.NoError(t, os.WriteFile(state, old, 0o644))
		reopen(t)
		repaired, err := os.ReadFile(state)
		require.NoError(t, err)
		assert.Contains(t, string(repaired), `"events": 4`, "the snapshot is rewritten")
	})
	t.Run("truncated state", func(t *testing.T) {
		require.NoError(t, os.WriteFile(state, old[:len(old)/2], 0o644))
		reopen(t)
	})
	t.Run("missing state", func(t *testing.T) {
		require.NoError(t, os.Remove(state))
		again := reopen(t)
		_, err := again.MarkStatus("A", MergeReady)
		require.NoError(t, err, "the rebuilt state goes on")
	})
	t.Run("damaged events", func(t *testing.T) {
		events := filepath.Join(root.Path(), "artifacts", "run1", "events.ndjson")
		require.NoError(t, os.WriteFile(events, []byte("{\"type\":\"x\"}\nnot json\n"), 0o644))
		te := toolError(t, must(Open(root, "run1")), definitions.FileError)
		assert.Equal(t, 2, te.Details["line"])
	})
}

func TestConcurrentMarkStatus(t *testing.T) {
	r, root := newRun(t)
	const n = 8
	for i := range n {
		addTasks(t, r, map[string][]string{fmt.Sprintf("T%d", i): nil})
	}
	addTasks(t, r, map[string][]string{"shared": nil})
	var wg sync.WaitGroup
	won := make(chan int, n)
	for i := range n {
		wg.Go(func() {
			id := fmt.Sprintf("T%d", i)
			for _, s := range []Status{Running, Done, MergeReady} {
				_, err := r.MarkStatus(id, s)
				assert.NoError(t, err)
			}
			if _, err := r.MarkStatus("shared", Running); err == nil {
				won <- i
			}
			assert.NoError(t, r.AppendEvent(Event{Type: "tool.call", Task: id}))
		})
	}
	wg.Wait()
	close(won)
	assert.Len(t, slices.Collect(chanSeq(won)), 1, "exactly one goroutine starts the shared task")

	events, err := r.Events()
	require.NoError(t, err)
	assert.Len(t, events, 3*n+1+n, "no event is lost")

	again, err := Open(root, "run1")
	require.NoError(t, err)
	states, err := again.States()
	require.NoError(t, err)
	for i := range n {
		assert.Equal(t, MergeReady, states[fmt.Sprintf("T%d", i)])
	}
	assert.Equal(t, Running, states["shared"])
}

// chanSeq yields the values of a closed channel.
func chanSeq[T any](c <-chan T) func(func(T) bool) {
	return func(yield func(T) bool) {
		for v := range c {
			if !yield(v) {
				return
			}
		}
	}
}

func TestEventLogSymlinkOutside(t *testing.T) {
	r, root := newRun(t)
	addTasks(t, r, map[string][]string{"A": nil})
	outside := filepath.Join(t.TempDir(), "outside.ndjson")
	require.NoError(t, os.WriteFile(outside, []byte("CANARY\n"), 0o644))
	link := filepath.Join(root.Path(), "artifacts", "run1", "events.ndjson")
	require.NoError(t, os.Symlink(outside, link))

	toolError(t, must(r.MarkStatus("A", Running)), definitions.PermissionError)
	toolError(t, r.AppendEvent(Event{Type: "tool.call"}), definitions.PermissionError)
	toolError(t, must(r.Events()), definitions.PermissionError)
	toolError(t, must(Open(root, "run1")), definitions.PermissionError)

	got, err := os.ReadFile(outside)
	require.NoError(t, err)
	assert.Equal(t, "CANARY\n", string(got))
	s, err := r.Status("A")
	require.NoError(t, err)
	assert.Equal(t, Pending, s, "a refused event changes no state")
}

func TestAppendEvent(t *testing.T) {
	r, _ := newRun(t)
	require.NoError(t, r.AppendEvent(Event{Type: "tool.result", Data: map[string]any{"tool": "read", "ok": true}}))
	toolError(t, r.AppendEvent(Event{}), definitions.ValidationError)
	for _, typ := range []string{EventTaskStatus, EventTaskAttempt, EventRunHalted} {
		toolError(t, r.AppendEvent(Event{Type: typ, Task: "A", To: Done}), definitions.ValidationError)
	}
	toolError(t, r.AppendEvent(Event{Type: "x", Data: map[string]any{"f": func() {}}}), definitions.ValidationError)
	events, err := r.Events()
	require.NoError(t, err)
	require.Len(t, events, 1)
	assert.Equal(t, map[string]any{"tool": "read", "ok": true}, events[0].Data)
	assert.False(t, events[0].Time.IsZero())
}
