package gocache

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// UserDir is the user's Go build cache as the go command finds it: $GOCACHE, else
// go-build in the user's cache directory; "" when it is off or cannot be found.
func UserDir() string {
	dir := os.Getenv("GOCACHE")
	if dir == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			return ""
		}
		dir = filepath.Join(base, "go-build")
	}
	if !filepath.IsAbs(dir) { // "off", or a relative path, which Go takes for off
		return ""
	}
	return dir
}

// The Server's answers, one line each: the entry is now in the private cache, the user's
// cache has none (or none whole), or the request was refused.
const (
	answerHit  = "hit"
	answerMiss = "miss"
)

// Limits of the Server: requests served at once (more wait to be accepted), and how long
// one connection may take to send its request and read the answer.
const (
	maxServing  = 8
	connTimeout = 10 * time.Second
)

// Server fills a private cache from the user's, one entry per request, for the cache
// programs of a session's commands. A request is a connection to its UNIX socket that
// sends one action ID as 64 lowercase hex digits and a newline; the answer is a line,
// answerHit, answerMiss or "error: ...". It reads only the entry of that ID and the output
// the entry names (never a directory listing) through an os.Root of the user's cache, and
// writes only new files renamed into place through an os.Root of the private cache, so
// that no link a command plants there leads out of it. Anything else is refused with an
// error answer; the connection is then closed.
type Server struct {
	user, private *os.Root
	ln            net.Listener
	slots         chan struct{} // a slot per request being served
	wg            sync.WaitGroup
	mu            sync.Mutex
	conns         map[net.Conn]struct{}
	closed        bool
	hits, misses  atomic.Int64
	refused       atomic.Int64
}

// stats counts the requests a Server answered.
type stats struct {
	hits, misses, refused int64
}

// Listen serves requests on a new UNIX socket at socket (its directory must be private to
// the user) to fill the cache at privateDir from the one at userDir. The two must be apart:
// neither may hold the other.
func Listen(socket, userDir, privateDir string) (*Server, error) {
	if overlap(userDir, privateDir) {
		return nil, fmt.Errorf("gocache: the private cache %s and the user's %s overlap", privateDir, userDir)
	}
	user, err := os.OpenRoot(userDir)
	if err != nil {
		return nil, err
	}
	private, err := os.OpenRoot(privateDir)
	if err != nil {
		user.Close()
		return nil, err
	}
	ln, err := net.Listen("unix", socket)
	if err != nil {
		user.Close()
		private.Close()
		return nil, err
	}
	s := &Server{user: user, private: private, ln: ln, slots: make(chan struct{}, maxServing), conns: map[net.Conn]struct{}{}}
	s.wg.Go(s.accept)
	return s, nil
}

// overlap reports whether one of the directories a and b is or holds the other, on their
// symlink-free paths.
func overlap(a, b string) bool {
	canon := func(p string) string {
		if real, err := filepath.EvalSymlinks(p); err == nil {
			return real
		}
		return filepath.Clean(p)
	}
	a, b = canon(a), canon(b)
	return a == b || strings.HasPrefix(a, b+string(filepath.Separator)) || strings.HasPrefix(b, a+string(filepath.Separator))
}

// accept serves connections, at most maxServing at once, until Close.
func (s *Server) accept() {
	for {
		s.slots <- struct{}{}
		c, err := s.ln.Accept()
		if err != nil {
			<-s.slots
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				continue
			}
			if errors.Is(err, net.ErrClosed) {
				return
			}
			time.Sleep(10 * time.Millisecond) // out of file descriptors, say: try again soon
			continue
		}
		if !s.track(c, true) {
			c.Close()
			<-s.slots
			return
		}
		s.wg.Go(func() {
			defer func() { <-s.slots }()
			defer s.track(c, false)
			defer c.Close()
			s.serve(c)
		})
	}
}

// track adds c to the open connections (false once closed) or removes it.
func (s *Server) track(c net.Conn, add bool) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !add {
		delete(s.conns, c)
		return true
	}
	if s.closed {
		return false
	}
	s.conns[c] = struct{}{}
	return true
}

// serve answers the one request of c.
func (s *Server) serve(c net.Conn) {
	c.SetReadDeadline(time.Now().Add(connTimeout))
	line, err := readLine(bufio.NewReaderSize(c, 128), 2*hashSize)
	a, ok := parseID(line)
	var answer string
	switch {
	case err != nil || !ok:
		s.refused.Add(1)
		answer = "error: a request is one action ID, 64 lowercase hex digits, then a newline"
	default:
		if err := s.fill(a); err == nil {
			s.hits.Add(1)
			answer = answerHit
		} else {
			s.misses.Add(1)
			answer = answerMiss
		}
	}
	c.SetWriteDeadline(time.Now().Add(connTimeout))
	io.WriteString(c, answer+"\n")
}

// fill copies the user's entry of action a, and the output it names, into the private
// cache. It fails when the user's cache has no such entry whole: no entry, a malformed one,
// an output that is missing, not a regular file (Go keeps cached executables in
// directories), or of another size than the entry says.
func (s *Server) fill(a id) error {
	e, raw, err := readEntry(s.user, a)
	if err != nil {
		return err
	}
	src, err := openRegular(s.user, outputName(e.out))
	if err != nil {
		return err
	}
	defer src.Close()
	if info, err := src.Stat(); err != nil || info.Size() != e.size {
		return fs.ErrNotExist
	}
	if !s.has(outputName(e.out), e.size) {
		err = writeFile(s.private, outputName(e.out), func(w io.Writer) error {
			n, err := io.Copy(w, io.LimitReader(src, e.size+1))
			if err == nil && n != e.size {
				err = errors.New("the output changed while it was copied")
			}
			return err
		})
		if err != nil {
			return err
		}
	}
	return writeFile(s.private, entryName(a), func(w io.Writer) error {
		_, err := w.Write(raw)
		return err
	})
}

// has reports whether the private cache holds name as a regular file of size bytes, an
// output another entry brought (outputs are named by the hash of their content; one the
// commands planted there under another content is theirs to use, as everything they put
// in the private cache).
func (s *Server) has(name string, size int64) bool {
	info, err := s.private.Lstat(name)
	return err == nil && info.Mode().IsRegular() && info.Size() == size
}

// stats returns the counts of the requests answered so far.
func (s *Server) stats() stats {
	return stats{hits: s.hits.Load(), misses: s.misses.Load(), refused: s.refused.Load()}
}

// Close stops serving: it closes the socket and every open connection, and waits for the
// requests being served.
func (s *Server) Close() error {
	s.mu.Lock()
	s.closed = true
	for c := range s.conns {
		c.Close()
	}
	s.mu.Unlock()
	err := s.ln.Close()
	s.wg.Wait()
	s.user.Close()
	s.private.Close()
	return err
}
