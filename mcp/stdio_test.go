package mcp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/jido-run/jido/manager"
	"github.com/jido-run/jido/policy"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// notMessages are lines that are not MCP messages, each with the code and id of its
// answer (nil: null).
var notMessages = []struct {
	name, line string
	code       int64
	id         any
}{
	{"not JSON", `{not json`, jsonrpc.CodeParseError, nil},
	{"truncated", `{"jsonrpc":"2.0","id":1,"method":"ping"`, jsonrpc.CodeParseError, nil},
	{"not UTF-8", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\xff\"}", jsonrpc.CodeParseError, nil},
	{"no jsonrpc", `{"id":2,"method":"ping"}`, jsonrpc.CodeInvalidRequest, 2.0},
	{"jsonrpc 1.0", `{"jsonrpc":"1.0","id":"a","method":"ping"}`, jsonrpc.CodeInvalidRequest, "a"},
	{"jsonrpc as a number", `{"jsonrpc":2.0,"id":3,"method":"ping"}`, jsonrpc.CodeInvalidRequest, 3.0},
	{"jsonrpc in capitals", `{"JSONRPC":"2.0","id":4,"method":"ping"}`, jsonrpc.CodeInvalidRequest, 4.0},
	{"method a number", `{"jsonrpc":"2.0","id":5,"method":5}`, jsonrpc.CodeInvalidRequest, 5.0},
	{"method null", `{"jsonrpc":"2.0","id":6,"method":null}`, jsonrpc.CodeInvalidRequest, 6.0},
	{"id an object", `{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, jsonrpc.CodeInvalidRequest, nil},
	{"id a boolean", `{"jsonrpc":"2.0","id":true,"method":"ping"}`, jsonrpc.CodeInvalidRequest, nil},
	{"id null", `{"jsonrpc":"2.0","id":null,"method":"ping"}`, jsonrpc.CodeInvalidRequest, nil},
	{"id a fraction", `{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, jsonrpc.CodeInvalidRequest, nil},
	{"id over 53 bits", `{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}`, jsonrpc.CodeInvalidRequest, nil},
	{"neither request nor response", `{"jsonrpc":"2.0"}`, jsonrpc.CodeInvalidRequest, nil},
	{"a response without result", `{"jsonrpc":"2.0","id":7}`, jsonrpc.CodeInvalidRequest, 7.0},
	{"a response's error not an object", `{"jsonrpc":"2.0","id":8,"error":"no"}`, jsonrpc.CodeInvalidRequest, 8.0},
	{"an array", `[{"jsonrpc":"2.0","id":9,"method":"ping"}]`, jsonrpc.CodeInvalidRequest, nil},
	{"an empty array", `[]`, jsonrpc.CodeInvalidRequest, nil},
	{"a number", `42`, jsonrpc.CodeInvalidRequest, nil},
	{"a string", `"ping"`, jsonrpc.CodeInvalidRequest, nil},
	{"null", `null`, jsonrpc.CodeInvalidRequest, nil},
}

func TestDecodeMessage(t *testing.T) {
	for _, c := range notMessages {
		t.Run(c.name, func(t *testing.T) {
			msg, id, refusal := decodeMessage([]byte(c.line))
			require.NotNil(t, refusal, "decoded as %#v", msg)
			assert.Equal(t, c.code, refusal.Code)
			assert.Equal(t, c.id, jsonID(id.Raw()))
		})
	}
	for name, line := range map[string]string{
		"a request":                   `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`,
		"a string id":                 `{"jsonrpc":"2.0","id":"x","method":"ping","params":{}}`,
		"a negative id":               `{"jsonrpc":"2.0","id":-3,"method":"ping"}`,
		"a notification":              `{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		"a result":                    `{"jsonrpc":"2.0","id":1,"result":{}}`,
		"an error":                    `{"jsonrpc":"2.0","id":"e","error":{"code":-32601,"message":"no"}}`,
		"an empty method (unknown)":   `{"jsonrpc":"2.0","id":2,"method":""}`,
		"spaces around":               ` {"jsonrpc":"2.0","id":3,"method":"ping"} `,
		"unknown members are ignored": `{"jsonrpc":"2.0","id":4,"method":"ping","x":1}`,
	} {
		t.Run(name, func(t *testing.T) {
			msg, _, refusal := decodeMessage([]byte(line))
			require.Nil(t, refusal)
			assert.NotNil(t, msg)
		})
	}
}

// jsonID is an id as a JSON decoder gives it back (an integer as a float64).
func jsonID(raw any) any {
	if n, ok := raw.(int64); ok {
		return float64(n)
	}
	return raw
}

func TestLineReader(t *testing.T) {
	cases := []struct {
		name, input string
		want        []string // lines; "!" for a line over the cap
	}{
		{"lines", "a\nbb\n", []string{"a", "bb"}},
		{"CRLF", "a\r\nbb\r\n", []string{"a", "bb"}},
		{"the last line without its end", "a\nbb", []string{"a", "bb"}},
		{"a line at the cap", "12345678\nx\n", []string{"12345678", "x"}},
		{"at the cap with CRLF", "12345678\r\nx\n", []string{"12345678", "x"}},
		{"over the cap by one", "123456789\nx\n", []string{"!", "x"}},
		{"far over the cap, then a line", strings.Repeat("y", 100) + "\nx\n", []string{"!", "x"}},
		{"over the cap at the end of input", strings.Repeat("y", 100), []string{"!"}},
		{"empty lines", "\n\na\n", []string{"", "", "a"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			lr := &lineReader{r: bufio.NewReaderSize(strings.NewReader(c.input), 16), max: 8}
			var got []string
			for {
				line, err := lr.next()
				if err == errLineTooLong {
					got = append(got, "!")
					if err = lr.skip(); err == nil {
						continue
					}
				}
				if err == io.EOF {
					break
				}
				require.NoError(t, err)
				got = append(got, string(line))
			}
			assert.Equal(t, c.want, got)
		})
	}
}

// stdio is a session of srv over a StdioTransport on pipes: what a client writes to
// jido's standard input, and the lines jido writes.
type stdio struct {
	t     testing.TB
	sends chan string // written in order to jido's input
	in    *io.PipeWriter
	out   *bufio.Reader
	outW  *io.PipeWriter
	ss    *sdk.ServerSession
}

// startStdio connects a session of srv over a StdioTransport; it ends with the test.
func startStdio(t testing.TB, srv *Server) *stdio {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ss, err := srv.Connect(t.Context(), &StdioTransport{In: inR, Out: outW})
	require.NoError(t, err)
	s := &stdio{t: t, sends: make(chan string, 100), in: inW, out: bufio.NewReaderSize(outR, 1<<20), outW: outW, ss: ss}
	go func() {
		for data := range s.sends {
			_, _ = io.WriteString(inW, data)
		}
		inW.Close()
	}()
	t.Cleanup(func() {
		close(s.sends)
		inW.Close()
		outW.Close()
		ss.Close()
	})
	return s
}

// send writes data to jido's input after what was sent before, without waiting for jido
// to read it.
func (s *stdio) send(data string) { s.sends <- data }

// next is the next message jido writes, decoded.
func (s *stdio) next() map[string]any {
	s.t.Helper()
	type read struct {
		line []byte
		err  error
	}
	got := make(chan read, 1)
	go func() {
		line, err := s.out.ReadBytes('\n')
		got <- read{line, err}
	}()
	select {
	case r := <-got:
		require.NoError(s.t, r.err)
		var m map[string]any
		require.NoError(s.t, json.Unmarshal(r.line, &m), "%s", r.line)
		return m
	case <-time.After(30 * time.Second):
		s.t.Fatal("jido answers nothing")
		return nil
	}
}

// ping sends a ping with id and returns what jido writes before its answer.
func (s *stdio) ping(id string) []map[string]any {
	s.t.Helper()
	s.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%q,"method":"ping"}`+"\n", id))
	var before []map[string]any
	for {
		m := s.next()
		if m["id"] == id {
			assert.Equal(s.t, map[string]any{}, m["result"], "the ping is answered")
			return before
		}
		before = append(before, m)
	}
}

// initialize sends initialize and initialized, as a client starts a session.
func (s *stdio) initialize() {
	s.t.Helper()
	s.send(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}` + "\n")
	m := s.next()
	require.Equal(s.t, "init", m["id"], "%v", m)
	s.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n")
}

// errorOf is the error of an answer: its code and message.
func errorOf(t testing.TB, m map[string]any) (int64, string) {
	t.Helper()
	e, ok := m["error"].(map[string]any)
	require.True(t, ok, "an error answer: %v", m)
	code, ok := e["code"].(float64)
	require.True(t, ok, "a numeric code: %v", m)
	return int64(code), e["message"].(string)
}

// TestStdioAnswersWhatIsNotAMessage: each line that is not a message gets one JSON-RPC
// error, with a null id when it has no valid one, and the session goes on.
func TestStdioAnswersWhatIsNotAMessage(t *testing.T) {
	srv, _ := newServer(t, manager.Config{}, Options{}, nil)
	s := startStdio(t, srv)
	s.initialize()
	for i, c := range notMessages {
		t.Run(c.name, func(t *testing.T) {
			s.t = t
			s.send(c.line + "\n")
			answers := s.ping(fmt.Sprint("after-", i))
			require.Len(t, answers, 1, "one answer, then the next request's")
			code, _ := errorOf(t, answers[0])
			assert.Equal(t, c.code, code)
			assert.Contains(t, answers[0], "id")
			assert.Equal(t, c.id, answers[0]["id"])
		})
	}
}

// TestStdioRefusesAnOversizedMessage: a line over MaxMessage is refused with an error
// that names the cap, dropped without being held, and the session goes on.
func TestStdioRefusesAnOversizedMessage(t *testing.T) {
	srv, _ := newServer(t, manager.Config{}, Options{}, nil)
	s := startStdio(t, srv)
	s.send(`{"jsonrpc":"2.0","id":"big","method":"ping","params":{"x":"` + strings.Repeat("a", 20<<20) + `"}}` + "\n")
	answers := s.ping("after")
	require.Len(t, answers, 1)
	code, msg := errorOf(t, answers[0])
	assert.Equal(t, int64(jsonrpc.CodeInvalidRequest), code)
	assert.Contains(t, msg, "16 MiB")
	assert.Nil(t, answers[0]["id"])

	s.send(`{"jsonrpc":"2.0","id":"at-cap","method":"ping","params":{"x":"` + strings.Repeat("a", MaxMessage-100) + `"}}` + "\n")
	s.send(`{"jsonrpc":"2.0","id":"after-at-cap","method":"ping"}` + "\n")
	ids := map[any]any{}
	for range 2 { // calls are answered in the order they end
		m := s.next()
		ids[m["id"]] = m["result"]
	}
	assert.Equal(t, map[any]any{"at-cap": map[string]any{}, "after-at-cap": map[string]any{}}, ids, "a message under the cap is served")
}

// TestStdioTakesSpacesAroundAMessage: blanks around a message and empty lines are not
// errors (the SDK's reader ended the session at a space after a message).
func TestStdioTakesSpacesAroundAMessage(t *testing.T) {
	srv, _ := newServer(t, manager.Config{}, Options{}, nil)
	s := startStdio(t, srv)
	s.send("\n  \t\n" + `  {"jsonrpc":"2.0","id":"spaced","method":"ping"} ` + "\t\r\n")
	assert.Equal(t, map[string]any{"jsonrpc": "2.0", "id": "spaced", "result": map[string]any{}}, s.next())
	assert.Empty(t, s.ping("after"), "no answer to the blank lines")
}

// TestStdioErrorsHaveCodes: an error the SDK answers without a JSON-RPC code (a request
// before initialize) gets -32603, never 0.
func TestStdioErrorsHaveCodes(t *testing.T) {
	srv, _ := newServer(t, manager.Config{}, Options{}, nil)
	s := startStdio(t, srv)
	s.send(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}` + "\n")
	m := s.next()
	code, msg := errorOf(t, m)
	assert.Equal(t, int64(jsonrpc.CodeInternalError), code)
	assert.Contains(t, msg, "initialization")
}

// FuzzStdio feeds arbitrary lines to a session over stdio: whatever they are, the session
// goes on (a ping after them is answered), every line gets at most one answer, and every
// error answer carries a JSON-RPC code.
func FuzzStdio(f *testing.F) {
	for _, c := range notMessages {
		f.Add(c.line)
	}
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"read_file","arguments":{"path":"a.txt"}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"logging/setLevel","params":{"level":"loud"}}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}`,
		`{"jsonrpc":"2.0","id":4,"result":{}}` + "\n" + `{"jsonrpc":"2.0","id":4,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":5,"method":"initialize","params":{}}`,
		`{"jsonrpc":"2.0","id":6,"method":"nope"}` + "\r\n\r\n" + `{"jsonrpc":"2.0","id":6,"method":"ping"}`,
	} {
		f.Add(seed)
	}
	srv, _ := newServer(f, manager.Config{Permissions: policy.New(policy.ModeReadOnly)}, Options{}, map[string]string{"a.txt": "a\n"})
	const sentinel = "fuzz-sentinel"
	f.Fuzz(func(t *testing.T, input string) {
		if strings.Contains(input, sentinel) {
			t.Skip("the input names the sentinel's id")
		}
		s := startStdio(t, srv)
		s.initialize()
		s.send(input + "\n" + `{"jsonrpc":"2.0","id":"` + sentinel + `","method":"ping"}` + "\n")
		var out []map[string]any
		for len(out) == 0 || out[len(out)-1]["id"] != sentinel {
			out = append(out, s.next())
		}
		// The rest of the answers, once the session has ended.
		s.in.Close()
		ended := make(chan struct{})
		go func() {
			s.ss.Wait()
			s.outW.Close()
			close(ended)
		}()
		rest, err := io.ReadAll(s.out)
		require.NoError(t, err)
		<-ended
		for line := range bytes.Lines(rest) {
			var m map[string]any
			require.NoError(t, json.Unmarshal(line, &m), "%s", line)
			out = append(out, m)
		}
		lines := 1 // the sentinel
		for line := range strings.Lines(input + "\n") {
			if strings.TrimSpace(line) != "" {
				lines++
			}
		}
		answers := 0
		for _, m := range out {
			if _, isRequest := m["method"]; isRequest {
				continue // a request or notification of jido's
			}
			answers++
			if _, isError := m["error"]; isError {
				code, _ := errorOf(t, m)
				assert.NotZero(t, code, "%v", m)
			}
		}
		assert.LessOrEqual(t, answers, lines, "at most one answer per line: %v", out)
	})
}
