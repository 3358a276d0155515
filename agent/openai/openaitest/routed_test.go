package openaitest

import (
	"bytes"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRoutedServer: each conversation follows its own script whatever the order of the
// requests; a conversation past its script, or with no script, gets a 500 naming it.
func TestRoutedServer(t *testing.T) {
	route := func(r Request) string { return r.Model }
	s := NewRoutedServer(route, map[string][]Step{
		"a": {{Text: []string{"a1"}}, {Text: []string{"a2"}}},
		"b": {{Text: []string{"b1"}}},
	})
	defer s.Close()
	post := func(model string) (int, string) {
		res, err := http.Post(s.BaseURL()+"/chat/completions", "application/json", bytes.NewBufferString(`{"model":"`+model+`","messages":[]}`))
		require.NoError(t, err)
		defer res.Body.Close()
		body, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(body)
	}
	for _, want := range []struct{ model, text string }{{"a", "a1"}, {"b", "b1"}, {"a", "a2"}} {
		code, body := post(want.model)
		assert.Equal(t, http.StatusOK, code)
		assert.Contains(t, body, `"content":"`+want.text+`"`)
	}
	code, body := post("b")
	assert.Equal(t, http.StatusInternalServerError, code)
	assert.True(t, strings.Contains(body, `request 2 of script \"b\"`), body)
	code, _ = post("c")
	assert.Equal(t, http.StatusInternalServerError, code)
	assert.Len(t, s.Requests(), 5)
}
