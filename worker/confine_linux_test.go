package worker

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	llsys "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jido-run/jido/tools/definitions"
)

// TestWorkerIsConfined: the worker confines itself before it runs anything, and says how;
// every thread of it has no_new_privs and the syscall filter. (sandbox's TestConfineSelf
// tries the escapes.)
func TestWorkerIsConfined(t *testing.T) {
	if abi, err := llsys.LandlockGetABIVersion(); err != nil || abi <= 0 {
		t.Skip("this kernel has no Landlock")
	}
	_, d := project(t)
	c := client(t, d, Options{})
	assert.Zero(t, c.Confinement(), "before a worker started")
	vals, err := c.Call(t.Context(), "test", `return jido.read_file{path="a.txt"}.content`)
	require.NoError(t, err, "the confined worker still reaches its tools through the host")
	assert.Equal(t, []any{"     1\thello\n"}, vals)
	conf := c.Confinement()
	t.Logf("%+v", conf)
	assert.Positive(t, conf.LandlockABI)
	assert.True(t, conf.Seccomp)
	assert.True(t, conf.NoNewPrivs)

	task := filepath.Join("/proc", strconv.Itoa(c.Pid()), "task")
	threads, err := os.ReadDir(task)
	require.NoError(t, err)
	for _, th := range threads {
		status, err := os.ReadFile(filepath.Join(task, th.Name(), "status"))
		require.NoError(t, err)
		assert.Contains(t, string(status), "\nNoNewPrivs:\t1\n", "thread %s", th.Name())
		assert.Contains(t, string(status), "\nSeccomp:\t2\n", "thread %s", th.Name())
	}
}

// TestUnconfinedWorkerRunsNothing: a worker that cannot confine itself exits, and the call
// fails with worker-error saying why.
func TestUnconfinedWorkerRunsNothing(t *testing.T) {
	exe, err := os.Executable()
	require.NoError(t, err)
	wrapper := filepath.Join(t.TempDir(), "worker.sh")
	script := fmt.Sprintf("#!/bin/sh\nexport %s=1\nexec %q \"$@\"\n", failConfineEnv, exe)
	require.NoError(t, os.WriteFile(wrapper, []byte(script), 0o755))
	_, d := project(t)
	c := client(t, d, Options{Exe: wrapper})
	_, err = c.Call(t.Context(), "test", `return 1`)
	var terr *definitions.ToolError
	require.ErrorAs(t, err, &terr, "%v", err)
	assert.Equal(t, definitions.WorkerError, terr.Type)
	assert.Contains(t, terr.Message, "confining the worker: refused by the test")
	t.Logf("%v", terr)
	assert.Zero(t, c.Pid())
	assert.Zero(t, c.Confinement())
}
