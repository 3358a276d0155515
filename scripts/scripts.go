// Package scripts holds the Lua snippet of every built-in tool, and example user tools. A tool
// call runs its snippet in the session VM with the validated arguments as the snippet's
// single vararg.
package scripts

import (
	"embed"
	"io/fs"
	"strings"
	"sync"
)

//go:embed *.lua
var files embed.FS

//go:embed examples/*.lua
var examples embed.FS

// Examples returns the example user tools (count_todos, replace_in_files,
// project_summary): files to copy into .jido/tools/, tested as they ship.
func Examples() fs.FS {
	sub, _ := fs.Sub(examples, "examples") // a literal, existing directory
	return sub
}

// Source returns the snippet of the named tool.
func Source(tool string) (string, bool) {
	src, ok := sources()[tool]
	return src, ok
}

// sources reads every snippet once: a tool call looks its own up on every call.
var sources = sync.OnceValue(func() map[string]string {
	out := map[string]string{}
	for _, name := range Names() {
		if b, err := files.ReadFile(name + ".lua"); err == nil {
			out[name] = string(b)
		}
	}
	return out
})

// Names lists the tools that have a snippet, sorted.
func Names() []string {
	entries, err := fs.ReadDir(files, ".")
	if err != nil {
		return nil
	}
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		names = append(names, strings.TrimSuffix(e.Name(), ".lua"))
	}
	return names
}
