package journal

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jido-run/jido/security"
)

// fixture is a project root and its journal, both in temporary directories.
type fixture struct {
	t       *testing.T
	rootDir string
	root    *security.Root
	jdir    string
	j       *Journal
}

func newFixture(t *testing.T, limits Limits) *fixture {
	t.Helper()
	base := t.TempDir()
	f := &fixture{t: t, rootDir: filepath.Join(base, "root"), jdir: filepath.Join(base, "journal")}
	require.NoError(t, os.Mkdir(f.rootDir, 0o755))
	var err error
	f.root, err = security.Open(f.rootDir, security.Options{NoSync: true})
	require.NoError(t, err)
	t.Cleanup(func() { f.root.Close() })
	f.j = f.open(limits)
	return f
}

// open opens another Journal on the fixture's journal directory.
func (f *fixture) open(limits Limits) *Journal {
	j, err := Open(f.jdir, limits)
	require.NoError(f.t, err)
	f.t.Cleanup(func() { j.Close() })
	return j
}

// put creates or replaces a project file directly (test setup, not through the root).
func (f *fixture) put(name, content string, mode fs.FileMode) {
	f.t.Helper()
	p := filepath.Join(f.rootDir, filepath.FromSlash(name))
	require.NoError(f.t, os.MkdirAll(filepath.Dir(p), 0o755))
	require.NoError(f.t, os.WriteFile(p, []byte(content), mode))
	require.NoError(f.t, os.Chmod(p, mode))
}

// get returns the content and permission bits of a project file, ok false if it is missing.
func (f *fixture) get(name string) (string, fs.FileMode, bool) {
	f.t.Helper()
	p := filepath.Join(f.rootDir, filepath.FromSlash(name))
	info, err := os.Lstat(p)
	if os.IsNotExist(err) {
		return "", 0, false
	}
	require.NoError(f.t, err)
	data, err := os.ReadFile(p)
	require.NoError(f.t, err)
	return string(data), info.Mode().Perm(), true
}

// change journals fn as one change set of the given paths: Capture, fn, Commit.
func (f *fixture) change(tool string, paths []string, fn func()) Entry {
	f.t.Helper()
	before, err := f.j.Capture(f.root, paths...)
	require.NoError(f.t, err)
	fn()
	e, err := f.j.Commit(f.root, tool, tool+" "+strings.Join(paths, " "), before)
	require.NoError(f.t, err)
	return e
}

// write replaces a project file through the root (as a tool would).
func (f *fixture) write(name, content string) {
	f.t.Helper()
	_, _, err := f.root.WriteFile(name, []byte(content), security.WriteOptions{})
	require.NoError(f.t, err)
}

// treeHash hashes every path, type, mode and content under the root.
func (f *fixture) treeHash() string {
	f.t.Helper()
	h := sha256.New()
	err := filepath.WalkDir(f.rootDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(f.rootDir, p)
		fmt.Fprintf(h, "%s\x00%v\x00", rel, info.Mode())
		if info.Mode().IsRegular() {
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			fmt.Fprintf(h, "%x\x00", sha256.Sum256(data))
		}
		return nil
	})
	require.NoError(f.t, err)
	return hex.EncodeToString(h.Sum(nil))
}

// list returns the journal's entries, failing the test on error.
func (f *fixture) list() []Entry {
	f.t.Helper()
	entries, err := f.j.List()
	require.NoError(f.t, err)
	return entries
}

func TestDir(t *testing.T) {
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	project := t.TempDir()
	d, err := Dir(project)
	require.NoError(t, err)
	sum := sha256.Sum256([]byte(project))
	assert.Equal(t, filepath.Join(state, "jido", "journal", hex.EncodeToString(sum[:])[:16]), d)

	// Another spelling of the same root (a symlink to it) shares the journal.
	link := filepath.Join(t.TempDir(), "link")
	require.NoError(t, os.Symlink(project, link))
	d2, err := Dir(link)
	require.NoError(t, err)
	assert.Equal(t, d, d2)

	// A relative XDG_STATE_HOME is ignored, as the spec requires.
	home := t.TempDir()
	t.Setenv("XDG_STATE_HOME", "relative")
	t.Setenv("HOME", home)
	d3, err := Dir(project)
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(d3, filepath.Join(home, ".local", "state", "jido", "journal")+string(filepath.Separator)), d3)
}

func TestCaptureRecordsState(t *testing.T) {
	f := newFixture(t, Limits{})
	f.put("a.txt", "alpha", 0o640)
	bs, err := f.j.Capture(f.root, "./sub/../a.txt", "a.txt", "new/b.txt")
	require.Error(t, err, "sub does not exist, so sub/.. cannot be walked")

	require.NoError(t, os.Mkdir(filepath.Join(f.rootDir, "sub"), 0o755))
	bs, err = f.j.Capture(f.root, "./sub/../a.txt", "a.txt", "new/b.txt")
	require.NoError(t, err)
	sum := sha256.Sum256([]byte("alpha"))
	assert.Equal(t, []Before{
		{Path: "a.txt", Exists: true, Mode: 0o640, Blob: hex.EncodeToString(sum[:])},
		{Path: "new/b.txt"},
	}, bs, "canonical paths, duplicates captured once, a missing file is absent")
	data, err := os.ReadFile(filepath.Join(f.jdir, "blobs", bs[0].Blob))
	require.NoError(t, err)
	assert.Equal(t, "alpha", string(data))

	// Missing parents are accepted; the existing part is resolved (here through a symlink).
	require.NoError(t, os.Symlink("sub", filepath.Join(f.rootDir, "link")))
	bs, err = f.j.Capture(f.root, "link/x/y/new.txt", "sub/x/y/new.txt")
	require.NoError(t, err)
	assert.Equal(t, []Before{{Path: "sub/x/y/new.txt"}}, bs)
}

func TestCaptureRefuses(t *testing.T) {
	f := newFixture(t, Limits{})
	f.put("dir/x.txt", "x", 0o644)
	f.put(".env", "TOKEN=secret", 0o600)
	outside := filepath.Join(filepath.Dir(f.rootDir), "outside.txt")
	require.NoError(t, os.WriteFile(outside, []byte("outside"), 0o644))
	require.NoError(t, os.Symlink(outside, filepath.Join(f.rootDir, "escape")))
	require.NoError(t, syscallMkfifo(filepath.Join(f.rootDir, "fifo")))

	cases := []struct {
		path string
		want error
	}{
		{"dir", security.ErrIsDir},
		{".", security.ErrIsDir},
		{"fifo", security.ErrNotRegular},
		{"../outside.txt", security.ErrOutsideRoot},
		{outside, security.ErrOutsideRoot},
		{"escape", security.ErrOutsideRoot},
		{".env", security.ErrSecret},
		{"config/.env.local", security.ErrSecret}, // missing, would be created: still refused
		{"dir/id_rsa", security.ErrSecret},
	}
	for _, c := range cases {
		t.Run(c.path, func(t *testing.T) {
			bs, err := f.j.Capture(f.root, "dir/x.txt", c.path)
			require.ErrorIs(t, err, c.want)
			assert.Nil(t, bs)
			var pe *fs.PathError
			require.ErrorAs(t, err, &pe, "a path error naming the file")
			if c.want == security.ErrSecret {
				assert.Contains(t, err.Error(), "secret file")
				assert.Contains(t, err.Error(), strings.TrimPrefix(c.path, "./"))
			}
		})
	}
	assert.NotContains(t, blobContents(t, f.jdir), "TOKEN=secret", "a secret never reaches the journal")
}

// blobContents concatenates every blob of a journal directory.
func blobContents(t *testing.T, jdir string) string {
	t.Helper()
	des, err := os.ReadDir(filepath.Join(jdir, "blobs"))
	require.NoError(t, err)
	var sb strings.Builder
	for _, de := range des {
		data, err := os.ReadFile(filepath.Join(jdir, "blobs", de.Name()))
		require.NoError(t, err)
		sb.Write(data)
	}
	return sb.String()
}

func TestCommitRecordsAfterAndBackupPath(t *testing.T) {
	f := newFixture(t, Limits{})
	f.put("a.txt", "old", 0o644)
	e := f.change("plan_apply", []string{"a.txt", "b.txt"}, func() {
		f.write("a.txt", "new")
		f.write("b.txt", "created")
	})
	assert.True(t, validID(e.ID), e.ID)
	assert.Equal(t, "plan_apply", e.Tool)
	assert.Equal(t, "plan_apply a.txt b.txt", e.Summary)
	assert.Equal(t, []After{
		{Path: "a.txt", Exists: true, SHA256: hashOf([]byte("new")), Mode: 0o644},
		{Path: "b.txt", Exists: true, SHA256: hashOf([]byte("created")), Mode: 0o644},
	}, e.After)

	backup := f.j.BackupPath(e, "a.txt")
	require.NotEmpty(t, backup)
	data, err := os.ReadFile(backup)
	require.NoError(t, err)
	assert.Equal(t, "old", string(data))
	assert.Empty(t, f.j.BackupPath(e, "b.txt"), "b.txt did not exist")
	assert.Empty(t, f.j.BackupPath(e, "other.txt"))

	listed := f.list()
	require.Len(t, listed, 1)
	assert.Equal(t, e.ID, listed[0].ID)
	assert.True(t, e.Time.Equal(listed[0].Time))
}

func TestCommitRefusesMissingBlob(t *testing.T) {
	f := newFixture(t, Limits{})
	_, err := f.j.Commit(f.root, "edit_file", "x", []Before{{Path: "a.txt", Exists: true, Mode: 0o644, Blob: hashOf([]byte("never stored"))}})
	require.ErrorIs(t, err, fs.ErrNotExist)
	_, err = f.j.Commit(f.root, "edit_file", "x", []Before{{Path: "a.txt", Exists: true, Blob: "../../etc/passwd"}})
	require.Error(t, err)
	_, err = f.j.Commit(f.root, "edit_file", "x", nil)
	require.Error(t, err)
	assert.Empty(t, f.list())
}

func TestListNewestFirst(t *testing.T) {
	f := newFixture(t, Limits{})
	var ids []string
	for i := range 5 {
		e := f.change("write_file", []string{"a.txt"}, func() { f.write("a.txt", fmt.Sprint(i)) })
		ids = append(ids, e.ID)
	}
	assert.True(t, sort.StringsAreSorted(ids), "IDs increase with time: %v", ids)
	listed := f.list()
	require.Len(t, listed, 5)
	for i, e := range listed {
		assert.Equal(t, ids[4-i], e.ID)
		if i > 0 {
			assert.False(t, e.Time.After(listed[i-1].Time))
		}
	}
}

func TestConcurrentJournals(t *testing.T) {
	f := newFixture(t, Limits{})
	journals := []*Journal{f.j, f.open(Limits{})} // two "processes" on one directory
	const workers, perWorker = 4, 8
	var wg sync.WaitGroup
	errs := make(chan error, workers*perWorker)
	for w := range workers {
		j := journals[w%2]
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range perWorker {
				name := fmt.Sprintf("w%d/f%d.txt", w, i%3)
				before, err := j.Capture(f.root, name)
				if err == nil {
					_, _, err = f.root.WriteFile(name, []byte(fmt.Sprint(w, i)), security.WriteOptions{})
				}
				if err == nil {
					_, err = j.Commit(f.root, "write_file", name, before)
				}
				if err == nil && i%4 == 0 {
					err = j.Prune()
				}
				if err == nil {
					_, err = j.List()
				}
				if err != nil {
					errs <- err
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	listed := f.list()
	require.Len(t, listed, workers*perWorker)
	seen := map[string]bool{}
	for _, e := range listed {
		assert.False(t, seen[e.ID], "duplicate id %s", e.ID)
		seen[e.ID] = true
		for _, b := range e.Before {
			if b.Exists {
				_, err := f.j.loadBlob(b.Blob)
				assert.NoError(t, err, "blob of %s in %s", b.Path, e.ID)
			}
		}
	}
	// Undone newest first without conflicts, every file is back to its initial absence.
	for _, e := range listed {
		_, err := f.j.Undo(f.root, e.ID, false)
		require.NoError(t, err)
	}
	for w := range workers {
		for i := range 3 {
			_, _, ok := f.get(fmt.Sprintf("w%d/f%d.txt", w, i))
			assert.False(t, ok)
		}
	}
}

func TestCrashLeftovers(t *testing.T) {
	f := newFixture(t, Limits{})
	e := f.change("write_file", []string{"a.txt"}, func() { f.write("a.txt", "a") })
	entries := filepath.Join(f.jdir, "entries")
	leftovers := []string{
		filepath.Join(entries, ".tmp-123456"),
		filepath.Join(f.jdir, "blobs", ".tmp-abcdef"),
	}
	for _, p := range leftovers {
		require.NoError(t, os.WriteFile(p, []byte(`{"id": "half`), 0o600))
	}
	torn := filepath.Join(entries, "20200101T000000.000000000Z-00000000.json")
	require.NoError(t, os.WriteFile(torn, []byte(`{"id": "2020`), 0o600))
	stranger := filepath.Join(entries, "notes.txt")
	require.NoError(t, os.WriteFile(stranger, []byte("x"), 0o600))

	listed := f.list()
	require.Len(t, listed, 1, "temporary and torn files are ignored")
	assert.Equal(t, e.ID, listed[0].ID)

	require.NoError(t, f.j.Prune())
	for _, p := range append(leftovers, torn) {
		assert.NoFileExists(t, p)
	}
	assert.FileExists(t, stranger, "files that are not the journal's are left alone")
	assert.Len(t, f.list(), 1)
	_, err := f.j.Undo(f.root, e.ID, false)
	require.NoError(t, err)
}

func TestClosedJournal(t *testing.T) {
	f := newFixture(t, Limits{})
	require.NoError(t, f.j.Close())
	_, err := f.j.List()
	require.Error(t, err)
}

func syscallMkfifo(p string) error { return syscall.Mkfifo(p, 0o644) }

func TestLockExcludesOtherJournal(t *testing.T) {
	f := newFixture(t, Limits{})
	other := f.open(Limits{})
	held, release := make(chan struct{}), make(chan struct{})
	go f.j.locked(func() error {
		close(held)
		<-release
		return nil
	})
	<-held
	listed := make(chan error)
	go func() {
		_, err := other.List()
		listed <- err
	}()
	select {
	case <-listed:
		t.Fatal("a second Journal on the directory ran while the first held the lock")
	case <-time.After(100 * time.Millisecond):
	}
	close(release)
	require.NoError(t, <-listed)
}

// TestCrossProcess commits from two child processes (this test binary re-executed) and
// the parent at once, through the same journal directory.
func TestCrossProcess(t *testing.T) {
	const perProcess = 10
	if dir := os.Getenv("JOURNAL_TEST_DIR"); dir != "" {
		crossProcessChild(t, dir, os.Getenv("JOURNAL_TEST_ROOT"), os.Getenv("JOURNAL_TEST_WORKER"), perProcess)
		return
	}
	f := newFixture(t, Limits{})
	var children []*exec.Cmd
	for w := range 2 {
		cmd := exec.Command(os.Args[0], "-test.run=^TestCrossProcess$", "-test.count=1")
		cmd.Env = append(os.Environ(), "JOURNAL_TEST_DIR="+f.jdir, "JOURNAL_TEST_ROOT="+f.rootDir, fmt.Sprintf("JOURNAL_TEST_WORKER=child%d", w))
		require.NoError(t, cmd.Start())
		children = append(children, cmd)
	}
	crossProcessChild(t, f.jdir, f.rootDir, "parent", perProcess)
	for _, cmd := range children {
		require.NoError(t, cmd.Wait())
	}
	listed := f.list()
	require.Len(t, listed, 3*perProcess)
	for _, e := range listed {
		_, err := f.j.Undo(f.root, e.ID, false)
		require.NoError(t, err)
	}
}

// crossProcessChild journals n writes to files of its own.
func crossProcessChild(t *testing.T, jdir, rootDir, worker string, n int) {
	root, err := security.Open(rootDir, security.Options{NoSync: true})
	require.NoError(t, err)
	defer root.Close()
	j, err := Open(jdir, Limits{})
	require.NoError(t, err)
	defer j.Close()
	for i := range n {
		name := fmt.Sprintf("%s/f%d.txt", worker, i%2)
		before, err := j.Capture(root, name)
		require.NoError(t, err)
		_, _, err = root.WriteFile(name, []byte(fmt.Sprint(worker, i)), security.WriteOptions{})
		require.NoError(t, err)
		_, err = j.Commit(root, "write_file", name, before)
		require.NoError(t, err)
		require.NoError(t, j.Prune())
	}
}
