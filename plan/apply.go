package plan

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/jido-run/jido/edit"
	"github.com/jido-run/jido/security"
	"github.com/spf13/afero"
)

// Change is one planned change of a file.
type Change struct {
	Path   string      `json:"path"`
	Kind   string      `json:"kind"` // "create", "modify", "delete"
	Mode   fs.FileMode `json:"mode,omitempty"`
	Before []byte      `json:"-"` // content on disk when the plan first touched the file (nil for create)
	After  []byte      `json:"-"` // planned content (nil for delete)
}

// Kinds of Change.
const (
	Create = "create"
	Modify = "modify"
	Delete = "delete"
)

// ErrConflict: a file changed on disk since the plan first read it.
var ErrConflict = errors.New("files changed on disk since the plan read them")

// Changes lists the planned changes, sorted by path. They compare every touched file's
// planned content with its disk content when first touched: a file created then deleted,
// or modified back to its original content, is no change; nor is a mode change alone.
func (o *Overlay) Changes() ([]Change, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.changesLocked()
}

func (o *Overlay) changesLocked() ([]Change, error) {
	var out []Change
	for _, c := range slices.Sorted(maps.Keys(o.orig)) {
		st := o.orig[c]
		info, inLayer, err := o.lookup("changes", c)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		isFile := err == nil && info.Mode().IsRegular()
		var after []byte
		if isFile && inLayer {
			if after, err = afero.ReadFile(o.layer, key(c)); err != nil {
				return nil, err
			}
		} else if isFile {
			after = st.data // untouched in the layer and not hidden: the disk content
		}
		switch {
		case st.kind != regular && isFile:
			out = append(out, Change{Path: c, Kind: Create, Mode: info.Mode().Perm(), After: after})
		case st.kind == regular && !isFile:
			out = append(out, Change{Path: c, Kind: Delete, Before: st.data})
		case st.kind == regular && !bytes.Equal(st.data, after):
			out = append(out, Change{Path: c, Kind: Modify, Mode: info.Mode().Perm(), Before: st.data, After: after})
		}
	}
	return out, nil
}

// Diff renders every change as one unified diff (edit.Diff per file, concatenated in path
// order), with the number of files and of added and removed lines.
func (o *Overlay) Diff() (diff string, files, added, removed int, err error) {
	changes, err := o.Changes()
	if err != nil {
		return "", 0, 0, 0, err
	}
	var b strings.Builder
	for _, ch := range changes {
		d, a, r := edit.Diff(ch.Path, string(ch.Before), string(ch.After))
		b.WriteString(d)
		added += a
		removed += r
	}
	return b.String(), len(changes), added, removed, nil
}

// sameState reports whether the disk still holds what the plan saw.
func sameState(seen, now origin) bool {
	if seen.kind != now.kind {
		return false
	}
	return seen.kind != regular || seen.version.Equal(now.version)
}

// undo reverts one step of Apply.
type undo func() error

// Apply writes the plan to disk through the Root. First every changed file must still be
// in the state the plan saw (same Version, or still absent): otherwise ErrConflict,
// naming the files, and nothing is written. Then deletions run (so that a directory can
// become a file), directories the plan removed are pruned when empty, and creates and
// modifications are written atomically with compare-and-swap (MustNotExist, Expect). If a
// step fails, the steps done are reverted in reverse order and the error is returned. On
// success the plan is emptied. It returns the paths changed.
func (o *Overlay) Apply() ([]string, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	changes, err := o.changesLocked()
	if err != nil {
		return nil, err
	}
	var conflicts []string
	for _, ch := range changes {
		now, err := o.diskState(ch.Path)
		if err != nil || !sameState(o.orig[ch.Path], now) {
			conflicts = append(conflicts, ch.Path)
		}
	}
	if len(conflicts) > 0 {
		return nil, fmt.Errorf("%w: %s", ErrConflict, strings.Join(conflicts, ", "))
	}
	if o.beforeWrite != nil {
		o.beforeWrite()
	}
	var done []undo
	rollback := func(err error) ([]string, error) {
		var errs []error
		for _, u := range slices.Backward(done) {
			if uerr := u(); uerr != nil {
				errs = append(errs, uerr)
			}
		}
		if len(errs) > 0 {
			return nil, fmt.Errorf("%w (rollback failed: %w)", err, errors.Join(errs...))
		}
		return nil, err
	}
	for _, ch := range changes {
		if ch.Kind != Delete {
			continue
		}
		if err := o.root.Remove(ch.Path, false); err != nil {
			return rollback(err)
		}
		ch, mode := ch, o.orig[ch.Path].mode
		done = append(done, func() error {
			_, _, err := o.root.WriteFile(ch.Path, ch.Before, security.WriteOptions{Perm: mode, MustNotExist: true})
			return err
		})
	}
	for _, d := range o.prunable(changes) {
		if err := o.root.RemoveEmptyDir(d); err != nil {
			return rollback(err)
		}
		done = append(done, func() error { return o.root.MkdirAll(d) })
	}
	var paths []string
	for _, ch := range changes {
		paths = append(paths, ch.Path)
		switch ch.Kind {
		case Create:
			var newDirs []string // deepest first, removed again by the undo
			for d := path.Dir(ch.Path); d != "."; d = path.Dir(d) {
				if _, err := o.root.Lstat(d); errors.Is(err, fs.ErrNotExist) {
					newDirs = append(newDirs, d)
				}
			}
			_, _, err := o.root.WriteFile(ch.Path, ch.After, security.WriteOptions{Perm: ch.Mode, MustNotExist: true})
			if err != nil {
				for _, d := range newDirs { // parents WriteFile may have created before failing
					o.root.RemoveEmptyDir(d)
				}
				return rollback(err)
			}
			done = append(done, func() error {
				err := o.root.Remove(ch.Path, false)
				for _, d := range newDirs {
					if err == nil {
						err = o.root.RemoveEmptyDir(d)
					}
				}
				return err
			})
		case Modify:
			v := o.orig[ch.Path].version
			_, _, err := o.root.WriteFile(ch.Path, ch.After, security.WriteOptions{Expect: &v})
			if err != nil {
				return rollback(err)
			}
			done = append(done, func() error {
				_, _, err := o.root.WriteFile(ch.Path, ch.Before, security.WriteOptions{})
				return err
			})
		}
	}
	o.reset()
	return paths, nil
}

// prunable returns the directories, deepest first, that hold a deleted file, are gone
// from the plan, and will be empty on disk once the deletions are done.
func (o *Overlay) prunable(changes []Change) []string {
	seen := map[string]bool{}
	var out []string
	for _, ch := range changes {
		if ch.Kind != Delete {
			continue
		}
		for d := path.Dir(ch.Path); d != "." && !seen[d]; d = path.Dir(d) {
			seen[d] = true
			if _, _, err := o.lookup("apply", d); err == nil {
				break // the plan keeps this directory, hence its parents
			}
			out = append(out, d)
		}
	}
	slices.SortFunc(out, func(a, b string) int { return strings.Count(b, "/") - strings.Count(a, "/") })
	// Only those that will be empty: no entries on disk but deleted files and pruned dirs.
	gone := map[string]bool{}
	for _, ch := range changes {
		if ch.Kind == Delete {
			gone[ch.Path] = true
		}
	}
	var empty []string
	for _, d := range out {
		entries, err := o.root.ReadDir(d)
		if err != nil {
			continue
		}
		ok := true
		for _, e := range entries {
			if !gone[join(d, e.Name())] {
				ok = false
				break
			}
		}
		if ok {
			gone[d] = true
			empty = append(empty, d)
		}
	}
	return empty
}
