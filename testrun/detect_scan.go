package testrun

import (
	"io"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strings"
	"sync"
)

// Bounds of one subtree scan, so that Detect stays quick on a huge tree.
const (
	scanMaxDepth   = 10
	scanMaxEntries = 50000
	readLimit      = 1 << 20 // bytes read from a file Detect looks into
)

// treeScan is what the file-name rules found under one directory. Files are
// slash paths relative to the scanned directory, sorted.
type treeScan struct {
	nodeTests []string // *.test.js, *.test.mjs, *.test.cjs
	pyTests   []string // test_*.py, *_test.py
	ertFiles  []string // ERT test files (see isERTCandidate) holding ert-deftest
	elDirs    []string // directories holding .el files, for emacs -L
}

// scanSkipDirs are directories never searched for tests: dependencies,
// build output, virtual environments and Go's testdata.
var scanSkipDirs = map[string]bool{
	"node_modules": true, "vendor": true, "target": true, "__pycache__": true,
	"venv": true, "env": true, "site-packages": true, "dist": true,
	"testdata": true, "elpa": true,
}

// projectMarkers make a subdirectory a project of its own: its files belong
// to it, not to the directory being scanned.
var projectMarkers = map[string]bool{"go.mod": true, "Cargo.toml": true, "package.json": true}

// scanTree walks dir's subtree within the scan bounds. Nested projects
// (subdirectories with their own go.mod, Cargo.toml or package.json) are left
// out, so that a root-level rule never runs another project's tests.
func scanTree(fsys fs.FS, dir string) *treeScan {
	s := &treeScan{}
	var nested []string
	var ertCandidates []string
	elDirs := map[string]bool{}
	entries := 0
	_ = fs.WalkDir(fsys, dir, func(p string, de fs.DirEntry, err error) error {
		if err != nil {
			if de != nil && de.IsDir() && p != dir {
				return fs.SkipDir
			}
			return nil
		}
		if entries++; entries > scanMaxEntries {
			return fs.SkipAll
		}
		rel := fromDir(dir, p)
		name := de.Name()
		if de.IsDir() {
			if p == dir {
				return nil
			}
			if strings.HasPrefix(name, ".") || scanSkipDirs[name] || strings.Count(rel, "/") >= scanMaxDepth {
				return fs.SkipDir
			}
			return nil
		}
		if projectMarkers[name] && path.Dir(rel) != "." {
			nested = append(nested, path.Dir(rel))
		}
		switch {
		case isNodeTestName(name):
			s.nodeTests = append(s.nodeTests, rel)
		case isPyTestName(name):
			s.pyTests = append(s.pyTests, rel)
		case strings.HasSuffix(name, ".el"):
			elDirs[path.Dir(rel)] = true
			if isERTCandidate(rel) {
				ertCandidates = append(ertCandidates, rel)
			}
		}
		return nil
	})
	outside := func(rel string) bool {
		for _, n := range nested {
			if rel == n || strings.HasPrefix(rel, n+"/") {
				return false
			}
		}
		return true
	}
	s.nodeTests = filter(s.nodeTests, outside)
	s.pyTests = filter(s.pyTests, outside)
	for _, rel := range filter(ertCandidates, outside) {
		if b := readLimited(fsys, path.Join(dir, rel)); b != nil && strings.Contains(string(b), "(ert-deftest") {
			s.ertFiles = append(s.ertFiles, rel)
		}
	}
	for d := range elDirs {
		if outside(d) {
			s.elDirs = append(s.elDirs, d)
		}
	}
	sort.Strings(s.nodeTests)
	sort.Strings(s.pyTests)
	sort.Strings(s.ertFiles)
	sort.Strings(s.elDirs)
	return s
}

func filter(xs []string, keep func(string) bool) []string {
	var out []string
	for _, x := range xs {
		if keep(x) {
			out = append(out, x)
		}
	}
	return out
}

// isNodeTestName is the detection rule for node's test runner: the file
// names that can only be JavaScript tests.
func isNodeTestName(name string) bool {
	for _, ext := range []string{".test.js", ".test.mjs", ".test.cjs"} {
		if strings.HasSuffix(name, ext) && len(name) > len(ext) {
			return true
		}
	}
	return false
}

// nodeDefaultTest mirrors the files `node --test` runs by default: named
// test.js, test-*.js, *.test.js, *-test.js, *_test.js, or any .js in a test
// directory (each with .js, .cjs or .mjs).
var nodeDefaultTest = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(^|/)(test\.[cm]?js|test-[^/]+\.[cm]?js|[^/]+[.\-_]test\.[cm]?js)$|(^|/)test/([^/]+/)*[^/]+\.[cm]?js$`)
})

// isPyTestName is pytest's default python_files rule.
func isPyTestName(name string) bool {
	return strings.HasSuffix(name, ".py") &&
		(strings.HasPrefix(name, "test_") || strings.HasSuffix(name, "_test.py"))
}

// isERTCandidate says whether an .el file may hold ERT tests: it lies in a
// test/ or tests/ directory or is named *-test.el or *-tests.el. Its content
// must still hold ert-deftest.
func isERTCandidate(rel string) bool {
	base := path.Base(rel)
	if strings.HasSuffix(base, "-test.el") || strings.HasSuffix(base, "-tests.el") {
		return true
	}
	for _, part := range strings.Split(path.Dir(rel), "/") {
		if part == "test" || part == "tests" {
			return true
		}
	}
	return false
}

// readLimited reads up to readLimit bytes of a regular file; nil when it
// cannot be read.
func readLimited(fsys fs.FS, name string) []byte {
	f, err := fsys.Open(name)
	if err != nil {
		return nil
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || st.IsDir() {
		return nil
	}
	b, err := io.ReadAll(io.LimitReader(f, readLimit))
	if err != nil {
		return nil
	}
	return b
}

// makeRuleLine matches a rule line of a Makefile: targets, a colon, and not
// a variable assignment (:= or ::=).
var makeRuleLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([^\s:=#][^:=#]*?)\s*::?(?:[^=]|$)`) })

// hasMakeTarget reports whether a Makefile defines the target name.
func hasMakeTarget(makefile, name string) bool {
	for _, line := range strings.Split(makefile, "\n") {
		m := makeRuleLine().FindStringSubmatch(strings.TrimRight(line, "\r"))
		if m == nil {
			continue
		}
		for _, t := range strings.Fields(m[1]) {
			if t == name {
				return true
			}
		}
	}
	return false
}

// upTo returns the path from dir back up to the root, e.g. "../.." for
// "a/b", so that a root-relative path can be given relative to dir.
func upTo(dir string) string {
	if dir == "." {
		return "."
	}
	return strings.TrimSuffix(strings.Repeat("../", strings.Count(dir, "/")+1), "/")
}

// fromDir expresses the root-relative path p relative to dir.
func fromDir(dir, p string) string {
	if dir == "." {
		return p
	}
	if p == dir {
		return "."
	}
	if strings.HasPrefix(p, dir+"/") {
		return strings.TrimPrefix(p, dir+"/")
	}
	return path.Join(upTo(dir), p)
}
