package profile

import (
	"github.com/jido-run/jido/tools/definitions"
)

// shape adapts a reshaping of result type R; a result of another type (a user's Lua
// tool reshaped it, or it was cut to size) passes unchanged.
func shape[R any](f func(r *R, c *Call) any) func(c *Call) any {
	return func(c *Call) any {
		if r, ok := c.Result.(*R); ok && r != nil {
			return f(r, c)
		}
		return c.Result
	}
}

// same keeps the argument under its canonical name.
func same(names ...string) []Arg {
	args := make([]Arg, len(names))
	for i, n := range names {
		args[i] = Arg{Name: n}
	}
	return args
}

// args builds an argument list from pieces.
func args(parts ...[]Arg) []Arg {
	var out []Arg
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// rename is one argument under another name.
func rename(name, to string) []Arg { return []Arg{{Name: name, To: to}} }

// fileInfo is a file of a listing as seeds 000 and 002 give it: mtime in Unix seconds.
type fileInfo struct {
	Path  string `json:"path"`
	Size  int64  `json:"size"`
	MTime int64  `json:"mtime"`
	Type  string `json:"type"`
}

// fileInfos converts a canonical listing.
func fileInfos(files []definitions.FileInfo) []fileInfo {
	out := make([]fileInfo, len(files))
	for i, f := range files {
		out[i] = fileInfo{Path: f.Path, Size: f.Size, MTime: f.MTime.Unix(), Type: f.Type}
	}
	return out
}

// paths lists a canonical listing's paths.
func paths(files []definitions.FileInfo) []string {
	out := make([]string, len(files))
	for i, f := range files {
		out[i] = f.Path
	}
	return out
}
