package runtime

import (
	"reflect"
	"strings"
	"sync"
	"time"

	lua "github.com/yuin/gopher-lua"
)

// maxToLuaDepth bounds the nesting ToLua follows, so that a cyclic Go value raises an error
// instead of overflowing the Go stack.
const maxToLuaDepth = 100

// ToLua converts a Go value to Lua: nil, bool, all integer and float kinds, string, []byte (as string),
// slices/arrays, maps with string keys, structs (exported fields with their json tags, omitempty honoured),
// pointers to those. Unsupported kinds become nil.
//
// Also: a lua.LValue is returned as is, a time.Time becomes its RFC 3339 string, a nil slice or
// map an empty table, embedded structs are flattened as encoding/json does, and omitzero is
// honoured. A value nested deeper than 100 levels (a cyclic one) raises an error on L.
func ToLua(L *lua.LState, v any) lua.LValue {
	return toLua(L, v, 0)
}

func toLua(L *lua.LState, v any, depth int) lua.LValue {
	switch v := v.(type) {
	case nil:
		return lua.LNil
	case lua.LValue:
		return v
	case bool:
		return lua.LBool(v)
	case string:
		return lua.LString(v)
	case int:
		return lua.LNumber(v)
	case int64:
		return lua.LNumber(v)
	case float64:
		return lua.LNumber(v)
	case []byte:
		return lua.LString(v)
	case time.Time:
		return lua.LString(v.Format(time.RFC3339Nano))
	case map[string]any: // the arguments of every call: no reflection
		if depth > maxToLuaDepth {
			L.RaiseError("a Go value nested deeper than %d levels cannot be converted", maxToLuaDepth)
		}
		chargeTable(L, 0, len(v))
		t := L.CreateTable(0, len(v))
		for k, e := range v {
			t.RawSetString(k, toLua(L, e, depth+1))
		}
		return t
	}
	return reflectToLua(L, reflect.ValueOf(v), depth)
}

func reflectToLua(L *lua.LState, rv reflect.Value, depth int) lua.LValue {
	if depth > maxToLuaDepth {
		L.RaiseError("a Go value nested deeper than %d levels cannot be converted", maxToLuaDepth)
	}
	switch rv.Kind() {
	case reflect.Bool:
		return lua.LBool(rv.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return lua.LNumber(rv.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return lua.LNumber(rv.Uint())
	case reflect.Float32, reflect.Float64:
		return lua.LNumber(rv.Float())
	case reflect.String:
		return lua.LString(rv.String())
	case reflect.Pointer, reflect.Interface:
		if rv.IsNil() {
			return lua.LNil
		}
		return child(L, rv.Elem(), depth)
	case reflect.Slice:
		if rv.Type().Elem().Kind() == reflect.Uint8 {
			return lua.LString(rv.Bytes())
		}
		return listToLua(L, rv, depth)
	case reflect.Array:
		return listToLua(L, rv, depth)
	case reflect.Map:
		if rv.Type().Key().Kind() != reflect.String {
			return lua.LNil
		}
		chargeTable(L, 0, rv.Len())
		t := L.CreateTable(0, rv.Len())
		for it := rv.MapRange(); it.Next(); {
			t.RawSetString(it.Key().String(), child(L, it.Value(), depth))
		}
		return t
	case reflect.Struct:
		return structToLua(L, rv, depth)
	}
	return lua.LNil
}

// child converts a value inside one at depth; it takes the fast path unless the value was
// reached through an unexported embedded struct.
func child(L *lua.LState, rv reflect.Value, depth int) lua.LValue {
	if rv.CanInterface() {
		return toLua(L, rv.Interface(), depth+1)
	}
	return reflectToLua(L, rv, depth+1)
}

// listMeta marks the tables ToLua makes from Go lists, so that ToGo turns an empty one back
// into an empty list, not an empty map. It is never modified after init and is protected
// (__metatable), so snippets can neither see nor change it, and sharing it between VMs is safe.
var listMeta = func() *lua.LTable {
	mt := &lua.LTable{Metatable: lua.LNil}
	mt.RawSetString("__metatable", lua.LFalse)
	return mt
}()

func listToLua(L *lua.LState, rv reflect.Value, depth int) *lua.LTable {
	chargeTable(L, rv.Len(), 0)
	t := L.CreateTable(rv.Len(), 0)
	t.Metatable = listMeta
	for i := range rv.Len() {
		t.RawSetInt(i+1, child(L, rv.Index(i), depth))
	}
	return t
}

func structToLua(L *lua.LState, rv reflect.Value, depth int) *lua.LTable {
	fields := structFields(rv.Type())
	chargeTable(L, 0, len(fields))
	t := L.CreateTable(0, len(fields))
	for _, f := range fields {
		fv, err := rv.FieldByIndexErr(f.index)
		if err != nil || f.omitEmpty && isEmpty(fv) || f.omitZero && fv.IsZero() {
			continue
		}
		t.RawSetString(f.name, child(L, fv, depth))
	}
	return t
}

// isEmpty is encoding/json's notion of an empty value for omitempty.
func isEmpty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Interface, reflect.Pointer:
		return v.IsZero()
	}
	return false
}

// field is a struct field as encoding/json sees it.
type field struct {
	name                string
	index               []int
	omitEmpty, omitZero bool
}

var fieldCache sync.Map // reflect.Type -> []field

// structFields lists the fields of struct type t that encoding/json would encode: exported, not
// tagged "-", named by their tag, with the fields of untagged embedded structs promoted unless a
// shallower field has the same name.
func structFields(t reflect.Type) []field {
	if f, ok := fieldCache.Load(t); ok {
		return f.([]field)
	}
	type embedded struct {
		t     reflect.Type
		index []int
	}
	var out []field
	taken := map[string]bool{}
	visited := map[reflect.Type]bool{t: true}
	for level := []embedded{{t, nil}}; len(level) > 0; {
		var next []embedded
		var found []field
		for _, e := range level {
			for i := range e.t.NumField() {
				sf := e.t.Field(i)
				tag := sf.Tag.Get("json")
				if tag == "-" {
					continue
				}
				name, opts, _ := strings.Cut(tag, ",")
				index := append(append([]int(nil), e.index...), i)
				ft := sf.Type
				if ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				if sf.Anonymous && name == "" && ft.Kind() == reflect.Struct {
					if !visited[ft] {
						visited[ft] = true
						next = append(next, embedded{ft, index})
					}
					continue
				}
				if !sf.IsExported() {
					continue
				}
				if name == "" {
					name = sf.Name
				}
				found = append(found, field{
					name:      name,
					index:     index,
					omitEmpty: hasOption(opts, "omitempty"),
					omitZero:  hasOption(opts, "omitzero"),
				})
			}
		}
		for _, f := range found {
			if !taken[f.name] {
				taken[f.name] = true
				out = append(out, f)
			}
		}
		level = next
	}
	fieldCache.Store(t, out)
	return out
}

// hasOption reports whether the comma-separated tag options contain opt.
func hasOption(opts, opt string) bool {
	for o := range strings.SplitSeq(opts, ",") {
		if o == opt {
			return true
		}
	}
	return false
}

// returnSteps is how many instructions a snippet may run between a host function's return
// and its own for PushResult's value to be handed back unconverted: the RETURN that passes
// the value on. Any other instruction (even one) could have changed the table.
const returnSteps = 1

// passResult is the last result a host function pushed with PushResult in a call.
type passResult struct {
	table *lua.LTable
	value any
	left  int64 // the instruction budget left when it was pushed
	// direct: table is a stand-in, never filled, for a value returned straight to the host
	// (LState.TailCallDepth): value is the call's result whatever the budget says.
	direct bool
}

// PushResult pushes v converted with ToLua, as the result of a host function, and remembers
// it: when the snippet returns that very table and has run no instruction since but the
// return itself (so nothing can have changed it), Call hands back v instead of converting the
// table back to Go. A large listing or search result then crosses into Lua once, not twice;
// and not at all when the snippet's own function returns the call itself
// (`return jido.read_file(args)`, every tool's own script): no Lua sees v then, so an
// empty stand-in is pushed in its place.
func PushResult(L *lua.LState, v any) {
	c, ok := L.Context().(*callCtx)
	// Depth 1: below the snippet's function is only the trampoline of the call (protect),
	// which passes its results to the host; a pcall's trampoline sits deeper. (Another
	// thread than the call's, were coroutines offered, would be another stack.)
	if ok && L == c.st.L && composite(v) && L.TailCallDepth() == 1 {
		t := L.CreateTable(0, 0)
		L.Push(t)
		c.result = passResult{table: t, value: v, direct: true}
		return
	}
	lv := ToLua(L, v)
	L.Push(lv)
	t, isTable := lv.(*lua.LTable)
	if ok && isTable {
		c.result = passResult{table: t, value: v, left: c.left.Load()}
	}
}

// composite reports whether ToLua makes a table of v (a struct, map, slice or array, or a
// pointer to one), as opposed to a scalar that costs nothing to convert, or nil.
func composite(v any) bool {
	switch v.(type) {
	case nil, bool, string, int, int64, float64, []byte, time.Time, lua.LValue:
		return false
	}
	rv := reflect.ValueOf(v)
	for rv.Kind() == reflect.Pointer || rv.Kind() == reflect.Interface {
		if rv.IsNil() {
			return false
		}
		rv = rv.Elem()
	}
	switch rv.Kind() {
	case reflect.Struct, reflect.Map, reflect.Array:
		return true
	case reflect.Slice:
		return rv.Type().Elem().Kind() != reflect.Uint8
	}
	return false
}

// passedThrough returns the Go value of the call's single result when it is the unchanged
// table of the last PushResult.
func (c *callCtx) passedThrough(L *lua.LState) (any, bool) {
	if L.GetTop() != 1 || c.result.table == nil || L.Get(1) != c.result.table {
		return nil, false
	}
	return c.result.value, c.result.direct || c.result.left-c.left.Load() <= returnSteps
}

// chargeTable charges the call running on L, if any, for a table of arr array slots and hash
// keys before it is made, with the estimates of the gopher-lua patch (third_party).
func chargeTable(L *lua.LState, arr, hash int) {
	if L.Charge != nil {
		L.Charge(int64(128 + arr*16 + hash*128))
	}
}
