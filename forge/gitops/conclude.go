package gitops

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"

	"github.com/jido-run/jido/tools/definitions"
)

// ConcludeMerge commits the merge in progress in the worktree at worktreeDir once its
// conflicts are fixed, with message (git's prepared message when ""). It refuses, with a
// ConflictError naming the files, while a conflicted file still holds a conflict marker
// line (<<<<<<< or >>>>>>>) or, after staging the tracked files, the index still has unmerged
// entries. The conflicted files are those git lists as unmerged and those git's merge
// message records, so that files staged by someone else are checked too.
func (r *Repo) ConcludeMerge(worktreeDir, message string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	l, err := r.worktreeLoc(worktreeDir)
	if err != nil {
		return err
	}
	if m, err := r.merging(l); err != nil || !m {
		if err == nil {
			err = definitions.NewError(definitions.ValidationError, "no merge is in progress in %s", worktreeDir).With("dir", worktreeDir)
		}
		return err
	}
	files, err := r.conflictedFiles(l)
	if err != nil {
		return err
	}
	var marked []string
	for _, f := range files {
		has, err := hasMarkers(l.workTree, f)
		if err != nil {
			return err
		}
		if has {
			marked = append(marked, f)
		}
	}
	if len(marked) > 0 {
		return definitions.NewError(definitions.ConflictError, "conflict markers remain in %d file(s): %s", len(marked), strings.Join(marked, ", ")).
			With("conflicts", marked).Hint("Resolve every <<<<<<< ... >>>>>>> block, then conclude the merge again")
	}
	// Tracked files only: the conflicted ones are in the index; an untracked file of the
	// work tree (the run's artifacts in the main one) is no part of the merge.
	if _, err := r.git.run(l, "add", "-u"); err != nil {
		return err
	}
	if left, err := r.unmerged(l); err != nil || len(left) > 0 {
		if err == nil {
			err = definitions.NewError(definitions.ConflictError, "%d file(s) are still unmerged", len(left)).With("conflicts", left)
		}
		return err
	}
	args := []string{"commit", "-q", "--no-verify", "--no-edit", "--cleanup=strip"}
	if message != "" {
		args = append(args, "-m", message)
	}
	_, err = r.git.run(l, args...)
	return err
}

// conflictedFiles returns the unmerged paths at l and those listed under "# Conflicts:"
// in the merge message git wrote in the worktree's git directory, sorted and unique.
func (r *Repo) conflictedFiles(l loc) ([]string, error) {
	files, err := r.unmerged(l)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for _, f := range files {
		seen[f] = true
	}
	msg, err := os.ReadFile(filepath.Join(l.gitDir, "MERGE_MSG"))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, definitions.NewError(definitions.ProcessError, "reading the merge message: %v", err)
	}
	_, list, _ := strings.Cut(string(msg), "\n# Conflicts:\n")
	for line := range strings.Lines(list) {
		path, ok := strings.CutPrefix(strings.TrimSuffix(line, "\n"), "#\t")
		if !ok {
			break
		}
		if u, err := strconv.Unquote(path); err == nil && strings.HasPrefix(path, `"`) {
			path = u
		}
		if !seen[path] {
			seen[path] = true
			files = append(files, path)
		}
	}
	sort.Strings(files)
	return files, nil
}

// hasMarkers reports whether the file at path in the worktree dir has a line that starts
// with a conflict marker (<<<<<<< or >>>>>>>, then a space or the line's end). The file
// is opened through an os.Root, so a symbolic link cannot lead out of the worktree; a
// path that is gone or is not a regular file (a symbolic link, a FIFO an agent put there
// to hang the check) has no markers.
func hasMarkers(dir, path string) (bool, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return false, definitions.NewError(definitions.ProcessError, "opening worktree %s: %v", dir, err)
	}
	defer root.Close()
	info, err := root.Lstat(path)
	if err != nil || !info.Mode().IsRegular() {
		return false, nil
	}
	f, err := root.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return false, nil
	}
	defer f.Close()
	if opened, err := f.Stat(); err != nil || !os.SameFile(info, opened) {
		return false, definitions.NewError(definitions.ConflictError, "%s changed while being checked", path).With("path", path)
	}
	return scanMarkers(f)
}

// scanMarkers reports whether a line read from rd starts with a conflict marker.
func scanMarkers(rd io.Reader) (bool, error) {
	br := bufio.NewReader(rd)
	for {
		line, err := br.ReadSlice('\n')
		if isMarker(line) {
			return true, nil
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			for errors.Is(err, bufio.ErrBufferFull) { // the rest of a long line
				_, err = br.ReadSlice('\n')
			}
			if err == nil {
				continue
			}
			fallthrough
		case err != nil:
			if errors.Is(err, io.EOF) {
				return false, nil
			}
			return false, definitions.NewError(definitions.ProcessError, "reading a conflicted file: %v", err)
		}
	}
}

// isMarker reports whether line starts with <<<<<<< or >>>>>>> followed by a space or
// the end of the line.
func isMarker(line []byte) bool {
	for _, m := range [][]byte{[]byte("<<<<<<<"), []byte(">>>>>>>")} {
		if rest, ok := bytes.CutPrefix(line, m); ok && (len(rest) == 0 || rest[0] == ' ' || rest[0] == '\n' || rest[0] == '\r') {
			return true
		}
	}
	return false
}
