package chat

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/jido-run/jido/agent"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeTerm is a view on a buffer, as if on a terminal or not, with a clock and ticks the
// test drives.
type fakeTerm struct {
	v     *view
	out   *bytes.Buffer
	clock time.Time
	ticks chan time.Time
}

func newFakeTerm(terminal, color bool) *fakeTerm {
	f := &fakeTerm{out: &bytes.Buffer{}, clock: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), ticks: make(chan time.Time)}
	f.v = newView(f.out, style{color})
	f.v.term = terminal
	f.v.width = func() int { return 40 }
	f.v.now = func() time.Time { return f.clock }
	f.v.ticker = func() (<-chan time.Time, func()) { return f.ticks, func() {} }
	return f
}

// tick advances the clock and draws the block as a tick does (the ticking goroutine is
// tested on its own: TestSpinnerTicks).
func (f *fakeTerm) tick(d time.Duration) {
	f.clock = f.clock.Add(d)
	f.v.draw()
}

func TestSpinnerOnlyOnATerminal(t *testing.T) {
	for _, terminal := range []bool{true, false} {
		f := newFakeTerm(terminal, false)
		a := &agent.Agent{OnEvent: func(e agent.Event) { f.v.text(e.Text) }} // as the REPL shows text
		end := f.v.begin(a)
		f.tick(100 * time.Millisecond)
		if terminal {
			assert.Empty(t, f.out.String(), "nothing drawn for what ends sooner than showAfter")
		}
		f.tick(3100 * time.Millisecond)
		f.tick(0)
		if terminal {
			assert.Equal(t, "\r⠋ thinking 3.2s\x1b[K\r⠙ thinking 3.2s\x1b[K", f.out.String(), "a frame per tick, redrawn in place")
		}
		a.OnEvent(agent.Event{Kind: agent.EventText, Text: "Hello **you**.\n"})
		f.tick(time.Second)
		end()
		if !terminal {
			assert.Equal(t, "Hello you.\n", f.out.String(), "no frame, no escape sequence off a terminal")
			continue
		}
		out := f.out.String()
		assert.Contains(t, out, "\x1b[K\r\x1b[JHello you.\n", "the spinner is erased before the text")
		assert.True(t, strings.HasSuffix(out, "Hello you.\n\r⠹ thinking 4.2s\x1b[K\r\x1b[J"), "redrawn under the text, erased at the end: %q", out)
	}
}

func TestSpinnerStopsWhileACallMayAskAndThinksAfter(t *testing.T) {
	f := newFakeTerm(true, true)
	a := &agent.Agent{}
	end := f.v.begin(a)
	defer end()
	call := agent.ToolCall{ID: "c1", Name: "write_file", Args: map[string]any{"path": "a.txt"}}
	a.OnEvent(agent.Event{Kind: agent.EventToolCall, Call: &call})
	f.tick(5 * time.Second)
	assert.Empty(t, f.out.String(), "no spinner while the call runs: it may be asking for approval")

	a.OnEvent(agent.Event{Kind: agent.EventToolResult, Call: &call, Result: &agent.ToolResult{OK: true, Outcome: "written"}})
	f.tick(time.Second)
	assert.Equal(t, "\r\x1b[36m⠋\x1b[0m thinking \x1b[2m1.0s\x1b[0m\x1b[K", f.out.String(),
		"the next request: thinking, timed from the result, in colour")
	f.out.Reset()
	a.OnEvent(agent.Event{Kind: agent.EventRetry, Text: "rate limited"})
	assert.Equal(t, "\r\x1b[J", f.out.String(), "erased while an event is shown")
}

func TestSpinnerTicks(t *testing.T) {
	f := newFakeTerm(true, false)
	a := &agent.Agent{}
	end := f.v.begin(a)
	f.clock = f.clock.Add(time.Second)
	f.ticks <- f.clock
	f.ticks <- f.clock // the first tick's frame is drawn before the goroutine takes another
	end()
	out := f.out.String()
	assert.True(t, strings.HasPrefix(out, "\r⠋ thinking 1.0s\x1b[K"), "%q", out)
	assert.True(t, strings.HasSuffix(out, "\r\x1b[J"), "erased when the turn ends: %q", out)
	n := f.out.Len()
	f.v.draw()
	assert.Equal(t, n, f.out.Len(), "nothing is drawn once the turn ended")
}

func TestSpinnerLine(t *testing.T) {
	var s Spinner
	now := time.Now()
	assert.Equal(t, "", s.Line(style{}, now, 80), "stopped")
	s.Start("run_tests ./...", now)
	assert.Equal(t, "⠋ run_tests ./... 0.0s", s.Line(style{}, now, 80))
	s.Start("run_tests ./...", now.Add(time.Hour))
	assert.Equal(t, "⠙ run_tests ./... 1m05s", s.Line(style{}, now.Add(65*time.Second), 80), "the same label keeps its time")
	assert.Equal(t, "⠹ run_test… 2.0s", s.Line(style{}, now.Add(2*time.Second), 16), "cut to the width")
	s.Stop()
	ok, _ := s.Active()
	assert.False(t, ok)
}

func TestBlockDrawsInPlace(t *testing.T) {
	var b block
	assert.Equal(t, "", b.erase(), "nothing drawn, nothing erased")
	assert.Equal(t, "\ra\x1b[K\nb\x1b[K\nc\x1b[K", b.draw([]string{"a", "b", "c"}))
	assert.Equal(t, "\x1b[2A\rx\x1b[K\x1b[J", b.draw([]string{"x"}), "up to the first line, the old lines below cleared")
	assert.Equal(t, "\r\x1b[J", b.erase())
	require.Equal(t, "\ra\x1b[K\nb\x1b[K", b.draw([]string{"a", "b"}))
	assert.Equal(t, "\x1b[1A\r\x1b[J", b.erase())
}

func TestTextBeforeACallShownBeforeIt(t *testing.T) {
	f := newFakeTerm(false, false)
	a := &agent.Agent{OnEvent: func(e agent.Event) {
		if e.Kind == agent.EventText {
			f.v.text(e.Text)
		}
	}}
	end := f.v.begin(a)
	defer end()
	a.OnEvent(agent.Event{Kind: agent.EventText, Text: "Cleaning **up**."})
	assert.Empty(t, f.out.String(), "a line not complete waits")
	call := agent.ToolCall{Name: "run_shell"}
	a.OnEvent(agent.Event{Kind: agent.EventToolCall, Call: &call})
	assert.Equal(t, "Cleaning up.\n", f.out.String(), "shown when a call starts: before any approval question")
}
