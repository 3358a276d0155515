package builtin

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/jido-run/jido/security"
	"github.com/jido-run/jido/tools/definitions"
	"github.com/jido-run/jido/walk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// newFind returns the find module over a tree of 20 directories of 10 files, each file
// holding "needle" on lines 3 and 7.
func newFind(t *testing.T) *Find {
	t.Helper()
	dir := t.TempDir()
	for d := range 20 {
		for f := range 10 {
			p := filepath.Join(dir, fmt.Sprintf("d%02d", d), fmt.Sprintf("f%02d.txt", f))
			require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
			require.NoError(t, os.WriteFile(p, []byte("a\nb\nneedle\nc\nd\ne\nneedle again\n"), 0o644))
		}
	}
	root, err := security.Open(dir, security.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { root.Close() })
	return &Find{Deps{Root: root, Store: Disk(root), Walker: walk.New(root, nil)}}
}

func searchParams(mode string, limit int) definitions.SearchParams {
	return definitions.SearchParams{Query: "needle", Path: ".", OutputMode: mode, MaxResults: limit, SortBy: "path"}
}

// TestSearchKeepsTheFirstResultsInOrder checks that however the parallel walk and the
// searchers interleave, max_results returns exactly the first results in (path, line)
// order, and says it truncated.
func TestSearchKeepsTheFirstResultsInOrder(t *testing.T) {
	f := newFind(t)
	for range 20 {
		res, err := f.Search(t.Context(), searchParams("content", 7))
		require.NoError(t, err)
		require.Len(t, res.Matches, 7)
		var got []string
		for _, m := range res.Matches {
			got = append(got, fmt.Sprintf("%s:%d", m.Path, m.Line))
		}
		assert.Equal(t, []string{"d00/f00.txt:3", "d00/f00.txt:7", "d00/f01.txt:3", "d00/f01.txt:7", "d00/f02.txt:3", "d00/f02.txt:7", "d00/f03.txt:3"}, got)
		assert.True(t, res.Truncated)
		assert.Less(t, res.FilesSearched, int64(200), "files past the bound are not read")

		res, err = f.Search(t.Context(), searchParams("files_with_matches", 3))
		require.NoError(t, err)
		assert.Equal(t, []string{"d00/f00.txt", "d00/f01.txt", "d00/f02.txt"}, res.Files)
	}
}

func TestSearchCountsAndCompleteness(t *testing.T) {
	f := newFind(t)
	res, err := f.Search(t.Context(), searchParams("count", 10000))
	require.NoError(t, err)
	assert.Len(t, res.Counts, 200)
	assert.False(t, res.Truncated)
	for _, c := range res.Counts {
		assert.Equal(t, 2, c.Count, c.Path)
	}
	res, err = f.Search(t.Context(), searchParams("content", 400))
	require.NoError(t, err)
	assert.Len(t, res.Matches, 400)
	assert.False(t, res.Truncated, "exactly max_results matches exist")
	assert.EqualValues(t, 200, res.FilesSearched)

	one := searchParams("content", 1)
	one.Path = "d03/f04.txt"
	res, err = f.Search(t.Context(), one)
	require.NoError(t, err)
	assert.Len(t, res.Matches, 1)
	assert.True(t, res.Truncated, "the file has a second match")
	one.MaxResults = 2
	res, err = f.Search(t.Context(), one)
	require.NoError(t, err)
	assert.False(t, res.Truncated)
}

func TestSearchStopsWhenCancelled(t *testing.T) {
	f := newFind(t)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	_, err := f.Search(ctx, searchParams("content", 10))
	require.Error(t, err)
	assert.Equal(t, definitions.TimeoutError, toolError(err).Type)
}
