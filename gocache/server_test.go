package gocache

import (
	"bufio"
	"encoding/hex"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ask sends raw to the server and returns its answer line ("" when it closed without one).
func ask(t testing.TB, socket, raw string) string {
	t.Helper()
	conn, err := net.Dial("unix", socket)
	require.NoError(t, err)
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(time.Minute)) // a hang fails the test instead of blocking it
	io.WriteString(conn, raw)
	conn.(*net.UnixConn).CloseWrite()
	line, _ := bufio.NewReader(conn).ReadString('\n')
	return strings.TrimSuffix(line, "\n")
}

func hexOf(a id) string { return hex.EncodeToString(a[:]) }

func TestServerFillsByActionID(t *testing.T) {
	c := newCaches(t)
	a := actionID("compile io")
	o := store(t, c.user, a, "compiled io")
	before := tree(t, c.user)

	assert.Equal(t, answerHit, ask(t, c.socket, hexOf(a)+"\n"))
	data, err := os.ReadFile(filepath.Join(c.private, outputName(o)))
	require.NoError(t, err)
	assert.Equal(t, "compiled io", string(data))
	e, _, err := readEntry(mustRoot(t, c.private), a)
	require.NoError(t, err)
	assert.Equal(t, o, e.out)

	assert.Equal(t, answerMiss, ask(t, c.socket, hexOf(actionID("never built"))+"\n"))
	assert.Equal(t, before, tree(t, c.user), "the user's cache did not change")
	assert.Equal(t, stats{hits: 1, misses: 1}, c.server.stats())
}

// TestServerCopiesASharedOutputOnce: entries whose actions had the same output share the
// private copy of it.
func TestServerCopiesASharedOutputOnce(t *testing.T) {
	c := newCaches(t)
	a, b := actionID("vet a"), actionID("vet b")
	o := store(t, c.user, a, "no problems")
	require.Equal(t, o, store(t, c.user, b, "no problems"))
	require.Equal(t, answerHit, ask(t, c.socket, hexOf(a)+"\n"))
	first, err := os.Stat(filepath.Join(c.private, outputName(o)))
	require.NoError(t, err)
	require.Equal(t, answerHit, ask(t, c.socket, hexOf(b)+"\n"))
	second, err := os.Stat(filepath.Join(c.private, outputName(o)))
	require.NoError(t, err)
	assert.True(t, os.SameFile(first, second), "not copied again")
}

func mustRoot(t *testing.T, dir string) *os.Root {
	t.Helper()
	r, err := os.OpenRoot(dir)
	require.NoError(t, err)
	t.Cleanup(func() { r.Close() })
	return r
}

// TestServerRefusesMalformedRequests: anything but one action ID and a newline gets an
// error answer, and the server goes on serving.
func TestServerRefusesMalformedRequests(t *testing.T) {
	c := newCaches(t)
	a := actionID("compile errors")
	store(t, c.user, a, "compiled errors")
	for name, raw := range map[string]string{
		"path":             "../../../etc/passwd\n",
		"entry name":       entryName(a) + "\n",
		"uppercase":        strings.ToUpper(hexOf(a)) + "\n",
		"short":            hexOf(a)[:63] + "\n",
		"long":             hexOf(a) + "0\n",
		"two IDs":          hexOf(a) + " " + hexOf(a) + "\n",
		"empty line":       "\n",
		"JSON":             `{"ID":1,"Command":"get","ActionID":"` + hexOf(a) + "\"}\n",
		"NUL":              hexOf(a)[:63] + "\x00\n",
		"a megabyte":       strings.Repeat("a", 1<<20) + "\n",
		"no newline, EOF":  hexOf(a),
		"binary garbage":   "\xff\xfe\x00\x01\n",
		"carriage returns": hexOf(a) + "\r\n",
	} {
		t.Run(name, func(t *testing.T) {
			assert.True(t, strings.HasPrefix(ask(t, c.socket, raw), "error: "))
		})
	}
	assert.Equal(t, answerHit, ask(t, c.socket, hexOf(a)+"\n"), "still serving")
	assert.Equal(t, int64(13), c.server.stats().refused)
}

// TestServerTakesOnlyWholeEntries: what is not a whole entry of the user's cache is a
// miss: malformed or oversized entries, outputs of another size, directories (Go's cached
// executables), FIFOs (without hanging), links out of the user's cache.
func TestServerTakesOnlyWholeEntries(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "outside")
	require.NoError(t, os.WriteFile(outside, []byte("secret"), 0o600))
	for name, spoil := range map[string]func(t *testing.T, user string, a, o id){
		"malformed entry": func(t *testing.T, user string, a, o id) {
			write(t, user, entryName(a), "v1 nonsense\n")
		},
		"size over the limit": func(t *testing.T, user string, a, o id) {
			write(t, user, entryName(a), string(entry{out: o, size: MaxSize + 1}.format(a)))
		},
		"output of another size": func(t *testing.T, user string, a, o id) {
			write(t, user, outputName(o), "a longer output than the entry says")
		},
		"output missing": func(t *testing.T, user string, a, o id) {
			require.NoError(t, os.Remove(filepath.Join(user, outputName(o))))
		},
		"output a directory": func(t *testing.T, user string, a, o id) {
			p := filepath.Join(user, outputName(o))
			require.NoError(t, os.Remove(p))
			require.NoError(t, os.Mkdir(p, 0o755))
			write(t, p, "prog", "executable")
		},
		"output a FIFO": func(t *testing.T, user string, a, o id) {
			p := filepath.Join(user, outputName(o))
			require.NoError(t, os.Remove(p))
			require.NoError(t, syscall.Mkfifo(p, 0o644))
		},
		"entry a FIFO": func(t *testing.T, user string, a, o id) {
			p := filepath.Join(user, entryName(a))
			require.NoError(t, os.Remove(p))
			require.NoError(t, syscall.Mkfifo(p, 0o644))
		},
		"output a link out": func(t *testing.T, user string, a, o id) {
			p := filepath.Join(user, outputName(o))
			require.NoError(t, os.Remove(p))
			require.NoError(t, os.Symlink(outside, p))
		},
	} {
		t.Run(name, func(t *testing.T) {
			c := newCaches(t)
			a := actionID("x")
			o := store(t, c.user, a, "output")
			spoil(t, c.user, a, o)
			assert.Equal(t, answerMiss, ask(t, c.socket, hexOf(a)+"\n"))
			_, err := os.Lstat(filepath.Join(c.private, entryName(a)))
			assert.True(t, os.IsNotExist(err), "no entry in the private cache")
		})
	}
}

// TestServerNeverWritesThroughLinks: links a command plants in the private cache (a
// subdirectory, an output, an entry) pointing at the user's cache or elsewhere outside
// never lead the server's writes out of the private cache.
func TestServerNeverWritesThroughLinks(t *testing.T) {
	a := actionID("compile sync")
	for name, plant := range map[string]func(t *testing.T, c caches, victim string, o id){
		"subdirectory to the user's cache": func(t *testing.T, c caches, victim string, o id) {
			require.NoError(t, os.Symlink(filepath.Join(c.user, hexOf(o)[:2]), filepath.Join(c.private, hexOf(o)[:2])))
		},
		"subdirectory to another directory": func(t *testing.T, c caches, victim string, o id) {
			require.NoError(t, os.Symlink(filepath.Dir(victim), filepath.Join(c.private, hexOf(o)[:2])))
		},
		"subdirectory up": func(t *testing.T, c caches, victim string, o id) {
			require.NoError(t, os.Symlink("../..", filepath.Join(c.private, hexOf(o)[:2])))
		},
		"output to a file outside": func(t *testing.T, c caches, victim string, o id) {
			require.NoError(t, os.MkdirAll(filepath.Join(c.private, hexOf(o)[:2]), 0o755))
			require.NoError(t, os.Symlink(victim, filepath.Join(c.private, outputName(o))))
		},
		"entry to the user's entry": func(t *testing.T, c caches, victim string, o id) {
			require.NoError(t, os.MkdirAll(filepath.Join(c.private, hexOf(a)[:2]), 0o755))
			require.NoError(t, os.Symlink(filepath.Join(c.user, entryName(a)), filepath.Join(c.private, entryName(a))))
		},
		"output a hard link to a file outside": func(t *testing.T, c caches, victim string, o id) {
			require.NoError(t, os.MkdirAll(filepath.Join(c.private, hexOf(o)[:2]), 0o755))
			require.NoError(t, os.Link(victim, filepath.Join(c.private, outputName(o))))
		},
	} {
		t.Run(name, func(t *testing.T) {
			c := newCaches(t)
			victimDir := filepath.Join(c.base, "victim")
			require.NoError(t, os.Mkdir(victimDir, 0o755))
			victim := filepath.Join(victimDir, "file")
			require.NoError(t, os.WriteFile(victim, []byte("keep me"), 0o644))
			o := store(t, c.user, a, "compiled sync")
			plant(t, c, victim, o)
			user, outside := tree(t, c.user), tree(t, victimDir)

			answer := ask(t, c.socket, hexOf(a)+"\n")
			assert.Contains(t, []string{answerHit, answerMiss}, answer)
			assert.Equal(t, user, tree(t, c.user), "the user's cache did not change")
			assert.Equal(t, outside, tree(t, victimDir), "nothing outside changed")
			if answer == answerHit { // the copy is a file of its own in the private cache
				info, err := os.Lstat(filepath.Join(c.private, outputName(o)))
				require.NoError(t, err)
				assert.True(t, info.Mode().IsRegular())
			}
		})
	}
}

// TestServerCloseEndsIdleConnections: connections that send nothing hold the server up to
// its timeout, but Close ends them at once and returns; requests beyond maxServing wait
// for a slot rather than pile up.
func TestServerCloseEndsIdleConnections(t *testing.T) {
	c := newCaches(t)
	var conns []net.Conn
	for range maxServing + 4 {
		conn, err := net.Dial("unix", c.socket)
		require.NoError(t, err)
		defer conn.Close()
		conns = append(conns, conn)
	}
	closed := make(chan error, 1)
	go func() { closed <- c.server.Close() }()
	select {
	case err := <-closed:
		assert.NoError(t, err)
	case <-time.After(time.Minute): // far beyond the server's timeout: it hangs
		t.Fatal("Close did not return")
	}
	for _, conn := range conns[:1] {
		conn.SetDeadline(time.Now().Add(time.Minute))
		_, err := conn.Read(make([]byte, 1))
		assert.Error(t, err, "the connection was closed")
	}
	_, err := net.Dial("unix", c.socket)
	assert.Error(t, err, "no longer listening")
}

// TestServerServesMany: many requests at once are all answered.
func TestServerServesMany(t *testing.T) {
	c := newCaches(t)
	var ids []id
	for i := range 40 {
		a := actionID(string(rune('A' + i)))
		store(t, c.user, a, strings.Repeat("x", i*1000))
		ids = append(ids, a)
	}
	var wg sync.WaitGroup
	answers := make([]string, len(ids))
	for i, a := range ids {
		wg.Go(func() { answers[i] = ask(t, c.socket, hexOf(a)+"\n") })
	}
	wg.Wait()
	for _, got := range answers {
		assert.Equal(t, answerHit, got)
	}
}

func TestListenRefusesOverlappingCaches(t *testing.T) {
	base := t.TempDir()
	user := filepath.Join(base, "go-build")
	require.NoError(t, os.MkdirAll(filepath.Join(user, "jido"), 0o755))
	for name, private := range map[string]string{"same": user, "inside": filepath.Join(user, "jido"), "around": base} {
		t.Run(name, func(t *testing.T) {
			_, err := Listen(filepath.Join(t.TempDir(), "s.sock"), user, private)
			assert.ErrorContains(t, err, "overlap")
		})
	}
}

func TestUserDir(t *testing.T) {
	home := t.TempDir()
	for name, tc := range map[string]struct{ gocache, xdg, want string }{
		"GOCACHE":           {gocache: "/x/go-build", want: "/x/go-build"},
		"off":               {gocache: "off", want: ""},
		"relative":          {gocache: "rel/cache", want: ""},
		"XDG cache":         {xdg: filepath.Join(home, "xdg"), want: filepath.Join(home, "xdg", "go-build")},
		"the home's .cache": {want: filepath.Join(home, ".cache", "go-build")},
	} {
		t.Run(name, func(t *testing.T) {
			t.Setenv("GOCACHE", tc.gocache)
			t.Setenv("XDG_CACHE_HOME", tc.xdg)
			t.Setenv("HOME", home)
			assert.Equal(t, tc.want, UserDir())
		})
	}
}

// FuzzServerRequest: whatever a connection sends, the server answers with one line and
// never panics; only a valid ID is a hit.
func FuzzServerRequest(f *testing.F) {
	a := actionID("fuzz")
	for _, seed := range []string{hexOf(a) + "\n", "../x\n", "", "\n\n", strings.Repeat("f", 64), "\xff"} {
		f.Add([]byte(seed))
	}
	c := newCaches(f)
	store(f, c.user, a, "fuzzed")
	f.Fuzz(func(t *testing.T, raw []byte) {
		line := ask(t, c.socket, string(raw))
		if string(raw) == hexOf(a)+"\n" {
			assert.Equal(t, answerHit, line)
		} else {
			assert.True(t, strings.HasPrefix(line, "error: ") || line == answerMiss, "%q", line)
		}
	})
}
