package mcp

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Types that embed structs in the three ways encoding/json tells apart.
type (
	inner struct {
		A int    `json:"a"`
		B string `json:"b,omitempty"`
	}
	byValue struct {
		inner
		C bool `json:"c"`
	}
	byPointer struct {
		*inner
		C bool `json:"c"`
	}
	named struct {
		*inner `json:"in,omitempty"`
		A      string    `json:"a"` // not the inner a: that one is inside "in"
		When   time.Time `json:"when"`
	}
	listOf struct {
		Items []byPointer          `json:"items"`
		ByKey map[string]byPointer `json:"by_key,omitempty"`
	}
)

func TestOutputSchemaFollowsEncodingJSON(t *testing.T) {
	cases := []struct {
		name  string
		typ   reflect.Type
		value any // a value of typ, or JSON that typ could not produce
		valid bool
	}{
		{"embedded value", reflect.TypeFor[byValue](), byValue{inner{A: 1}, true}, true},
		{"embedded pointer set", reflect.TypeFor[byPointer](), byPointer{&inner{A: 1, B: "x"}, true}, true},
		{"embedded pointer nil", reflect.TypeFor[byPointer](), byPointer{nil, true}, true},
		{"named embedded set", reflect.TypeFor[named](), named{&inner{A: 2}, "a", time.Now()}, true},
		{"named embedded nil", reflect.TypeFor[named](), named{nil, "a", time.Now()}, true},
		{"in lists and maps", reflect.TypeFor[listOf](), listOf{Items: []byPointer{{nil, true}, {&inner{}, false}}, ByKey: map[string]byPointer{"k": {nil, false}}}, true},
		{"nil list", reflect.TypeFor[listOf](), listOf{}, true},
		{"flattened field missing", reflect.TypeFor[byValue](), json.RawMessage(`{"c":true,"b":"x"}`), false},
		{"unknown property", reflect.TypeFor[byPointer](), json.RawMessage(`{"c":true,"zzz":1}`), false},
		{"named embedded flattened", reflect.TypeFor[named](), json.RawMessage(`{"a":"a","when":"2026-01-01T00:00:00Z","b":"x"}`), false},
		{"wrong type", reflect.TypeFor[byPointer](), json.RawMessage(`{"a":"one","c":true}`), false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			data, err := json.Marshal(c.value)
			require.NoError(t, err)
			var v any
			require.NoError(t, json.Unmarshal(data, &v))
			err = resolved(t, outputSchema(c.typ)).Validate(v)
			if c.valid {
				assert.NoError(t, err, "%s", data)
			} else {
				assert.Error(t, err, "%s", data)
			}
		})
	}
	assert.Same(t, outputSchema(reflect.TypeFor[named]()), outputSchema(reflect.TypeFor[named]()), "built once")
}
