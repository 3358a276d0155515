// Package usertools loads the tools users write in Lua: files `*.lua` in a project's
// .jido/tools, in the user's config directory and in directories named on the command line,
// each of the form
//
//	return jido.tool{
//	  name = "count_todos", description = "...",
//	  params = {type = "object", properties = {...}, required = {...}},
//	  mutating = false, destructive = false,
//	  run = function(args) ... return result end,
//	}
//
// A file is run once at load, in a VM of its own whose only function is jido.tool, to read
// and check its declaration (name, description, a JSON-Schema subset for params, flags).
// The tool itself runs later inside a session's VM, with the same sandbox, policy and
// approval gate as every built-in tool (see bridge). A Registry reloads the files when they
// change.
package usertools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/jido-run/jido/runtime"
	"github.com/jido-run/jido/tools/definitions"
	lua "github.com/yuin/gopher-lua"
)

// MaxFileSize caps a tool file: a declaration and its code, not data.
const MaxFileSize = 256 << 10

// loadLimits bound the run of a file at load: its top level should only declare.
var loadLimits = runtime.Limits{Timeout: 2 * time.Second, Instructions: 2_000_000, MaxMemory: 32 << 20}

// Source is a directory of tool files.
type Source struct {
	Label string // how the directory is named in errors and chunk names, e.g. ".jido/tools"
	FS    fs.FS  // the directory
}

// Tool is one loaded user tool.
type Tool struct {
	Def    *definitions.Tool // name, description, schema, flags: what exporters and the gate read
	File   string            // Label/name.lua: the chunk name of its code, in errors too
	Source string            // the file's Lua source, run inside the session's VM for each call
}

// Set is the tools of one load, and the files that failed to load.
type Set struct {
	tools  []*Tool // sorted by name
	Errors []error // one per file that was skipped, each naming the file (and line)
}

// Tools returns the loaded tools sorted by name. The slice must not be modified.
func (s *Set) Tools() []*Tool {
	if s == nil {
		return nil
	}
	return s.tools
}

// Lookup finds a tool by name.
func (s *Set) Lookup(name string) (*Tool, bool) {
	for _, t := range s.Tools() {
		if t.Def.Name == name {
			return t, true
		}
	}
	return nil, false
}

// Load loads every *.lua file of the sources, in order. A file that does not declare a
// valid tool, or declares a name that reserved reports (the built-in tools) or an earlier
// file declared, is skipped and reported in Set.Errors.
func Load(ctx context.Context, sources []Source, reserved func(name string) bool) *Set {
	set := &Set{}
	owner := map[string]string{} // tool name -> file that declared it
	for _, src := range sources {
		if src.FS == nil {
			continue
		}
		names, err := fs.Glob(src.FS, "*.lua")
		if err != nil {
			continue
		}
		for _, name := range names {
			file := path.Join(src.Label, name)
			t, err := loadFile(ctx, src.FS, name, file)
			switch {
			case err != nil:
			case reserved != nil && reserved(t.Def.Name):
				err = fmt.Errorf("%s: tool %q has the name of a built-in tool; rename it", file, t.Def.Name)
			case owner[t.Def.Name] != "":
				err = fmt.Errorf("%s: tool %q is declared by %s already; rename one of them", file, t.Def.Name, owner[t.Def.Name])
			}
			if err != nil {
				set.Errors = append(set.Errors, err)
				continue
			}
			owner[t.Def.Name] = file
			set.tools = append(set.tools, t)
		}
	}
	slices.SortFunc(set.tools, func(a, b *Tool) int { return strings.Compare(a.Def.Name, b.Def.Name) })
	return set
}

// loadFile reads and declares one tool file.
func loadFile(ctx context.Context, fsys fs.FS, name, file string) (*Tool, error) {
	info, err := fs.Stat(fsys, name)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	if !info.Mode().IsRegular() || info.Size() > MaxFileSize {
		return nil, fmt.Errorf("%s: not a regular file of at most %d bytes", file, MaxFileSize)
	}
	data, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	def, err := Declare(ctx, file, string(data))
	if err != nil {
		return nil, err
	}
	return &Tool{Def: def, File: file, Source: string(data)}, nil
}

// Declare runs the source of a tool file at load, where jido.tool is the only function
// of jido, and returns the tool it declares. Errors name the file and, when known, the line.
func Declare(ctx context.Context, file, src string) (*definitions.Tool, error) {
	var decl *definitions.Tool
	var declErr error
	declare := func(L *lua.LState) int {
		where := strings.TrimSpace(L.Where(1)) // "file:line:" of the jido.tool call
		if decl != nil || declErr != nil {
			L.RaiseError("jido.tool: a file declares one tool; put the others in files of their own")
		}
		t := L.CheckTable(1)
		if decl, declErr = declaration(t); declErr != nil {
			declErr = fmt.Errorf("%s jido.tool: %w", where, declErr)
			L.RaiseError("%s", declErr)
		}
		L.Push(t)
		return 1
	}
	vm, err := runtime.New(runtime.Options{Limits: loadLimits, Libraries: []runtime.Library{{Name: "jido", Funcs: map[string]lua.LGFunction{"tool": declare}}}})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	defer vm.Close()
	vals, err := vm.Call(ctx, file, src)
	switch {
	case declErr != nil:
		return nil, declErr
	case err != nil:
		var re *runtime.Error
		if errors.As(err, &re) && strings.HasPrefix(re.Message, file+":") {
			return nil, errors.New(re.Message)
		}
		return nil, fmt.Errorf("%s: %w", file, err)
	case decl == nil:
		return nil, fmt.Errorf("%s: the file must return jido.tool{...}", file)
	case len(vals) != 1:
		return nil, fmt.Errorf("%s: the file must return the jido.tool{...} it declares, and only that", file)
	}
	if m, ok := vals[0].(map[string]any); !ok || m["name"] != decl.Name {
		return nil, fmt.Errorf("%s: the file must return the jido.tool{...} it declares, and only that", file)
	}
	return decl, nil
}

// nameRE is the shape of a tool name: snake_case, as the built-in tools.
var nameRE = regexp.MustCompile(`^[a-z][a-z0-9_]{0,63}$`)

// declFields are the keys a declaration may have, and what each must be.
var declFields = map[string]string{
	"name": "string", "description": "string", "params": "table", "run": "function",
	"mutating": "boolean", "destructive": "boolean", "idempotent": "boolean", "open_world": "boolean",
}

// declaration checks the table given to jido.tool and builds the tool it declares.
func declaration(t *lua.LTable) (*definitions.Tool, error) {
	var bad error
	t.ForEach(func(k, v lua.LValue) {
		key, ok := k.(lua.LString)
		want, known := declFields[string(key)]
		switch {
		case bad != nil:
		case !ok || !known:
			bad = fmt.Errorf("unknown field %s; a tool has %s", k.String(), strings.Join(slices.Sorted(maps.Keys(declFields)), ", "))
		case v.Type().String() != want:
			bad = fmt.Errorf("field %s must be a %s, not a %s", key, want, v.Type())
		}
	})
	if bad != nil {
		return nil, bad
	}
	name := lua.LVAsString(t.RawGetString("name"))
	desc := strings.TrimSpace(lua.LVAsString(t.RawGetString("description")))
	switch {
	case !nameRE.MatchString(name):
		return nil, fmt.Errorf("name %q must be snake_case: a lower-case letter, then letters, digits or _ (64 at most)", name)
	case desc == "":
		return nil, errors.New("description is missing: the model reads it to decide when to call the tool")
	case t.RawGetString("run") == lua.LNil:
		return nil, errors.New("run is missing: run = function(args) ... end")
	}
	flags := definitions.Flags{
		Mutating:    lua.LVAsBool(t.RawGetString("mutating")),
		Destructive: lua.LVAsBool(t.RawGetString("destructive")),
		Idempotent:  lua.LVAsBool(t.RawGetString("idempotent")),
		OpenWorld:   lua.LVAsBool(t.RawGetString("open_world")),
	}
	flags.Mutating = flags.Mutating || flags.Destructive
	flags.ReadOnly = !flags.Mutating
	schema, err := paramsSchema(t.RawGetString("params"))
	if err != nil {
		return nil, fmt.Errorf("params: %w", err)
	}
	def, err := definitions.NewTool(name, desc, flags, schema)
	if err != nil {
		return nil, fmt.Errorf("params: %w (a default or an enum value of the wrong type?)", err)
	}
	return def, nil
}

// paramsSchema converts the params table (nil: no parameters) to a JSON Schema, checking
// that it keeps to the subset jido supports.
func paramsSchema(v lua.LValue) (*jsonschema.Schema, error) {
	if v == lua.LNil {
		return &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{}}, nil
	}
	g, err := runtime.ToGo(v, runtime.Limits{}, false)
	if err != nil {
		return nil, err
	}
	m, ok := g.(map[string]any)
	if !ok {
		if l, isList := g.([]any); !isList || len(l) > 0 {
			return nil, errors.New("must be a table of schema keywords, e.g. {type = \"object\", properties = {...}}")
		}
		m = map[string]any{}
	}
	if _, ok := m["type"]; !ok {
		m["type"] = "object"
	}
	if err := checkSubset(m, "params", true); err != nil {
		return nil, err
	}
	data, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, err
	}
	return &s, nil
}

// keywords are the JSON Schema keywords a user tool's params may use.
var keywords = map[string]bool{
	"type": true, "description": true, "properties": true, "required": true, "items": true,
	"enum": true, "default": true, "minimum": true, "maximum": true,
}

// types are the JSON types a parameter may have.
var types = []string{"string", "integer", "number", "boolean", "array", "object"}

// checkSubset checks the schema node m at path: known keywords and types, an object at the
// top, properties and items that are schemas, required naming properties. Lua has no empty
// list, so an empty `required` or `enum` table is taken as a list.
func checkSubset(m map[string]any, at string, top bool) error {
	for k := range m {
		if !keywords[k] {
			return fmt.Errorf("%s: unsupported keyword %q (supported: %s)", at, k, strings.Join(slices.Sorted(maps.Keys(keywords)), ", "))
		}
	}
	typ, _ := m["type"].(string)
	switch {
	case !slices.Contains(types, typ):
		return fmt.Errorf("%s: type must be one of %s, got %v", at, strings.Join(types, ", "), m["type"])
	case top && typ != "object":
		return fmt.Errorf("%s: the top level must be type = \"object\"", at)
	}
	for _, k := range []string{"required", "enum"} {
		if e, ok := m[k].(map[string]any); ok && len(e) == 0 {
			m[k] = []any{}
		}
	}
	props := map[string]any{}
	if p, ok := m["properties"]; ok {
		if props, ok = p.(map[string]any); !ok {
			if l, isList := p.([]any); !isList || len(l) > 0 {
				return fmt.Errorf("%s.properties must be a table of name = schema", at)
			}
			props = map[string]any{}
			m["properties"] = props
		}
	}
	for name, p := range props {
		pm, ok := p.(map[string]any)
		if !ok {
			return fmt.Errorf("%s.properties.%s must be a schema table, e.g. {type = \"string\"}", at, name)
		}
		if err := checkSubset(pm, at+".properties."+name, false); err != nil {
			return err
		}
	}
	if req, ok := m["required"]; ok {
		list, isList := req.([]any)
		if !isList {
			return fmt.Errorf("%s.required must be a list of property names", at)
		}
		for _, r := range list {
			if s, ok := r.(string); !ok || props[s] == nil {
				return fmt.Errorf("%s.required names %v, which is not a property", at, r)
			}
		}
	}
	if items, ok := m["items"]; ok {
		im, isMap := items.(map[string]any)
		if !isMap {
			return fmt.Errorf("%s.items must be a schema table", at)
		}
		return checkSubset(im, at+".items", false)
	}
	return nil
}
