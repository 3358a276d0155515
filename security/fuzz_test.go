package security

import (
	"bytes"
	"io/fs"
	"os"
	"path"
	"strings"
	"testing"
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

func FuzzResolve(f *testing.F) {
	tr := newTree(f, Options{})
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
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
