package main

import (
	"fmt"
	"io"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/jido-run/jido/tools/definitions"
)

// toolEntry is one tool as `jido tools` prints it.
type toolEntry struct {
	Name        string             `json:"name"`
	Description string             `json:"description"`
	Parameters  *jsonschema.Schema `json:"parameters"`
	ReadOnly    bool               `json:"read_only"`
	Mutating    bool               `json:"mutating"`
	Destructive bool               `json:"destructive"`
}

// runTools implements `jido tools`: the catalogue as a JSON array.
func runTools(argv []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("tools", stderr)
	format := fs.String("format", "jsonschema", "output format (jsonschema)")
	if err := fs.Parse(argv); err != nil {
		return exitUsage
	}
	if *format != "jsonschema" || fs.NArg() > 0 {
		fmt.Fprintf(stderr, "jido tools: unsupported format %q or extra arguments; supported: jsonschema\n", *format)
		return exitUsage
	}
	entries := []toolEntry{}
	for _, t := range definitions.All() {
		entries = append(entries, toolEntry{
			Name: t.Name, Description: t.Description, Parameters: t.Schema(),
			ReadOnly: t.ReadOnly, Mutating: t.Mutating, Destructive: t.Destructive,
		})
	}
	writeJSON(stdout, entries)
	return exitOK
}
