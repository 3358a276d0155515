package agent

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestRenderResult(t *testing.T) {
	cases := []struct {
		name   string
		result ToolResult
		want   string
	}{
		{
			name:   "ok",
			result: ToolResult{CallID: "c1", Name: "read_file", OK: true, Content: json.RawMessage(`{"content":"x"}`)},
			want:   `{"id":"c1","name":"read_file","ok":true,"result":{"content":"x"}}`,
		},
		{
			name:   "error",
			result: ToolResult{CallID: "c2", Name: "read_file", Content: json.RawMessage(`{"type":"file-error","message":"no such file"}`)},
			want:   `{"id":"c2","name":"read_file","ok":false,"error":{"type":"file-error","message":"no such file"}}`,
		},
		{
			name:   "shortened, no id",
			result: ToolResult{Name: "search", OK: true, Content: json.RawMessage(`{"head":"..."}`), Note: "shortened"},
			want:   `{"name":"search","ok":true,"result":{"head":"..."},"note":"shortened"}`,
		},
		{
			name:   "code is not HTML-escaped",
			result: ToolResult{Name: "read_file", OK: true, Content: json.RawMessage(`{"content":"if a < b && c > d {}"}`)},
			want:   `{"name":"read_file","ok":true,"result":{"content":"if a < b && c > d {}"}}`,
		},
		{
			name:   "content that is not JSON",
			result: ToolResult{Name: "run_shell", OK: true, Content: json.RawMessage(`plain {text`)},
			want:   `{"name":"run_shell","ok":true,"result":"plain {text"}`,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, string(RenderResult(tc.result)))
		})
	}
}
