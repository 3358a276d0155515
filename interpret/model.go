package interpret

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/jido-run/jido/tools/definitions"
)

// PlanSchema returns the JSON Schema the model must answer with. Each call returns a new
// map, which the caller may modify.
func PlanSchema() map[string]any {
	return map[string]any{
		"type": "object",
		"properties": map[string]any{
			"needs_tools": map[string]any{"type": "boolean", "description": "whether tools are needed to answer"},
			"tools": map[string]any{
				"type":        "array",
				"description": "the tool calls to make, in order; empty when needs_tools is false",
				"items": map[string]any{
					"type": "object",
					"properties": map[string]any{
						"name":       map[string]any{"type": "string", "description": "a tool name from the list"},
						"args":       map[string]any{"type": "object", "description": "the tool's arguments, by parameter name"},
						"confidence": map[string]any{"type": "number", "minimum": 0, "maximum": 1},
					},
					"required":             []any{"name", "args", "confidence"},
					"additionalProperties": false,
				},
			},
			"rationale": map[string]any{"type": "string", "description": "a short explanation of the choice"},
			"notes":     map[string]any{"type": "string", "description": "assumptions or ambiguities"},
		},
		"required":             []any{"needs_tools", "tools", "rationale"},
		"additionalProperties": false,
	}
}

// prompt builds the model's instructions: the tools on offer, the sandbox's rules, the
// session's context, and the query (as a JSON string, so that it reads as data).
func (in *Interpreter) prompt(query string, c Context) string {
	var b strings.Builder
	b.WriteString("You are jido's query interpreter. jido runs tools in a sandbox on a software project. " +
		"Decide whether the user's query needs tools and, if so, which calls with which arguments. " +
		"Answer with one JSON object following the schema, nothing else: " +
		`{"needs_tools": bool, "tools": [{"name": string, "args": object, "confidence": number}], "rationale": string, "notes": string}` + "\n\n")
	b.WriteString("Tools (name: what it does; parameters, * = required):\n")
	for _, t := range in.offered() {
		fmt.Fprintf(&b, "- %s: %s (%s)", t.Name, firstSentence(t.Description), params(t))
		if t.Mutating {
			b.WriteString(" [changes the project: the user approves it]")
		}
		b.WriteByte('\n')
	}
	b.WriteString("\nSandbox rules:\n" +
		"- Paths are relative to the project root; never absolute, never .. above the root.\n" +
		"- Never read, search for or reveal secrets (.env files, keys, credentials).\n" +
		"- Use only the tools and parameters listed; leave out parameters whose default is fine.\n" +
		"- Plan a change (write, edit, delete, move, run a command) only when the query asks for one; every such call is shown to the user for approval.\n" +
		"- Questions that need no project data (greetings, general knowledge) need no tools.\n")
	b.WriteString("\nSession context:\n")
	fmt.Fprintf(&b, "- directory in focus (\"here\"): %s\n", dirOf(c))
	if c.LastFile != "" {
		fmt.Fprintf(&b, "- current file (\"this file\", \"it\"): %s\n", c.LastFile)
	}
	if n := len(c.LastListing); n > 0 {
		shown := c.LastListing[:min(n, 20)]
		fmt.Fprintf(&b, "- last listing (\"these files\"), %d paths: %s", n, strings.Join(shown, ", "))
		if n > len(shown) {
			b.WriteString(", ...")
		}
		b.WriteByte('\n')
	}
	q, _ := json.Marshal(query)
	fmt.Fprintf(&b, "\nQuery: %s\n", q)
	return b.String()
}

// firstSentence is the first sentence of a tool description, on one line.
func firstSentence(desc string) string {
	desc = strings.Join(strings.Fields(desc), " ")
	if i := strings.Index(desc, ". "); i >= 0 {
		return desc[:i+1]
	}
	return desc
}

// params lists a tool's parameter names, required ones marked with *.
func params(t *definitions.Tool) string {
	s := t.Schema()
	names := make([]string, 0, len(s.Properties))
	for name := range s.Properties {
		if slices.Contains(s.Required, name) {
			name += "*"
		}
		names = append(names, name)
	}
	slices.Sort(names)
	if len(names) == 0 {
		return "no parameters"
	}
	return strings.Join(names, ", ")
}

// wirePlan is the model's answer as PlanSchema describes it.
type wirePlan struct {
	NeedsTools *bool      `json:"needs_tools"`
	Tools      []wireTool `json:"tools"`
	Rationale  string     `json:"rationale"`
	Notes      string     `json:"notes"`
}

type wireTool struct {
	Name       string         `json:"name"`
	Args       map[string]any `json:"args"`
	Confidence *float64       `json:"confidence"`
}

// parsePlan reads the model's answer strictly: one JSON object of PlanSchema's fields and
// types, nothing before or after it. Checking the calls is left to check.
func parsePlan(data []byte) (Plan, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var w wirePlan
	if err := dec.Decode(&w); err != nil {
		return Plan{}, fmt.Errorf("%w: %v", ErrInvalidPlan, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return Plan{}, fmt.Errorf("%w: data after the JSON object", ErrInvalidPlan)
	}
	if w.NeedsTools == nil {
		return Plan{}, fmt.Errorf("%w: needs_tools is missing", ErrInvalidPlan)
	}
	p := Plan{NeedsTools: *w.NeedsTools, Rationale: w.Rationale, Notes: w.Notes, Source: SourceModel}
	for i, t := range w.Tools {
		if t.Name == "" {
			return Plan{}, fmt.Errorf("%w: tools[%d] has no name", ErrInvalidPlan, i)
		}
		tp := ToolPlan{Name: t.Name, Args: t.Args, Confidence: 0.5} // unsaid confidence: middling
		if t.Args == nil {
			tp.Args = map[string]any{}
		}
		if t.Confidence != nil {
			tp.Confidence = *t.Confidence
		}
		p.Tools = append(p.Tools, tp)
	}
	return p, nil
}
