package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/jido-run/jido/manager"
	"github.com/jido-run/jido/tools/definitions"
	"github.com/jido-run/jido/tools/export"
)

// toolFormats are the formats of `jido tools`, in the order the usage lists them.
var toolFormats = []struct {
	name   string
	export func([]*definitions.Tool) any
}{
	{"jsonschema", func(ts []*definitions.Tool) any { return export.JSONSchema(ts) }},
	{"openai", func(ts []*definitions.Tool) any { return export.OpenAI(ts) }},
	{"gemini", func(ts []*definitions.Tool) any { return export.Gemini(ts) }},
	{"anthropic", func(ts []*definitions.Tool) any { return export.Anthropic(ts) }},
	{"mcp", func(ts []*definitions.Tool) any { return export.MCP(ts) }},
}

// toolsOptions are the parsed arguments of `jido tools`.
type toolsOptions struct {
	sessionFlags                               // the root, role and tool dirs decide the catalogue
	export       func([]*definitions.Tool) any // the exporter of the chosen format
}

// parseTools parses the arguments of `jido tools`; an unknown format is an error that lists
// the known ones.
func parseTools(args []string, stderr io.Writer) (*toolsOptions, error) {
	names := make([]string, len(toolFormats))
	for i, f := range toolFormats {
		names[i] = f.name
	}
	o := &toolsOptions{}
	fs := newFlagSet("tools", stderr)
	o.register(fs)
	format := fs.String("format", "jsonschema", "output format: "+strings.Join(names, ", "))
	if err := parseArgs(fs, args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("tools takes no arguments, got %q", fs.Args())
	}
	for _, f := range toolFormats {
		if f.name == *format {
			o.export = f.export
			return o, nil
		}
	}
	return nil, fmt.Errorf("unknown format %q; formats: %s", *format, strings.Join(names, ", "))
}

// runTools implements `jido tools`: the catalogue of a session on the root (the built-in
// tools its role and mode offer, and the user's Lua tools) in the chosen format.
func runTools(argv []string, stdout, stderr io.Writer) int {
	o, err := parseTools(argv, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "jido tools: %v\n", err)
		return exitUsage
	}
	return o.withSession("tools", stderr, func(_ context.Context, s *manager.Session) int {
		writeJSON(stdout, o.export(s.Tools()))
		return exitOK
	})
}
