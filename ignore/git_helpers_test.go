package ignore

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// gitHome is an empty HOME for git, so that no user configuration or global
// excludes file leaks into the comparisons.
var gitHome string

func TestMain(m *testing.M) {
	var err error
	if gitHome, err = os.MkdirTemp("", "ignore-test-home"); err != nil {
		panic(err)
	}
	code := m.Run()
	os.RemoveAll(gitHome)
	os.Exit(code)
}

// requireGit fails (never skips) when git is missing: these tests prove the
// matcher against real git and are worthless without it.
func requireGit(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatalf("git is not on PATH (%v): the tests comparing the matcher with git need git installed", err)
	}
}

// runGit runs git in dir with an environment isolated from the user's config
// and returns its stdout. Exit status 1 is accepted when ok1 is set
// (check-ignore uses it for "nothing ignored").
func runGit(t testing.TB, dir string, stdin []byte, ok1 bool, args ...string) []byte {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GIT_") && !strings.HasPrefix(kv, "HOME=") && !strings.HasPrefix(kv, "XDG_CONFIG_HOME=") {
			env = append(env, kv)
		}
	}
	cmd.Env = append(env, "HOME="+gitHome, "XDG_CONFIG_HOME="+filepath.Join(gitHome, "xdg"),
		"GIT_CONFIG_NOSYSTEM=1", "LC_ALL=C")
	cmd.Stdin = bytes.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if ee, isExit := err.(*exec.ExitError); isExit && ok1 && ee.ExitCode() == 1 {
		err = nil
	}
	require.NoError(t, err, "git %s: %s", strings.Join(args, " "), stderr.String())
	return stdout.Bytes()
}

// gitInit creates an empty repository in dir (which may already hold files).
func gitInit(t testing.TB, dir string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(dir, 0o755))
	runGit(t, dir, nil, false, "init", "-q")
}

// splitNUL splits NUL-terminated records.
func splitNUL(b []byte) []string {
	s := strings.Split(string(b), "\x00")
	if len(s) > 0 && s[len(s)-1] == "" {
		s = s[:len(s)-1]
	}
	return s
}

// gitListed is the ground truth: the files of the repository at root that are
// tracked or untracked and not ignored, as listed by git ls-files.
func gitListed(t testing.TB, root, excludesFile string) []string {
	t.Helper()
	out := runGit(t, root, nil, false, "-c", "core.excludesFile="+excludesFile,
		"ls-files", "--cached", "--others", "--exclude-standard", "-z")
	files := splitNUL(out)
	sort.Strings(files)
	return files
}

// walkNotIgnored is the walker the package is made for: it enters every
// directory with its .gitignore, prunes ignored directories (but for those kept
// for their tracked files, entered as Excluded) and returns the files that are
// not ignored.
func walkNotIgnored(t testing.TB, root string, m *Matcher) []string {
	t.Helper()
	var files []string
	var walk func(rel string, m *Matcher)
	walk = func(rel string, m *Matcher) {
		abs := filepath.Join(root, filepath.FromSlash(rel))
		entries, err := os.ReadDir(abs)
		require.NoError(t, err)
		gi, err := os.ReadFile(filepath.Join(abs, ".gitignore"))
		if err != nil && !os.IsNotExist(err) {
			require.NoError(t, err)
		}
		m = m.Enter(rel, gi, nil)
		for _, e := range entries {
			if e.Name() == ".git" {
				continue
			}
			p := e.Name()
			if rel != "" {
				p = rel + "/" + p
			}
			v := m.Check(p, e.IsDir())
			switch {
			case v == Skip:
			case !e.IsDir():
				files = append(files, p)
			case v == KeepTracked:
				walk(p, m.Excluded())
			default:
				walk(p, m)
			}
		}
	}
	walk("", m)
	sort.Strings(files)
	return files
}

// compareTreeWithGit checks that our walker lists exactly the files git
// lists in the repository at root. infoExclude is written to
// .git/info/exclude, excludes to a core.excludesFile outside the tree; the
// tracked files are added to git's index (whatever the rules say). It
// returns the number of files git listed.
func compareTreeWithGit(t testing.TB, root string, infoExclude, excludes []byte, tracked ...string) int {
	t.Helper()
	gitInit(t, root)
	require.NoError(t, os.MkdirAll(filepath.Join(root, ".git", "info"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(root, ".git", "info", "exclude"), infoExclude, 0o644))
	excludesPath := ""
	if excludes != nil {
		excludesPath = filepath.Join(root, ".git", "test-excludes")
		require.NoError(t, os.WriteFile(excludesPath, excludes, 0o644))
	}
	var index *Index
	if len(tracked) > 0 {
		runGit(t, root, []byte(strings.Join(tracked, "\x00")), false,
			"--literal-pathspecs", "add", "-f", "--pathspec-from-file=-", "--pathspec-file-nul")
		data, err := os.ReadFile(filepath.Join(root, ".git", "index"))
		require.NoError(t, err)
		index, err = ParseIndex(data)
		require.NoError(t, err)
		require.Equal(t, len(tracked), index.Len())
	}
	want := gitListed(t, root, excludesPath)
	got := walkNotIgnored(t, root, New(excludes, nil).Repo("", infoExclude, index))
	if missing, extra := diffSorted(want, got); len(missing)+len(extra) > 0 {
		t.Errorf("walker differs from git ls-files --cached --others --exclude-standard:\n"+
			"  listed by git, ignored by us (%d): %q\n  listed by us, ignored by git (%d): %q",
			len(missing), missing, len(extra), extra)
	}
	return len(want)
}

// diffSorted returns the elements only in want and only in got.
func diffSorted(want, got []string) (onlyWant, onlyGot []string) {
	i, j := 0, 0
	for i < len(want) || j < len(got) {
		switch {
		case j >= len(got) || (i < len(want) && want[i] < got[j]):
			onlyWant = append(onlyWant, want[i])
			i++
		case i >= len(want) || got[j] < want[i]:
			onlyGot = append(onlyGot, got[j])
			j++
		default:
			i++
			j++
		}
	}
	return onlyWant, onlyGot
}

// fileTree builds a tree on disk from slash paths; a path ending in "/" is an
// (empty) directory. It refuses paths that clash with an existing entry.
type fileTree struct {
	entries map[string]bool // path -> isDir
	content map[string][]byte
	order   []string
}

func newFileTree() *fileTree {
	return &fileTree{entries: map[string]bool{}, content: map[string][]byte{}}
}

// add records a file (or a directory when path ends in "/") and reports
// whether it fit in the tree.
func (ft *fileTree) add(path string, content []byte) bool {
	isDir := strings.HasSuffix(path, "/")
	path = strings.TrimSuffix(path, "/")
	if !validRelPath(path) {
		return false
	}
	segs := strings.Split(path, "/")
	for i := 1; i < len(segs); i++ {
		if d, ok := ft.entries[strings.Join(segs[:i], "/")]; ok && !d {
			return false // a parent is a file
		}
	}
	if d, ok := ft.entries[path]; ok {
		if d != isDir {
			return false
		}
		if !isDir {
			ft.content[path] = content
		}
		return true
	}
	for i := 1; i < len(segs); i++ {
		ft.entries[strings.Join(segs[:i], "/")] = true
	}
	ft.entries[path] = isDir
	if !isDir {
		ft.content[path] = content
	}
	ft.order = append(ft.order, path)
	return true
}

func validRelPath(p string) bool {
	if p == "" {
		return false
	}
	for _, s := range strings.Split(p, "/") {
		if s == "" || s == "." || s == ".." || s == ".git" || strings.IndexByte(s, 0) >= 0 {
			return false
		}
	}
	return true
}

func (ft *fileTree) write(t testing.TB, root string) (files, ignoreFiles int) {
	t.Helper()
	for _, p := range ft.order {
		abs := filepath.Join(root, filepath.FromSlash(p))
		if ft.entries[p] {
			require.NoError(t, os.MkdirAll(abs, 0o755))
			continue
		}
		require.NoError(t, os.MkdirAll(filepath.Dir(abs), 0o755))
		require.NoError(t, os.WriteFile(abs, ft.content[p], 0o644))
		files++
		if filepath.Base(p) == ".gitignore" {
			ignoreFiles++
		}
	}
	return files, ignoreFiles
}
