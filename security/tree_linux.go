package security

import (
	"io/fs"
	"sync"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// direntBufs holds getdents buffers, so that listing a directory allocates only its names.
var direntBufs = sync.Pool{New: func() any { b := make([]byte, 32<<10); return &b }}

// fastOpenTree opens the canonical directory (dir true) or file with openat2: no symlink,
// no mount crossing, nothing outside the root, without blocking on a FIFO.
func (r *Root) fastOpenTree(name string, dir bool) (int, error) {
	flags := uint64(unix.O_RDONLY | unix.O_NONBLOCK | unix.O_NOCTTY | unix.O_NOFOLLOW)
	if dir {
		flags |= unix.O_DIRECTORY
	}
	for {
		fd, err := r.fast.openat2(name, flags)
		if err != unix.EAGAIN && err != unix.EINTR { // EAGAIN: a rename raced the lookup
			return fd, err
		}
	}
}

// fdEntries lists the directory with getdents64, reading each record's name and type;
// entries of unknown type (some file systems) are typed with fstatat.
func (d *TreeDir) fdEntries(out []TreeEntry) ([]TreeEntry, error) {
	bp := direntBufs.Get().(*[]byte)
	defer direntBufs.Put(bp)
	buf := *bp
	for {
		n, err := unix.Getdents(d.fd, buf)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return out, err
		}
		if n <= 0 {
			return out, nil
		}
		for off := 0; off < n; {
			// struct linux_dirent64 { u64 ino; s64 off; u16 reclen; u8 type; char name[]; }
			rec := buf[off:]
			reclen := int(*(*uint16)(unsafe.Pointer(&rec[16])))
			typ := rec[18]
			nameBytes := rec[19:reclen]
			for i, c := range nameBytes {
				if c == 0 {
					nameBytes = nameBytes[:i]
					break
				}
			}
			off += reclen
			if len(nameBytes) == 0 || string(nameBytes) == "." || string(nameBytes) == ".." {
				continue
			}
			name := string(nameBytes)
			if !ValidName(name) || IsTempName(name) {
				continue
			}
			mode, ok := direntType(typ)
			if !ok {
				var st unix.Stat_t
				if err := unix.Fstatat(d.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
					continue // gone since the listing
				}
				mode = statType(st.Mode)
			}
			out = append(out, TreeEntry{Name: name, Type: mode})
		}
	}
}

// fdLstat stats one entry relative to the directory's descriptor.
func (d *TreeDir) fdLstat(name string) (TreeInfo, error) {
	var st unix.Stat_t
	for {
		err := unix.Fstatat(d.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return TreeInfo{}, err
		}
		return TreeInfo{
			Size:    st.Size,
			ModTime: time.Unix(st.Mtim.Sec, st.Mtim.Nsec),
			Mode:    statType(st.Mode) | fs.FileMode(st.Mode&0o777),
		}, nil
	}
}

// fastReadTree reads the canonical file name into buf with openat2, fstat and read: no
// os.File, so no netpoller registration per file. It checks what openVerified checks.
func (r *Root) fastReadTree(name string, buf []byte) ([]byte, error) {
	if r.fast.conn == nil {
		return buf, errFastPathOff
	}
	fd, err := r.fastOpenTree(name, false)
	if err != nil {
		return buf, err
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return buf, err
	}
	switch {
	case st.Mode&unix.S_IFMT == unix.S_IFDIR:
		return buf, ErrIsDir
	case st.Mode&unix.S_IFMT != unix.S_IFREG:
		return buf, detail(ErrNotRegular, "%s", fileType(statType(st.Mode)))
	case uint64(st.Dev) != r.dev:
		return buf, ErrOtherDevice
	case st.Nlink != 1 && !sharedLinkAllowed(name):
		return buf, ErrHardLink
	case st.Size > r.maxSize:
		return buf, detail(ErrTooLarge, "%d bytes, the limit is %d", st.Size, r.maxSize)
	}
	if need := int(st.Size) + 1; cap(buf) < need {
		buf = make([]byte, 0, need+need/4)
	}
	for {
		if len(buf) == cap(buf) {
			if int64(len(buf)) > r.maxSize {
				return buf[:0], detail(ErrTooLarge, "the file grew over the limit of %d bytes", r.maxSize)
			}
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := unix.Read(fd, buf[len(buf):cap(buf)])
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return buf[:0], err
		}
		if n == 0 {
			if int64(len(buf)) > r.maxSize {
				return buf[:0], detail(ErrTooLarge, "the file grew over the limit of %d bytes", r.maxSize)
			}
			return buf, nil
		}
		buf = buf[:len(buf)+n]
	}
}

// closeFD closes a descriptor of a TreeDir.
func closeFD(fd int) error { return unix.Close(fd) }

// direntType maps a dirent d_type to mode bits; ok is false for DT_UNKNOWN.
func direntType(t uint8) (fs.FileMode, bool) {
	switch t {
	case unix.DT_REG:
		return 0, true
	case unix.DT_DIR:
		return fs.ModeDir, true
	case unix.DT_LNK:
		return fs.ModeSymlink, true
	case unix.DT_FIFO:
		return fs.ModeNamedPipe, true
	case unix.DT_SOCK:
		return fs.ModeSocket, true
	case unix.DT_CHR:
		return fs.ModeDevice | fs.ModeCharDevice, true
	case unix.DT_BLK:
		return fs.ModeDevice, true
	}
	return 0, false
}

// statType maps st_mode's file type to mode bits.
func statType(m uint32) fs.FileMode {
	switch m & unix.S_IFMT {
	case unix.S_IFDIR:
		return fs.ModeDir
	case unix.S_IFLNK:
		return fs.ModeSymlink
	case unix.S_IFIFO:
		return fs.ModeNamedPipe
	case unix.S_IFSOCK:
		return fs.ModeSocket
	case unix.S_IFCHR:
		return fs.ModeDevice | fs.ModeCharDevice
	case unix.S_IFBLK:
		return fs.ModeDevice
	}
	return 0
}
