package bridge

import (
	"testing"

	"github.com/jido-run/jido/tools/definitions"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestApplyEdit(t *testing.T) {
	cases := []struct {
		name    string
		content string
		op      definitions.EditOp
		want    string
		count   int
		errType string
		errText string
	}{
		{"unique", "a\nport = 8080\nb\n", definitions.EditOp{OldString: "port = 8080", NewString: "port = 9090"}, "a\nport = 9090\nb\n", 1, "", ""},
		{"dollar is literal", "x = 1\n", definitions.EditOp{OldString: "1", NewString: "$& $1 $$"}, "x = $& $1 $$\n", 1, "", ""},
		{"delete text", "keep\ndrop\n", definitions.EditOp{OldString: "drop\n", NewString: ""}, "keep\n", 1, "", ""},
		{"replace all", "a a a", definitions.EditOp{OldString: "a", NewString: "b", ReplaceAll: true}, "b b b", 3, "", ""},
		{"fill empty file", "", definitions.EditOp{OldString: "", NewString: "hello"}, "hello", 1, "", ""},
		{"ambiguous", "x\ny\nx\n", definitions.EditOp{OldString: "x", NewString: "z"}, "", 0, definitions.ConflictError, "occurs 2 times"},
		{"overlapping is ambiguous", "aaa", definitions.EditOp{OldString: "aa", NewString: "b"}, "", 0, definitions.ConflictError, "occurs 2 times"},
		{"not found", "abc", definitions.EditOp{OldString: "abd", NewString: "x"}, "", 0, definitions.ConflictError, "not found"},
		{"whitespace differs", "\tfoo()\n", definitions.EditOp{OldString: "    foo()", NewString: "bar()"}, "", 0, definitions.ConflictError, "not found"},
		{"identical", "abc", definitions.EditOp{OldString: "b", NewString: "b"}, "", 0, definitions.ValidationError, "identical"},
		{"empty old on non-empty file", "abc", definitions.EditOp{OldString: "", NewString: "x"}, "", 0, definitions.ValidationError, "empty"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, n, terr := applyEdit(c.content, c.op)
			if c.errType != "" {
				require.NotNil(t, terr)
				assert.Equal(t, c.errType, terr.Type)
				assert.Contains(t, terr.Message, c.errText)
				assert.NotEmpty(t, terr.Recovery)
				return
			}
			require.Nil(t, terr)
			assert.Equal(t, c.want, got)
			assert.Equal(t, c.count, n)
		})
	}
}

func TestAmbiguousEditListsLines(t *testing.T) {
	_, _, terr := applyEdit("x\ny\nx\ny\nx\n", definitions.EditOp{OldString: "x", NewString: "z"})
	require.NotNil(t, terr)
	assert.Equal(t, []int{1, 3, 5}, terr.Details["lines"])
}
