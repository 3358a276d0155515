package shellclass

import (
	"os"
	"os/exec"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTablesAreLazy: package init builds none of the rule tables, since every start of jido
// links this package and most classify nothing (issue 23). It looks in a fresh process that
// runs only this test, where nothing has classified a command yet.
func TestTablesAreLazy(t *testing.T) {
	if os.Getenv("SHELLCLASS_FRESH") == "1" {
		for name, built := range map[string]bool{
			"commandRules": commandRules != nil, "readOnly": readOnly != nil, "handlers": handlers != nil,
			"tools": tools != nil, "wrappers": wrappers != nil, "gitRules": gitRules != nil, "gitArgRules": gitArgRules != nil,
		} {
			assert.False(t, built, "package init built %s", name)
		}
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestTablesAreLazy$", "-test.count=1")
	cmd.Env = append(os.Environ(), "SHELLCLASS_FRESH=1")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	assert.Equal(t, ReadOnly, ClassifyArgv([]string{"git", "status"}).Class, "the first call builds them")
}
