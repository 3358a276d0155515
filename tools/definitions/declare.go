package definitions

import (
	"fmt"
	"reflect"
	"strings"
)

// Decl is what a tool's declaration says beside its params type and description; the
// bridge, policy, the manager and the front ends derive their tables from it.
type Decl struct {
	Flags
	// Role is the smallest default role that offers the tool (policy builds its roles
	// from it); RoleFull, the zero value, keeps it to the full role.
	Role Role
	// Sessions says which sessions offer the tool (the zero value: every session).
	Sessions Availability
	// Positional are the parameters a Lua call may pass by position, in order, as seed
	// 003's bridge does: jido.edit_file("a.go", "old", "new"); a table after them holds the
	// others.
	Positional []string
}

// Role names a default role: a tool set a sub-agent may be limited to.
type Role string

// The default roles. A reader tool is in every role, an editor or runner tool in its own
// and the full one, a RoleFull tool in the full role only.
const (
	RoleFull   Role = ""
	RoleReader Role = "reader"
	RoleEditor Role = "editor"
	RoleRunner Role = "runner"
)

// Availability says which sessions offer a tool.
type Availability int

const (
	// Everywhere: every session.
	Everywhere Availability = iota
	// PlanOnly: only a plan-mode session (the tools that show, apply or drop the plan).
	PlanOnly
	// NotInPlan: every session but a plan-mode one (what a plan cannot hold: jobs, test
	// runs, undo).
	NotInPlan
)

// InSession reports whether a session, in plan mode or not, offers the tool.
func (t *Tool) InSession(planMode bool) bool {
	switch t.Sessions {
	case PlanOnly:
		return planMode
	case NotInPlan:
		return !planMode
	}
	return true
}

// The `jido` struct tag marks what a params field is to the rest of jido:
//   - "path": a file or directory the call acts on (policy's path rules, the undo journal);
//     in a list of structs or a struct pointed to too (multi_edit's edits, a todo's location)
//   - "workdir": a directory the call runs in: path rules match it, the journal ignores it
//   - "dry_run": the bool that asks for a dry run, which changes nothing and so needs no
//     approval and no journal entry
//
// A field whose name says it holds a path must carry "path", "workdir" or "notpath" (a
// completeness test checks), so a new tool cannot slip past path rules by omission.
const tagKey = "jido"

// pathField locates a path-bearing field: index in the params struct, and for a list of
// structs the index of the field inside each element.
type pathField struct {
	index   []int
	elem    []int // nil: the field itself is the path
	workdir bool
}

// fields are the tagged fields of a params type, found once at declaration.
type fields struct {
	paths  []pathField
	dryRun []int // nil: the tool has no dry run
}

// scanFields reads the `jido` tags of params type t; a tag in the wrong place is a
// programming error.
func scanFields(t reflect.Type) fields {
	var fs fields
	for f := range t.Fields() {
		switch tag := f.Tag.Get(tagKey); tag {
		case "path", "workdir":
			if f.Type.Kind() != reflect.String {
				panic(fmt.Sprintf("%s.%s: a %q field must be a string", t.Name(), f.Name, tag))
			}
			fs.paths = append(fs.paths, pathField{index: f.Index, workdir: tag == "workdir"})
		case "dry_run":
			if f.Type.Kind() != reflect.Bool {
				panic(fmt.Sprintf("%s.%s: the dry_run field must be a bool", t.Name(), f.Name))
			}
			fs.dryRun = f.Index
		case "", "notpath":
			if elem, ok := structElem(f.Type); ok {
				for _, inner := range scanFields(elem).paths {
					fs.paths = append(fs.paths, pathField{index: f.Index, elem: inner.index, workdir: inner.workdir})
				}
			}
		default:
			panic(fmt.Sprintf("%s.%s: unknown %s tag %q", t.Name(), f.Name, tagKey, tag))
		}
	}
	return fs
}

// structElem returns the struct type of a list of structs or a pointer to one: the
// fields whose own fields may hold paths.
func structElem(t reflect.Type) (reflect.Type, bool) {
	if k := t.Kind(); (k == reflect.Slice || k == reflect.Pointer) && t.Elem().Kind() == reflect.Struct {
		return t.Elem(), true
	}
	return nil, false
}

// Paths returns the paths a call's params name, for path rules: what it acts on and where
// it runs, as given, in field order; a top-level path left empty names the project root
// ("."), so a rule on the root cannot be dodged with "". p must be the tool's params
// value; any other value names no path.
func (t *Tool) Paths(p any) []string { return t.namedPaths(p, true) }

// ActedOn returns the files and directories a call's params say it acts on, for the undo
// journal: Paths without the working directory and without empty (left out) paths.
func (t *Tool) ActedOn(p any) []string { return t.namedPaths(p, false) }

func (t *Tool) namedPaths(p any, forRules bool) []string {
	v := reflect.ValueOf(p)
	if t.paramsType == nil || !v.IsValid() || v.Type() != t.paramsType {
		return nil
	}
	var names []string
	add := func(v reflect.Value, top bool) {
		switch s := v.String(); {
		case s != "":
			names = append(names, s)
		case top && forRules:
			names = append(names, ".")
		}
	}
	if np, ok := p.(interface{ NamedPaths() []string }); ok {
		names = append(names, np.NamedPaths()...) // paths inside a value (a patch's text)
	}
	for _, f := range t.fields.paths {
		if f.workdir && !forRules {
			continue
		}
		fv := v.FieldByIndex(f.index)
		switch {
		case f.elem == nil:
			add(fv, true)
		case fv.Kind() == reflect.Pointer:
			if !fv.IsNil() {
				add(fv.Elem().FieldByIndex(f.elem), false)
			}
		default:
			for i := range fv.Len() {
				add(fv.Index(i).FieldByIndex(f.elem), false)
			}
		}
	}
	return names
}

// HasDryRun reports whether the tool can run as a dry run.
func (t *Tool) HasDryRun() bool { return t.fields.dryRun != nil }

// IsDryRun reports whether params p of the tool ask for a dry run.
func (t *Tool) IsDryRun(p any) bool {
	v := reflect.ValueOf(p)
	if t.fields.dryRun == nil || !v.IsValid() || v.Type() != t.paramsType {
		return false
	}
	return v.FieldByIndex(t.fields.dryRun).Bool()
}

// AsDryRun returns a copy of params p with the dry run asked for; ok is false for a tool
// without one.
func AsDryRun[P any](t *Tool, p P) (P, bool) {
	v := reflect.ValueOf(&p).Elem()
	if t.fields.dryRun == nil || v.Type() != t.paramsType {
		return p, false
	}
	v.FieldByIndex(t.fields.dryRun).SetBool(true)
	return p, true
}

// pathLikeNames are JSON field names, and suffixes, that say a field holds a path.
var (
	pathLikeNames    = []string{"path", "file", "dir", "directory", "source", "destination", "dest", "target", "cwd", "from", "to"}
	pathLikeSuffixes = []string{"_path", "_file", "_dir", "_directory"}
)

// untaggedFields lists the fields of params type t (nested lists of structs included)
// whose JSON name says they hold a path, or ask for a dry run, but which carry no `jido`
// tag: a declaration mistake that would let the tool's calls escape path rules or the
// journal, or be asked about when they change nothing.
func untaggedFields(t reflect.Type) []string {
	var out []string
	for f := range t.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if elem, ok := structElem(f.Type); ok {
			for _, inner := range untaggedFields(elem) {
				out = append(out, name+"[]."+inner)
			}
			continue
		}
		if f.Tag.Get(tagKey) == "" && (pathLike(name) || name == "dry_run") {
			out = append(out, name)
		}
	}
	return out
}

func pathLike(name string) bool {
	for _, n := range pathLikeNames {
		if name == n {
			return true
		}
	}
	for _, s := range pathLikeSuffixes {
		if strings.HasSuffix(name, s) {
			return true
		}
	}
	return false
}
