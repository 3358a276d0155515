package security

import (
	"bytes"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// fuzzSeeds are names that exercise the lexical and symlink rules of newTree's layout.
var fuzzSeeds = []string{
	"a.txt", ".", "./", "sub/../a.txt", "sub/deep/../../a.txt", "..", "../outside/canary.txt",
	"../root/a.txt", "/", "/etc/passwd", "~/x", `sub\b.txt`, "a\x00", "\u2024\u2024/x",
	"\uff0e\uff0e/outside", "link_rel", "link_dir/b.txt", "link_dir/../a.txt", "link_up/outside",
	"link_out", "link_outdir/canary.txt", "link_abs", "link_abs_out", "dangling_out",
	"innocent.txt", "chain1", "loop1", "self/self/self/a.txt", "self/..", "sub/deep/escape/x",
	"sub/link_back/", "...", "a.txt.", "sub//./b.txt", "devnull",
}

// fastSeeds are names the openat2 fast path decides, or declines near its edges.
var fastSeeds = []string{
	"a/b/c/d/e/f.txt", "a/b/../b/c/./d/e/f.txt", "sub/fifo", "sub/hardlink_out",
	"sub/missing.txt", "sub/missing/../b.txt", "sub/deep/../../.env", "a/b/c/../../../..",
	"sub/.env.local", "sub/b.txt/", "sub/deep/", "a/b/c/d/e/f.txt/x", "sub/deep/../..",
}

// checkInside asserts the invariant of every accepted name: its canonical path is a
// valid unrooted slash path without "..", and the part of it that exists is made of real
// directories (no symlinks) below the root.
func checkInside(t *testing.T, tr *tree, canonical string) {
	t.Helper()
	if !fs.ValidPath(canonical) {
		t.Fatalf("canonical path %q is not a valid root-relative path", canonical)
	}
	for p := canonical; p != "."; p = path.Dir(p) {
		info, err := os.Lstat(tr.host(p))
		if err != nil {
			continue // a missing last component
		}
		if info.Mode()&fs.ModeSymlink != 0 && p != canonical {
			t.Fatalf("canonical path %q has a symlink component %q", canonical, p)
		}
		if info.Mode()&fs.ModeSymlink != 0 {
			t.Fatalf("canonical path %q is a symlink", canonical)
		}
	}
}

func FuzzClean(f *testing.F) {
	tr := newTree(f, Options{})
	for _, s := range fuzzSeeds {
		f.Add(s)
		f.Add(tr.root + "/" + s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		cleaned, err := tr.r.Clean(name)
		if err != nil {
			return
		}
		again, err := tr.r.Clean(cleaned)
		if err != nil || again != cleaned {
			t.Fatalf("Clean(%q) = %q, but Clean(%q) = %q, %v", name, cleaned, cleaned, again, err)
		}
		if strings.HasPrefix(cleaned, "/") || strings.Contains(cleaned, "//") || strings.Contains(cleaned, `\`) {
			t.Fatalf("Clean(%q) = %q", name, cleaned)
		}
		if canonical, err := tr.r.Resolve(name); err == nil {
			checkInside(t, tr, canonical)
		}
	})
}

// FuzzResolve checks the invariants of accepted names and that the openat2 fast path
// answers every name as the walk does (outcome: Resolve, Stat, OpenFile, ReadFile, ...).
func FuzzResolve(f *testing.F) {
	tr := newTree(f, Options{})
	mkfifo(f, tr.host("sub/fifo"))
	require.NoError(f, os.Link(filepath.Join(tr.outside, "canary.txt"), tr.host("sub/hardlink_out")))
	writeFiles(f, tr.root, map[string]string{"a/b/c/d/e/f.txt": "deep"})
	walk := walkOnly(f, tr.root, Options{})
	for _, s := range append(fuzzSeeds, fastSeeds...) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		if got, want := outcome(tr.r, name), outcome(walk, name); got != want {
			t.Fatalf("%q: the fast path answers\n%s\nthe walk answers\n%s", name, got, want)
		}
		canonical, err := tr.r.Resolve(name)
		if err != nil {
			return
		}
		checkInside(t, tr, canonical)
		if file, err := tr.r.ReadFile(name); err == nil {
			if bytes.Contains(file.Data, []byte(canary)) {
				t.Fatalf("ReadFile(%q) returned content from outside the root", name)
			}
			if file.Path != canonical || tr.r.IsSecret(canonical) {
				t.Fatalf("ReadFile(%q) read %q (resolved %q)", name, file.Path, canonical)
			}
		}
	})
}
