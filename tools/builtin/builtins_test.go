package builtin

import (
	"reflect"
	"slices"
	"testing"

	"github.com/jido-run/jido/tools/definitions"
	"github.com/stretchr/testify/assert"
)

// TestEveryToolIsBound checks builtins against the catalogue both ways, that every result
// type says its outcome, and that the tools whose dry run previews an edit show its diff.
func TestEveryToolIsBound(t *testing.T) {
	diffed := []string{"write_file", "edit_file", "edit_region", "multi_edit", "plan_apply", "plan_diff"}
	var bound []string
	for _, b := range builtins {
		bound = append(bound, b.Def.Name)
		assert.Equal(t, reflect.Struct, b.Result.Kind(), b.Def.Name)
		ptr := reflect.PointerTo(b.Result)
		assert.True(t, ptr.Implements(reflect.TypeFor[outcomer]()), "%s: %s has no Outcome", b.Def.Name, b.Result)
		if slices.Contains(diffed, b.Def.Name) {
			assert.True(t, ptr.Implements(reflect.TypeFor[Differ]()), "%s: its preview shows no diff", b.Def.Name)
		}
	}
	assert.ElementsMatch(t, definitions.Names(), bound)
}

// TestOutcomeDecodesTheResultType checks Outcome on a result as JSON, and that it refuses
// what is not a built-in result.
func TestOutcomeDecodesTheResultType(t *testing.T) {
	s, ok := Outcome("edit_file", []byte(`{"path":"a","lines_added":2,"lines_removed":0}`))
	assert.True(t, ok)
	assert.Equal(t, "+2 -0", s)
	_, ok = Outcome("my_lua_tool", []byte(`{}`))
	assert.False(t, ok)
	_, ok = Outcome("read_file", []byte(`[1,2]`))
	assert.False(t, ok)
}
