package sandbox

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/sys/unix"
)

// The private root is built bubblewrap's way: a tmpfs is made the root with the host's
// root kept at oldRoot, the granted host paths are bound into a second tmpfs at newRoot
// at their own paths, then newRoot becomes the root and the host's is detached. What the
// policy does not grant does not exist inside: no host sockets (docker, D-Bus, X11, agents
// under /run, /tmp or home), no /dev/shm of the host, no terminal.
const (
	baseDir = "/tmp" // where the first tmpfs goes (any directory: the namespace is private)
	oldRoot = "/oldroot"
	newRoot = "/newroot"
)

// privateRoot builds the command's root in the helper's new mount namespace.
func privateRoot(s spec) error {
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("making mounts private: %w", err)
	}
	if err := unix.Mount("tmpfs", baseDir, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "mode=0755"); err != nil {
		return fmt.Errorf("mounting the base tmpfs: %w", err)
	}
	for _, d := range []string{baseDir + oldRoot, baseDir + newRoot} {
		if err := os.Mkdir(d, 0o755); err != nil {
			return err
		}
	}
	if err := unix.Mount("tmpfs", baseDir+newRoot, "tmpfs", unix.MS_NOSUID, "mode=0755"); err != nil {
		return fmt.Errorf("mounting the new root: %w", err)
	}
	if err := unix.PivotRoot(baseDir, baseDir+oldRoot); err != nil {
		return fmt.Errorf("pivot_root: %w", err)
	}
	if err := os.Chdir("/"); err != nil {
		return err
	}
	if err := bindAll(s); err != nil {
		return err
	}
	if err := unix.Unmount(oldRoot, unix.MNT_DETACH); err != nil {
		return fmt.Errorf("detaching the host root: %w", err)
	}
	// newRoot becomes / : pivot onto itself, then detach the base tmpfs stacked under it.
	if err := os.Chdir(newRoot); err != nil {
		return err
	}
	if err := unix.PivotRoot(".", "."); err != nil {
		return fmt.Errorf("pivot_root into the new root: %w", err)
	}
	if err := unix.Unmount(".", unix.MNT_DETACH); err != nil {
		return fmt.Errorf("detaching the base: %w", err)
	}
	if err := os.Chdir("/"); err != nil {
		return err
	}
	// Nothing may be created beside the granted paths.
	return unix.Mount("", "/", "", unix.MS_REMOUNT|unix.MS_BIND|unix.MS_RDONLY|unix.MS_NOSUID, "")
}

// bindAll binds every granted path into newRoot (the helper's file too), parents before
// children, then the protected paths read-only over them (with their writable exceptions),
// then /dev with its /dev/shm, the hidden paths masked, and /proc. The command's temp dir
// stays at its host path; /tmp itself is the read-only root's, as it was under Landlock alone.
func bindAll(s spec) error {
	type bind struct {
		path string
		ro   bool
	}
	var binds []bind
	for _, p := range s.ReadOnly {
		binds = append(binds, bind{p, true})
	}
	for _, p := range s.ReadWrite {
		binds = append(binds, bind{p, false})
	}
	for _, p := range s.Files {
		binds = append(binds, bind{p, true})
	}
	slices.SortStableFunc(binds, func(a, b bind) int { return strings.Compare(a.path, b.path) })
	for _, b := range binds {
		if err := bindPath(oldRoot+b.path, newRoot+b.path, b.ro); err != nil {
			return err
		}
	}
	// The directories above a protected path are mounts too (onto themselves, writable), so
	// that no command can rename or remove one and make a new path where the protected one
	// was (mv .git .git-old && mkdir .git: a new .git/config would escape the read-only
	// mount, which moved with the old directory).
	for _, d := range protectedParents(s) {
		if err := bindPath(oldRoot+d, newRoot+d, false); err != nil {
			return err
		}
	}
	for _, p := range s.Protected {
		if err := bindPath(oldRoot+p, newRoot+p, true); err != nil {
			return err
		}
	}
	for _, p := range s.Writable {
		if err := bindPath(oldRoot+p, newRoot+p, false); err != nil {
			return err
		}
	}
	if err := makeDev(); err != nil {
		return err
	}
	for _, p := range slices.Concat(hiddenSystemFiles, hostKeys(oldRoot), s.Hidden) {
		if err := hide(newRoot + p); err != nil {
			return err
		}
	}
	if err := bindPath(oldRoot+"/proc", newRoot+"/proc", false); err != nil {
		return err
	}
	return nil
}

// protectedParents lists, parents first, the directories between each protected path and
// the writable area that holds it (both excluded).
func protectedParents(s spec) []string {
	var dirs []string
	for _, p := range s.Protected {
		area := ""
		for _, rw := range s.ReadWrite {
			if strings.HasPrefix(p, rw+"/") && len(rw) > len(area) {
				area = rw
			}
		}
		if area == "" {
			continue
		}
		for d := filepath.Dir(p); strings.HasPrefix(d, area+"/"); d = filepath.Dir(d) {
			dirs = append(dirs, d)
		}
	}
	slices.Sort(dirs)
	return slices.Compact(dirs)
}

// hostKeys are the SSH host keys (/etc/ssh/ssh_host_*_key) of the tree at root ("" for
// the current root), by their paths from root.
func hostKeys(root string) []string {
	keys, _ := filepath.Glob(root + "/etc/ssh/ssh_host_*_key")
	for i := range keys {
		keys[i] = strings.TrimPrefix(keys[i], root)
	}
	return keys
}

// bindPath binds the host path src (seen under oldRoot) at dst, read-only when ro. A
// missing or unreachable src is skipped; a symbolic link is recreated as the same link (so /bin -> usr/bin
// still works), never followed.
func bindPath(src, dst string, ro bool) error {
	info, err := os.Lstat(src)
	if errors.Is(err, os.ErrNotExist) || errors.Is(err, os.ErrPermission) {
		return nil // nothing to grant: missing, or the user could not reach it anyway
	}
	if err != nil {
		return err
	}
	if info.Mode()&os.ModeSymlink != 0 {
		if _, err := os.Lstat(dst); err == nil {
			return nil // already there (bound with a parent)
		}
		target, err := os.Readlink(src)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return os.Symlink(target, dst)
	}
	if err := mountPoint(dst, info.IsDir()); err != nil {
		return fmt.Errorf("mount point %s: %w", strings.TrimPrefix(dst, newRoot), err)
	}
	if err := unix.Mount(src, dst, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
		return fmt.Errorf("binding %s: %w", strings.TrimPrefix(src, oldRoot), err)
	}
	if !ro {
		return nil
	}
	return remountReadOnly(dst)
}

// mountPoint makes sure dst exists as a directory or a file to mount on. Inside a granted
// directory it already exists; elsewhere it is made on the new root's tmpfs.
func mountPoint(dst string, dir bool) error {
	if _, err := os.Stat(dst); err == nil {
		return nil
	}
	if dir {
		return os.MkdirAll(dst, 0o755)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	return f.Close()
}

// remountReadOnly makes the bind at dst read-only, keeping the flags the kernel locks on
// it (nosuid, nodev, noexec... of the source mount), or the remount is refused.
func remountReadOnly(dst string) error {
	var st unix.Statfs_t
	if err := unix.Statfs(dst, &st); err != nil {
		return err
	}
	flags := uintptr(unix.MS_REMOUNT | unix.MS_BIND | unix.MS_RDONLY)
	for _, f := range []struct{ st, ms uintptr }{
		{unix.ST_NOSUID, unix.MS_NOSUID}, {unix.ST_NODEV, unix.MS_NODEV}, {unix.ST_NOEXEC, unix.MS_NOEXEC},
		{unix.ST_NOATIME, unix.MS_NOATIME}, {unix.ST_NODIRATIME, unix.MS_NODIRATIME}, {unix.ST_RELATIME, unix.MS_RELATIME},
	} {
		if uintptr(st.Flags)&f.st != 0 {
			flags |= f.ms
		}
	}
	if err := unix.Mount("", dst, "", flags, ""); err != nil {
		return fmt.Errorf("making %s read-only: %w", strings.TrimPrefix(dst, newRoot), err)
	}
	return nil
}

// emptyFile is an empty file on the base tmpfs, outside the new root, bound over hidden
// files (not /dev/null: a read-only mount does not stop writes to a device).
const emptyFile = "/empty"

// hide makes the path p (already under newRoot) empty and read-only: a file becomes
// emptyFile, a directory an empty tmpfs. A missing path or a symbolic link is left alone.
func hide(p string) error {
	info, err := os.Lstat(p)
	if err != nil || info.Mode()&os.ModeSymlink != 0 {
		return nil
	}
	if info.IsDir() {
		err = unix.Mount("tmpfs", p, "tmpfs", unix.MS_RDONLY|unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, "size=4k,mode=0555")
	} else if err = mountPoint(emptyFile, false); err == nil {
		if err = unix.Mount(emptyFile, p, "", unix.MS_BIND, ""); err == nil {
			err = remountReadOnly(p)
		}
	}
	if err != nil {
		return fmt.Errorf("hiding %s: %w", strings.TrimPrefix(p, newRoot), err)
	}
	return nil
}

// makeDev builds the command's /dev: the devFiles bound from the host, the usual links to
// /proc/self/fd, and a private, size-capped /dev/shm (POSIX semaphores and shared memory
// need one: Python's multiprocessing does).
func makeDev() error {
	dev := newRoot + "/dev"
	if err := os.MkdirAll(dev, 0o755); err != nil {
		return err
	}
	for _, f := range devFiles {
		if err := bindPath(oldRoot+f, newRoot+f, false); err != nil {
			return err
		}
	}
	for name, target := range map[string]string{"fd": "/proc/self/fd", "stdin": "/proc/self/fd/0", "stdout": "/proc/self/fd/1", "stderr": "/proc/self/fd/2"} {
		if err := os.Symlink(target, filepath.Join(dev, name)); err != nil {
			return err
		}
	}
	if err := os.Mkdir(dev+"/shm", 0o1777); err != nil {
		return err
	}
	return unix.Mount("tmpfs", dev+"/shm", "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "mode=1777,size=256m")
}
