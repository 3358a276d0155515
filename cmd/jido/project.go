package main

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
)

// projectRoot is the --root flag: the project root given, or else the project around the
// working directory, found as git finds a repository (findProject), with where the user
// stands in it.
type projectRoot struct {
	dir   string // the project root
	cwd   string // the working directory relative to dir, when the root was found ("" for the root)
	given bool   // --root was given
}

func (r *projectRoot) String() string { return r.dir }

func (r *projectRoot) Set(v string) error {
	r.dir, r.given = v, true
	return nil
}

// rootUsage is the --root flag's help.
const rootUsage = "the project root (default: the project around the current directory, the nearest directory up holding .git or .jido/config.toml; relative paths are then resolved from the current directory)"

// registerRoot adds --root to fs.
func registerRoot(fs *flag.FlagSet, r *projectRoot) { fs.Var(r, "root", rootUsage) }

// locate finds the project when --root was not given. The flags are parsed: parseArgs calls
// it for every command with a --root flag.
func (r *projectRoot) locate() {
	if r.given {
		return
	}
	wd, err := os.Getwd()
	if err != nil {
		r.dir = "."
		return
	}
	home, _ := os.UserHomeDir()
	r.dir = findProject(wd, home)
	if rel, err := filepath.Rel(r.dir, wd); err == nil && rel != "." && !strings.HasPrefix(rel, "..") {
		r.cwd = filepath.ToSlash(rel)
	}
}

// findProject returns the project around dir: the nearest directory from dir up that is a
// project's root (isProject: a repository, a worktree or submodule, or a jido
// configuration), as git finds a repository; dir itself when none is. The search stops below the
// home directory and the file system's root, which are a project only when dir is them:
// a dotfiles repository at ~ does not make every directory under it one project.
func findProject(dir, home string) string {
	dir = filepath.Clean(dir)
	for d := dir; ; {
		if d != dir && (d == home || d == filepath.Dir(d)) {
			return dir
		}
		if isProject(d) {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return dir
		}
		d = parent
	}
}

// isProject reports whether dir is a project's root: it holds a .git entry, or a project
// configuration of jido's (.jido/config.toml, .jido/tools/). A .jido holding only what
// jido writes itself (command outputs) marks nothing: jido once made it where it ran.
func isProject(dir string) bool {
	for _, marker := range []string{".git", ".jido/config.toml", ".jido/tools"} {
		if _, err := os.Lstat(filepath.Join(dir, marker)); err == nil {
			return true
		}
	}
	return false
}
