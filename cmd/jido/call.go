package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strconv"
	"time"

	"github.com/jido-run/jido/manager"
	"github.com/jido-run/jido/tools/definitions"
)

// callOptions are the parsed arguments of `jido call`.
type callOptions struct {
	sessionFlags
	tool    string
	args    string // JSON object, or "-" for standard input
	session string // --session NAME: the named session to carry on (sessions.go)
	meta    manager.CallMeta
}

func parseCall(args []string, stderr io.Writer) (*callOptions, error) {
	o := &callOptions{}
	fs := newFlagSet("call", stderr)
	o.register(fs)
	fs.StringVar(&o.session, "session", "", sessionFlagUsage)
	fs.StringVar(&o.meta.Cwd, "cwd", "", "directory inside the root the call's relative paths are resolved against (meta.cwd)")
	var timeout time.Duration
	fs.DurationVar(&timeout, "timeout", 0, "how long the whole call may take, e.g. 10m, its commands included (meta.timeout; default: the tool's own timeout; at most 1h)")
	if err := parseArgs(fs, args); err != nil {
		return nil, err
	}
	if o.session != "" {
		if err := checkSessionName(o.session); err != nil {
			return nil, err
		}
	}
	if timeout != 0 {
		if terr := manager.CheckTimeout(timeout); terr != nil {
			return nil, fmt.Errorf("--timeout: %s", terr.Message)
		}
	}
	o.meta.Timeout = timeout.Seconds()
	switch fs.NArg() {
	case 1:
		o.tool, o.args = fs.Arg(0), "{}"
	case 2:
		o.tool, o.args = fs.Arg(0), fs.Arg(1)
	default:
		return nil, fmt.Errorf("call takes TOOL and an optional ARGS_JSON (or - for standard input), got %d arguments", fs.NArg())
	}
	return o, nil
}

// runCall implements `jido call`: exactly one ToolResult JSON object on stdout.
func runCall(argv []string, stdin io.Reader, stdout, stderr io.Writer) int {
	o, err := parseCall(argv, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "jido call: %v\n", err)
		return exitUsage
	}
	raw := []byte(o.args)
	if o.args == "-" {
		if raw, err = io.ReadAll(stdin); err != nil {
			fmt.Fprintf(stderr, "jido call: reading arguments: %v\n", err)
			return exitUsage
		}
	}
	var args map[string]any
	if err := json.Unmarshal(raw, &args); err != nil {
		writeJSON(stdout, manager.ToolResult{Name: o.tool, Error: definitions.NewError(definitions.ValidationError,
			"arguments are not a JSON object: %v", err).Hint(`Pass the arguments as one JSON object, e.g. '{"path":"README.md"}'`)})
		return exitUsage
	}
	defer oneShotGC()()
	return o.withNamedSession("call", o.session, stderr, func(ctx context.Context, s *manager.Session) int {
		res := s.Call(ctx, manager.ToolCall{Name: o.tool, Args: args, Meta: o.meta})
		writeResult(stdout, res)
		if !res.OK {
			return exitToolError
		}
		return exitOK
	})
}

// oneShotGCPercent is the GC target of a process that makes one call and exits: a
// listing of ten thousand files then takes fewer collections (about a tenth of its CPU).
const oneShotGCPercent = 400

// oneShotGC raises the GC target to oneShotGCPercent, unless GOGC sets it, and returns what
// restores it.
func oneShotGC() (restore func()) {
	if _, set := os.LookupEnv("GOGC"); set {
		return func() {}
	}
	old := debug.SetGCPercent(oneShotGCPercent)
	return func() { debug.SetGCPercent(old) }
}

// writeJSON prints v as one line of JSON.
func writeJSON(w io.Writer, v any) {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
}

// writeResult prints a tool's result as writeJSON does. A file list (glob, list_files:
// results of up to hundreds of thousands of entries) is streamed entry by entry through a
// buffer, without reflection, instead of being encoded whole before the first byte goes out.
func writeResult(w io.Writer, res manager.ToolResult) {
	list, ok := res.Result.(*definitions.FileList)
	if !ok || list == nil {
		writeJSON(w, res)
		return
	}
	// The envelope is encoding/json's, with a mark where the list goes: inside the
	// envelope's strings a quote is always escaped, so the mark's key is found only as the key.
	const mark = `"result":0`
	res.Result = json.RawMessage(`0`)
	var env bytes.Buffer
	writeJSON(&env, res)
	head, tail, _ := bytes.Cut(env.Bytes(), []byte(mark)) // found: TestWriteResultStreamsAFileListAsWriteJSONDoes
	bw := bufio.NewWriterSize(w, 64<<10)
	bw.Write(head)
	bw.WriteString(`"result":`)
	writeFileList(bw, list)
	bw.Write(tail)
	bw.Flush()
}

// writeFileList writes l as encoding/json encodes a definitions.FileList, flushing its
// scratch buffer to w every 32 KiB.
func writeFileList(w *bufio.Writer, l *definitions.FileList) {
	b := make([]byte, 0, 33<<10)
	b = append(b, `{"files":`...)
	if l.Files == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, f := range l.Files {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendFileInfo(b, f)
			if len(b) >= 32<<10 {
				w.Write(b)
				b = b[:0]
			}
		}
		b = append(b, ']')
	}
	b = append(b, `,"count":`...)
	b = strconv.AppendInt(b, int64(l.Count), 10)
	b = append(b, `,"truncated":`...)
	b = strconv.AppendBool(b, l.Truncated)
	w.Write(append(b, '}'))
}

// appendFileInfo appends f's JSON object (mtime as time.Time.MarshalJSON writes it).
func appendFileInfo(b []byte, f definitions.FileInfo) []byte {
	b = append(b, `{"path":`...)
	b = appendJSONString(b, f.Path)
	b = append(b, `,"size":`...)
	b = strconv.AppendInt(b, f.Size, 10)
	b = append(b, `,"mtime":"`...)
	b = f.MTime.AppendFormat(b, time.RFC3339Nano)
	b = append(b, `","type":`...)
	b = appendJSONString(b, f.Type)
	return append(b, '}')
}

// appendJSONString appends s as a JSON string the way writeJSON would: printable ASCII
// other than quote and backslash as is, anything else through encoding/json.
func appendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			var buf bytes.Buffer
			writeJSON(&buf, s)
			return append(b, bytes.TrimSuffix(buf.Bytes(), []byte("\n"))...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}
