package export

import (
	"encoding/json"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestConvert covers schemas as user tools will bring them, from data: every dialect's
// output, or "" where the dialect cannot express the schema.
func TestConvert(t *testing.T) {
	cases := []struct {
		name                      string
		schema                    string
		portable, strict, openAPI string
	}{
		{"nullable type list",
			`{"type":"object","properties":{"a":{"type":["string","null"]}},"required":["a"]}`,
			`{"type":"object","properties":{"a":{"type":["string","null"]}},"required":["a"]}`,
			`{"type":"object","properties":{"a":{"type":["string","null"]}},"required":["a"],"additionalProperties":false}`,
			`{"type":"object","properties":{"a":{"type":"string","nullable":true}},"required":["a"]}`},
		{"unsupported keywords dropped, default described",
			`{"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"urn:x","title":"T","type":"object",
			  "properties":{"n":{"type":"integer","default":3,"examples":[1],"multipleOf":2},"s":{"type":"string","description":"d","default":"x","pattern":"^x"}},
			  "additionalProperties":false}`,
			`{"type":"object","properties":{"n":{"type":"integer","description":"(default: 3)"},"s":{"type":"string","description":"d (default: \"x\")"}},"additionalProperties":false}`,
			`{"type":"object","properties":{"n":{"type":["integer","null"],"description":"(default: 3)"},"s":{"type":["string","null"],"description":"d (default: \"x\")"}},"required":["n","s"],"additionalProperties":false}`,
			`{"type":"object","properties":{"n":{"type":"integer","description":"(default: 3)"},"s":{"type":"string","description":"d (default: \"x\")"}}}`},
		{"optional enum", `{"type":"object","properties":{"e":{"type":"string","enum":["a","b"]}}}`,
			`{"type":"object","properties":{"e":{"type":"string","enum":["a","b"]}}}`,
			`{"type":"object","properties":{"e":{"type":["string","null"],"enum":["a","b",null]}},"required":["e"],"additionalProperties":false}`,
			`{"type":"object","properties":{"e":{"type":"string","enum":["a","b"]}}}`},
		{"nested object in a list", `{"type":"object","properties":{"l":{"type":"array","items":{"type":"object","properties":{"x":{"type":"number","minimum":0,"maximum":1}}}}},"required":["l"]}`,
			`{"type":"object","properties":{"l":{"type":"array","items":{"type":"object","properties":{"x":{"type":"number","minimum":0,"maximum":1}}}}},"required":["l"]}`,
			`{"type":"object","properties":{"l":{"type":"array","items":{"type":"object","properties":{"x":{"type":["number","null"],"minimum":0,"maximum":1}},"required":["x"],"additionalProperties":false}}},"required":["l"],"additionalProperties":false}`,
			`{"type":"object","properties":{"l":{"type":"array","items":{"type":"object","properties":{"x":{"type":"number","minimum":0,"maximum":1}}}}},"required":["l"]}`},
		{"map", `{"type":"object","properties":{"m":{"type":"object","additionalProperties":{"type":"string"}}}}`,
			`{"type":"object","properties":{"m":{"type":"object","additionalProperties":{"type":"string"}}}}`, "", ""},
		{"properties and more", `{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":true}`,
			`{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":{}}`, "", ""},
		{"any object", `{"type":"object"}`, `{"type":"object"}`, "", ""},
		{"closed empty object", `{"type":"object","additionalProperties":false}`,
			`{"type":"object","additionalProperties":false}`,
			`{"type":"object","properties":{},"additionalProperties":false}`, ""},
		{"several types", `{"type":"object","properties":{"v":{"type":["string","integer"]}},"required":["v"]}`,
			`{"type":"object","properties":{"v":{"type":["string","integer"]}},"required":["v"]}`,
			`{"type":"object","properties":{"v":{"type":["string","integer"]}},"required":["v"],"additionalProperties":false}`, ""},
		{"no type", `{"type":"object","properties":{"v":{"description":"anything"}}}`,
			`{"type":"object","properties":{"v":{"description":"anything"}}}`, "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var s jsonschema.Schema
			require.NoError(t, json.Unmarshal([]byte(c.schema), &s))
			before, err := json.Marshal(&s)
			require.NoError(t, err)
			for d, want := range map[dialect]string{portable: c.portable, strict: c.strict, openAPI: c.openAPI} {
				got, ok := convert(&s, d)
				if want == "" {
					assert.False(t, ok, "dialect %d", d)
					continue
				}
				require.True(t, ok, "dialect %d", d)
				b, err := json.Marshal(got)
				require.NoError(t, err)
				assert.JSONEq(t, want, string(b), "dialect %d", d)
			}
			after, err := json.Marshal(&s)
			require.NoError(t, err)
			assert.JSONEq(t, string(before), string(after), "the declared schema is not modified")
		})
	}
}

func TestPropertiesKeepDeclaredOrder(t *testing.T) {
	s := &jsonschema.Schema{Type: "object", PropertyOrder: []string{"z", "a"}, Properties: map[string]*jsonschema.Schema{
		"a": {Type: "string"}, "z": {Type: "string"}, "m": {Type: "string"}, "b": {Type: "string"},
	}}
	got, ok := convert(s, portable)
	require.True(t, ok)
	b, err := json.Marshal(got)
	require.NoError(t, err)
	assert.Equal(t, `{"type":"object","properties":{"z":{"type":"string"},"a":{"type":"string"},"b":{"type":"string"},"m":{"type":"string"}}}`, string(b),
		"declared order first, then the others sorted")
}

func TestParametersCloseTheTopLevel(t *testing.T) {
	cases := []struct {
		name, schema, strict string
	}{
		{"no parameters", `{"type":"object","properties":{}}`, `{"type":"object","properties":{},"additionalProperties":false}`},
		{"open", `{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":true}`,
			`{"type":"object","properties":{"a":{"type":["string","null"]}},"required":["a"],"additionalProperties":false}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var s jsonschema.Schema
			require.NoError(t, json.Unmarshal([]byte(c.schema), &s))
			got, ok := parameters(&s, strict)
			require.True(t, ok)
			b, err := json.Marshal(got)
			require.NoError(t, err)
			assert.JSONEq(t, c.strict, string(b))
			after, err := json.Marshal(&s)
			require.NoError(t, err)
			assert.JSONEq(t, c.schema, string(after), "the declared schema is not modified")
		})
	}
}
