package builtin

import (
	"bytes"
	"sync"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/index"
	"github.com/jido-run/jido/security"
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
	idx := readIndex(d.Root, gitIndexFile)
	if idx == nil {
		return false
	}
	e, err := idx.Entry(path)
	if err != nil {
		return false
	}
	return e.Hash != plumbing.ComputeHash(plumbing.BlobObject, data)
}

// lastIndex is the git index decoded last, kept while its file stays the same: every
// write and edit asks it, and decoding a large repository's index takes milliseconds.
var lastIndex struct {
	sync.Mutex
	root    *security.Root
	name    string
	version security.Version
	idx     *index.Index
}

// readIndex returns the git index at name in root decoded, or nil.
func readIndex(root *security.Root, name string) *index.Index {
	f, err := root.ReadFile(name)
	if err != nil {
		return nil
	}
	lastIndex.Lock()
	defer lastIndex.Unlock()
	if lastIndex.root == root && lastIndex.name == name && lastIndex.version.Equal(f.Version) {
		return lastIndex.idx
	}
	var idx index.Index
	if index.NewDecoder(bytes.NewReader(f.Data)).Decode(&idx) != nil {
		return nil
	}
	lastIndex.root, lastIndex.name, lastIndex.version, lastIndex.idx = root, name, f.Version, &idx
	return &idx
}
