package shell

import (
	"path/filepath"

	"github.com/jido-run/jido/gocache"
)

// goCache is a runner's Go build cache: the private directory of its key, and the server
// that fills it from the user's cache on a miss (none when the user's cannot be opened:
// then the cache starts cold).
type goCache struct {
	dir    string
	socket string          // the server's socket, in the session's private temp dir
	server *gocache.Server // nil without one
}

// goCacheSocket is the name of the server's socket in the session's private temp dir.
const goCacheSocket = ".jido-gocache.sock"

// openGoCache makes the private Go build cache of key and starts its server in tmp.
func openGoCache(key, tmp string) (*goCache, error) {
	dir, err := projectCache("gocache", key)
	if err != nil {
		return nil, err
	}
	c := &goCache{dir: dir}
	if user := gocache.UserDir(); user != "" {
		socket := filepath.Join(tmp, goCacheSocket)
		if c.server, err = gocache.Listen(socket, user, dir); err == nil {
			c.socket = socket
		}
	}
	return c, nil
}

// sockets are the sockets commands connect to: the server's, if any.
func (c *goCache) sockets() []string {
	if c.server == nil {
		return nil
	}
	return []string{c.socket}
}

// program is the GOCACHEPROG of commands, run by helper, the sandbox's helper binary; ""
// without a server.
func (c *goCache) program(helper string) string {
	if c.server == nil {
		return ""
	}
	prog, err := gocache.Command(helper, c.dir, c.socket)
	if err != nil {
		return ""
	}
	return prog
}

// close stops the server.
func (c *goCache) close() {
	if c.server != nil {
		c.server.Close()
	}
}
