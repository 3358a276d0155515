package definitions

import (
	"slices"
	"strings"
	"sync"

	"github.com/agnivade/levenshtein"
)

// catalogue is every built-in tool, registered by define as the declarations are
// initialized; catalogued sorts and indexes it on first use.
var catalogue []*Tool

// byName indexes the catalogue.
var byName map[string]*Tool

var catalogued = sync.OnceFunc(func() {
	slices.SortFunc(catalogue, func(a, b *Tool) int { return strings.Compare(a.Name, b.Name) })
	byName = make(map[string]*Tool, len(catalogue))
	for _, t := range catalogue {
		if byName[t.Name] != nil {
			panic("tool " + t.Name + " is declared twice")
		}
		byName[t.Name] = t
	}
})

// All returns every built-in tool, sorted by name. The slice must not be modified.
func All() []*Tool {
	catalogued()
	return catalogue
}

// Lookup finds a tool by name.
func Lookup(name string) (*Tool, bool) {
	catalogued()
	t, ok := byName[name]
	return t, ok
}

// Names returns the names of all tools, sorted.
func Names() []string {
	names := make([]string, len(All()))
	for i, t := range All() {
		names[i] = t.Name
	}
	return names
}

// UnknownTool is the validation error for a tool name that does not exist, with the nearest
// name when one is close.
func UnknownTool(name string, known []string) *ToolError {
	e := NewError(ValidationError, "unknown tool `%s`", name).With("tool", name)
	if s := nearest(name, known); s != "" {
		e.Message += "; did you mean `" + s + "`?"
		return e.With("did_you_mean", s).Hint("Call `" + s + "` instead")
	}
	return e.Hint("Available tools: " + quoteList(known))
}

// nearest returns the candidate closest to s when it is close enough to be a likely typo
// (a case difference, or an edit distance of at most a third of the name, at least 2), else "".
func nearest(s string, candidates []string) string {
	best, bestDist := "", -1
	limit := max(2, len(s)/3)
	for _, c := range candidates {
		if strings.EqualFold(c, s) {
			return c
		}
		d := levenshtein.ComputeDistance(strings.ToLower(s), strings.ToLower(c))
		if d <= limit && (bestDist < 0 || d < bestDist) {
			best, bestDist = c, d
		}
	}
	return best
}
