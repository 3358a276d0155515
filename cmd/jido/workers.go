package main

import (
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/jido-run/jido/worker"
)

// workerReporter returns a manager.Config.OnWorkerStart for a server: it writes to w how
// the sessions' Lua workers are bounded and confined, when the first starts and whenever
// that changes, so that an operator sees what holds them; maxSessions (0: no cap) bounds
// how many run at once.
func workerReporter(w io.Writer, maxSessions int) func(string, worker.Started) {
	var mu sync.Mutex
	last := ""
	return func(_ string, st worker.Started) {
		line := describeWorker(st, maxSessions)
		mu.Lock()
		defer mu.Unlock()
		if line != last {
			last = line
			fmt.Fprintln(w, line)
		}
	}
}

// describeWorker says in one line what bounds and confines a worker, and all of them.
func describeWorker(st worker.Started, maxSessions int) string {
	c := st.Confinement
	var parts []string
	if c.LandlockABI > 0 {
		parts = append(parts, fmt.Sprintf("Landlock ABI %d (no file, no network)", c.LandlockABI))
	}
	if c.Seccomp {
		parts = append(parts, "seccomp (no exec, no new process, no socket)")
	}
	conf := "NOT confined by the kernel (it has neither Landlock nor seccomp)"
	if len(parts) > 0 {
		if c.NoNewPrivs {
			parts = append(parts, "no_new_privs")
		}
		conf = "confined: " + strings.Join(parts, ", ")
	}
	all := "no cap on sessions, so none on the workers' memory together (--max-sessions)"
	if maxSessions > 0 {
		all = fmt.Sprintf("at most %d sessions, so at most %d MiB for the workers together", maxSessions, int64(maxSessions)*(st.MaxMemory>>20))
	}
	return fmt.Sprintf("jido mcp: sessions' Lua runs in worker processes, memory ceiling %d MiB each (%s), %s; %s", st.MaxMemory>>20, st.Ceiling, all, conf)
}
