package ignore

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Index is the list of paths a git index (.git/index, the staging area) holds: the files
// git tracks, which its ignore rules never hide. It is immutable and answers without
// allocating, so goroutines share it freely.
//
// ParseIndex reads only the paths, by the layout of git's gitformat-index(5). go-git's
// decoder (plumbing/format/index) reads every field of every entry through reflection
// and hashes the whole file: on the 11,000 entries of Go's source tree it takes about
// 20 times as long (BenchmarkParseIndex), as long as a whole walk of that tree, where
// ParseIndex takes under a millisecond. It is tested against go-git's decoder and
// against the indexes real git writes.
type Index struct {
	names []string // every entry's path, in git's order (bytewise, a path's stages together)
	size  int      // the bytes it holds: the paths and their headers
}

// Errors of ParseIndex.
var (
	// ErrIndexFormat: the data is not a well-formed git index.
	ErrIndexFormat = errors.New("not a well-formed git index")
	// ErrIndexUnsupported: an index whose paths are not all in the file: a split index
	// (the rest is in a shared index file) or a sparse one (whole directories as one entry).
	ErrIndexUnsupported = errors.New("git index format not supported")
)

// Sizes of the index format: an entry's stat data before its object name, the object
// names of SHA-1 and SHA-256 repositories, the flags after them.
const (
	indexStatLen = 40
	sha1Len      = 20
	sha256Len    = 32
	flagsLen     = 2
	// maxPathsPerByte bounds the bytes of paths per byte of index: in version 4 an entry
	// repeats its predecessor's path for a byte or two, so a crafted index of megabytes
	// could otherwise spell out gigabytes. Real trees come to less than two.
	maxPathsPerByte = 4
	// stringHeader is the size of a string's header (pointer and length) on 64-bit platforms.
	stringHeader = 16
)

// Bits of an entry's flags.
const (
	flagExtended = 0x4000 // two more bytes of flags follow (index version 3 and later)
	nameMask     = 0x0fff // the path's length, 0xfff for 0xfff bytes or more
)

// ParseIndex reads the paths of a git index of version 2, 3 or 4, of a SHA-1 or SHA-256
// repository (the object name's length is found from the layout), with or without a
// checksum (index.skipHash writes zeros). Like git outside fsck, it does not verify the
// checksum; it checks the layout: every entry within bounds and in git's order, each
// extension within bounds, the last one ending at the checksum. A split or sparse index
// is ErrIndexUnsupported.
func ParseIndex(data []byte) (*Index, error) {
	if len(data) < 12 || string(data[:4]) != "DIRC" {
		return nil, fmt.Errorf("%w: no DIRC signature", ErrIndexFormat)
	}
	version := binary.BigEndian.Uint32(data[4:])
	if version < 2 || version > 4 {
		return nil, fmt.Errorf("%w: version %d", ErrIndexUnsupported, version)
	}
	count := binary.BigEndian.Uint32(data[8:])
	idx, err := parseEntries(data, version, count, sha1Len)
	if err == nil || errors.Is(err, ErrIndexUnsupported) {
		return idx, err
	}
	if idx, err256 := parseEntries(data, version, count, sha256Len); err256 == nil || errors.Is(err256, ErrIndexUnsupported) {
		return idx, err256
	}
	return nil, err
}

// parseEntries reads the entries and extensions of an index whose object names are
// hashLen bytes long.
func parseEntries(data []byte, version, count uint32, hashLen int) (*Index, error) {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrIndexFormat, fmt.Sprintf(format, args...))
	}
	end := len(data) - hashLen // the checksum
	header := indexStatLen + hashLen + flagsLen
	if end < 12 || uint64(count) > uint64(end-12)/uint64(header+1) {
		return nil, bad("%d entries cannot fit in %d bytes", count, len(data))
	}
	// The paths one after another: a Builder's String does not copy, and what it wrote
	// never changes, so the paths are views of its one buffer.
	var all strings.Builder
	all.Grow(end - 12 - int(count)*header)
	ends := make([]int, count) // where each path ends in all
	prev := ""
	nameless := false
	off := 12
	for i := range ends {
		if off+header > end {
			return nil, bad("entry %d is cut short", i)
		}
		flags := binary.BigEndian.Uint16(data[off+header-flagsLen:])
		p := off + header
		if flags&flagExtended != 0 {
			p += 2
		}
		start := all.Len()
		if version == 4 {
			// The path is the previous one less its last strip bytes, plus a NUL-terminated suffix.
			strip, n := indexVarint(data[min(p, end):end])
			if n == 0 || strip > uint64(len(prev)) {
				return nil, bad("entry %d: bad path prefix", i)
			}
			p += n
			nul := bytes.IndexByte(data[p:end], 0)
			if nul < 0 {
				return nil, bad("entry %d: path without end", i)
			}
			all.WriteString(prev[:len(prev)-int(strip)])
			all.Write(data[p : p+nul])
			off = p + nul + 1
		} else {
			// The path, then 1 to 8 NULs up to a multiple of 8 bytes from the entry's start.
			if p > end {
				return nil, bad("entry %d is cut short", i)
			}
			n := int(flags & nameMask)
			if n == nameMask {
				n = bytes.IndexByte(data[p:end], 0)
			}
			next := off + (p-off+n+8)&^7
			if n < 0 || next > end || !zeros(data[p+n:next]) {
				return nil, bad("entry %d: bad path or padding", i)
			}
			all.Write(data[p : p+n])
			off = next
		}
		if all.Len() > maxPathsPerByte*len(data) {
			return nil, bad("entry %d: the paths add up to more than %d bytes per byte of index", i, maxPathsPerByte)
		}
		name := all.String()[start:]
		if n := int(flags & nameMask); n != nameMask && n != len(name) {
			return nil, bad("entry %d: path length %d, flags say %d", i, len(name), n)
		}
		if name == "" {
			nameless = true // a split index's entry that replaces one of the shared index
		} else if name < prev {
			return nil, bad("entry %d: %q is out of order", i, name)
		}
		ends[i], prev = all.Len(), name
	}
	for off < end {
		if end-off < 8 {
			return nil, bad("%d stray bytes after the extensions", end-off)
		}
		sig, size := data[off:off+4], binary.BigEndian.Uint32(data[off+4:])
		if uint64(size) > uint64(end-off-8) {
			return nil, bad("extension %q overruns the index", sig)
		}
		if sig[0] < 'A' || sig[0] > 'Z' { // an extension a reader must understand
			switch string(sig) {
			case "link":
				return nil, fmt.Errorf("%w: a split index (its other entries are in a shared index file)", ErrIndexUnsupported)
			case "sdir":
				return nil, fmt.Errorf("%w: a sparse index (whole directories are single entries)", ErrIndexUnsupported)
			}
			return nil, bad("unknown required extension %q", sig)
		}
		off += 8 + int(size)
	}
	if nameless {
		return nil, bad("an entry without a path")
	}
	names, text, start := make([]string, count), all.String(), 0
	for i, e := range ends {
		names[i], start = text[start:e], e
	}
	return &Index{names: names, size: len(text) + len(names)*stringHeader}, nil
}

// zeros reports whether b holds only NUL bytes.
func zeros(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}

// indexVarint decodes git's offset varint (varint.c: each continuation adds one before
// shifting) and returns it with the bytes it took; n is 0 when b holds no whole varint
// or it overflows.
func indexVarint(b []byte) (v uint64, n int) {
	for n < len(b) && n < 10 {
		c := b[n]
		n++
		v |= uint64(c & 0x7f)
		if c&0x80 == 0 {
			return v, n
		}
		v++
		if v >= 1<<57 {
			return 0, 0
		}
		v <<= 7
	}
	return 0, 0
}

// Len returns the number of entries (0 for nil).
func (x *Index) Len() int {
	if x == nil {
		return 0
	}
	return len(x.names)
}

// Size returns the bytes of memory x holds (0 for nil), for caches to bound what they keep.
func (x *Index) Size() int {
	if x == nil {
		return 0
	}
	return x.size
}

// Tracked reports whether the index holds path (relative to the repository, slash
// separated): as an entry (a file, a symlink, a submodule) or, when isDir, as the
// directory of some entry below it. A nil Index holds nothing.
func (x *Index) Tracked(path string, isDir bool) bool {
	if x == nil {
		return false
	}
	i, found := slices.BinarySearch(x.names, path)
	if found || !isDir {
		return found
	}
	// Names such as "dir.x" and "dir-x" sort between "dir" and "dir/...".
	rest := x.names[i:]
	j, _ := slices.BinarySearchFunc(rest, path, compareToDir)
	return j < len(rest) && len(rest[j]) > len(path) && rest[j][len(path)] == '/' && rest[j][:len(path)] == path
}

// compareToDir compares name with dir+"/" without building it: -1 when name sorts
// before, +1 otherwise (never 0, so a search finds the first name at or after it).
func compareToDir(name, dir string) int {
	n := min(len(name), len(dir))
	if c := strings.Compare(name[:n], dir[:n]); c != 0 {
		return c
	}
	if len(name) <= len(dir) || name[len(dir)] < '/' {
		return -1
	}
	return 1
}
