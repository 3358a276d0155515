package definitions

import (
	"fmt"
	"reflect"
	"strings"
)

// Rebase makes the paths a call's params name relative to dir, the call's working
// directory (meta.cwd: a root-relative directory), instead of the project root: every
// field tagged "path" or "workdir" (in a list of structs or a struct pointed to too) that
// holds a relative path is prefixed with dir ("sub" and "a/b.go" give "sub/a/b.go"; empty
// and "." components dropped, a trailing '/' kept); a workdir left empty becomes dir.
// A ".." is kept, not resolved lexically: as for any path, the confined walk resolves it
// after the symlinks before it, and refuses it above the root. Absolute paths, and empty paths (which leave the choice to the
// tool: multi_edit's edits take the top-level path, an export its default file), are left
// as they are. dir "" or "." is the root: nothing changes.
//
// p must point to the tool's params value; any other value is left alone. It fails for
// params that name paths Rebase cannot reach (a patch's text): such a tool cannot take a
// working directory unless its params type implements Rebase(dir string) itself.
func (t *Tool) Rebase(p any, dir string) error {
	if dir == "" || dir == "." {
		return nil
	}
	v := reflect.ValueOf(p)
	if t.paramsType == nil || v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Type() != t.paramsType {
		return nil
	}
	switch own := p.(type) {
	case interface{ Rebase(dir string) }:
		own.Rebase(dir)
	case interface{ NamedPaths() []string }:
		if len(own.NamedPaths()) > 0 {
			return fmt.Errorf("%s cannot take a working directory (meta.cwd): the paths inside its arguments are relative to the project root", t.Name)
		}
	}
	v = v.Elem()
	for _, f := range t.fields.paths {
		fv := v.FieldByIndex(f.index)
		switch {
		case f.elem == nil:
			rebaseField(fv, dir, f.workdir)
		case fv.Kind() == reflect.Pointer:
			if !fv.IsNil() {
				rebaseField(fv.Elem().FieldByIndex(f.elem), dir, f.workdir)
			}
		default:
			for i := range fv.Len() {
				rebaseField(fv.Index(i).FieldByIndex(f.elem), dir, f.workdir)
			}
		}
	}
	return nil
}

// rebaseField rebases the string field fv onto dir (see Rebase).
func rebaseField(fv reflect.Value, dir string, workdir bool) {
	s := fv.String()
	switch {
	case s == "" && workdir:
		fv.SetString(dir)
	case s == "" || strings.HasPrefix(s, "/"):
	default:
		parts := []string{dir}
		for c := range strings.SplitSeq(s, "/") {
			if c != "" && c != "." {
				parts = append(parts, c)
			}
		}
		joined := strings.Join(parts, "/")
		if strings.HasSuffix(s, "/") || strings.HasSuffix(s, "/.") {
			joined += "/"
		}
		fv.SetString(joined)
	}
}
