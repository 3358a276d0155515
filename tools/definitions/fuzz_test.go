package definitions

import (
	"encoding/json"
	"reflect"
	"testing"
)

// newParams returns a pointer to a new zero params value of the tool.
func newParams(t *Tool) any { return reflect.New(t.paramsType).Interface() }

// FuzzCheck feeds arbitrary JSON arguments to every tool's validation: it must never panic, and
// whatever it accepts must decode into the params struct.
func FuzzCheck(f *testing.F) {
	for _, seed := range []string{
		`{"path":"a"}`, `{}`, `{"path":1}`, `{"edits":[{"old_string":"a"}]}`, `{"limit":-1e308}`,
		`{"path":"a","limit":1e400}`, `{"patterns":[null]}`, `{"path":"a","extra":{"x":[1,2]}}`, `[]`, `null`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		var args map[string]any
		if json.Unmarshal([]byte(raw), &args) != nil {
			return
		}
		for _, tool := range All() {
			filled, terr := tool.Check(args)
			if terr != nil {
				if terr.Type != ValidationError || terr.Message == "" {
					t.Fatalf("%s: bad error %+v", tool.Name, terr)
				}
				continue
			}
			b, err := json.Marshal(filled)
			if err != nil {
				t.Fatalf("%s: accepted args do not encode: %v", tool.Name, err)
			}
			viaJSON, direct := newParams(tool), newParams(tool)
			if err := json.Unmarshal(b, viaJSON); err != nil {
				t.Fatalf("%s: accepted args %s do not decode: %v", tool.Name, b, err)
			}
			if err := assign(reflect.ValueOf(direct).Elem(), filled); err != nil {
				t.Fatalf("%s: accepted args %s do not assign: %v", tool.Name, b, err)
			}
			if !reflect.DeepEqual(viaJSON, direct) {
				t.Fatalf("%s: assign disagrees with encoding/json:\n%#v\n%#v", tool.Name, viaJSON, direct)
			}
		}
	})
}
