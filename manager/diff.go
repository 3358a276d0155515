package manager

import (
	"errors"
	"io/fs"
	"slices"
	"strings"
	"time"

	"github.com/jido-run/jido/edit"
)

// DiffSince returns one unified diff of the files that the change sets journaled since t
// touched, from their state before the first of those changes to their state now, with
// the number of files; "" when nothing changed. It needs the journal (Config.JournalDir).
func (m *Manager) DiffSince(t time.Time) (string, int, error) {
	if m.main.journal == nil {
		return "", 0, errors.New("this manager keeps no journal of changes (Config.JournalDir)")
	}
	entries, err := m.main.journal.List()
	if err != nil {
		return "", 0, err
	}
	before := map[string][]byte{}                // path -> content before the first change since t; nil: absent
	for _, e := range slices.Backward(entries) { // oldest first: the first Before of a path wins
		if e.Time.Before(t) {
			continue
		}
		for _, b := range e.Before {
			if _, seen := before[b.Path]; seen {
				continue
			}
			data, err := m.main.journal.BeforeContent(b)
			if err != nil {
				return "", 0, err
			}
			before[b.Path] = data
		}
	}
	paths := slices.Sorted(func(yield func(string) bool) {
		for p := range before {
			if !yield(p) {
				return
			}
		}
	})
	var out strings.Builder
	files := 0
	for _, p := range paths {
		now := ""
		if f, err := m.main.root.ReadFile(p); err == nil {
			now = string(f.Data)
		} else if !errors.Is(err, fs.ErrNotExist) {
			return "", 0, err
		}
		if d, _, _ := edit.Diff(p, string(before[p]), now); d != "" {
			out.WriteString(d)
			files++
		}
	}
	return out.String(), files, nil
}
