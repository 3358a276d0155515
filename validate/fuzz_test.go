package validate

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
)

// fuzzCheck fuzzes Check on paths, seeded with the contents of cases: no
// parser may panic, and every position must lie within the content. When
// valid is not nil, Check must agree with it.
func fuzzCheck(f *testing.F, cases []checkCase, valid func([]byte) bool, paths ...string) {
	for _, tc := range cases {
		f.Add([]byte(tc.src))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		for _, path := range paths {
			p := Check(path, src)
			if valid != nil {
				assert.Equal(t, valid(src), p == nil, "%v", p)
			}
			if p == nil {
				continue
			}
			assert.Equal(t, Kind(path), p.Kind)
			assert.NotContains(t, p.Message, "parser failed")
			assertWithin(t, src, p)
		}
	})
}

func FuzzGo(f *testing.F)   { fuzzCheck(f, goCases, nil, "a.go") }
func FuzzJSON(f *testing.F) { fuzzCheck(f, jsonCases, json.Valid, "a.json") }
func FuzzLua(f *testing.F)  { fuzzCheck(f, luaCases, nil, "a.lua") }
func FuzzYAML(f *testing.F) { fuzzCheck(f, yamlCases, nil, "a.yaml") }
func FuzzTOML(f *testing.F) { fuzzCheck(f, tomlCases, nil, "a.toml") }
func FuzzLisp(f *testing.F) {
	fuzzCheck(f, lispCases, nil, "a.el", "a.lisp", "a.scm", "a.rkt", "a.clj")
}
