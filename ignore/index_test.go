package ignore

import (
	"bytes"
	"crypto/sha1"
	"encoding/binary"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/go-git/go-git/v5/plumbing/format/index"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// indexCase builds a repository whose index has one layout, with the git commands that
// real users run to get it.
type indexCase struct {
	name        string
	init        []string          // git init's options
	files       map[string]string // written before setup
	setup       [][]string        // git commands run after git add -A
	unsupported bool              // ParseIndex must refuse it with ErrIndexUnsupported
	goGit       bool              // go-git's decoder reads it too: its paths must be ours
}

// emptyBlob is the hash of the empty blob, for entries added without a file.
const emptyBlob = "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391"

// conflictStages is "git update-index --index-info" input: one path at stages 1 to 3.
const conflictStages = "100644 " + emptyBlob + " 1\tconflict\n100644 " + emptyBlob + " 2\tconflict\n100644 " + emptyBlob + " 3\tconflict\n"

var longPath = strings.Repeat("d/", 2100) + "f" // 4201 bytes: longer than the 12 bits of an entry's length

var indexCases = []indexCase{
	{name: "version 2", files: map[string]string{"a.txt": "a", "dir/b.go": "b", "dir.x/c": "c", "dir-y": "y", "z/deep/er/f": "f"}, goGit: true},
	{name: "version 3 (intent to add, skip-worktree)", files: map[string]string{"a.txt": "a", "b/c.txt": "c", "later.txt": "l"},
		setup: [][]string{{"rm", "-q", "--cached", "later.txt"}, {"add", "-N", "later.txt"}, {"update-index", "--skip-worktree", "b/c.txt"}}, goGit: true},
	{name: "version 4 (paths share prefixes)", files: map[string]string{"src/pkg/a.go": "a", "src/pkg/ab.go": "b", "src/pkh": "h", "src/q/r/s": "s", "t": "t"},
		setup: [][]string{{"update-index", "--index-version", "4"}}, goGit: true},
	{name: "version 4 with a long path", files: map[string]string{"a": "a"},
		setup: [][]string{{"update-index", "--index-version", "4"}, {"update-index", "--add", "--cacheinfo", "100644," + emptyBlob + "," + longPath}}, goGit: true},
	{name: "version 2 with a long path", files: map[string]string{"a": "a"},
		setup: [][]string{{"update-index", "--add", "--cacheinfo", "100644," + emptyBlob + "," + longPath}}, goGit: true},
	{name: "submodule and symlink entries", files: map[string]string{"a": "a"},
		setup: [][]string{
			{"update-index", "--add", "--cacheinfo", "160000," + emptyBlob + ",vendor/lib"},
			{"update-index", "--add", "--cacheinfo", "120000," + emptyBlob + ",link"},
		}, goGit: true},
	{name: "merge conflict stages", files: map[string]string{"a": "a"},
		setup: [][]string{{"update-index", "--index-info"}}, goGit: true},
	{name: "optional extensions (cache tree, untracked cache, end of entries)", files: map[string]string{"a/b": "b", "c": "c", "u/untracked": "u"},
		setup: [][]string{
			{"rm", "-q", "--cached", "u/untracked"}, {"write-tree"},
			{"update-index", "--untracked-cache"}, {"-c", "index.recordEndOfIndexEntries=true", "status", "--porcelain"},
		}, goGit: true},
	{name: "SHA-256 repository", init: []string{"--object-format=sha256"}, files: map[string]string{"a.txt": "a", "dir/b": "b"}},
	{name: "SHA-256 repository, version 4", init: []string{"--object-format=sha256"}, files: map[string]string{"a.txt": "a", "dir/b": "b", "dir/bc": "c"},
		setup: [][]string{{"update-index", "--index-version", "4"}}},
	{name: "split index", files: map[string]string{"a": "a", "b/c": "c"},
		setup: [][]string{{"update-index", "--split-index"}, {"update-index", "--add", "--cacheinfo", "100644," + emptyBlob + ",new"}}, unsupported: true},
	{name: "sparse index", files: map[string]string{"in/a": "a", "out/b": "b", "out/deep/c": "c", "top": "t"},
		setup: [][]string{{"-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "c"}, {"sparse-checkout", "set", "--cone", "--sparse-index", "in"}}, unsupported: true},
}

// writeIndexCase builds tc's repository in a new directory and returns its .git.
func writeIndexCase(t testing.TB, tc indexCase) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range tc.files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	}
	runGit(t, dir, nil, false, append([]string{"init", "-q"}, tc.init...)...)
	runGit(t, dir, nil, false, "add", "-A")
	for _, args := range tc.setup {
		var stdin []byte
		if args[len(args)-1] == "--index-info" {
			stdin = []byte(conflictStages)
		}
		runGit(t, dir, stdin, false, args...)
	}
	return filepath.Join(dir, ".git")
}

// gitIndexPaths is the ground truth: every path of the index with its stages, as git
// lists it, in git's order.
func gitIndexPaths(t *testing.T, gitDir string) []string {
	t.Helper()
	out := runGit(t, filepath.Dir(gitDir), nil, false, "ls-files", "--stage", "-z")
	var names []string
	for _, rec := range splitNUL(out) {
		_, name, ok := strings.Cut(rec, "\t")
		require.True(t, ok, rec)
		names = append(names, name)
	}
	return names
}

func TestParseIndexAgainstGit(t *testing.T) {
	requireGit(t)
	for _, tc := range indexCases {
		t.Run(tc.name, func(t *testing.T) {
			gitDir := writeIndexCase(t, tc)
			data, err := os.ReadFile(filepath.Join(gitDir, "index"))
			require.NoError(t, err)
			idx, err := ParseIndex(data)
			if tc.unsupported {
				require.ErrorIs(t, err, ErrIndexUnsupported, "ParseIndex must refuse what it cannot read whole, never return part of it")
				assert.Nil(t, idx)
				return
			}
			require.NoError(t, err)
			want := gitIndexPaths(t, gitDir)
			require.NotEmpty(t, want)
			assert.Equal(t, want, idx.names)
			if tc.goGit {
				var gg index.Index
				require.NoError(t, index.NewDecoder(bytes.NewReader(data)).Decode(&gg))
				var names []string
				for _, e := range gg.Entries {
					names = append(names, e.Name)
				}
				assert.Equal(t, names, idx.names, "go-git's decoder reads the same paths")
			}
			if bytes.Equal(data[len(data)-20:], make([]byte, 20)) {
				return
			}
			// index.skipHash (git 2.40 and later) writes zeros instead of the checksum.
			clear(data[len(data)-checksumLen(data):])
			again, err := ParseIndex(data)
			require.NoError(t, err, "an index without its checksum")
			assert.Equal(t, idx.names, again.names)
		})
	}
}

// checksumLen tells the checksum's length of a real index: SHA-1 when its last 20 bytes
// are the SHA-1 of the rest, else SHA-256.
func checksumLen(data []byte) int {
	sum := sha1.Sum(data[:len(data)-20])
	if bytes.Equal(sum[:], data[len(data)-20:]) {
		return 20
	}
	return 32
}

func TestParseIndexEmpty(t *testing.T) {
	requireGit(t)
	dir := t.TempDir()
	gitInit(t, dir)
	runGit(t, dir, nil, false, "read-tree", "--empty") // writes an index without entries
	data, err := os.ReadFile(filepath.Join(dir, ".git", "index"))
	require.NoError(t, err)
	idx, err := ParseIndex(data)
	require.NoError(t, err)
	assert.Zero(t, idx.Len())
	assert.False(t, idx.Tracked("a", false))
	assert.False(t, idx.Tracked("a", true))
	var none *Index
	assert.Zero(t, none.Len())
	assert.False(t, none.Tracked("a", true))
}

// v2Index writes a version 2 SHA-1 index of the given paths, with a valid checksum.
func v2Index(paths ...string) []byte {
	var b bytes.Buffer
	b.WriteString("DIRC")
	binary.Write(&b, binary.BigEndian, uint32(2))
	binary.Write(&b, binary.BigEndian, uint32(len(paths)))
	for _, p := range paths {
		entry := make([]byte, 62, 62+len(p)+8)
		binary.BigEndian.PutUint32(entry[24:], 0o100644)
		binary.BigEndian.PutUint16(entry[60:], uint16(min(len(p), nameMask)))
		entry = append(entry, p...)
		entry = append(entry, make([]byte, 8-len(entry)%8)...)
		b.Write(entry)
	}
	sum := sha1.Sum(b.Bytes())
	b.Write(sum[:])
	return b.Bytes()
}

func TestParseIndexRefusesMalformed(t *testing.T) {
	good := v2Index("a", "b/c")
	_, err := ParseIndex(good)
	require.NoError(t, err)
	mutate := func(f func(b []byte) []byte) []byte { return f(slices.Clone(good)) }
	cases := []struct {
		name string
		data []byte
		want error
	}{
		{"empty", nil, ErrIndexFormat},
		{"no signature", mutate(func(b []byte) []byte { b[0] = 'X'; return b }), ErrIndexFormat},
		{"version 1", mutate(func(b []byte) []byte { b[7] = 1; return b }), ErrIndexUnsupported},
		{"version 5", mutate(func(b []byte) []byte { b[7] = 5; return b }), ErrIndexUnsupported},
		{"more entries than bytes", mutate(func(b []byte) []byte { binary.BigEndian.PutUint32(b[8:], 1<<31); return b }), ErrIndexFormat},
		{"one entry too many", mutate(func(b []byte) []byte { b[11] = 3; return b }), ErrIndexFormat},
		{"cut short", good[:len(good)-30], ErrIndexFormat},
		{"out of order", v2Index("b", "a"), ErrIndexFormat},
		{"empty path", v2Index(""), ErrIndexFormat},
		{"padding not NUL", mutate(func(b []byte) []byte { b[12+62+1] = 'x'; return b }), ErrIndexFormat},
		{"path length disagrees", mutate(func(b []byte) []byte { b[12+61] = 2; return b }), ErrIndexFormat},
		{"stray bytes before the checksum", append(slices.Clone(good[:len(good)-20]), append([]byte("TREE"), good[len(good)-20:]...)...), ErrIndexFormat},
		{"extension overruns", append(slices.Clone(good[:len(good)-20]), append([]byte("TREE\x00\x00\x10\x00"), good[len(good)-20:]...)...), ErrIndexFormat},
		{"unknown required extension", append(slices.Clone(good[:len(good)-20]), append([]byte("abcd\x00\x00\x00\x00"), good[len(good)-20:]...)...), ErrIndexFormat},
		{"split index", append(slices.Clone(good[:len(good)-20]), append([]byte("link\x00\x00\x00\x00"), good[len(good)-20:]...)...), ErrIndexUnsupported},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			idx, err := ParseIndex(tc.data)
			assert.ErrorIs(t, err, tc.want)
			assert.Nil(t, idx)
		})
	}
}

func TestParseIndexVersion4Prefixes(t *testing.T) {
	entry := func(strip byte, suffix string, nameLen int) []byte {
		e := make([]byte, 62)
		binary.BigEndian.PutUint16(e[60:], uint16(nameLen))
		return append(append(append(e, strip), suffix...), 0)
	}
	build := func(entries ...[]byte) []byte {
		b := []byte("DIRC\x00\x00\x00\x04")
		b = binary.BigEndian.AppendUint32(b, uint32(len(entries)))
		for _, e := range entries {
			b = append(b, e...)
		}
		return append(b, make([]byte, 20)...)
	}
	idx, err := ParseIndex(build(entry(0, "src/a.go", 8), entry(4, "b.go", 8), entry(4, "c/d", 7)))
	require.NoError(t, err)
	assert.Equal(t, []string{"src/a.go", "src/b.go", "src/c/d"}, idx.names)

	_, err = ParseIndex(build(entry(0, "ab", 2), entry(3, "c", 1)))
	assert.ErrorIs(t, err, ErrIndexFormat, "a strip longer than the previous path")
	_, err = ParseIndex(build(entry(1, "ab", 2)))
	assert.ErrorIs(t, err, ErrIndexFormat, "the first path has no predecessor to strip")
	_, err = ParseIndex(build(append(entry(0, "ab", 2)[:62], 0x80, 0x80)))
	assert.ErrorIs(t, err, ErrIndexFormat, "a varint cut short")

	// Each entry repeats its predecessor's 3,000-byte path for 66 bytes of index.
	long := strings.Repeat("x", 3000)
	entries := [][]byte{entry(0, long, nameMask)}
	for range 200 {
		entries = append(entries, entry(0, "y", nameMask))
	}
	_, err = ParseIndex(build(entries...))
	assert.ErrorIs(t, err, ErrIndexFormat, "paths that add up to far more than the index")
}

func TestIndexVarint(t *testing.T) {
	cases := []struct {
		name string
		in   []byte
		v    uint64
		n    int
	}{
		{"zero", []byte{0}, 0, 1},
		{"one byte", []byte{0x7f}, 127, 1},
		{"two bytes", []byte{0x80, 0x00}, 128, 2},
		{"two bytes max", []byte{0xff, 0x7f}, 16511, 2},
		{"trailing bytes ignored", []byte{0x05, 0xff}, 5, 1},
		{"cut short", []byte{0x80}, 0, 0},
		{"empty", nil, 0, 0},
		{"overflow", bytes.Repeat([]byte{0xff}, 10), 0, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v, n := indexVarint(tc.in)
			assert.Equal(t, tc.v, v)
			assert.Equal(t, tc.n, n)
		})
	}
}

func TestIndexTracked(t *testing.T) {
	idx, err := ParseIndex(v2Index("a.txt", "dir-x", "dir.x/y", "dir/sub/f", "dirt", "sub"))
	require.NoError(t, err)
	cases := []struct {
		name  string
		path  string
		isDir bool
		want  bool
	}{
		{"file", "a.txt", false, true},
		{"untracked file", "b.txt", false, false},
		{"directory of an entry", "dir", true, true},
		{"deeper directory", "dir/sub", true, true},
		{"a directory is not a file", "dir", false, false},
		{"prefix of a directory name", "di", true, false},
		{"prefix of a deeper name", "dir/su", true, false},
		{"names sorting before dir/ do not count", "dir-", true, false},
		{"directory whose name has a dot", "dir.x", true, true},
		{"entry that is a directory on disk (a submodule)", "sub", true, true},
		{"entry itself", "dir-x", true, true},
		{"below a file", "a.txt/x", false, false},
		{"past the end", "zzz", true, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, idx.Tracked(tc.path, tc.isDir))
		})
	}
	assert.Zero(t, testing.AllocsPerRun(100, func() { idx.Tracked("dir/sub", true) }))
}

// FuzzParseIndex mutates real indexes: ParseIndex must never panic, and whenever go-git's
// decoder also reads the mutated index (its checksum recomputed), both read the same paths.
func FuzzParseIndex(f *testing.F) {
	f.Add(v2Index("a", "b/c", "b/d", strings.Repeat("l", 5000)))
	for _, tc := range indexCases {
		if !tc.goGit || len(tc.init) > 0 {
			continue
		}
		data, err := os.ReadFile(filepath.Join(writeIndexCase(f, tc), "index"))
		require.NoError(f, err)
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		idx, err := ParseIndex(data)
		if err != nil {
			return
		}
		if len(data) >= 20 {
			sum := sha1.Sum(data[:len(data)-20])
			data = append(data[:len(data)-20:len(data)-20], sum[:]...)
		}
		var gg index.Index
		if index.NewDecoder(bytes.NewReader(data)).Decode(&gg) != nil {
			return
		}
		names := []string{}
		for _, e := range gg.Entries {
			names = append(names, e.Name)
		}
		assert.Equal(t, names, append([]string{}, idx.names...))
	})
}

// goSourceIndex is a version 2 index of every file of the Go toolchain's source tree
// (about 11,000 entries, as git add -A would write them), or nil without GOROOT sources.
var goSourceIndex = sync.OnceValue(func() []byte {
	src := filepath.Join(runtime.GOROOT(), "src")
	var paths []string
	filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			rel, _ := filepath.Rel(src, p)
			paths = append(paths, filepath.ToSlash(rel))
		}
		return nil
	})
	if len(paths) == 0 {
		return nil
	}
	slices.Sort(paths)
	return v2Index(paths...)
})

// BenchmarkParseIndex reads the paths of an index of Go's source tree, beside go-git's
// decoder on the same bytes (the reference: what a walk would pay with it).
func BenchmarkParseIndex(b *testing.B) {
	data := goSourceIndex()
	if data == nil {
		b.Skip("no Go sources in GOROOT")
	}
	b.Run("ParseIndex", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := ParseIndex(data); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("go-git", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			var idx index.Index
			if err := index.NewDecoder(bytes.NewReader(data)).Decode(&idx); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkIndexTracked asks an index of Go's source tree about files and directories.
func BenchmarkIndexTracked(b *testing.B) {
	data := goSourceIndex()
	if data == nil {
		b.Skip("no Go sources in GOROOT")
	}
	idx, err := ParseIndex(data)
	require.NoError(b, err)
	queries := []struct {
		path  string
		isDir bool
	}{{"net/http/server.go", false}, {"net/http", true}, {"cmd/go/testdata", true}, {"zz/none", true}, {"go.mod", false}}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		q := queries[i%len(queries)]
		idx.Tracked(q.path, q.isDir)
	}
}
