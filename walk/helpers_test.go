package walk

import (
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/jido-run/jido/security"
	"github.com/jido-run/jido/test/testenv"
	"github.com/stretchr/testify/require"
)

// gitIn runs git in dir, isolated from the user's and the system's configuration, and
// returns its standard output.
func gitIn(t testing.TB, dir string, args ...string) string {
	t.Helper()
	return gitExec(t, dir, "", false, args...)
}

// gitExec is gitIn with standard input; ok1 accepts exit status 1 (check-ignore's
// "nothing is ignored").
func gitExec(t testing.TB, dir, stdin string, ok1 bool, args ...string) string {
	t.Helper()
	testenv.Program(t, "git")
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1", "LC_ALL=C",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
	cmd.Stdin = strings.NewReader(stdin)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); ok && ok1 && ee.ExitCode() == 1 {
		err = nil
	}
	require.NoError(t, err, "git %v: %s", args, stderr.String())
	return string(out)
}

// nulFields splits git's -z output.
func nulFields(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == 0 })
}

// gitListing is what git lists of the tree at root, as a walk must: the files of
// `git ls-files --cached --others --exclude-standard` that are on disk (an indexed file
// deleted or left out by a sparse checkout is not), each nested repository and submodule
// listed by its own git. Sorted.
func gitListing(t *testing.T, root string) []string {
	t.Helper()
	var files []string
	var list func(repo string)
	list = func(repo string) {
		for _, p := range nulFields(gitIn(t, filepath.Join(root, repo), "ls-files", "-z", "--cached", "--others", "--exclude-standard")) {
			full := path.Join(repo, p)
			info, err := os.Lstat(filepath.Join(root, full))
			switch {
			case err != nil: // in the index, not on disk
			case info.IsDir(): // a nested repository ("dir/"), or a submodule
				list(strings.TrimSuffix(full, "/"))
			default:
				files = append(files, full)
			}
		}
	}
	list(".")
	slices.Sort(files)
	return slices.Compact(files)
}

// writeFiles writes files under dir (a path ending in "/" is an empty directory).
func writeFiles(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if strings.HasSuffix(name, "/") {
			require.NoError(t, os.MkdirAll(p, 0o755))
			continue
		}
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	}
}

// openRoot opens dir as a Root.
func openRoot(t testing.TB, dir string, opts security.Options) *security.Root {
	t.Helper()
	root, err := security.Open(dir, opts)
	require.NoError(t, err)
	t.Cleanup(func() { root.Close() })
	return root
}
