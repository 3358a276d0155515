package interpret

import (
	"fmt"
	"slices"

	"github.com/jido-run/jido/tools/definitions"
)

// pathKeys are the arguments that name a path of the project, at the top level or in the
// objects of a list (multi_edit's edits): cleaned by the sandbox's check.
var pathKeys = map[string]bool{"path": true, "directory": true, "source": true, "destination": true, "cwd": true}

// pathListKeys are arguments that hold a list of paths.
var pathListKeys = map[string]bool{"paths": true}

// globKeys are arguments that hold globs, one or a list: refused when they leave the root,
// not rewritten (cleaning would change what they match).
var globKeys = map[string]bool{"pattern": true, "patterns": true, "include_paths": true, "exclude_paths": true, "ignore_patterns": true}

// caps bound the arguments that size a result, below what the schemas allow, so that a
// plan cannot flood the conversation. Schema maxima of top-level arguments cap as well.
var caps = map[string]float64{"max_results": 1000, "limit": 2000, "max_depth": 20, "max_bytes": 100000, "max_output": 30000}

// offered is the tools on offer.
func (in *Interpreter) offered() []*definitions.Tool {
	if in.Tools == nil {
		return definitions.All()
	}
	return in.Tools
}

// tool finds an offered tool by name, nil if there is none.
func (in *Interpreter) tool(name string) *definitions.Tool {
	i := slices.IndexFunc(in.offered(), func(t *definitions.Tool) bool { return t.Name == name })
	if i < 0 {
		return nil
	}
	return in.offered()[i]
}

// clean is the sandbox's path check.
func (in *Interpreter) clean(p string) (string, error) {
	if in.Clean != nil {
		return in.Clean(p)
	}
	return lexicalClean(p)
}

// check validates and normalizes every call of p against the offered tools: the tool
// exists, its path arguments pass the sandbox's check (and are replaced by their clean
// form), size arguments are capped, and the arguments validate against its schema. Calls
// that fail are dropped with a note. NeedsTools says whether any call is left.
func (in *Interpreter) check(p Plan) Plan {
	out := p
	out.Tools = nil
	var notes []string
	if !p.NeedsTools && len(p.Tools) > 0 {
		notes = append(notes, "the plan listed tools but said none are needed; they were ignored")
		p.Tools = nil
	}
	for _, tp := range p.Tools {
		args, capped, err := in.checkCall(tp)
		if err != nil {
			notes = append(notes, fmt.Sprintf("dropped %s: %v", tp.Name, err))
			continue
		}
		notes = append(notes, capped...)
		next := ToolPlan{Name: tp.Name, Args: args, Confidence: min(max(tp.Confidence, 0), 1), Show: tp.Show, Last: tp.Last, About: tp.About}
		if tp.Then != nil && in.tool(tp.Then.Name) != nil {
			then := *tp.Then
			next.Then = &then
		}
		out.Tools = append(out.Tools, next)
	}
	out.NeedsTools = len(out.Tools) > 0
	out.Notes = joinNotes(append([]string{p.Notes}, notes...)...)
	return out
}

// checkCall checks one call; it returns its normalized arguments and notes of what was capped.
func (in *Interpreter) checkCall(tp ToolPlan) (map[string]any, []string, error) {
	t := in.tool(tp.Name)
	if t == nil {
		if _, known := definitions.Lookup(tp.Name); known {
			return nil, nil, fmt.Errorf("this session does not offer %s", tp.Name)
		}
		names := make([]string, len(in.offered()))
		for i, o := range in.offered() {
			names[i] = o.Name
		}
		return nil, nil, definitions.UnknownTool(tp.Name, names)
	}
	var notes []string
	args, err := in.normalize(t, tp.Args, true, &notes)
	if err != nil {
		return nil, nil, err
	}
	if _, terr := t.Check(args); terr != nil {
		return nil, nil, terr
	}
	return args, notes, nil
}

// normalize returns a copy of args with paths cleaned and sizes capped. top says args are
// the call's own (whose schema maxima apply), not an object of a list.
func (in *Interpreter) normalize(t *definitions.Tool, args map[string]any, top bool, notes *[]string) (map[string]any, error) {
	out := make(map[string]any, len(args))
	for k, v := range args {
		switch x := v.(type) {
		case string:
			if pathKeys[k] {
				c, err := in.clean(x)
				if err != nil {
					return nil, err
				}
				v = c
			} else if globKeys[k] {
				if err := checkGlob(x); err != nil {
					return nil, err
				}
			}
		case []any:
			list, err := in.normalizeList(t, k, x, notes)
			if err != nil {
				return nil, err
			}
			v = list
		case float64, int:
			v = capNumber(t, k, x, top, notes)
		}
		out[k] = v
	}
	return out, nil
}

// normalizeList normalizes the elements of the list argument k: paths, globs, and objects.
func (in *Interpreter) normalizeList(t *definitions.Tool, k string, list []any, notes *[]string) ([]any, error) {
	out := make([]any, len(list))
	for i, e := range list {
		switch x := e.(type) {
		case string:
			if pathListKeys[k] {
				c, err := in.clean(x)
				if err != nil {
					return nil, err
				}
				e = c
			} else if globKeys[k] {
				if err := checkGlob(x); err != nil {
					return nil, err
				}
			}
		case map[string]any:
			obj, err := in.normalize(t, x, false, notes)
			if err != nil {
				return nil, err
			}
			e = obj
		}
		out[i] = e
	}
	return out, nil
}

// capNumber bounds the number v of argument k by caps and, for a top-level argument, by its
// schema maximum; the result keeps v's type.
func capNumber(t *definitions.Tool, k string, v any, top bool, notes *[]string) any {
	limit, ok := caps[k]
	if top {
		if prop := t.Schema().Properties[k]; prop != nil && prop.Maximum != nil && (!ok || *prop.Maximum < limit) {
			limit, ok = *prop.Maximum, true
		}
	}
	if !ok {
		return v
	}
	switch n := v.(type) {
	case float64:
		if n > limit {
			*notes = append(*notes, fmt.Sprintf("%s of %s capped at %v", k, t.Name, limit))
			return limit
		}
	case int:
		if float64(n) > limit {
			*notes = append(*notes, fmt.Sprintf("%s of %s capped at %v", k, t.Name, limit))
			return int(limit)
		}
	}
	return v
}
