package interpret

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// pathArgs collects the path arguments of a plan's calls, at any depth.
func pathArgs(args map[string]any, out *[]string) {
	for k, v := range args {
		switch x := v.(type) {
		case string:
			if pathKeys[k] {
				*out = append(*out, x)
			}
		case []any:
			for _, e := range x {
				if obj, ok := e.(map[string]any); ok {
					pathArgs(obj, out)
				}
			}
		}
	}
}

// FuzzModelPlan feeds arbitrary model answers: whatever comes back, the plan holds only
// offered tools with valid arguments and paths inside the root, and never panics.
func FuzzModelPlan(f *testing.F) {
	f.Add(`{"needs_tools":true,"tools":[{"name":"read_file","args":{"path":"a.go"},"confidence":0.9}],"rationale":"r"}`)
	f.Add(`{"needs_tools":true,"tools":[{"name":"multi_edit","args":{"edits":[{"path":"../x","old_string":"a","new_string":"b"}]},"confidence":1}],"rationale":"r"}`)
	f.Add(`{"needs_tools":true,"tools":[{"name":"search","args":{"query":"x","max_results":1e9,"include_paths":["/a"]},"confidence":-1}],"rationale":"r"}`)
	f.Add(`{"needs_tools":false,"tools":null,"rationale":""}`)
	f.Add(`[]`)
	f.Fuzz(func(t *testing.T, answer string) {
		in := &Interpreter{Model: &fakeModel{answer: answer}}
		p := in.Interpret(context.Background(), "list todos", Context{})
		require.Equal(t, p.NeedsTools, len(p.Tools) > 0)
		for _, tp := range p.Tools {
			tool := in.tool(tp.Name)
			require.NotNil(t, tool, tp.Name)
			_, terr := tool.Check(tp.Args)
			require.Nil(t, terr)
			assert.True(t, tp.Confidence >= 0 && tp.Confidence <= 1)
			var paths []string
			pathArgs(tp.Args, &paths)
			for _, p := range paths {
				c, err := lexicalClean(p)
				require.NoError(t, err, p)
				require.Equal(t, c, p, "paths come back clean")
			}
		}
	})
}

// FuzzRules feeds arbitrary queries: the rules never panic, and every plan they make
// passes the checks a model's plan must pass.
func FuzzRules(f *testing.F) {
	for _, tc := range mapped {
		f.Add(tc.query)
	}
	for _, tc := range unmapped {
		f.Add(tc.query)
	}
	for _, tc := range phrasings {
		f.Add(tc.query)
	}
	for _, tc := range offlineOnly {
		f.Add(tc.query)
	}
	f.Fuzz(func(t *testing.T, query string) {
		want := Rules(query, session)
		got := (&Interpreter{}).Interpret(context.Background(), query, session)
		assert.Equal(t, want.Tools, got.Tools)
		assert.False(t, strings.Contains(got.Notes, "dropped"), got.Notes)
		if !want.NeedsTools {
			assert.NotEmpty(t, want.Rationale)
		}
	})
}
