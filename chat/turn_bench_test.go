package chat

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jido-run/jido/agent"
	"github.com/jido-run/jido/manager"
)

// BenchmarkTurnFourReads measures a turn in which the model asks for four reads at once
// (four searches of a 2,000-file tree, or four read_file of 4 KiB), answered by a real
// session. When the agent fanned such calls out, the turn took as long as now, one call
// after another: a session runs its calls one at a time, and search uses every core.
func BenchmarkTurnFourReads(b *testing.B) {
	root := b.TempDir()
	for i := range 2000 {
		p := filepath.Join(root, fmt.Sprintf("d%d/f%d.go", i%40, i))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(strings.Repeat("package x // some text\n", 180)), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	m, err := manager.New(manager.Config{Root: root, JournalDir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	defer m.Close()
	s, err := m.Open(b.Context(), "")
	if err != nil {
		b.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		call func(i int) agent.ToolCall
	}{
		{"search", func(i int) agent.ToolCall {
			return agent.ToolCall{ID: fmt.Sprint("c", i), Name: "search", Args: map[string]any{"query": fmt.Sprintf("text%d|some", i), "is_regex": true, "max_results": 50}}
		}},
		{"read_file", func(i int) agent.ToolCall {
			return agent.ToolCall{ID: fmt.Sprint("c", i), Name: "read_file", Args: map[string]any{"path": fmt.Sprintf("d%d/f%d.go", i, i)}}
		}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			for b.Loop() {
				calls := make([]agent.ToolCall, 4)
				for i := range calls {
					calls[i] = tc.call(i)
				}
				p := &scripted{replies: []agent.Message{{Role: agent.Assistant, Calls: calls}, {Role: agent.Assistant, Text: "done"}}}
				a := &agent.Agent{Provider: p, Exec: &Executor{s: s}, Tools: []agent.ToolSpec{{Name: tc.name, Parameters: map[string]any{"type": "object"}}}}
				if _, err := a.Send(b.Context(), "go"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
