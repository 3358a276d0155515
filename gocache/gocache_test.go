package gocache

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// caches is a user's cache and a private one, in a test's temp dir, with the Server that
// fills the private one on a socket beside them.
type caches struct {
	base, user, private, socket string
	server                      *Server
}

func newCaches(t testing.TB) caches {
	t.Helper()
	base := t.TempDir()
	c := caches{base: base, user: filepath.Join(base, "user"), private: filepath.Join(base, "private"), socket: filepath.Join(base, "s.sock")}
	require.NoError(t, os.Mkdir(c.user, 0o700))
	require.NoError(t, os.Mkdir(c.private, 0o700))
	var err error
	c.server, err = Listen(c.socket, c.user, c.private)
	require.NoError(t, err)
	t.Cleanup(func() { c.server.Close() })
	return c
}

// actionID makes an action ID from a name.
func actionID(name string) id { return sha256.Sum256([]byte("action " + name)) }

// store writes an entry of action a with body into the cache at dir as Go does, and
// returns its output ID.
func store(t testing.TB, dir string, a id, body string) id {
	t.Helper()
	o := id(sha256.Sum256([]byte(body)))
	e := entry{out: o, size: int64(len(body)), time: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC).UnixNano()}
	write(t, dir, outputName(o), body)
	write(t, dir, entryName(a), string(e.format(a)))
	return o
}

// write writes a file below dir, making its directory.
func write(t testing.TB, dir, name, content string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
	require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
}

// tree is what is in dir: each path's type, size, modification time and content (or link
// target), to check that nothing there changed.
func tree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	require.NoError(t, filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		desc := info.Mode().String() + " " + info.ModTime().String()
		switch {
		case info.Mode().IsRegular():
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			sum := sha256.Sum256(data)
			desc += " " + hex.EncodeToString(sum[:])
		case info.Mode()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			desc += " -> " + target
		}
		out[strings.TrimPrefix(p, dir)] = desc
		return nil
	}))
	return out
}

func TestParseEntry(t *testing.T) {
	a, o := actionID("a"), actionID("o")
	good := entry{out: o, size: 42, time: 7}.format(a)
	require.Len(t, good, entrySize)
	e, err := parseEntry(good, a)
	require.NoError(t, err)
	assert.Equal(t, entry{out: o, size: 42, time: 7}, e)

	replace := func(i int, s string) []byte {
		b := []byte(string(good))
		copy(b[i:], s)
		return b
	}
	for name, b := range map[string][]byte{
		"empty":           nil,
		"short":           good[:entrySize-1],
		"long":            append([]byte(string(good)), 'x'),
		"version":         replace(0, "v2"),
		"another action":  entry{out: o, size: 42, time: 7}.format(o),
		"uppercase hex":   replace(3, "AB"),
		"negative size":   []byte(strings.Replace(string(good), "                  42", "                 -42", 1)),
		"size over limit": entry{out: o, size: MaxSize + 1, time: 7}.format(a),
		"size not number": []byte(strings.Replace(string(good), "                  42", "                 4x2", 1)),
		"no newline":      replace(entrySize-1, " "),
	} {
		t.Run(name, func(t *testing.T) {
			_, err := parseEntry(b, a)
			assert.ErrorIs(t, err, errBadEntry)
		})
	}
}

func TestParseID(t *testing.T) {
	a := actionID("x")
	got, ok := parseID([]byte(hex.EncodeToString(a[:])))
	assert.True(t, ok)
	assert.Equal(t, a, got)
	for name, s := range map[string]string{
		"empty":     "",
		"short":     strings.Repeat("a", 63),
		"long":      strings.Repeat("a", 65),
		"uppercase": strings.Repeat("A", 64),
		"dot dot":   "../" + strings.Repeat("a", 61),
		"slash":     strings.Repeat("a", 32) + "/" + strings.Repeat("a", 31),
		"nul":       strings.Repeat("a", 63) + "\x00",
	} {
		t.Run(name, func(t *testing.T) {
			_, ok := parseID([]byte(s))
			assert.False(t, ok)
		})
	}
}

func TestCommandQuotesForGo(t *testing.T) {
	for name, tc := range map[string]struct {
		exe, want string
		bad       bool
	}{
		"plain":         {exe: "/bin/helper", want: `'/bin/helper' '__jido_gocache' '/c' '/s'`},
		"space":         {exe: "/my dir/helper", want: `'/my dir/helper' '__jido_gocache' '/c' '/s'`},
		"single quote":  {exe: "/it's/helper", want: `"/it's/helper" '__jido_gocache' '/c' '/s'`},
		"both quotes":   {exe: `/it's "x"/helper`, bad: true},
		"double quotes": {exe: `/"x"/helper`, want: `'/"x"/helper' '__jido_gocache' '/c' '/s'`},
	} {
		t.Run(name, func(t *testing.T) {
			got, err := Command(tc.exe, "/c", "/s")
			if tc.bad {
				assert.Error(t, err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}
