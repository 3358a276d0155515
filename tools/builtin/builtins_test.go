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
		assert.True(t, ptr.Implements(reflect.TypeFor[definitions.Outcomer]()), "%s: %s has no Outcome", b.Def.Name, b.Result)
		if slices.Contains(diffed, b.Def.Name) {
			assert.True(t, ptr.Implements(reflect.TypeFor[definitions.Differ]()), "%s: its preview shows no diff", b.Def.Name)
		}
	}
	assert.ElementsMatch(t, definitions.Names(), bound)
}
