package buffers

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// State is what a session's buffers hold, as a session saves it to carry it to another
// process (jido call --session): every buffer, hidden ones too, by name.
type State struct {
	Buffers []BufferState `json:"buffers,omitempty"`
}

// BufferState is one buffer of a State.
type BufferState struct {
	Name    string `json:"name"`
	Text    string `json:"text"`
	Mode    string `json:"mode,omitempty"`
	Point   int    `json:"point,omitempty"` // the current line, 1-based
	Version int    `json:"version"`         // bumped by every change of the text
	File    string `json:"file,omitempty"`  // where it was last saved (root-relative)
	Saved   int    `json:"saved,omitempty"` // the version it was last saved at
}

// State returns a copy of the buffers, sorted by name.
func (m *Memory) State() State {
	m.mu.Lock()
	defer m.mu.Unlock()
	var s State
	for _, name := range slices.Sorted(maps.Keys(m.bufs)) {
		b := m.bufs[name]
		s.Buffers = append(s.Buffers, BufferState{Name: name, Text: b.text, Mode: b.mode, Point: b.point, Version: b.version, File: b.file, Saved: b.saved})
	}
	return s
}

// Restore replaces the buffers with those of s. A state no session could have made (a bad
// or repeated name, a mode, a text or a count over the limits, a version below 1) is
// refused with an error and the buffers are left as they were.
func (m *Memory) Restore(s State) error {
	bufs := make(map[string]*buffer, len(s.Buffers))
	if len(s.Buffers) > m.limits.Buffers {
		return fmt.Errorf("buffers: %d buffers, more than the limit of %d", len(s.Buffers), m.limits.Buffers)
	}
	for _, b := range s.Buffers {
		switch {
		case CheckName(b.Name) != nil:
			return fmt.Errorf("buffers: %w", CheckName(b.Name))
		case bufs[b.Name] != nil:
			return fmt.Errorf("buffers: two buffers named %q", b.Name)
		case checkMode(b.Mode) != nil:
			return fmt.Errorf("buffers: buffer %q: %w", b.Name, checkMode(b.Mode))
		case len(b.Text) > m.limits.Bytes:
			return fmt.Errorf("buffers: buffer %q holds %d bytes, more than the limit of %d", b.Name, len(b.Text), m.limits.Bytes)
		case b.Version < 1 || b.Saved < 0 || b.Saved > b.Version:
			return fmt.Errorf("buffers: buffer %q: version %d, saved at %d", b.Name, b.Version, b.Saved)
		case strings.ContainsRune(b.File, 0):
			return fmt.Errorf("buffers: buffer %q: bad file name %q", b.Name, b.File)
		}
		bufs[b.Name] = &buffer{text: b.Text, mode: b.Mode, point: max(1, b.Point), version: b.Version, file: b.File, saved: b.Saved}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.bufs = bufs
	return nil
}
