package edit

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestApplyRange(t *testing.T) {
	expect := func(s string) *string { return &s }
	cases := []struct {
		name    string
		content string
		req     RangeRequest
		want    string
		edits   []Span
		kind    ErrorKind
		msg     string
	}{
		{name: "replace_a_line", content: "a\nb\nc\n", req: RangeRequest{2, 2, "B", nil}, want: "a\nB\nc\n", edits: []Span{{2, 2}}},
		{name: "insert_before_the_first_line", content: "a\nb\n", req: RangeRequest{1, 0, "zero", nil}, want: "zero\na\nb\n", edits: []Span{{1, 1}}},
		{name: "append_to_a_file_with_final_newline", content: "a\nb\n", req: RangeRequest{3, 2, "c", nil}, want: "a\nb\nc\n", edits: []Span{{3, 3}}},
		{name: "append_to_a_file_without_final_newline", content: "a\nb", req: RangeRequest{3, 2, "c", nil}, want: "a\nb\nc", edits: []Span{{2, 3}}},
		{name: "delete_lines", content: "a\nb\nc\n", req: RangeRequest{2, 3, "", nil}, want: "a\n", edits: []Span{{2, 1}}},
		{name: "delete_the_last_line_without_final_newline", content: "a\nb", req: RangeRequest{2, 2, "", nil}, want: "a", edits: []Span{{1, 1}}},
		{name: "replace_the_last_line_keeps_no_final_newline", content: "a\nb", req: RangeRequest{2, 2, "c\n", nil}, want: "a\nc"},
		{name: "crlf_file", content: "a\r\nb\r\n", req: RangeRequest{2, 2, "x\ny", nil}, want: "a\r\nx\r\ny\r\n", edits: []Span{{2, 3}}},
		{name: "bom_kept", content: "\ufeffa\nb\n", req: RangeRequest{1, 1, "A", nil}, want: "\ufeffA\nb\n"},
		{name: "fill_an_empty_file", content: "", req: RangeRequest{1, 0, "x", nil}, want: "x\n"},
		{name: "unchanged_is_not_an_error", content: "a\n", req: RangeRequest{1, 1, "a", nil}, want: "a\n"},
		{name: "expected_text_held", content: "alpha\nbeta\n", req: RangeRequest{2, 2, "BETA", expect("beta\n")}, want: "alpha\nBETA\n"},
		{name: "expected_text_gone", content: "alpha\nbeta\n", req: RangeRequest{2, 2, "BETA", expect("bet")}, kind: NotFound, msg: "-bet\n+beta"},
		{name: "start_below_one", content: "a\n", req: RangeRequest{0, 0, "x", nil}, kind: Invalid},
		{name: "end_before_start", content: "a\nb\n", req: RangeRequest{2, 0, "x", nil}, kind: Invalid},
		{name: "past_the_end", content: "a\nb\n", req: RangeRequest{3, 3, "x", nil}, kind: Invalid, msg: "has 2 lines"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, err := ApplyRange(c.content, c.req)
			if c.kind != 0 {
				var ee *Error
				require.ErrorAs(t, err, &ee)
				assert.Equal(t, c.kind, ee.Kind)
				assert.Contains(t, ee.Message, c.msg)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, c.want, res.Content)
			assert.Equal(t, "line-range", res.Strategy)
			if c.edits != nil {
				assert.Equal(t, c.edits, res.Edits)
			}
			if res.Content != c.content {
				checkUntouched(t, c.content, res)
			}
		})
	}
}
