//go:build !linux

package shell

import (
	"golang.org/x/sys/unix"
)

// renameNoReplace renames an entry between two directories, refusing to replace one
// (checked before the rename: without Linux there is no sandbox whose command could race
// it).
func renameNoReplace(fromDir int, from string, toDir int, to string) error {
	var st unix.Stat_t
	if err := unix.Fstatat(toDir, to, &st, unix.AT_SYMLINK_NOFOLLOW); err == nil {
		return unix.EEXIST
	}
	return unix.Renameat(fromDir, from, toDir, to)
}
