package shell

import "golang.org/x/sys/unix"

// renameNoReplace renames an entry between two directories, refusing to replace one.
func renameNoReplace(fromDir int, from string, toDir int, to string) error {
	return unix.Renameat2(fromDir, from, toDir, to, unix.RENAME_NOREPLACE)
}
