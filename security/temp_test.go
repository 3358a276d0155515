package security

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestIsTempName(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want bool
	}{
		{name: "typical", in: ".main.go.tmp-0123456789abcdef", want: true},
		{name: "one letter base", in: ".a.tmp-0123456789abcdef", want: true},
		{name: "no base", in: "..tmp-0123456789abcdef"},
		{name: "no leading dot", in: "main.go.tmp-0123456789abcdef"},
		{name: "uppercase hex", in: ".main.go.tmp-0123456789ABCDEF"},
		{name: "short hex", in: ".main.go.tmp-0123456789abcde"},
		{name: "long hex", in: ".main.go.tmp-0123456789abcdef0"},
		{name: "not hex", in: ".main.go.tmp-0123456789abcdeg"},
		{name: "other suffix", in: ".main.go.bak-0123456789abcdef"},
		{name: "plain", in: "main.go"},
		{name: "empty", in: ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, IsTempName(tc.in))
		})
	}
}

func TestTempName(t *testing.T) {
	for _, base := range []string{"a", "main.go", strings.Repeat("é", 127)} {
		name := tempName(base)
		assert.True(t, IsTempName(name), name)
		assert.LessOrEqual(t, len(name), maxComponentBytes)
		assert.NoError(t, checkComponent(name), "temp names are valid names")
		assert.NotEqual(t, name, tempName(base), "temp names are random")
	}
}

func TestSweepTemps(t *testing.T) {
	tr := newTree(t, Options{})
	old := time.Now().Add(-2 * time.Hour)
	stale := []string{".a.txt.tmp-0123456789abcdef", "sub/deep/.c.txt.tmp-fedcba9876543210"}
	kept := []string{
		".fresh.tmp-0123456789abcdef",       // too recent
		".b.tmp-0123456789ABCDEF",           // not our pattern
		".git/.config.tmp-0123456789abcdef", // inside .git
		"notes.txt",
	}
	for _, name := range append(append([]string{}, stale...), kept...) {
		writeFiles(t, tr.root, map[string]string{name: "x"})
		if name != kept[0] {
			require.NoError(t, os.Chtimes(tr.host(name), old, old))
		}
	}
	// newTree made a stale temporary outside; the link to it is not ours to remove.
	require.NoError(t, os.Symlink("../outside/.canary.txt.tmp-0123456789abcdef", tr.host(".link.tmp-0123456789abcdef")))

	n, err := tr.r.SweepTemps(time.Hour)
	require.NoError(t, err)
	assert.Equal(t, len(stale), n)
	for _, name := range stale {
		assert.NoFileExists(t, tr.host(name))
	}
	for _, name := range append(kept, ".link.tmp-0123456789abcdef") {
		_, err := os.Lstat(tr.host(name))
		assert.NoError(t, err, name)
	}
}

func TestRemoveTempsOf(t *testing.T) {
	tr := newTree(t, Options{})
	mine := []string{"sub/.c.txt.tmp-0123456789abcdef", "sub/.c.txt.tmp-fedcba9876543210"}
	kept := []string{
		"sub/c.txt",
		"sub/.cc.txt.tmp-0123456789abcdef", // another file's
		"sub/.c.txt.tmp-0123456789ABCDEF",  // not our pattern
		".c.txt.tmp-0123456789abcdef",      // another directory's
	}
	for _, name := range append(append([]string{}, mine...), kept...) {
		writeFiles(t, tr.root, map[string]string{name: "x"})
	}
	require.NoError(t, tr.r.RemoveTempsOf("sub/c.txt"))
	for _, name := range mine {
		assert.NoFileExists(t, tr.host(name))
	}
	for _, name := range kept {
		assert.FileExists(t, tr.host(name))
	}
	assert.NoError(t, tr.r.RemoveTempsOf("gone/dir/x.txt"), "a missing directory has no temporary files")
	assert.ErrorIs(t, tr.r.RemoveTempsOf("../outside/canary.txt"), ErrOutsideRoot)
}
