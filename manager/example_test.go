package manager_test

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/jido-run/jido/manager"
	"github.com/jido-run/jido/policy"
)

// A server embeds jido: one Manager per process, a session per agent (or per client), tool
// calls as plain data in and out, and a shutdown that waits for running calls.
func Example() {
	root, _ := os.MkdirTemp("", "project-")
	defer os.RemoveAll(root)
	os.WriteFile(root+"/notes.txt", []byte("remember the milk\n"), 0o644)

	m, err := manager.New(manager.Config{
		Root:        root,
		Permissions: policy.New(policy.ModeDefault), // read-only tools run; changes ask
		MaxSessions: 1000,
		IdleTTL:     30 * time.Minute,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	ctx := context.Background()
	defer m.Shutdown(ctx)

	// A session for one agent; this one may edit files without asking.
	s, err := m.Open(ctx, "agent-1", manager.WithMode(policy.ModeAutoEdit))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()

	read := s.Call(ctx, manager.ToolCall{Name: "read_file", Args: map[string]any{"path": "notes.txt"}})
	var file struct{ Content string }
	read.Decode(&file)
	fmt.Print(file.Content)

	edit := s.Call(ctx, manager.ToolCall{Name: "edit_file", Args: map[string]any{
		"path": "notes.txt", "old_string": "milk", "new_string": "bread",
	}})
	fmt.Println("edit ok:", edit.OK)

	// A tool that needs approval, in a session without anyone to ask: a structured refusal.
	rm := s.Call(ctx, manager.ToolCall{Name: "delete_file", Args: map[string]any{"path": "notes.txt"}})
	fmt.Println(rm.Error.Type)

	// A snippet composes several tools in one round trip.
	vals, _ := s.Eval(ctx, `local r = jido.read_file{path = "notes.txt", line_numbers = false} return r.content`)
	fmt.Print(vals[0])
	// Output:
	//      1	remember the milk
	// edit ok: true
	// permission-error
	// remember the bread
}
