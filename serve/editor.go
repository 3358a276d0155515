package serve

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/jido-run/jido/buffers"
	"github.com/jido-run/jido/tools/definitions"
)

// Editor is a session's buffers held by the front end (a live editor): the buffer tools
// act on its real buffers, unsaved ones included. The editor only lends the text (ops
// list, get, set, saved of the `buffer` request); every rule of the tools (matching,
// limits, results) stays jido's: each call loads the buffer into a buffers.Memory, runs
// the tool there, and sends the text back when it changed.
type Editor struct {
	peer   *Peer
	limits buffers.Limits
}

var _ buffers.Buffers = (*Editor)(nil)

// editorTimeout bounds one exchange with the editor: the buffer tools carry no context.
const editorTimeout = 30 * time.Second

// editorBuffer is a buffer as the editor describes it (op get).
type editorBuffer struct {
	Name     string `json:"name"`
	Text     string `json:"text"`
	Mode     string `json:"mode,omitempty"`
	Point    int    `json:"point,omitempty"`
	Version  int    `json:"version"`
	File     string `json:"file,omitempty"`
	Modified bool   `json:"modified"`
}

// exchange sends one buffer op to the editor: answered is its error answer, err a failure
// to get any answer.
func (e *Editor) exchange(op string, params map[string]any, result any) (answered *Error, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), editorTimeout)
	defer cancel()
	params["op"] = op
	err = e.peer.Call(ctx, "buffer", params, result)
	switch {
	case errors.As(err, &answered):
		return answered, nil
	case err != nil:
		return nil, definitions.NewError(definitions.InternalError, "the editor did not answer buffer op %s: %v", op, err).With("op", op).
			Hint("Check that the editor is still connected, then retry")
	}
	return nil, nil
}

// call sends one buffer op to the editor. An error answer whose data is a ToolError is
// returned as that ToolError.
func (e *Editor) call(op string, params map[string]any, result any) error {
	answered, err := e.exchange(op, params, result)
	if answered == nil {
		return err
	}
	if te, ok := definitions.ErrorFromValue(answered.Data); ok {
		return te
	}
	return definitions.NewError(definitions.InternalError, "the editor refused buffer op %s: %s", op, answered.Message).With("op", op)
}

// get returns the editor's buffer named name, nil when it has none (it answers null, or
// an error: the editor's own word for an unknown name).
func (e *Editor) get(name string) (*editorBuffer, error) {
	var b *editorBuffer
	answered, err := e.exchange("get", map[string]any{"name": name}, &b)
	if answered != nil {
		return nil, nil
	}
	return b, err
}

// with runs op on a Memory holding the editor's buffer name (when it exists) and sends
// the buffer back when op changed its text or point, or made it.
func (e *Editor) with(name string, op func(m *buffers.Memory) (any, error)) (any, error) {
	if err := buffers.CheckName(name); err != nil {
		return nil, err
	}
	before, err := e.get(name)
	if err != nil {
		return nil, err
	}
	m := buffers.NewWithLimits(e.limits)
	if before != nil {
		version := max(1, before.Version)
		saved := 0
		if !before.Modified && before.File != "" {
			saved = version
		}
		st := buffers.State{Buffers: []buffers.BufferState{{Name: name, Text: before.Text, Mode: before.Mode, Point: max(1, before.Point), Version: version, File: before.File, Saved: saved}}}
		if err := m.Restore(st); err != nil {
			return nil, definitions.NewError(definitions.ValidationError, "the editor's buffer %q cannot be used: %v", name, err).With("buffer_name", name)
		}
	}
	res, err := op(m)
	if err != nil {
		return nil, err
	}
	after := m.State().Buffers
	i := slices.IndexFunc(after, func(b buffers.BufferState) bool { return b.Name == name })
	if i < 0 {
		return res, nil
	}
	a := after[i]
	if before == nil || a.Text != before.Text || a.Point != before.Point {
		params := map[string]any{"name": name, "text": a.Text, "point": a.Point, "create": before == nil}
		if before == nil && a.Mode != "" {
			params["mode"] = a.Mode
		}
		if err := e.call("set", params, nil); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// typed is with for an op whose result is a *R.
func typed[R any](e *Editor, name string, op func(m *buffers.Memory) (*R, error)) (*R, error) {
	res, err := e.with(name, func(m *buffers.Memory) (any, error) { return op(m) })
	if err != nil {
		return nil, err
	}
	return res.(*R), nil
}

// Create makes a buffer in the editor (refused, as in memory, when it exists).
func (e *Editor) Create(p definitions.BufferCreateParams) (*definitions.BufferCreateResult, error) {
	return typed(e, p.BufferName, func(m *buffers.Memory) (*definitions.BufferCreateResult, error) { return m.Create(p) })
}

// Append adds text to the end of an editor buffer.
func (e *Editor) Append(p definitions.BufferAppendParams) (*definitions.BufferAppendResult, error) {
	return typed(e, p.BufferName, func(m *buffers.Memory) (*definitions.BufferAppendResult, error) { return m.Append(p) })
}

// Edit replaces text in an editor buffer with jido's matching.
func (e *Editor) Edit(p definitions.BufferEditParams) (*definitions.BufferEditResult, error) {
	return typed(e, p.BufferName, func(m *buffers.Memory) (*definitions.BufferEditResult, error) { return m.Edit(p) })
}

// Content reads an editor buffer.
func (e *Editor) Content(p definitions.BufferGetContentParams) (*definitions.BufferGetContentResult, error) {
	return typed(e, p.BufferName, func(m *buffers.Memory) (*definitions.BufferGetContentResult, error) { return m.Content(p) })
}

// GotoLine moves an editor buffer's point.
func (e *Editor) GotoLine(p definitions.GotoLineParams) (*definitions.GotoLineResult, error) {
	return typed(e, p.BufferName, func(m *buffers.Memory) (*definitions.GotoLineResult, error) { return m.GotoLine(p) })
}

// Search searches an editor buffer.
func (e *Editor) Search(p definitions.SearchInBufferParams) (*definitions.SearchInBufferResult, error) {
	return typed(e, p.BufferName, func(m *buffers.Memory) (*definitions.SearchInBufferResult, error) { return m.Search(p) })
}

// List lists the buffers the editor shows the agent.
func (e *Editor) List(p definitions.BufferListParams) (*definitions.BufferListResult, error) {
	var list struct {
		Buffers []struct {
			Name     string `json:"name"`
			File     string `json:"file"`
			Mode     string `json:"mode"`
			Size     int    `json:"size"`
			Modified bool   `json:"modified"`
		} `json:"buffers"`
	}
	if err := e.call("list", map[string]any{}, &list); err != nil {
		return nil, err
	}
	res := &definitions.BufferListResult{Buffers: []definitions.BufferInfo{}}
	for _, b := range list.Buffers {
		if buffers.CheckName(b.Name) != nil || buffers.Hidden(b.Name) && !p.IncludeHidden {
			continue
		}
		res.Buffers = append(res.Buffers, definitions.BufferInfo{Name: b.Name, Mode: b.Mode, Bytes: b.Size, Hidden: buffers.Hidden(b.Name), File: b.File, Modified: b.Modified})
	}
	slices.SortFunc(res.Buffers, func(a, b definitions.BufferInfo) int { return strings.Compare(a.Name, b.Name) })
	return res, nil
}

// Snapshot returns an editor buffer's text and version, for buffer_save.
func (e *Editor) Snapshot(name string) (string, int, error) {
	b, err := e.get(name)
	if err != nil {
		return "", 0, err
	}
	if b == nil {
		_, err := buffers.NewWithLimits(e.limits).Content(definitions.BufferGetContentParams{BufferName: name})
		return "", 0, err // the in-memory error: no buffer named ...
	}
	return b.Text, b.Version, nil
}

// Saved tells the editor that version of the buffer was written to path.
func (e *Editor) Saved(name, path string, version int) error {
	if err := e.call("saved", map[string]any{"name": name, "path": path, "version": version}, nil); err != nil {
		return fmt.Errorf("the file is written, but the editor was not told: %w", err)
	}
	return nil
}
