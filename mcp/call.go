package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/jido-run/jido/manager"
	"github.com/jido-run/jido/tools/definitions"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// call answers tools/call: it runs the call in the session's jido session and shapes its
// result. Every failure, an unknown tool or bad arguments included, is a tool error.
func (c *session) call(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
	params := req.Params
	if params == nil {
		params = &sdk.CallToolParamsRaw{}
	}
	js, err := c.open(ctx, req.Session)
	if err != nil {
		return errorResult(asToolError(err)), nil
	}
	args, terr := decodeArgs(params.Name, params.Arguments)
	if terr != nil {
		return errorResult(terr), nil
	}
	if token := params.GetProgressToken(); token != nil {
		var stop func()
		ctx, stop = c.srv.reportProgress(ctx, req.Session, token, params.Name)
		defer stop()
	}
	return toolResult(js.Call(ctx, manager.ToolCall{Name: params.Name, Args: args})), nil
}

// decodeArgs decodes the arguments of a call of tool: a JSON object, or nothing.
func decodeArgs(tool string, raw json.RawMessage) (map[string]any, *definitions.ToolError) {
	var v any
	if len(raw) > 0 {
		_ = json.Unmarshal(raw, &v) // a value of the request, which the SDK has decoded: valid JSON
	}
	got := "a number"
	switch args := v.(type) {
	case nil:
		return map[string]any{}, nil
	case map[string]any:
		return args, nil
	case []any:
		got = "an array"
	case string:
		got = "a string"
	case bool:
		got = "a boolean"
	}
	return nil, definitions.NewError(definitions.ValidationError, "%s: the arguments must be a JSON object, got %s", tool, got).
		Hint(`Pass the arguments as one JSON object, e.g. {"path":"README.md"}`)
}

// asToolError is err as a ToolError: itself if it is one, else an internal-error.
func asToolError(err error) *definitions.ToolError {
	if te, ok := errors.AsType[*definitions.ToolError](err); ok {
		return te
	}
	return definitions.NewError(definitions.InternalError, "%v", err).Hint("Retry, or start a new MCP session")
}

// toolResult is the MCP form of a tool's result: its JSON as structured content and as
// one text content, or the error's JSON with isError.
// A profile's text result (Claude Code's) is the text itself, and a profile's error
// envelope (seed 001's) is the error's content.
func toolResult(res manager.ToolResult) *sdk.CallToolResult {
	v := res.Payload()
	if te, ok := v.(*definitions.ToolError); ok {
		return errorResult(te)
	}
	if text, ok := v.(string); ok {
		return &sdk.CallToolResult{IsError: !res.OK, Content: []sdk.Content{&sdk.TextContent{Text: text}}}
	}
	data, err := encode(v)
	if err != nil {
		return errorResult(definitions.NewError(definitions.InternalError, "%s: encoding the result: %v", res.Name, err))
	}
	out := &sdk.CallToolResult{IsError: !res.OK, Content: []sdk.Content{&sdk.TextContent{Text: string(data)}}}
	if bytes.HasPrefix(data, []byte("{")) { // structured content is an object (a user tool may return a list)
		out.StructuredContent = json.RawMessage(data)
	}
	return out
}

// errorResult is the MCP form of a tool error.
func errorResult(te *definitions.ToolError) *sdk.CallToolResult {
	data, err := encode(te)
	if err != nil { // details that do not encode: the error without them
		data, _ = encode(definitions.ToolError{Type: te.Type, Message: te.Message, Recovery: te.Recovery})
	}
	return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: string(data)}}}
}

// encode is the JSON of v, without HTML escaping (diffs and commands stay readable).
func encode(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// reportProgress returns a context under which the commands of a call of tool report their
// progress to the client of ss as notifications/progress for token, every
// Options.ProgressEvery, and stop, which ends the reporting once the call has returned.
// Notifications go out from a goroutine of their own: the command's waiter only leaves the
// latest state in a slot, so a slow client loses intermediate states, not time. The slot
// is never closed: a cancelled call can return before its command's waiter has stopped.
func (s *Server) reportProgress(ctx context.Context, ss *sdk.ServerSession, token any, tool string) (context.Context, func()) {
	slot := make(chan manager.Progress, 1)
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case p := <-slot:
				_ = ss.NotifyProgress(ctx, &sdk.ProgressNotificationParams{
					ProgressToken: token, Progress: p.Elapsed.Seconds(), Message: progressMessage(tool, p),
				})
			case <-stop:
				return
			}
		}
	}()
	report := func(p manager.Progress) {
		select {
		case slot <- p:
		default: // the previous state is still being sent
		}
	}
	return manager.WithProgress(ctx, s.opts.ProgressEvery, report), func() {
		close(stop)
		<-done
	}
}

// progressMessage describes a running command: "run_shell: 12 s, 3.4 KB of output".
func progressMessage(tool string, p manager.Progress) string {
	return fmt.Sprintf("%s: %d s, %s of output", tool, int(p.Elapsed.Seconds()), size(p.Output))
}

// size renders a byte count for people.
func size(n int64) string {
	switch {
	case n < 1<<10:
		return fmt.Sprintf("%d B", n)
	case n < 1<<20:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	default:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	}
}
