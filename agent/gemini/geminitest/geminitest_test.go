package geminitest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jido-run/jido/agent/gemini/geminitest"
)

// The provider's tests drive the server through the SDK; these check its wire format and
// its bookkeeping with plain HTTP.

// post sends body to path on srv and returns the status, content type and body.
func post(t *testing.T, srv *geminitest.Server, path, body string) (int, string, string) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, srv.URL+path, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("x-goog-api-key", "k")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, resp.Header.Get("Content-Type"), string(data)
}

const hello = `{"contents":[{"role":"user","parts":[{"text":"hi"}]}]}`

func TestStreamWireFormat(t *testing.T) {
	srv := geminitest.NewServer(geminitest.Step{
		Text:  []string{"a", "b"},
		Calls: []geminitest.Call{{ID: "1", Name: "f", Args: map[string]any{"x": 1}, Signature: []byte("s")}},
	})
	defer srv.Close()

	status, ctype, body := post(t, srv, "/v1beta/models/m:streamGenerateContent?alt=sse", hello)
	assert.Equal(t, http.StatusOK, status)
	assert.Equal(t, "text/event-stream", ctype)
	events := strings.Split(strings.TrimSuffix(body, "\r\n\r\n"), "\r\n\r\n")
	require.Len(t, events, 3)
	want := []string{
		`{"candidates":[{"index":0,"content":{"role":"model","parts":[{"text":"a"}]}}],"modelVersion":"geminitest"}`,
		`{"candidates":[{"index":0,"content":{"role":"model","parts":[{"text":"b"}]}}],"modelVersion":"geminitest"}`,
		`{"candidates":[{"index":0,"finishReason":"STOP","content":{"role":"model","parts":[
			{"functionCall":{"id":"1","name":"f","args":{"x":1}},"thoughtSignature":"cw=="}]}}],"modelVersion":"geminitest"}`,
	}
	for i, e := range events {
		data, ok := strings.CutPrefix(e, "data: ")
		require.True(t, ok, "event %d is one data line: %q", i, e)
		assert.JSONEq(t, want[i], data)
	}

	reqs := srv.Requests()
	require.Len(t, reqs, 1)
	assert.Equal(t, "m", reqs[0].Model)
	assert.True(t, reqs[0].Stream)
	assert.Equal(t, "hi", reqs[0].Contents[0].Parts[0].Text)
	assert.JSONEq(t, hello, string(reqs[0].Body))
	assert.Equal(t, "k", srv.Key())
}

func TestGenerateWireFormat(t *testing.T) {
	tests := []struct {
		name string
		step geminitest.Step
		want string
	}{
		{
			name: "json",
			step: geminitest.Step{JSON: `{"a":1}`},
			want: `{"candidates":[{"index":0,"finishReason":"STOP","content":{"role":"model","parts":[{"text":"{\"a\":1}"}]}}],"modelVersion":"geminitest"}`,
		},
		{
			name: "chunks joined",
			step: geminitest.Step{Thought: "t", Text: []string{"a", "b"}},
			want: `{"candidates":[{"index":0,"finishReason":"STOP","content":{"role":"model","parts":[
				{"text":"t","thought":true},{"text":"a"},{"text":"b"}]}}],"modelVersion":"geminitest"}`,
		},
		{
			name: "finish without content",
			step: geminitest.Step{FinishReason: "SAFETY", FinishMessage: "blocked"},
			want: `{"candidates":[{"index":0,"finishReason":"SAFETY","finishMessage":"blocked"}],"modelVersion":"geminitest"}`,
		},
		{
			name: "blocked prompt",
			step: geminitest.Step{BlockReason: "SAFETY"},
			want: `{"promptFeedback":{"blockReason":"SAFETY"}}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := geminitest.NewServer(tt.step)
			defer srv.Close()
			status, ctype, body := post(t, srv, "/v1beta/models/m:generateContent", hello)
			assert.Equal(t, http.StatusOK, status)
			assert.Contains(t, ctype, "application/json")
			assert.JSONEq(t, tt.want, body)
			assert.False(t, srv.Requests()[0].Stream)
		})
	}
}

func TestErrorBody(t *testing.T) {
	srv := geminitest.NewServer(
		geminitest.Step{Status: 429, Message: "slow down", Reason: "RATE_LIMIT_EXCEEDED", RetryDelay: 1500 * time.Millisecond},
		geminitest.Step{Status: 418},
	)
	defer srv.Close()

	status, _, body := post(t, srv, "/v1beta/models/m:streamGenerateContent?alt=sse", hello)
	assert.Equal(t, 429, status)
	assert.JSONEq(t, `{"error":{"code":429,"message":"slow down","status":"RESOURCE_EXHAUSTED","details":[
		{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"RATE_LIMIT_EXCEEDED","domain":"googleapis.com"},
		{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"1.5s"}]}}`, body)

	status, _, body = post(t, srv, "/v1beta/models/m:generateContent", hello)
	assert.Equal(t, 418, status)
	assert.JSONEq(t, `{"error":{"code":418,"message":"I'm a teapot","status":"UNKNOWN"}}`, body)
}

func TestScriptRunsOut(t *testing.T) {
	srv := geminitest.NewServer(geminitest.Step{Text: []string{"only"}})
	defer srv.Close()

	status, _, _ := post(t, srv, "/v1beta/models/m:generateContent", hello)
	assert.Equal(t, http.StatusOK, status)
	status, _, body := post(t, srv, "/v1beta/models/m:generateContent", hello)
	assert.Equal(t, http.StatusInternalServerError, status)
	assert.Contains(t, body, "the script ran out: request 2, script of 1 steps")
	assert.Len(t, srv.Requests(), 2, "requests beyond the script are recorded too")
}

func TestBadRequests(t *testing.T) {
	srv := geminitest.NewServer()
	defer srv.Close()

	status, _, body := post(t, srv, "/v1beta/models/m:countTokens", hello)
	assert.Equal(t, http.StatusNotFound, status)
	assert.Contains(t, body, "unknown method")

	status, _, body = post(t, srv, "/v1beta/models/m:generateContent", "{")
	assert.Equal(t, http.StatusBadRequest, status)
	assert.Contains(t, body, "unreadable request")

	assert.Empty(t, srv.Requests())
}

func TestConcurrentRequests(t *testing.T) {
	const n = 20
	var steps []geminitest.Step
	for i := range n {
		steps = append(steps, geminitest.Step{JSON: fmt.Sprint(i)})
	}
	srv := geminitest.NewServer(steps...)
	defer srv.Close()

	var (
		wg  sync.WaitGroup
		mu  sync.Mutex
		got []string
	)
	for range n {
		wg.Go(func() {
			_, _, body := post(t, srv, "/v1beta/models/m:generateContent", hello)
			var resp struct {
				Candidates []struct {
					Content struct {
						Parts []struct{ Text string }
					}
				}
			}
			if assert.NoError(t, json.Unmarshal([]byte(body), &resp)) {
				mu.Lock()
				got = append(got, resp.Candidates[0].Content.Parts[0].Text)
				mu.Unlock()
			}
		})
	}
	wg.Wait()

	var want []string
	for i := range n {
		want = append(want, fmt.Sprint(i))
	}
	slices.Sort(got)
	slices.Sort(want)
	assert.Equal(t, want, got, "each step answered exactly once")
	assert.Len(t, srv.Requests(), n)
}

func TestEnv(t *testing.T) {
	srv := geminitest.NewServer()
	defer srv.Close()
	assert.Equal(t, []string{
		"GOOGLE_GEMINI_BASE_URL=" + srv.URL,
		"GEMINI_API_KEY=" + geminitest.APIKey,
		"GOOGLE_API_KEY=",
	}, srv.Env())
}

func TestDelay(t *testing.T) {
	srv := geminitest.NewServer(geminitest.Step{Delay: time.Hour}, geminitest.Step{Delay: time.Millisecond, JSON: `{"ok":true}`})
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL+"/v1beta/models/m:generateContent", strings.NewReader(hello))
	require.NoError(t, err)
	_, err = http.DefaultClient.Do(req)
	require.ErrorIs(t, err, context.DeadlineExceeded, "the stuck reply never came")

	status, _, body := post(t, srv, "/v1beta/models/m:generateContent", hello)
	assert.Equal(t, http.StatusOK, status)
	assert.Contains(t, body, `{\"ok\":true}`)
	assert.Len(t, srv.Requests(), 2)
	srv.Close() // returns: the handler of the abandoned request did not wait out its hour
}
