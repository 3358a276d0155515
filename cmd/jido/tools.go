package main

import (
	"fmt"
	"io"
	"strings"

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
	export func([]*definitions.Tool) any // the exporter of the chosen format
}

// parseTools parses the arguments of `jido tools`; an unknown format is an error that lists
// the known ones.
func parseTools(args []string, stderr io.Writer) (*toolsOptions, error) {
	names := make([]string, len(toolFormats))
	for i, f := range toolFormats {
		names[i] = f.name
	}
	fs := newFlagSet("tools", stderr)
	format := fs.String("format", "jsonschema", "output format: "+strings.Join(names, ", "))
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("tools takes no arguments, got %q", fs.Args())
	}
	for _, f := range toolFormats {
		if f.name == *format {
			return &toolsOptions{export: f.export}, nil
		}
	}
	return nil, fmt.Errorf("unknown format %q; formats: %s", *format, strings.Join(names, ", "))
}

// catalogue is the list of tools that `jido tools` exports: the one place it comes from.
func catalogue() []*definitions.Tool { return definitions.All() }

// runTools implements `jido tools`: the catalogue as one JSON array, in the chosen format.
func runTools(argv []string, stdout, stderr io.Writer) int {
	o, err := parseTools(argv, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "jido tools: %v\n", err)
		return exitUsage
	}
	writeJSON(stdout, o.export(catalogue()))
	return exitOK
}
