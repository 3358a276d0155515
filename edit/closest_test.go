package edit

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// crush edit_whitespace_test.go TestCurrentRegionContext: the closest block deep in a file is
// shown with the file's line numbers.
func TestClosestUsesFileLineNumbers(t *testing.T) {
	var b strings.Builder
	for i := 1; i <= 100; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	b.WriteString("func target() {\n\tactual body\n}\n")
	_, err := Apply(b.String(), req("func target() {\n\tstale body\n}", "func target() {\n\tnew body\n}"))
	var ee *Error
	require.ErrorAs(t, err, &ee)
	require.NotEmpty(t, ee.Closest)
	assert.Equal(t, 101, ee.Closest[0].Line)
	assert.Contains(t, ee.Closest[0].Diff, "@@ -1,3 +101,3 @@")
	assert.Contains(t, ee.Closest[0].Diff, "-\tstale body\n+\tactual body")
}

func TestClosestShowsAtMostThreeDistinctPlaces(t *testing.T) {
	var b strings.Builder
	for i := range 6 {
		fmt.Fprintf(&b, "func f%d() {\n\treturn %d\n}\n\n", i, i)
	}
	_, err := Apply(b.String(), req("func f() {\n\treturn 9\n}", "x"))
	var ee *Error
	require.ErrorAs(t, err, &ee)
	require.Len(t, ee.Closest, maxCandidates)
	for i := 1; i < len(ee.Closest); i++ {
		assert.GreaterOrEqual(t, ee.Closest[i].Line-ee.Closest[i-1].Line, 3, "candidates overlap: %+v", ee.Closest)
	}
	assert.Equal(t, 3, strings.Count(ee.Message, "@@ -"), ee.Message)
}

func TestClosestCutsLongDiffs(t *testing.T) {
	var file, old strings.Builder
	for i := range 2 * maxDiffLines {
		fmt.Fprintf(&file, "value_%d = %d\n", i, i)
		fmt.Fprintf(&old, "value_%d = %d\n", i, i+1)
	}
	_, err := Apply(file.String(), req(old.String(), "x"))
	var ee *Error
	require.ErrorAs(t, err, &ee)
	require.NotEmpty(t, ee.Closest)
	d := ee.Closest[0].Diff
	assert.Equal(t, maxDiffLines+1, strings.Count(d, "\n")+1)
	assert.True(t, strings.HasSuffix(d, "\n..."))
}

func TestElides(t *testing.T) {
	for line, want := range map[string]bool{
		"...": true, "  // ...": true, "# ... existing code ...": true, "/* … */": true, "<!-- ... -->": true,
		"...props,": false, "return a...": false, "x := 1": false,
	} {
		assert.Equal(t, want, elides("a\n"+line+"\nb"), line)
	}
}

func TestClosestOnAMinifiedFile(t *testing.T) {
	line := strings.Repeat(`{"key":"value","n":1},`, 50_000)
	_, err := Apply(line+"\n", req(`{"key":"value","n":2},{"other":true}`, "x"))
	var ee *Error
	require.ErrorAs(t, err, &ee)
	require.NotEmpty(t, ee.Closest)
	assert.Less(t, len(ee.Message), 2000)
}
