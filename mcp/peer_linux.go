package mcp

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// PeerListener hands out only the connections of processes running as UID, which the
// kernel tells (SO_PEERCRED): on a UNIX socket it stands in for the bearer token of HTTP.
// Others are closed at once and logged to Log.
type PeerListener struct {
	net.Listener           // a UNIX socket listener
	UID          int       // the uid a peer must run as: the server's effective uid
	Log          io.Writer // receives a line for each refused connection
}

// Accept returns the next connection from a process of UID, closing the others.
func (l *PeerListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		uid, err := peerUID(c)
		switch {
		case err != nil:
			fmt.Fprintf(l.Log, "jido mcp: refused a connection on %s: its peer's uid is unknown: %v\n", l.Addr(), err)
		case uid != l.UID:
			fmt.Fprintf(l.Log, "jido mcp: refused a connection on %s from uid %d: only uid %d may connect\n", l.Addr(), uid, l.UID)
		default:
			return c, nil
		}
		c.Close()
	}
}

// peerUID is the uid of the process that connected c, as of its connect().
func peerUID(c net.Conn) (int, error) {
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return 0, fmt.Errorf("%T is not a UNIX socket connection", c)
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return 0, err
	}
	var cred *unix.Ucred
	var credErr error
	if err := raw.Control(func(fd uintptr) {
		cred, credErr = unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED)
	}); err != nil {
		return 0, err
	}
	if credErr != nil {
		return 0, fmt.Errorf("SO_PEERCRED: %w", credErr)
	}
	return int(cred.Uid), nil
}

// ListenSocket listens on a UNIX socket at path, created with mode 0600, whose
// connections are accepted from processes of the effective uid only (PeerListener,
// logging refusals to log). A socket left at path by a server of ours that died is
// replaced; anything else there, or a directory others may write without the sticky bit
// (they could swap the socket for theirs), is refused. Closing the listener removes the
// socket. A relative path is made absolute, for the clients it is shown to.
//
// The mode comes from the umask, set for the bind: the umask is the process's, so call it
// before other goroutines create files (theirs would come out 0600 too).
func ListenSocket(path string, log io.Writer) (net.Listener, error) {
	path, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	uid := os.Geteuid()
	dir, err := os.Stat(filepath.Dir(path))
	if err != nil {
		return nil, fmt.Errorf("socket directory: %w", err)
	}
	if dir.Mode().Perm()&0o002 != 0 && dir.Mode()&fs.ModeSticky == 0 {
		return nil, fmt.Errorf("socket %s: its directory is writable by every user, who could replace the socket; choose a directory only you can write (e.g. $XDG_RUNTIME_DIR)", path)
	}
	if err := removeStaleSocket(path, uid); err != nil {
		return nil, err
	}
	old := syscall.Umask(0o177)
	ln, err := net.Listen("unix", path)
	syscall.Umask(old)
	if err != nil {
		return nil, err
	}
	return &PeerListener{Listener: ln, UID: uid, Log: log}, nil
}

// removeStaleSocket removes the socket at path if uid owns it and nobody listens on it;
// it fails if something else is there. Nothing there is fine.
func removeStaleSocket(path string, uid int) error {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if fi.Mode().Type() != fs.ModeSocket {
		return fmt.Errorf("%s exists and is not a socket: remove it or choose another path", path)
	}
	if owner := fi.Sys().(*syscall.Stat_t).Uid; int(owner) != uid {
		return fmt.Errorf("socket %s belongs to uid %d: choose another path", path, owner)
	}
	if c, err := net.DialTimeout("unix", path, time.Second); err == nil {
		c.Close()
		return fmt.Errorf("another server listens on %s: stop it or choose another path", path)
	}
	return os.Remove(path)
}
