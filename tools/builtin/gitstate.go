package builtin

import (
	"bytes"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// gitIndexFile is git's staging area, read (never run: git would run the repository's
// hooks and fsmonitor) to tell whether a file has changes git does not have.
const gitIndexFile = ".git/index"

// uncommitted reports whether the file at canonical path, whose content is data, differs
// from what git's index holds for it: the user's own changes, not yet committed, which the
// agent is about to change too (seed 000 warns of them). A file git does not track, a
// project without a .git directory, or an index go-git cannot read, reports false. Only
// changes against the index are seen, not staged ones (that needs the commit's tree).
func (d Deps) uncommitted(path string, data []byte) bool {
	if d.Plan != nil || d.Root == nil {
		return false // a plan's change reaches the disk, and git, only when applied
	}
	f, err := d.Root.ReadFile(gitIndexFile)
	if err != nil {
		return false
	}
	var idx index.Index
	if index.NewDecoder(bytes.NewReader(f.Data)).Decode(&idx) != nil {
		return false
	}
	e, err := idx.Entry(path)
	if err != nil {
		return false
	}
	return e.Hash != plumbing.ComputeHash(plumbing.BlobObject, data)
}
