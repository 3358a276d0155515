package runtime

import (
	"os"
	"os/exec"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	lua "github.com/yuin/gopher-lua"
)

// TestImportChangesNoLuaSettings checks, in a fresh process, that importing the package
// leaves gopher-lua's process-wide settings alone and that the first VM sets them.
func TestImportChangesNoLuaSettings(t *testing.T) {
	if os.Getenv("JIDO_RUNTIME_SETTINGS_CHILD") == "1" {
		assert.NotEqual(t, maxArrayIndex, lua.MaxArrayIndex, "set at import")
		assert.True(t, lua.CompatVarArg, "set at import")
		vm, err := New(Options{})
		require.NoError(t, err)
		vm.Close()
		assert.Equal(t, maxArrayIndex, lua.MaxArrayIndex)
		assert.False(t, lua.CompatVarArg)
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestImportChangesNoLuaSettings$", "-test.count=1")
	cmd.Env = append(os.Environ(), "JIDO_RUNTIME_SETTINGS_CHILD=1")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
}
