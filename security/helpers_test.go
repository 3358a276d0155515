package security

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// canary is the content of every file outside the root; no operation may return it.
const canary = "CANARY-outside-the-root"

// tree is a test layout: base/root is the project root, base/outside and base/root_evil
// (a sibling sharing the root's name as a prefix) hold canaries that must stay untouched.
type tree struct {
	base, root, outside, evil string
	r                         *Root
}

// newTree builds the layout, opens the root and checks at cleanup that nothing outside
// the root changed.
func newTree(t testing.TB, opts Options) *tree {
	t.Helper()
	base := t.TempDir()
	tr := &tree{
		base:    base,
		root:    filepath.Join(base, "root"),
		outside: filepath.Join(base, "outside"),
		evil:    filepath.Join(base, "root_evil"),
	}
	writeFiles(t, base, map[string]string{
		"root/a.txt":          "alpha",
		"root/sub/b.txt":      "bravo",
		"root/sub/deep/c.txt": "charlie",
		"root/.env":           "TOKEN=inside-secret",
		"root/.env.example":   "TOKEN=",
		"root/.git/config":    "[core]",
	})
	outside := map[string]string{
		"outside/canary.txt":                       canary,
		"outside/dir/canary2.txt":                  canary,
		"outside/dir/file.txt":                     canary, // same name as root/d/file.txt in the race test
		"outside/.canary.txt.tmp-0123456789abcdef": canary, // a stale temporary name
		"root_evil/x.txt":                          canary,
	}
	writeFiles(t, base, outside)
	day := time.Now().Add(-24 * time.Hour)
	for name := range outside {
		require.NoError(t, os.Chtimes(filepath.Join(base, name), day, day))
	}
	makeLinks(t, base, map[string]string{
		"root/link_rel":        "sub/b.txt",
		"root/link_dir":        "sub",
		"root/sub/link_back":   "../a.txt",
		"root/link_up":         "..",
		"root/link_out":        "../outside/canary.txt",
		"root/link_outdir":     "../outside",
		"root/link_abs":        filepath.Join(tr.root, "a.txt"),
		"root/link_abs_out":    filepath.Join(tr.outside, "canary.txt"),
		"root/dangling_out":    "../outside/new.txt",
		"root/dangling_in":     "sub/new.txt",
		"root/innocent.txt":    ".env",
		"root/chain1":          "chain2",
		"root/chain2":          "sub/../chain3",
		"root/chain3":          "a.txt",
		"root/loop1":           "loop2",
		"root/loop2":           "loop1",
		"root/self":            ".",
		"root/devnull":         "/dev/null",
		"root/sub/deep/escape": "../../../outside",
	})
	r, err := Open(tr.root, opts)
	require.NoError(t, err)
	tr.r = r
	before := snapshot(t, tr.outside, tr.evil)
	t.Cleanup(func() {
		assert.NoError(t, r.Close())
		assert.Equal(t, before, snapshot(t, tr.outside, tr.evil), "the tree outside the root changed")
	})
	return tr
}

// host returns the host path of a root-relative name, for test setup and verification.
func (tr *tree) host(name string) string { return filepath.Join(tr.root, name) }

// writeFiles creates files (and their directories) under dir.
func writeFiles(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	}
}

// makeLinks creates symlinks name -> target under dir.
func makeLinks(t testing.TB, dir string, links map[string]string) {
	t.Helper()
	for name, target := range links {
		p := filepath.Join(dir, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.Symlink(target, p))
	}
}

// snapshot records type, mode, size, mtime, content and link target of every entry under dirs.
func snapshot(t testing.TB, dirs ...string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, dir := range dirs {
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			require.NoError(t, err)
			info, err := d.Info()
			require.NoError(t, err)
			desc := info.Mode().String() + " " + info.ModTime().String()
			switch {
			case info.Mode().IsRegular():
				data, err := os.ReadFile(p)
				require.NoError(t, err)
				desc += " " + string(data)
			case info.Mode()&fs.ModeSymlink != 0:
				target, err := os.Readlink(p)
				require.NoError(t, err)
				desc += " -> " + target
			}
			out[p] = desc
			return nil
		})
		require.NoError(t, err)
	}
	return out
}

// assertErr checks that err is nil when want is nil, else a *fs.PathError wrapping want.
func assertErr(t testing.TB, err, want error) bool {
	t.Helper()
	if want == nil {
		return assert.NoError(t, err)
	}
	var pe *fs.PathError
	return assert.ErrorIs(t, err, want) && assert.ErrorAs(t, err, &pe, "not a *fs.PathError: %#v", err)
}

// tempNames lists the WriteFile temporaries left anywhere under the host directory dir.
func tempNames(t testing.TB, dir string) []string {
	t.Helper()
	var found []string
	require.NoError(t, filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && IsTempName(d.Name()) {
			found = append(found, p)
		}
		return err
	}))
	return found
}

// mkfifo creates a named pipe at the host path p.
func mkfifo(t testing.TB, p string) {
	t.Helper()
	require.NoError(t, syscall.Mkfifo(p, 0o644))
}

// within runs fn and fails the test if it does not return within d (a FIFO open that
// blocks would hang forever).
func within(t testing.TB, d time.Duration, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn()
	}()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("operation did not return within %v", d)
	}
}

// walkOnly opens dir as a Root with the openat2 fast path disabled (the switch that
// forces the slow path), so that every name goes through the walk and os.Root; tests
// compare its results with a default Root's on the same tree.
func walkOnly(t testing.TB, dir string, opts Options) *Root {
	t.Helper()
	r, err := Open(dir, opts)
	require.NoError(t, err)
	r.fast.close()
	r.fast = fastPath{}
	t.Cleanup(func() { r.Close() })
	return r
}

// outcome describes everything the read side of r answers for name: Resolve, Stat,
// the resolution of a write, OpenFile, ReadFile and ReadDir, with full error messages
// (operation, root-relative path, cause). Two roots on the same tree must agree on it.
func outcome(r *Root, name string) string {
	var b strings.Builder
	canonical, err := r.Resolve(name)
	fmt.Fprintf(&b, "resolve: %q %v\n", canonical, err)
	info, err := r.Stat(name)
	fmt.Fprintf(&b, "stat: %s %v\n", describeInfo(info), err)
	t, err := r.resolve("write", name, followLast|createParents)
	fmt.Fprintf(&b, "resolve for write: %q %s %v %v\n", t.name, describeInfo(t.info), t.dir, err)
	f, canonical, v, err := r.OpenFile(name)
	if err == nil {
		fmt.Fprintf(&b, "open: %q %q %+v\n", f.Name(), canonical, v)
		f.Close()
	} else {
		fmt.Fprintf(&b, "open: %v\n", err)
	}
	if file, err := r.ReadFile(name); err == nil {
		fmt.Fprintf(&b, "read: %q %q %+v\n", file.Path, file.Data, file.Version)
	} else {
		fmt.Fprintf(&b, "read: %v\n", err)
	}
	entries, err := r.ReadDir(name)
	names := make([]string, len(entries))
	for i, e := range entries {
		names[i] = e.Name() + " " + e.Type().String()
	}
	fmt.Fprintf(&b, "readdir: %q %v\n", names, err)
	return b.String()
}

// describeInfo formats what a FileInfo says, Sys's identity included.
func describeInfo(info fs.FileInfo) string {
	if info == nil {
		return "<nil>"
	}
	return fmt.Sprintf("%s %v %d %v %+v", info.Name(), info.Mode(), info.Size(), info.ModTime(), sysStat(info))
}
