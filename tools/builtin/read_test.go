package builtin

import (
	"bufio"
	"strings"
	"testing"

	"github.com/jido-run/jido/tools/definitions"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// readParams returns read_file params with the schema's defaults.
func readParams(t *testing.T, args map[string]any) definitions.ReadFileParams {
	t.Helper()
	args["path"] = "f"
	p, terr := definitions.Decode[definitions.ReadFileParams](definitions.ReadFile, args)
	require.Nil(t, terr)
	return p
}

// readString runs read_file's line logic over text.
func readString(t *testing.T, text string, args map[string]any) (*definitions.ReadFileResult, *definitions.ToolError) {
	t.Helper()
	p := readParams(t, args)
	win, terr := window(p)
	if terr != nil {
		return nil, terr
	}
	r := bufio.NewReader(strings.NewReader(text))
	enc, binary := sniff(r)
	require.False(t, binary)
	res := &definitions.ReadFileResult{Encoding: enc}
	require.NoError(t, readLines(t.Context(), r, p, win, res))
	return res, nil
}

func TestReadLinesNumbersAndPages(t *testing.T) {
	text := "one\ntwo\r\nthree\nfour"
	res, _ := readString(t, text, map[string]any{})
	assert.Equal(t, "     1\tone\n     2\ttwo\n     3\tthree\n     4\tfour\n", res.Content)
	assert.Equal(t, 4, res.TotalLines)
	assert.False(t, res.Truncated)

	res, _ = readString(t, text, map[string]any{"offset": 2.0, "limit": 2.0})
	assert.Equal(t, "     2\ttwo\n     3\tthree\n", res.Content)
	assert.True(t, res.Truncated)
	assert.Equal(t, 4, res.NextOffset)
	assert.Equal(t, 2, res.StartLine)
	assert.Equal(t, 3, res.EndLine)

	res, _ = readString(t, text, map[string]any{"line_numbers": false})
	assert.Equal(t, text, res.Content, "unnumbered output is the file's exact text")

	res, _ = readString(t, text, map[string]any{"start_line": 3.0, "end_line": 3.0, "include_context": 1.0})
	assert.Equal(t, "     2\ttwo\n     3\tthree\n     4\tfour\n", res.Content)
}

func TestReadLinesCutsLongLinesAndCapsBytes(t *testing.T) {
	long := strings.Repeat("é", MaxLineChars+5)
	res, _ := readString(t, long+"\nshort\n", map[string]any{})
	assert.Contains(t, res.Content, "[line cut: 5 more characters]")
	assert.Equal(t, 1, res.LinesCut)
	assert.Contains(t, res.Content, "     2\tshort\n")

	text := strings.Repeat("0123456789\n", 100)
	res, _ = readString(t, text, map[string]any{"max_bytes": 50.0})
	assert.True(t, res.Truncated)
	assert.Equal(t, 3, res.NextOffset, "two numbered lines of 18 bytes fit in 50")
	assert.LessOrEqual(t, len(res.Content), 50)
	assert.True(t, strings.HasSuffix(res.Content, "\n"), "output ends at a whole line")
}

func TestReadLinesRejectsBadRanges(t *testing.T) {
	_, terr := readString(t, "a\n", map[string]any{"start_line": 5.0, "end_line": 2.0})
	require.NotNil(t, terr)
	assert.Equal(t, "end_line", terr.Details["field"])
	_, terr = readString(t, "a\n", map[string]any{"start_line": 1.0, "offset": 2.0})
	require.NotNil(t, terr)
}

func TestSniff(t *testing.T) {
	cases := []struct {
		name, text, enc string
		binary          bool
	}{
		{"utf8", "héllo\n", "utf-8", false},
		{"bom", "\xEF\xBB\xBFhi\n", "utf-8-bom", false},
		{"latin1", "caf\xE9\n", "latin-1", false},
		{"nul", "ab\x00cd", "", true},
		{"rune across block end", strings.Repeat("a", sniffBytes-1) + "é", "utf-8", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			enc, binary := sniff(bufio.NewReaderSize(strings.NewReader(c.text), 2*sniffBytes))
			assert.Equal(t, c.binary, binary)
			assert.Equal(t, c.enc, enc)
		})
	}
}
