package security

import (
	"io/fs"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// treeRoots returns the tree's Root and a walk-only Root on the same directory: the tree
// primitives must answer the same on the openat2 fast path and through os.Root.
func treeRoots(t *testing.T, tr *tree) map[string]*Root {
	return map[string]*Root{"openat2": tr.r, "os.Root": walkOnly(t, tr.root, Options{MaxFileSize: 64})}
}

func listing(t *testing.T, r *Root, dir string) []string {
	t.Helper()
	d, err := r.OpenTreeDir(dir)
	require.NoError(t, err)
	defer d.Close()
	entries, err := d.Entries(nil)
	require.NoError(t, err)
	var out []string
	for _, e := range entries {
		out = append(out, e.Name+typeMarkForTest(e.Type))
	}
	slices.Sort(out)
	return out
}

func typeMarkForTest(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "/"
	case m&fs.ModeSymlink != 0:
		return "@"
	case m&fs.ModeNamedPipe != 0:
		return "|"
	}
	return ""
}

func TestTreeDirEntries(t *testing.T) {
	tr := newTree(t, Options{MaxFileSize: 64})
	writeFiles(t, tr.root, map[string]string{
		"sub/.b.txt.tmp-0123456789abcdef": "stale temp",
		"sub/bad\x01name":                 "control character",
		"sub/trailing.":                   "ends in a dot",
	})
	mkfifo(t, tr.host("sub/fifo"))
	for name, r := range treeRoots(t, tr) {
		t.Run(name, func(t *testing.T) {
			assert.Equal(t, []string{"b.txt", "deep/", "fifo|", "link_back@"}, listing(t, r, "sub"))
			root := listing(t, r, ".")
			assert.Contains(t, root, ".git/")
			assert.Contains(t, root, "link_outdir@")
			assert.Contains(t, root, ".env", "secret names are listed, their content is not readable")

			d, err := r.OpenTreeDir("sub")
			require.NoError(t, err)
			info, err := d.Lstat("b.txt")
			require.NoError(t, err)
			assert.Equal(t, int64(5), info.Size)
			assert.True(t, info.Mode.IsRegular())
			info, err = d.Lstat("link_back")
			require.NoError(t, err)
			assert.NotZero(t, info.Mode&fs.ModeSymlink, "Lstat does not follow")
			require.NoError(t, d.Close())
		})
	}
}

func TestOpenTreeDirRefusals(t *testing.T) {
	tr := newTree(t, Options{})
	for name, r := range treeRoots(t, tr) {
		t.Run(name, func(t *testing.T) {
			for dir, want := range map[string]error{
				"link_dir":       nil,            // a symlink is not a walked directory
				"link_outdir":    nil,            // refused, whatever the reason
				"sub/deep/../..": ErrInvalidPath, // not canonical
				"/sub":           ErrInvalidPath,
				"sub//deep":      ErrInvalidPath,
				"a.txt":          ErrNotDir,      // a file
				"missing":        fs.ErrNotExist, // gone
			} {
				d, err := r.OpenTreeDir(dir)
				if !assert.Error(t, err, dir) {
					d.Close()
					continue
				}
				if want != nil {
					assert.ErrorIs(t, err, want, dir)
				}
				assert.NotContains(t, err.Error(), tr.base, "errors carry root-relative paths")
			}
		})
	}
}

func TestReadTreeFile(t *testing.T) {
	tr := newTree(t, Options{MaxFileSize: 64})
	writeFiles(t, tr.root, map[string]string{"big.txt": strings.Repeat("x", 65), "sub/linked.txt": "two links"})
	require.NoError(t, os.Link(tr.host("sub/linked.txt"), tr.host("hardlink.txt")))
	mkfifo(t, tr.host("fifo"))
	for name, r := range treeRoots(t, tr) {
		t.Run(name, func(t *testing.T) {
			buf := make([]byte, 0, 2)
			data, err := r.ReadTreeFile("sub/deep/c.txt", buf)
			require.NoError(t, err)
			assert.Equal(t, "charlie", string(data), "the buffer grows as needed")
			for file, want := range map[string]error{
				".env":           ErrSecret,
				"big.txt":        ErrTooLarge,
				"hardlink.txt":   ErrHardLink,
				"fifo":           ErrNotRegular,
				"sub":            ErrIsDir,
				"link_rel":       nil, // a symlink: ErrChanged on openat2, followed in-root by os.Root
				"link_out":       nil, // ErrChanged on openat2, ErrOutsideRoot by os.Root
				"link_dir/b.txt": nil,
				"missing.txt":    fs.ErrNotExist,
			} {
				within(t, 2*time.Second, func() {
					data, err := r.ReadTreeFile(file, nil)
					assert.NotContains(t, string(data), canary)
					if want == nil {
						if name == "openat2" {
							assert.ErrorIs(t, err, ErrChanged, file)
						}
						return
					}
					assert.ErrorIs(t, err, want, file)
					assert.Empty(t, data)
				})
			}
		})
	}
}

func TestValidName(t *testing.T) {
	for name, want := range map[string]bool{
		"main.go": true, ".gitignore": true, "naïve.txt": true, "a b": true,
		"": false, ".": false, "..": false, "...": false, "x.": false, "x ": false,
		"a\nb": false, "a\x7fb": false, "a\\b": false, "a\u202eb": false, "a\u2024b": false,
		"\xff": false, strings.Repeat("a", 256): false,
	} {
		assert.Equal(t, want, ValidName(name), "%q", name)
	}
}
