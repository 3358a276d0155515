package manager

import (
	"errors"
	"io/fs"

	"github.com/jido-run/jido/security"
	"github.com/jido-run/jido/tools/definitions"
)

// cwdHint is the recovery hint of every refused meta.cwd.
const cwdHint = `meta.cwd must be a directory inside the project root, e.g. "src"`

// callDir checks a call's meta.cwd and returns it as the canonical root-relative directory
// its relative paths are resolved against ("" for the root): it must pass the lexical
// checks of every path, resolve inside the root (symlinks included), exist and be a
// directory, on disk or, in plan mode, in the plan. "" and "." are the root.
func (s *Session) callDir(cwd string) (string, *definitions.ToolError) {
	if cwd == "" || cwd == "." {
		return "", nil
	}
	var tree interface {
		Stat(name string) (fs.FileInfo, error)
		Resolve(name string) (string, error)
	} = s.p.root
	if s.plan != nil {
		tree = s.plan.View()
	}
	info, err := tree.Stat(cwd)
	if err == nil && !info.IsDir() {
		err = security.ErrNotDir
	}
	var dir string
	if err == nil {
		dir, err = tree.Resolve(cwd)
	}
	if err != nil {
		return "", cwdError(cwd, err)
	}
	if dir == "." {
		return "", nil
	}
	return dir, nil
}

// cwdError says what is wrong with meta.cwd.
func cwdError(cwd string, err error) *definitions.ToolError {
	var what string
	switch {
	case errors.Is(err, security.ErrOutsideRoot):
		what = "is outside the project root"
	case errors.Is(err, fs.ErrNotExist):
		what = "does not exist"
	case errors.Is(err, security.ErrNotDir):
		what = "is not a directory"
	case errors.Is(err, security.ErrInvalidPath):
		what = "is not a valid path"
	default:
		what = "cannot be used"
	}
	terr := definitions.NewError(definitions.ValidationError, "meta.cwd %q %s", cwd, what).With("field", "meta.cwd")
	var pe *fs.PathError
	if errors.As(err, &pe) {
		terr = terr.With("cause", pe.Err.Error())
	} else {
		terr = terr.With("cause", err.Error())
	}
	return terr.Hint(cwdHint, `Leave meta.cwd out, or use ".", for the project root`)
}
