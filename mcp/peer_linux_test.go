package mcp

import (
	"bytes"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// acceptOne runs l.Accept once in the background; the channel receives its connection, or
// is closed without one when Accept fails (the listener closed).
func acceptOne(l net.Listener) <-chan net.Conn {
	accepted := make(chan net.Conn, 1)
	go func() {
		defer close(accepted)
		if c, err := l.Accept(); err == nil {
			accepted <- c
		}
	}()
	return accepted
}

// TestPeerListenerChecksTheUID injects the expected uid: our own is accepted; with uid+1
// expected, our own connection is what another user's would be, and is closed at once.
func TestPeerListenerChecksTheUID(t *testing.T) {
	for name, expect := range map[string]int{"same uid": os.Geteuid(), "other uid": os.Geteuid() + 1} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "s")
			raw, err := net.Listen("unix", path)
			require.NoError(t, err)
			var log bytes.Buffer
			l := &PeerListener{Listener: raw, UID: expect, Log: &log}
			accepted := acceptOne(l)

			c, err := net.Dial("unix", path)
			require.NoError(t, err)
			defer c.Close()
			if expect == os.Geteuid() {
				_, err = c.Write([]byte("ping"))
				require.NoError(t, err)
				sc := <-accepted
				require.NotNil(t, sc)
				defer sc.Close()
				buf := make([]byte, 4)
				_, err = io.ReadFull(sc, buf)
				require.NoError(t, err)
				assert.Equal(t, "ping", string(buf))
				l.Close()
				assert.Empty(t, log.String())
				return
			}
			require.NoError(t, c.SetReadDeadline(time.Now().Add(5*time.Second)))
			_, err = c.Read(make([]byte, 1))
			require.Error(t, err, "the server closed the connection")
			assert.NotErrorIs(t, err, os.ErrDeadlineExceeded, "closed at once, not left open")
			l.Close()
			assert.Nil(t, <-accepted, "Accept handed out no connection")
			assert.Contains(t, log.String(), "refused a connection on "+path)
			assert.Contains(t, log.String(), "from uid "+strconv.Itoa(os.Geteuid()))
			assert.Contains(t, log.String(), "only uid "+strconv.Itoa(expect)+" may connect")
		})
	}
}

func TestListenSocketCreatesAPrivateSocket(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	ln, err := ListenSocket("jido.sock", io.Discard)
	require.NoError(t, err)
	path := filepath.Join(dir, "jido.sock")
	assert.Equal(t, path, ln.Addr().String(), "made absolute")
	assert.Equal(t, os.Geteuid(), ln.(*PeerListener).UID)
	fi, err := os.Lstat(path)
	require.NoError(t, err)
	assert.Equal(t, os.ModeSocket|0o600, fi.Mode(), "only the user may connect")

	accepted := acceptOne(ln)
	c, err := net.Dial("unix", path)
	require.NoError(t, err)
	c.Close()
	sc := <-accepted
	require.NotNil(t, sc, "a connection of our own uid is accepted")
	sc.Close()

	require.NoError(t, ln.Close())
	assert.NoFileExists(t, path, "closing removes the socket")
}

func TestListenSocketPath(t *testing.T) {
	// stale leaves at path the socket of a server that died: nobody listens on it.
	stale := func(t *testing.T, path string) {
		ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
		require.NoError(t, err)
		ln.SetUnlinkOnClose(false)
		require.NoError(t, ln.Close())
	}
	cases := []struct {
		name    string
		setup   func(t *testing.T, dir, path string)
		wantErr string // "" for a socket served at path
	}{
		{"nothing there", func(*testing.T, string, string) {}, ""},
		{"a stale socket of ours", func(t *testing.T, _, path string) { stale(t, path) }, ""},
		{"a sticky directory writable by all", func(t *testing.T, dir, _ string) {
			require.NoError(t, os.Chmod(dir, 0o777|os.ModeSticky))
		}, ""},
		{"a regular file", func(t *testing.T, _, path string) {
			require.NoError(t, os.WriteFile(path, []byte("keep me\n"), 0o644))
		}, "exists and is not a socket: remove it or choose another path"},
		{"a symbolic link", func(t *testing.T, dir, path string) {
			require.NoError(t, os.Symlink(filepath.Join(dir, "elsewhere"), path))
		}, "exists and is not a socket"},
		{"a live socket", func(t *testing.T, _, path string) {
			ln, err := net.Listen("unix", path)
			require.NoError(t, err)
			t.Cleanup(func() { ln.Close() })
		}, "another server listens on"},
		{"a directory writable by all", func(t *testing.T, dir, _ string) {
			require.NoError(t, os.Chmod(dir, 0o777))
		}, "writable by every user"},
		{"a missing directory", func(t *testing.T, dir, _ string) {
			require.NoError(t, os.Remove(dir))
		}, "socket directory"},
	}
	if os.Geteuid() == 0 { // only root can give a socket to another user
		cases = append(cases, struct {
			name    string
			setup   func(t *testing.T, dir, path string)
			wantErr string
		}{"another user's socket", func(t *testing.T, _, path string) {
			stale(t, path)
			require.NoError(t, os.Lchown(path, 65534, 65534))
		}, "belongs to uid 65534: choose another path"})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "run")
			require.NoError(t, os.Mkdir(dir, 0o700))
			path := filepath.Join(dir, "jido.sock")
			c.setup(t, dir, path)
			before, _ := os.Lstat(path)
			ln, err := ListenSocket(path, io.Discard)
			if c.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), c.wantErr)
				after, _ := os.Lstat(path)
				if before != nil {
					assert.True(t, os.SameFile(before, after), "what was at the path is left alone")
				}
				return
			}
			require.NoError(t, err)
			defer ln.Close()
			fi, err := os.Lstat(path)
			require.NoError(t, err)
			assert.Equal(t, os.ModeSocket|0o600, fi.Mode())
			c2, err := net.Dial("unix", path)
			require.NoError(t, err, "the new socket listens")
			c2.Close()
		})
	}
}
