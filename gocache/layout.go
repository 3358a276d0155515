// Package gocache gives sandboxed commands a Go build cache that is private and yet warm
// from their first build. The go command inside the sandbox runs the cache program
// (GOCACHEPROG, Go's cache-program protocol) found in this package, which keeps the
// project's private cache in Go's own on-disk layout; on a miss it asks a Server outside
// the sandbox to copy the entry of that action ID from the user's build cache into the
// private one. Nothing a command writes reaches the user's cache, and a command cannot
// list or read that cache: it obtains an entry only by its action ID, a hash of the
// entry's inputs, which it can compute only for inputs it has (the standard library, the
// module cache, its own project).
package gocache

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"strconv"
	"syscall"
)

// hashSize is the length of Go's action and output IDs (SHA-256).
const hashSize = 32

// id is an action or output ID.
type id [hashSize]byte

// idFrom returns b as an ID, refusing any other length.
func idFrom(b []byte) (id, bool) {
	var a id
	return a, copy(a[:], b) == hashSize && len(b) == hashSize
}

// parseID parses an ID written as Go writes it: 64 lowercase hexadecimal digits.
func parseID(s []byte) (id, bool) {
	var a id
	if len(s) != 2*hashSize {
		return a, false
	}
	for _, c := range s {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return a, false
		}
	}
	_, err := hex.Decode(a[:], s)
	return a, err == nil
}

// entryName is where the cache keeps the entry of action ID a, as Go's own cache does
// (cmd/go/internal/cache): a file named by the ID's hex in the directory of its first byte.
func entryName(a id) string { return fmt.Sprintf("%02x/%x-a", a[0], a) }

// outputName is where the cache keeps the output (body) of output ID o.
func outputName(o id) string { return fmt.Sprintf("%02x/%x-d", o[0], o) }

// entrySize is the size of an entry file: "v1 <action hex> <output hex> <size, 20 wide>
// <unix nanoseconds, 20 wide>\n".
const entrySize = 2 + 1 + 2*hashSize + 1 + 2*hashSize + 1 + 20 + 1 + 20 + 1

// MaxSize bounds the outputs the cache keeps or copies (Go's largest, compiled archives
// and test logs, are megabytes).
const MaxSize = 1 << 30

// entry is what an entry file says of its action: its output, the output's size, and when
// it was stored.
type entry struct {
	out  id
	size int64
	time int64 // unix nanoseconds
}

var errBadEntry = errors.New("malformed cache entry")

// parseEntry parses the entry file b of action a as strictly as Go does, and refuses
// sizes over MaxSize.
func parseEntry(b []byte, a id) (entry, error) {
	var e entry
	if len(b) != entrySize || string(b[:3]) != "v1 " || b[3+2*hashSize] != ' ' || b[4+4*hashSize] != ' ' || b[5+4*hashSize+20] != ' ' || b[entrySize-1] != '\n' {
		return e, errBadEntry
	}
	if got, ok := parseID(b[3 : 3+2*hashSize]); !ok || got != a {
		return e, errBadEntry
	}
	out, ok := parseID(b[4+2*hashSize : 4+4*hashSize])
	if !ok {
		return e, errBadEntry
	}
	size, err1 := strconv.ParseInt(trimSpaces(b[5+4*hashSize:5+4*hashSize+20]), 10, 64)
	tm, err2 := strconv.ParseInt(trimSpaces(b[6+4*hashSize+20:entrySize-1]), 10, 64)
	if err1 != nil || err2 != nil || size < 0 || size > MaxSize || tm < 0 {
		return e, errBadEntry
	}
	return entry{out: out, size: size, time: tm}, nil
}

// trimSpaces drops the padding before a number of an entry file.
func trimSpaces(b []byte) string {
	for len(b) > 0 && b[0] == ' ' {
		b = b[1:]
	}
	return string(b)
}

// format renders e as the entry file of action a.
func (e entry) format(a id) []byte {
	return fmt.Appendf(nil, "v1 %x %x %20d %20d\n", a, e.out, e.size, e.time)
}

// readEntry reads and parses the entry of action a in the cache at root, reading no more
// than an entry's size.
func readEntry(root *os.Root, a id) (entry, []byte, error) {
	f, err := openRegular(root, entryName(a))
	if err != nil {
		return entry{}, nil, err
	}
	defer f.Close()
	b := make([]byte, entrySize+1)
	n, err := io.ReadFull(f, b)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return entry{}, nil, err
	}
	e, err := parseEntry(b[:n], a)
	return e, b[:n], err
}

// openRegular opens name in root for reading when it is a regular file (not a directory,
// device or FIFO: O_NONBLOCK so that opening a FIFO cannot hang). The root resolves any
// link inside it, and refuses one that leads out.
func openRegular(root *os.Root, name string) (*os.File, error) {
	f, err := root.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	info, err := f.Stat()
	if err == nil && !info.Mode().IsRegular() {
		err = &fs.PathError{Op: "open", Path: name, Err: errNotRegular}
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

var errNotRegular = errors.New("not a regular file")

// writeFile makes name in root hold what fill writes, atomically: fill writes a new temp
// file beside it (O_EXCL: a name planted there is refused, never written through), which
// is then renamed over name (a rename replaces a link, never follows it). Its directory is
// made if missing. The root keeps every step inside it, whatever links it holds.
func writeFile(root *os.Root, name string, fill func(io.Writer) error) error {
	dir := path.Dir(name)
	if err := root.Mkdir(dir, 0o777); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	var r [8]byte
	rand.Read(r[:])
	tmp := fmt.Sprintf("%s/.tmp-%x", dir, r)
	f, err := root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
	if err != nil {
		return err
	}
	err = fill(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = root.Rename(tmp, name)
	}
	if err != nil {
		root.Remove(tmp)
	}
	return err
}
