package integration

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestColdStartDeps: commands that talk to no model start in a few milliseconds only if
// jido links no SDK it does not need (issue 23). The OpenAI-compatible provider speaks its
// one endpoint itself; openai-go's root package alone pulled in its realtime, responses
// and live packages and their inits.
func TestColdStartDeps(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", module+"cmd/jido").Output()
	require.NoError(t, err)
	for _, dep := range strings.Fields(string(out)) {
		assert.False(t, strings.HasPrefix(dep, "github.com/openai/"), "cmd/jido links %s", dep)
	}
}

// initBudget is the most a jido package may allocate in its package init: tables and
// regexps are built on first use, since every start of jido runs every init (issue 23).
const initBudget = 96 << 10

// TestColdStartInit: no jido package builds big tables at init. Allocation counts, unlike
// durations, are stable on a busy machine; GODEBUG=inittrace=1 reports them per package.
func TestColdStartInit(t *testing.T) {
	cmd := exec.Command(jidoBin, "version")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	seen := 0
	for line := range strings.Lines(string(out)) {
		// init github.com/jido-run/jido/shellclass @2.5 ms, 0.006 ms clock, 2768 bytes, 18 allocs
		f := strings.Fields(line)
		if len(f) < 9 || f[0] != "init" || f[8] != "bytes," || !strings.HasPrefix(f[1], strings.TrimSuffix(module, "/")) {
			continue
		}
		seen++
		bytes, err := strconv.Atoi(f[7])
		require.NoError(t, err, line)
		assert.LessOrEqual(t, bytes, initBudget, "%s allocates %d bytes at init: build its tables on first use", f[1], bytes)
	}
	assert.NotZero(t, seen, "no inittrace lines of jido packages in:\n%s", out)
}
