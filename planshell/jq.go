package planshell

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/itchyny/gojq"
	"mvdan.cc/sh/v3/interp"
)

// jq's exit statuses.
const (
	jqFalsy   = 1 // -e: the last output was false or null
	jqUsage   = 2 // a bad option, an unreadable file or input that is not JSON
	jqCompile = 3 // the filter cannot be parsed or compiled
	jqNoValue = 4 // -e: there was no output
	jqRuntime = 5 // the filter failed on an input
)

// jqOptions are the parsed options of a jq call.
type jqOptions struct {
	raw, join, compact, null, slurp, exitStatus bool
	filter                                      string
	files                                       []string
	names                                       []string // the variables of --arg and --argjson, with "$"
	values                                      []any
}

// jq [-r -j -c -n -s -e -S] [--arg name value] [--argjson name json] filter [file...] is
// gojq over the Fs: the files are read through it, $ENV and env are the shell's exported
// variables, and there are no modules (import and include fail) and no host files.
// Objects are printed with their keys sorted (gojq's order; jq keeps the input's).
func jq(c *call) error {
	o, err := c.jqParse()
	if err != nil {
		return err
	}
	query, err := gojq.Parse(o.filter)
	if err != nil {
		c.errorf("error: %v", err)
		return c.fail(jqCompile, "1 compile error")
	}
	in := &jqInputs{c: c, files: o.files}
	if len(in.files) == 0 {
		in.files = []string{"-"}
	}
	named := map[string]any{}
	for i, name := range o.names {
		named[name[1:]] = o.values[i]
	}
	code, err := gojq.Compile(query,
		gojq.WithEnvironLoader(c.environ),
		gojq.WithVariables(append(o.names, "$ARGS")),
		gojq.WithFunction("input_filename", 0, 0, func(any, []any) any { return in.filename() }),
		gojq.WithFunction("debug", 0, 0, func(v any, _ []any) any {
			b, _ := gojq.Marshal([]any{"DEBUG:", v})
			c.stderr.Write(append(b, '\n'))
			return v
		}),
		gojq.WithFunction("stderr", 0, 0, func(v any, _ []any) any {
			b, _ := gojq.Marshal(v)
			c.stderr.Write(b)
			return v
		}),
		gojq.WithInputIter(in),
	)
	if err != nil {
		c.errorf("error: %v", err)
		return c.fail(jqCompile, "1 compile error")
	}
	values := append(o.values, map[string]any{"positional": []any{}, "named": named})

	r := jqRunner{c: c, o: &o, in: in, code: code, values: values}
	if o.exitStatus {
		r.last = jqNoValue
	}
	switch {
	case o.null:
		if err := r.run(nil); err != nil {
			return err
		}
	case o.slurp:
		all := []any{}
		for {
			v, ok := in.Next()
			if !ok {
				break
			}
			if _, isErr := v.(error); isErr {
				break // reported by in
			}
			all = append(all, v)
		}
		if in.status == 0 {
			if err := r.run(all); err != nil {
				return err
			}
		}
	default:
		for !r.halted {
			v, ok := in.Next()
			if !ok {
				break
			}
			if _, isErr := v.(error); isErr {
				continue // reported by in
			}
			if err := r.run(v); err != nil {
				return err
			}
		}
	}
	if err := c.ctx.Err(); err != nil {
		return err
	}
	switch {
	case r.halted:
		return exitCode(r.status)
	case in.status != 0:
		return exitCode(in.status)
	case r.status != 0:
		return exitCode(r.status)
	case o.exitStatus:
		return exitCode(r.last)
	}
	return nil
}

// exitCode is the error that ends a builtin with status code (nil for 0).
func exitCode(code int) error {
	if code == 0 {
		return nil
	}
	return interp.ExitStatus(uint8(code))
}

// jqParse parses jq's arguments: options may come before and after the filter, short
// ones may be grouped ("-rc").
func (c *call) jqParse() (jqOptions, error) {
	var o jqOptions
	haveFilter := false
	args := c.args
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			for _, rest := range args[i+1:] {
				if !haveFilter {
					o.filter, haveFilter = rest, true
				} else {
					o.files = append(o.files, rest)
				}
			}
			i = len(args)
		case a == "--arg" || a == "--argjson":
			if i+2 >= len(args) {
				return o, c.fail(jqUsage, "%s takes two parameters (e.g. %s varname value)", a, a)
			}
			name, value := args[i+1], args[i+2]
			i += 2
			var v any = value
			if a == "--argjson" {
				var err error
				if v, err = jqParseJSON(value); err != nil {
					return o, c.fail(jqUsage, "Invalid JSON text passed to --argjson")
				}
			}
			o.names = append(o.names, "$"+name)
			o.values = append(o.values, v)
		case strings.HasPrefix(a, "--"):
			long := map[string]*bool{
				"--raw-output": &o.raw, "--join-output": &o.join, "--compact-output": &o.compact,
				"--null-input": &o.null, "--slurp": &o.slurp, "--exit-status": &o.exitStatus,
				"--sort-keys": new(bool),
			}
			p, ok := long[a]
			if !ok {
				return o, c.fail(jqUsage, "Unknown option: %s", a)
			}
			*p = true
		case len(a) > 1 && a[0] == '-':
			for _, b := range a[1:] {
				switch b {
				case 'r':
					o.raw = true
				case 'j':
					o.raw, o.join = true, true
				case 'c':
					o.compact = true
				case 'n':
					o.null = true
				case 's':
					o.slurp = true
				case 'e':
					o.exitStatus = true
				case 'S': // gojq always sorts the keys
				default:
					return o, c.fail(jqUsage, "Unknown option: %s", a)
				}
			}
		case !haveFilter:
			o.filter, haveFilter = a, true
		default:
			o.files = append(o.files, a)
		}
	}
	if !haveFilter {
		o.filter = "."
	}
	if o.join {
		o.raw = true
	}
	return o, nil
}

// jqParseJSON parses exactly one JSON value.
func jqParseJSON(s string) (any, error) {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("trailing data")
	}
	return v, nil
}

// jqInputs is the stream of JSON values of the files (stdin for "-"), read through the
// Fs; it is also the iterator of input and inputs. An unreadable file or a value that is
// not JSON is reported on stderr and makes the status 2; a file that is not JSON is not
// read further.
type jqInputs struct {
	c      *call
	files  []string
	i      int // the next file
	name   string
	dec    *json.Decoder
	status int
}

func (in *jqInputs) filename() any {
	if in.name == "" || in.name == "-" {
		return nil
	}
	return in.name
}

// Next returns the next value, or an error that was already reported.
func (in *jqInputs) Next() (any, bool) {
	for {
		if in.dec == nil {
			if in.i == len(in.files) || in.c.ctx.Err() != nil {
				return nil, false
			}
			in.name = in.files[in.i]
			in.i++
			data, err := in.c.readFile(in.name)
			if err != nil {
				in.c.errorf("error: Could not open %s: %s", in.name, reason(err))
				in.status = jqUsage
				continue
			}
			in.dec = json.NewDecoder(bytes.NewReader(data))
			in.dec.UseNumber()
		}
		var v any
		err := in.dec.Decode(&v)
		if err == io.EOF {
			in.dec = nil
			continue
		}
		if err != nil {
			in.dec = nil
			in.c.errorf("error (at %s): %v", in.where(), err)
			in.status = jqUsage
			return err, true
		}
		return v, true
	}
}

// where names the current input in messages, as jq does.
func (in *jqInputs) where() string {
	switch in.name {
	case "":
		return "<unknown>"
	case "-":
		return "<stdin>"
	}
	return in.name
}

// jqRunner runs the compiled filter on each input and prints the outputs.
type jqRunner struct {
	c      *call
	o      *jqOptions
	in     *jqInputs
	code   *gojq.Code
	values []any
	status int  // the status so far: 5 after a failed input, a halt's code
	last   int  // -e: the status the last output gives
	halted bool // halt or halt_error: no more inputs
}

// run runs the filter on v; only a failed write is returned.
func (r *jqRunner) run(v any) error {
	c := r.c
	iter := r.code.RunWithContext(c.ctx, v, r.values...)
	for {
		out, ok := iter.Next()
		if !ok {
			return nil
		}
		if err, isErr := out.(error); isErr {
			if c.ctx.Err() != nil {
				return nil
			}
			var halt *gojq.HaltError
			if errors.As(err, &halt) {
				r.halt(halt)
				return nil
			}
			c.errorf("error (at %s): %v", r.in.where(), err)
			r.status = jqRuntime
			return nil
		}
		if err := r.print(out); err != nil {
			return err
		}
		if out == nil || out == false {
			r.last = jqFalsy
		} else {
			r.last = 0
		}
	}
}

// halt ends the run as halt and halt_error do: halt_error prints its value on stderr (a
// string as it is, anything else as JSON on a line).
func (r *jqRunner) halt(h *gojq.HaltError) {
	r.halted = true
	r.status = h.ExitCode()
	switch v := h.Value().(type) {
	case nil:
	case string:
		io.WriteString(r.c.stderr, v)
	default:
		b, _ := gojq.Marshal(v)
		r.c.stderr.Write(append(b, '\n'))
	}
}

// print writes one output: a string as it is with -r, otherwise JSON, indented by two
// spaces unless -c; then a newline unless -j.
func (r *jqRunner) print(v any) error {
	var b bytes.Buffer
	if s, ok := v.(string); ok && r.o.raw {
		b.WriteString(s)
	} else {
		data, err := gojq.Marshal(v)
		if err != nil {
			return err
		}
		if r.o.compact {
			b.Write(data)
		} else if err := json.Indent(&b, data, "", "  "); err != nil {
			return fmt.Errorf("cannot print the output: %w", err)
		}
	}
	if !r.o.join {
		b.WriteByte('\n')
	}
	_, err := r.c.stdout.Write(b.Bytes())
	return err
}
