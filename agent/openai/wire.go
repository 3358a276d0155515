package openai

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
)

// The chat-completions API as jido speaks it: the request fields it sends and the chunk
// fields it reads. Our own types, not an SDK's: the one endpoint needs a hundred lines,
// and the SDK cost jido 7 MB of binary and half its start-up time.

// chatRequest is the body of POST {base}/chat/completions.
type chatRequest struct {
	Model    string    `json:"model"`
	Messages []message `json:"messages"`
	Tools    []tool    `json:"tools,omitempty"`
	Stream   bool      `json:"stream"`
	// StreamOptions asks for the usage in a last chunk; servers that do not know it ignore it.
	StreamOptions struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options"`
}

// message is one message of the conversation. Content is nil only for an assistant
// message that is all tool calls.
type message struct {
	Role       string     `json:"role"`
	Content    *string    `json:"content,omitempty"`
	ToolCalls  []toolCall `json:"tool_calls,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"`
}

// toolCall is a call in an assistant message.
type toolCall struct {
	ID       string       `json:"id"`
	Type     string       `json:"type"` // "function"
	Function functionCall `json:"function"`
}

// functionCall names a function and its JSON arguments; in a chunk, pieces of them.
type functionCall struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// tool is a tool on offer.
type tool struct {
	Type     string `json:"type"` // "function"
	Function struct {
		Name        string         `json:"name"`
		Description string         `json:"description"`
		Parameters  map[string]any `json:"parameters,omitempty"`
	} `json:"function"`
}

// chunk is one event of the reply's stream: pieces of the reply, the usage, or an error.
type chunk struct {
	Error   json.RawMessage `json:"error"` // set (even to null) when the server failed mid-stream
	Choices []struct {
		Index int `json:"index"`
		Delta struct {
			Content   string          `json:"content"`
			ToolCalls []toolCallDelta `json:"tool_calls"`
		} `json:"delta"`
	} `json:"choices"`
	Usage *struct {
		PromptTokens     int `json:"prompt_tokens"`
		CompletionTokens int `json:"completion_tokens"`
	} `json:"usage"`
}

// toolCallDelta is a piece of a tool call: the first piece of a call has its id and name.
type toolCallDelta struct {
	Index    int          `json:"index"`
	ID       string       `json:"id"`
	Function functionCall `json:"function"`
}

// maxEventLine bounds a line of the stream (as the SDK did): a server cannot make jido
// buffer without end.
const maxEventLine = 32 << 20

// events reads the data of server-sent events: the "data:" lines of an event joined,
// each followed by a newline; an event ends at a blank line. Event names, ids and
// comments are not used by chat completions and are skipped.
type events struct {
	scan *bufio.Scanner
	data []byte
}

func newEvents(r io.Reader) *events {
	scan := bufio.NewScanner(r)
	scan.Buffer(nil, maxEventLine)
	return &events{scan: scan}
}

// next reads the next event with data; its data is valid until the next call.
func (e *events) next() bool {
	e.data = e.data[:0]
	for e.scan.Scan() {
		line := e.scan.Bytes()
		if len(line) == 0 && len(e.data) > 0 {
			return true
		}
		if name, value, _ := bytes.Cut(line, []byte(":")); string(name) == "data" {
			e.data = append(e.data, bytes.TrimPrefix(value, []byte(" "))...)
			e.data = append(e.data, '\n')
		}
	}
	return false
}

// err is what ended the stream early, nil at its end.
func (e *events) err() error { return e.scan.Err() }
