package store

import (
	"errors"
	"io/fs"
	"strconv"
	"strings"

	"github.com/jido-run/jido/security"
	"github.com/jido-run/jido/tools/definitions"
)

// walkthroughFile is the name of a walkthrough inside its attempt's directory.
const walkthroughFile = "walkthrough.md"

// Walkthrough is what an agent reports of one attempt (seed 002's WalkthroughData, whose
// schema document we lack): what it did, why, and where.
type Walkthrough struct {
	Summary      string   `json:"summary"`                // what was done; required
	Decisions    []string `json:"decisions,omitempty"`    // choices made and their reasons
	FilesTouched []string `json:"filesTouched,omitempty"` // paths created, changed or deleted
	Notes        string   `json:"notes,omitempty"`        // anything the next agent or the Refinery should know
	// NothingToChange says the task needed no change: an attempt that committed nothing
	// is done only when its walkthrough says so.
	NothingToChange bool `json:"nothingToChange,omitempty"`
}

// EmitWalkthrough renders w as markdown into <taskID>/<attempt>/walkthrough.md
// (replacing an earlier one of the same attempt) and returns that root-relative path.
// The attempt must have been started with NextAttempt.
func (r *Run) EmitWalkthrough(taskID string, attempt int, w Walkthrough) (string, error) {
	if err := checkTaskID("taskId", taskID); err != nil {
		return "", err
	}
	if strings.TrimSpace(w.Summary) == "" {
		return "", required("summary")
	}
	if err := r.taskExists(taskID); err != nil {
		return "", err
	}
	if cur := r.Attempt(taskID); attempt < 1 || attempt > cur {
		return "", definitions.NewError(definitions.ValidationError, "task %s has no attempt %d (its attempts are 1 to %d)", taskID, attempt, cur).
			With("field", "attempt").With("task", taskID).With("current", cur).
			Hint("start an attempt with NextAttempt, or give the current one")
	}
	rel := r.path(taskID, strconv.Itoa(attempt), walkthroughFile)
	canonical, _, err := r.root.WriteFile(rel, []byte(w.markdown(taskID, attempt)), security.WriteOptions{})
	if err != nil {
		return "", ioError(err, "the walkthrough", rel, "")
	}
	return canonical, nil
}

// ReadWalkthrough returns the walkthrough of attempt of task taskID; attempt 0 means
// the latest attempt that has one.
func (r *Run) ReadWalkthrough(taskID string, attempt int) (string, error) {
	if err := checkTaskID("taskId", taskID); err != nil {
		return "", err
	}
	if attempt < 0 {
		return "", definitions.NewError(definitions.ValidationError, "invalid attempt %d", attempt).
			With("field", "attempt").Hint("give an attempt number from 1, or 0 for the latest")
	}
	if attempt == 0 {
		latest, err := r.latestWalkthrough(taskID)
		if err != nil {
			return "", err
		}
		attempt = latest
	}
	rel := r.path(taskID, strconv.Itoa(attempt), walkthroughFile)
	f, err := r.root.ReadFile(rel)
	if err != nil {
		return "", ioError(err, "the walkthrough of task "+taskID+" attempt "+strconv.Itoa(attempt), rel, "emit it with emit_walkthrough")
	}
	return string(f.Data), nil
}

// latestWalkthrough returns the highest attempt of taskID that has a walkthrough, or a
// FileError when none has.
func (r *Run) latestWalkthrough(taskID string) (int, error) {
	rel := r.path(taskID)
	entries, err := r.root.ReadDir(rel)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return 0, ioError(err, "the directory of task "+taskID, rel, "")
	}
	latest := 0
	for _, e := range entries {
		n, err := strconv.Atoi(e.Name())
		if err != nil || n <= latest || !e.IsDir() {
			continue
		}
		if _, err := r.root.Stat(r.path(taskID, e.Name(), walkthroughFile)); err == nil {
			latest = n
		}
	}
	if latest == 0 {
		return 0, definitions.NewError(definitions.FileError, "task %s has no walkthrough", taskID).
			With("task", taskID).With("path", rel).Hint("emit it with emit_walkthrough")
	}
	return latest, nil
}

// markdown renders the walkthrough with one heading per part; empty parts are left out.
func (w Walkthrough) markdown(taskID string, attempt int) string {
	var b strings.Builder
	b.WriteString("# Walkthrough: task " + taskID + ", attempt " + strconv.Itoa(attempt) + "\n\n")
	b.WriteString("## Summary\n\n" + strings.TrimSpace(w.Summary) + "\n")
	list := func(heading string, items []string, code bool) {
		if len(items) == 0 {
			return
		}
		b.WriteString("\n## " + heading + "\n\n")
		for _, it := range items {
			if code {
				it = "`" + it + "`"
			}
			b.WriteString("- " + it + "\n")
		}
	}
	list("Decisions", w.Decisions, false)
	list("Files touched", w.FilesTouched, true)
	if notes := strings.TrimSpace(w.Notes); notes != "" {
		b.WriteString("\n## Notes\n\n" + notes + "\n")
	}
	if w.NothingToChange {
		b.WriteString("\n## Outcome\n\nNothing to change.\n")
	}
	return b.String()
}
