package sandbox

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/jido-run/jido/gocache"
	"github.com/jido-run/jido/test/testenv"
	"github.com/stretchr/testify/assert"
)

// TestCommandsReachTheCacheProgramAndItsServer: in a private root and under Landlock
// alone, a command can run the helper (as Go's cache program: here without its arguments,
// so it says what it is) and connect to the sockets the policy grants, and still cannot
// write the helper.
func TestCommandsReachTheCacheProgramAndItsServer(t *testing.T) {
	requireLandlock(t)
	testenv.Program(t, "python3")
	for name, namespaces := range map[string]bool{"private root": true, "Landlock only": false} {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t)
			sock := filepath.Join(f.tmp, "cache.sock")
			listen(t, "unix", sock, "served\n")
			sb := mustNew(t, Policy{Root: f.root, TempDir: f.tmp, Sockets: []string{sock}})
			if !namespaces {
				sb.ns = false
			} else if !Isolates() {
				t.Skip("this kernel refuses mount namespaces here")
			}
			out, code, conf := run(t, sb, f.root, fmt.Sprintf("%q %s; echo exit=$?", sb.Helper(), gocache.ProgramArg))
			assert.Equal(t, namespaces, conf.Isolated())
			assert.Equal(t, 0, code)
			assert.Contains(t, out, "the go command starts this program")
			assert.Contains(t, out, "exit=2")

			out, _, _ = run(t, sb, f.root, fmt.Sprintf("python3 -c 'import socket; s=socket.socket(socket.AF_UNIX); s.connect(%q); print(s.recv(64).decode())'", sock))
			assert.Contains(t, out, "served")

			_, code, _ = run(t, sb, f.root, fmt.Sprintf("echo x >> %q", sb.Helper()))
			assert.NotEqual(t, 0, code, "the helper is read-only")
		})
	}
}
