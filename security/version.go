package security

import (
	"io/fs"
	"syscall"
	"time"
)

// Version identifies one state of a file, for compare-and-swap.
type Version struct {
	Dev, Ino uint64
	Size     int64
	ModTime  time.Time
	Mode     fs.FileMode
}

// Equal reports whether two versions denote the same unchanged file: same inode on the
// same device, same size, mode and exact modification time.
func (v Version) Equal(o Version) bool {
	return v.Dev == o.Dev && v.Ino == o.Ino && v.Size == o.Size &&
		v.ModTime.Equal(o.ModTime) && v.Mode == o.Mode
}

// versionOf returns the Version of the file described by info.
func versionOf(info fs.FileInfo) Version {
	st := sysStat(info)
	return Version{Dev: st.dev, Ino: st.ino, Size: info.Size(), ModTime: info.ModTime(), Mode: info.Mode()}
}

// identity is the part of stat(2) that os.FileInfo does not expose portably.
type identity struct {
	dev, ino, nlink uint64
}

// sysStat extracts device, inode and link count; every FileInfo this package handles comes
// from os (lstat, fstat, fstatat), so Sys is always a *syscall.Stat_t.
func sysStat(info fs.FileInfo) identity {
	st := info.Sys().(*syscall.Stat_t)
	return identity{dev: uint64(st.Dev), ino: uint64(st.Ino), nlink: uint64(st.Nlink)}
}

// sameFile reports whether a and b are the same inode on the same device.
func sameFile(a, b fs.FileInfo) bool {
	ia, ib := sysStat(a), sysStat(b)
	return ia.dev == ib.dev && ia.ino == ib.ino
}
