package chat

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jido-run/jido/agent"
	"github.com/jido-run/jido/manager"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLiveLines(t *testing.T) {
	for _, tc := range []struct {
		name string
		p    manager.Progress
		want []string
		sum  string
	}{
		{"the last five, blank lines skipped", manager.Progress{Tail: "1\n2\n3\n\n4\n5\n6\n7\n", Output: 17},
			[]string{"3", "4", "5", "6", "7"}, "7 · 17 B of output"},
		{"a line not ended yet", manager.Progress{Tail: "a\nhalf", Output: 6}, []string{"a", "half"}, "half · 6 B of output"},
		{"the first line of a cut tail is partial", manager.Progress{Tail: "tial\nwhole\n", Output: 5000}, []string{"whole"}, "whole · 5.0 KB of output"},
		{"colours dropped, progress bars as shown", manager.Progress{Tail: "\x1b[32mok\x1b[0m\tpkg\n10%\r50%\r100%\r\n"},
			[]string{"ok    pkg", "100%"}, "100% · 30 B of output"},
		{"other escapes shown escaped", manager.Progress{Tail: "x\x1b]0;owned\a\u202e\u009b2J\n"},
			[]string{`x\x1b]0;owned\a\u202e\u009b2J`}, `x\x1b]0;owne… · 19 B of output`}, // the summary's line cut to fit beside the size
		{"cut to the width", manager.Progress{Tail: strings.Repeat("é", 50) + "\n", Output: 101},
			[]string{strings.Repeat("é", 29) + "…"}, strings.Repeat("é", 11) + "… · 101 B of output"},
		{"nothing written", manager.Progress{}, nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var l Live
			if tc.p.Output == 0 {
				tc.p.Output = int64(len(tc.p.Tail)) // all the output is in the tail
			}
			l.Update(tc.p)
			assert.Equal(t, tc.want, l.Lines(30))
			assert.Equal(t, tc.sum, l.Summary(30))
			for _, s := range l.Lines(30) {
				assertTerminalSafe(t, s)
			}
		})
	}
}

func TestLiveBlockUnderTheCallThenCollapsed(t *testing.T) {
	f := newFakeTerm(true, false)
	call := agent.ToolCall{ID: "c1", Name: "run_tests", Args: map[string]any{"path": "./..."}}
	a := &agent.Agent{}
	a.OnEvent = func(e agent.Event) {
		if e.Kind == agent.EventToolResult {
			f.v.write(f.v.toolLine(*e.Call, *e.Result)) // as the REPL prints it
		}
	}
	end := f.v.begin(a)
	a.OnEvent(agent.Event{Kind: agent.EventToolCall, Call: &call})
	var tail strings.Builder
	for i := range 8 {
		fmt.Fprintf(&tail, "=== RUN Test%d\n", i)
	}
	f.v.progress(call, manager.Progress{Elapsed: 2 * time.Second, Output: int64(tail.Len()), Tail: tail.String()})
	f.tick(time.Second)
	assert.Equal(t, "\r⠋ run_tests ./... 3.0s\x1b[K\n  │ === RUN Test3\x1b[K\n  │ === RUN Test4\x1b[K\n  │ === RUN Test5\x1b[K\n"+
		"  │ === RUN Test6\x1b[K\n  │ === RUN Test7\x1b[K", f.out.String(), "the call's line and its last five lines")
	f.out.Reset()
	tail.WriteString("ok  ./...\n")
	f.v.progress(call, manager.Progress{Elapsed: 3 * time.Second, Output: int64(tail.Len()), Tail: tail.String()})
	f.tick(time.Second)
	assert.Equal(t, "\x1b[5A\r⠙ run_tests ./... 4.0s\x1b[K\n  │ === RUN Test4\x1b[K\n  │ === RUN Test5\x1b[K\n  │ === RUN Test6\x1b[K\n"+
		"  │ === RUN Test7\x1b[K\n  │ ok  ./...\x1b[K", f.out.String(), "redrawn in place")
	f.out.Reset()

	a.OnEvent(agent.Event{Kind: agent.EventToolResult, Call: &call, Result: &agent.ToolResult{OK: true, Outcome: "3 passed"}})
	assert.Equal(t, "\x1b[5A\r\x1b[J● run_tests ./... → 3 passed\n  ⎿ ok  ./... · 122 B of output\n", f.out.String(),
		"collapsed to the call's line and a summary")
	end()
	assert.Empty(t, f.v.live, "forgotten")
}

// syncBuffer is a buffer written by the view's goroutine and read by the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestLiveBlockOfARealCommand(t *testing.T) {
	h, _ := hostOn(t)
	var out syncBuffer
	v := newView(&out, style{})
	v.term = true // as if out were a terminal
	p := &scripted{replies: []agent.Message{
		{Role: agent.Assistant, Calls: []agent.ToolCall{{ID: "s1", Name: "run_shell", Args: map[string]any{
			"command": "for i in 1 2 3 4 5 6 7; do echo line $i; done; echo token ghp_abcdefghijklmnopqrstuvwxyz0123456789; sleep 1"}}}},
		{Role: agent.Assistant, Text: "Done."},
	}}
	a := &agent.Agent{Provider: p, Exec: h.Exec, Tools: []agent.ToolSpec{{Name: "run_shell", Parameters: map[string]any{"type": "object"}}}}
	a.OnEvent = func(e agent.Event) {
		switch e.Kind {
		case agent.EventText:
			v.text(e.Text)
		case agent.EventToolResult:
			v.endLine()
			line := v.toolLine(*e.Call, *e.Result)
			v.mu.Lock()
			v.write(line)
			v.mu.Unlock()
		}
	}
	end := v.begin(a)
	_, err := a.Send(t.Context(), "run it")
	end()
	v.endLine()
	require.NoError(t, err)
	got := out.String()
	assert.Contains(t, got, "⠋ run_shell for i in 1 2 3 4 5 6 7; do echo line $i; done; echo token gh… 0.3s", "the call's spinner")
	assert.Contains(t, got, "  │ line 4\x1b[K\n  │ line 5\x1b[K\n  │ line 6\x1b[K\n  │ line 7\x1b[K\n  │ token ", "its latest lines, live")
	assert.NotContains(t, got, "ghp_abcdefghijklmnopqrstuvwxyz0123456789", "redacted as the result is")
	assert.Contains(t, got, "● run_shell for i in")
	assert.Regexp(t, `\n  ⎿ token \[REDACTED:github-token\] · \d+ B of output\n`, got, "collapsed to a summary")
	assert.True(t, strings.HasSuffix(got, "Done.\n"), "%q", got)
	assert.Same(t, h.Exec, a.Exec, "the executor is given back")
}
