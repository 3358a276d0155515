package gocache

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// goCommand plays the go command's side of the protocol against a program.
type goCommand struct {
	in   *io.PipeWriter
	dec  *json.Decoder
	done chan error // serve's result
}

// startProgram runs the cache program of c's private cache, asking c's server (socket ""
// for none), and reads its capabilities.
func startProgram(t *testing.T, c caches, socket string) *goCommand {
	t.Helper()
	root, err := os.OpenRoot(c.private)
	require.NoError(t, err)
	p := &program{dir: c.private, root: root, socket: socket}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	g := &goCommand{in: inW, dec: json.NewDecoder(outR), done: make(chan error, 1)}
	go func() {
		err := p.serve(inR, outW)
		inR.CloseWithError(io.ErrClosedPipe) // a writer blocked on a program that stopped reading
		outW.Close()
		g.done <- err
	}()
	t.Cleanup(func() {
		inW.Close()
		root.Close()
	})
	var caps response
	require.NoError(t, g.dec.Decode(&caps))
	assert.Equal(t, []string{"get", "put", "close"}, caps.KnownCommands)
	return g
}

// send writes raw bytes as the go command would (in the background: a program that stops
// reading must not block the test).
func (g *goCommand) send(raw string) { go io.WriteString(g.in, raw) }

// wire renders a request as the go command writes it: the JSON, a newline, an empty
// line, then the body as a base64 JSON string on a line of its own.
func wire(req request, body []byte) string {
	b, _ := json.Marshal(req)
	s := string(b) + "\n\n"
	if len(body) > 0 {
		s += `"` + base64.StdEncoding.EncodeToString(body) + "\"\n"
	}
	return s
}

func (g *goCommand) recv(t *testing.T) response {
	t.Helper()
	var res response
	require.NoError(t, g.dec.Decode(&res))
	return res
}

func (g *goCommand) put(t *testing.T, n int64, a id, body string) response {
	t.Helper()
	o := hashOf(body)
	g.send(wire(request{ID: n, Command: "put", ActionID: a[:], OutputID: o[:], BodySize: int64(len(body))}, []byte(body)))
	return g.recv(t)
}

func (g *goCommand) get(t *testing.T, n int64, a id) response {
	t.Helper()
	g.send(wire(request{ID: n, Command: "get", ActionID: a[:]}, nil))
	return g.recv(t)
}

func hashOf(s string) id { return sha256.Sum256([]byte(s)) }

func TestProgramPutThenGet(t *testing.T) {
	c := newCaches(t)
	g := startProgram(t, c, c.socket)
	a := actionID("compile fmt")
	res := g.put(t, 1, a, "archive bytes")
	require.Empty(t, res.Err)
	assert.Equal(t, int64(1), res.ID)
	o := hashOf("archive bytes")
	assert.Equal(t, filepath.Join(c.private, outputName(o)), res.DiskPath)
	data, err := os.ReadFile(res.DiskPath)
	require.NoError(t, err)
	assert.Equal(t, "archive bytes", string(data))

	res = g.get(t, 2, a)
	assert.False(t, res.Miss)
	assert.Equal(t, o[:], res.OutputID)
	assert.Equal(t, int64(len("archive bytes")), res.Size)
	assert.Equal(t, filepath.Join(c.private, outputName(o)), res.DiskPath)
	require.NotNil(t, res.Time)

	empty := actionID("empty")
	res = g.put(t, 3, empty, "")
	require.Empty(t, res.Err)
	assert.Equal(t, int64(0), g.get(t, 4, empty).Size)

	assert.True(t, g.get(t, 5, actionID("never put")).Miss)
	assert.Len(t, tree(t, c.user), 1, "the user's cache is still empty")

	g.send(wire(request{ID: 6, Command: "close"}, nil))
	assert.Equal(t, int64(6), g.recv(t).ID)
	assert.NoError(t, <-g.done)
	assert.Equal(t, stats{misses: 1}, c.server.stats(), "only the miss reached the server")
}

func TestProgramFillsFromTheUserCache(t *testing.T) {
	c := newCaches(t)
	a := actionID("compile strings")
	o := store(t, c.user, a, "compiled strings")
	before := tree(t, c.user)
	g := startProgram(t, c, c.socket)

	res := g.get(t, 1, a)
	require.False(t, res.Miss, "%+v", res)
	assert.Equal(t, o[:], res.OutputID)
	assert.Equal(t, filepath.Join(c.private, outputName(o)), res.DiskPath, "the private copy, not the user's file")
	data, err := os.ReadFile(res.DiskPath)
	require.NoError(t, err)
	assert.Equal(t, "compiled strings", string(data))
	assert.Equal(t, time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), res.Time.UTC(), "the user's entry's time")

	assert.False(t, g.get(t, 2, a).Miss, "now in the private cache")
	assert.Equal(t, stats{hits: 1}, c.server.stats(), "the second get did not ask")
	res = g.put(t, 3, a, "rebuilt strings")
	require.Empty(t, res.Err)
	assert.Equal(t, before, tree(t, c.user), "the user's cache did not change")
}

func TestProgramWithoutServerMisses(t *testing.T) {
	c := newCaches(t)
	a := actionID("compile os")
	store(t, c.user, a, "compiled os")
	for name, socket := range map[string]string{"none": "", "gone": filepath.Join(c.base, "missing.sock")} {
		t.Run(name, func(t *testing.T) {
			assert.True(t, startProgram(t, c, socket).get(t, 1, a).Miss)
		})
	}
}

// TestProgramMalformedRequests: a request it cannot serve gets an error answer and the
// next request is served; a stream it cannot follow ends the program with an error.
func TestProgramMalformedRequests(t *testing.T) {
	a, o := actionID("a"), hashOf("body")
	put := func(out []byte, size int64, body string) string {
		return wire(request{ID: 1, Command: "put", ActionID: a[:], OutputID: out, BodySize: size}, []byte(body))
	}
	for name, tc := range map[string]struct {
		raw    string
		broken bool // the stream cannot be followed: the program ends
	}{
		"short action ID":      {raw: wire(request{ID: 1, Command: "get", ActionID: a[:31]}, nil)},
		"no action ID":         {raw: wire(request{ID: 1, Command: "get"}, nil)},
		"short output ID":      {raw: put(o[:4], 4, "body")},
		"body shorter":         {raw: put(o[:], 10, "body")},
		"body longer":          {raw: put(o[:], 2, "body")},
		"size over the limit":  {raw: put(o[:], MaxSize+1, "body")},
		"negative size":        {raw: `{"ID":1,"Command":"put","ActionID":"` + base64.StdEncoding.EncodeToString(a[:]) + `","OutputID":"` + base64.StdEncoding.EncodeToString(o[:]) + `","BodySize":-5}` + "\n"},
		"unknown command":      {raw: wire(request{ID: 1, Command: "delete", ActionID: a[:]}, nil)},
		"garbage":              {raw: "}{ not json\n", broken: true},
		"body not base64":      {raw: `{"ID":1,"Command":"put","BodySize":3}` + "\n" + `"!!!!"` + "\n", broken: true},
		"body never ends":      {raw: `{"ID":1,"Command":"put","BodySize":3}` + "\n" + `"AAAA`, broken: true},
		"no body":              {raw: `{"ID":1,"Command":"put","BodySize":3}` + "\n" + `{"ID":2}` + "\n", broken: true},
		"request over 64 KiB":  {raw: `{"ID":1,"Command":"` + strings.Repeat("x", 70<<10) + "\"}\n", broken: true},
		"line after the quote": {raw: `{"ID":1,"Command":"put","BodySize":3}` + "\n" + `"AAAA"x` + "\n", broken: true},
	} {
		t.Run(name, func(t *testing.T) {
			c := newCaches(t)
			g := startProgram(t, c, c.socket)
			if tc.broken {
				go func() {
					io.WriteString(g.in, tc.raw)
					g.in.Close() // the stream ends (inside the body, for one)
				}()
				assert.Error(t, <-g.done)
				return
			}
			g.send(tc.raw)
			res := g.recv(t)
			assert.NotEmpty(t, res.Err)
			assert.Equal(t, int64(1), res.ID)
			assert.Equal(t, "body", func() string { // the stream is still in step
				b := actionID("b")
				require.Empty(t, g.put(t, 2, b, "body").Err)
				data, err := os.ReadFile(g.get(t, 3, b).DiskPath)
				require.NoError(t, err)
				return string(data)
			}())
			_, err := os.Stat(filepath.Join(c.private, entryName(a)))
			assert.True(t, os.IsNotExist(err), "no entry for the refused request")
		})
	}
}

// TestProgramTrims: at close, files unused for five days go, at most once a day.
func TestProgramTrims(t *testing.T) {
	c := newCaches(t)
	old, fresh := actionID("old"), actionID("fresh")
	oldOut := store(t, c.private, old, "old output")
	store(t, c.private, fresh, "fresh output")
	long := time.Now().Add(-6 * 24 * time.Hour)
	for _, name := range []string{entryName(old), outputName(oldOut)} {
		require.NoError(t, os.Chtimes(filepath.Join(c.private, name), long, long))
	}
	g := startProgram(t, c, "")
	g.send(wire(request{ID: 1, Command: "close"}, nil))
	g.recv(t)
	require.NoError(t, <-g.done)
	assert.NoFileExists(t, filepath.Join(c.private, entryName(old)))
	assert.NoFileExists(t, filepath.Join(c.private, outputName(oldOut)))
	assert.FileExists(t, filepath.Join(c.private, entryName(fresh)))
	stamp, err := os.ReadFile(filepath.Join(c.private, "trim.txt"))
	require.NoError(t, err)
	assert.Equal(t, fmt.Sprint(time.Now().Unix())[:6], string(stamp)[:6])

	store(t, c.private, old, "old output")
	for _, name := range []string{entryName(old), outputName(oldOut)} {
		require.NoError(t, os.Chtimes(filepath.Join(c.private, name), long, long))
	}
	g = startProgram(t, c, "")
	g.send(wire(request{ID: 1, Command: "close"}, nil))
	g.recv(t)
	require.NoError(t, <-g.done)
	assert.FileExists(t, filepath.Join(c.private, entryName(old)), "trimmed less than a day ago: not again")
}
