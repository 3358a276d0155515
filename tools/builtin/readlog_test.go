package builtin

import (
	"testing"
	"time"

	"github.com/jido-run/jido/security"
	"github.com/stretchr/testify/assert"
)

// TestReadLogVersionsRestore: Versions is a copy of the log, and Restore puts records
// back (over those of the same paths), as a named session carries them between processes.
func TestReadLogVersionsRestore(t *testing.T) {
	v1 := security.Version{Dev: 1, Ino: 2, Size: 3, ModTime: time.Unix(0, 123456789), Mode: 0o644}
	v2 := security.Version{Dev: 1, Ino: 9, Size: 4, ModTime: time.Unix(5, 0), Mode: 0o600}
	log := NewReadLog()
	log.Record("a.txt", v1)
	got := log.Versions()
	got["b.txt"] = v2
	_, ok := log.Get("b.txt")
	assert.False(t, ok, "Versions returns a copy")

	other := NewReadLog()
	other.Record("a.txt", v2)
	other.Record("c.txt", v2)
	other.Restore(got)
	for path, want := range map[string]security.Version{"a.txt": v1, "b.txt": v2, "c.txt": v2} {
		v, ok := other.Get(path)
		assert.True(t, ok, path)
		assert.True(t, v.Equal(want), path)
	}
}
