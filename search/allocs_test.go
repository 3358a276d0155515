//go:build !race

package search

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The allocation tests: built without the race detector only, under which allocations are
// not counted (.ci/run runs them in a pass of their own).

func TestNoMatchDoesNotAllocate(t *testing.T) {
	data := []byte(strings.Repeat("func main() {\n\tfmt.Println(\"hello, world\") // a comment\n}\n\n", 200))
	for _, o := range noMatchQueries {
		t.Run(o.Query, func(t *testing.T) {
			m, err := Compile(o)
			require.NoError(t, err)
			emit := func(Match) bool { return true }
			assert.Zero(t, testing.AllocsPerRun(20, func() { m.Search(data, emit) }), "Search")
			assert.Zero(t, testing.AllocsPerRun(20, func() { m.Count(data, 0) }), "Count")
			assert.Zero(t, testing.AllocsPerRun(20, func() { m.Matches(data) }), "Matches")
			assert.Zero(t, m.Count(data, 0))
		})
	}
}

func TestCountDoesNotAllocateWithLiterals(t *testing.T) {
	data := []byte(strings.Repeat("func main() {\n\tfmt.Println(\"hello\")\n}\n", 100))
	for _, o := range []Options{{Query: "main"}, {Query: "MAIN", IgnoreCase: true}, {Query: `m\w+\(`, Regex: true}} {
		m, err := Compile(o)
		require.NoError(t, err)
		assert.Zero(t, testing.AllocsPerRun(20, func() { m.Count(data, 0) }), "%+v", o)
		assert.True(t, m.Matches(data))
	}
}
