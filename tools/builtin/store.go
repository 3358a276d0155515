package builtin

import (
	"io"
	"io/fs"

	"github.com/jido-run/jido/security"
	"github.com/jido-run/jido/walk"
)

// Store is the tree the file, listing and search tools read and change: the project on
// disk through security.Root (Disk), or in plan mode a plan's in-memory overlay of it
// (plan.View). Names are root-relative; every implementation enforces the Root's
// confinement and its secret and protected rules.
type Store interface {
	walk.Tree
	Clean(name string) (string, error)
	Stat(name string) (fs.FileInfo, error)
	// OpenReader opens a file for streaming reads: the reader, canonical path and version.
	OpenReader(name string) (io.ReadCloser, string, security.Version, error)
	ReadFile(name string) (*security.File, error)
	ReadDir(name string) ([]fs.DirEntry, error)
	FS() fs.FS
	WriteFile(name string, data []byte, opts security.WriteOptions) (string, security.Version, error)
	Remove(name string, recursive bool) error
	Rename(oldname, newname string, overwrite bool) error
	IsSecret(canonical string) bool
	IsProtected(canonical string) bool
	// CheckWrite returns the canonical path a write of name would change, or the error
	// the write would end with for the policy (secret, protected) or the name itself.
	CheckWrite(name string) (string, error)
}

// Disk is the Store of the project itself.
func Disk(root *security.Root) Store { return disk{Root: root, Tree: walk.Disk(root)} }

// disk adapts security.Root to Store.
type disk struct {
	*security.Root
	walk.Tree
}

func (d disk) Resolve(name string) (string, error)    { return d.Root.Resolve(name) }
func (d disk) Lstat(name string) (fs.FileInfo, error) { return d.Root.Lstat(name) }
func (d disk) ReadTreeFile(name string, buf []byte) ([]byte, error) {
	return d.Root.ReadTreeFile(name, buf)
}

func (d disk) OpenReader(name string) (io.ReadCloser, string, security.Version, error) {
	f, canon, v, err := d.OpenFile(name)
	if err != nil {
		return nil, canon, v, err
	}
	return f, canon, v, nil
}
