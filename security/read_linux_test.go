package security

import (
	"os"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestReadFileOtherDevice reads below a mount point inside the root (needs root).
func TestReadFileOtherDevice(t *testing.T) {
	tr := newTree(t, Options{})
	mnt := tr.host("mnt")
	require.NoError(t, os.Mkdir(mnt, 0o755))
	if err := syscall.Mount("tmpfs", mnt, "tmpfs", 0, ""); err != nil {
		t.Skipf("mount needs privileges: %v", err)
	}
	t.Cleanup(func() { assert.NoError(t, syscall.Unmount(mnt, 0)) })
	writeFiles(t, mnt, map[string]string{"f.txt": "other"})

	_, err := tr.r.ReadFile("mnt/f.txt")
	assertErr(t, err, ErrOtherDevice)
	_, err = tr.r.ReadDir("mnt")
	assertErr(t, err, ErrOtherDevice)
	assertErr(t, tr.r.Remove("mnt", true), ErrOtherDevice)
}
