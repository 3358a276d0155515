package store

import (
	"errors"
	"io/fs"
	"strconv"
	"strings"

	"github.com/jido-run/jido/security"
)

// EmitCR writes a change request to crs/<crId>.md (ids "cr-1", "cr-2", ...) and halts
// the run: a run.halted event is recorded and MarkStatus refuses to start tasks, while
// running ones may finish (seed 002 §7.4). suggested is optional markdown.
func (r *Run) EmitCR(title, description, reason, suggested string) (string, error) {
	for _, f := range []struct{ name, value string }{{"title", title}, {"description", description}, {"reason", reason}} {
		if strings.TrimSpace(f.value) == "" {
			return "", required(f.name)
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	dir := r.path("crs")
	entries, err := r.root.ReadDir(dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", ioError(err, "the change requests", dir, "")
	}
	last := 0
	for _, e := range entries {
		if n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(e.Name(), "cr-"), ".md")); err == nil {
			last = max(last, n)
		}
	}
	id := "cr-" + strconv.Itoa(last+1)
	var b strings.Builder
	b.WriteString("# Change request " + id + ": " + strings.TrimSpace(title) + "\n\n")
	b.WriteString("## Description\n\n" + strings.TrimSpace(description) + "\n\n")
	b.WriteString("## Reason\n\n" + strings.TrimSpace(reason) + "\n")
	if s := strings.TrimSpace(suggested); s != "" {
		b.WriteString("\n## Suggested changes\n\n" + s + "\n")
	}
	rel := dir + "/" + id + ".md"
	if _, _, err := r.root.WriteFile(rel, []byte(b.String()), security.WriteOptions{MustNotExist: true}); err != nil {
		return "", ioError(err, "change request "+id, rel, "")
	}
	if err := r.record(Event{Type: EventRunHalted, CR: id}); err != nil {
		return "", err
	}
	return id, nil
}

// ReadCR returns the change request crID.
func (r *Run) ReadCR(crID string) (string, error) {
	if err := checkName("crId", crID); err != nil {
		return "", err
	}
	rel := r.path("crs", crID+".md")
	f, err := r.root.ReadFile(rel)
	if err != nil {
		return "", ioError(err, "change request "+crID, rel, "")
	}
	return string(f.Data), nil
}
