package builtin

import (
	"maps"
	"sync"

	"github.com/jido-run/jido/security"
)

// ReadLog remembers, per session, the version of every file the session has read or written,
// so that an edit or overwrite can require a prior read and detect a change since.
type ReadLog struct {
	mu       sync.Mutex
	versions map[string]security.Version
}

// NewReadLog returns an empty log.
func NewReadLog() *ReadLog { return &ReadLog{versions: map[string]security.Version{}} }

// Record notes that the session has seen the file at canonical path in version v.
func (r *ReadLog) Record(path string, v security.Version) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.versions[path] = v
}

// Get returns the version the session last saw of the file at canonical path.
func (r *ReadLog) Get(path string) (security.Version, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	v, ok := r.versions[path]
	return v, ok
}

// Move carries the record of a renamed file to its new path.
func (r *ReadLog) Move(from, to string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if v, ok := r.versions[from]; ok {
		delete(r.versions, from)
		r.versions[to] = v
	}
}

// Forget drops the record of a deleted file.
func (r *ReadLog) Forget(path string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.versions, path)
}

// Versions returns a copy of the log: the version last seen of each file, by canonical
// path. With Restore it carries a session's reads to another process (jido call
// --session); an edit still compares the file's version now with the one recorded.
func (r *ReadLog) Versions() map[string]security.Version {
	r.mu.Lock()
	defer r.mu.Unlock()
	return maps.Clone(r.versions)
}

// Restore adds the records of versions (canonical path -> version last seen) to the log,
// over any of the same paths.
func (r *ReadLog) Restore(versions map[string]security.Version) {
	r.mu.Lock()
	defer r.mu.Unlock()
	maps.Copy(r.versions, versions)
}
