package chat

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// spinnerFrames turn one step per tick.
var spinnerFrames = []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}

// Spinner is the line that says something runs: a turning frame, what runs and for how
// long, "⠋ thinking 3.2s" or "⠋ run_tests ./... 5.1s". It only composes the line; the
// status block draws it below the output and erases it before anything else is printed,
// and only on a terminal.
type Spinner struct {
	label string
	since time.Time
	frame int
}

// Start shows label, timed from now; the same label again keeps its time.
func (s *Spinner) Start(label string, now time.Time) {
	if s.label != label {
		s.label, s.since = label, now
	}
}

// Stop hides the spinner.
func (s *Spinner) Stop() { s.label = "" }

// Active reports whether the spinner shows something, and since when.
func (s *Spinner) Active() (bool, time.Time) { return s.label != "", s.since }

// Line is the spinner's line at now, turning the frame, its label cut so that the line
// fits in width columns; "" when stopped. The label is already safe to print (callLabel).
func (s *Spinner) Line(st style, now time.Time, width int) string {
	if s.label == "" {
		return ""
	}
	f := spinnerFrames[s.frame%len(spinnerFrames)]
	s.frame++
	t := elapsed(now.Sub(s.since))
	label := fit(s.label, width-utf8.RuneCountInString(t)-3)
	return st.paint(cyan, f) + " " + label + " " + st.paint(dim, t)
}

// elapsed is a duration as the spinner shows it: 3.2s, 1m05s.
func elapsed(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	if d < time.Minute {
		return fmt.Sprintf("%.1fs", d.Seconds())
	}
	return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
}

// block is what is drawn below the output on a terminal (the spinner, a live command's
// lines): it is redrawn in place, and erased before anything else is printed. The cursor
// stays at the end of its last line; its lines never wrap (they are cut to the width).
type block struct{ lines int }

// draw returns what replaces the block on screen with lines.
func (b *block) draw(lines []string) string {
	var s strings.Builder
	if b.lines > 1 {
		fmt.Fprintf(&s, "\x1b[%dA", b.lines-1)
	}
	s.WriteString("\r")
	for i, l := range lines {
		if i > 0 {
			s.WriteString("\n")
		}
		s.WriteString(l)
		s.WriteString("\x1b[K")
	}
	if len(lines) < b.lines {
		s.WriteString("\x1b[J")
	}
	b.lines = len(lines)
	return s.String()
}

// erase returns what removes the block, leaving the cursor where it began; "" when nothing
// is drawn.
func (b *block) erase() string {
	if b.lines == 0 {
		return ""
	}
	s := "\r\x1b[J"
	if b.lines > 1 {
		s = fmt.Sprintf("\x1b[%dA", b.lines-1) + s
	}
	b.lines = 0
	return s
}
