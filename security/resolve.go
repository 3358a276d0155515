package security

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"
)

// maxLinkHops bounds the symbolic links expanded while resolving one name (Linux MAXSYMLINKS).
const maxLinkHops = 40

// resolveMode selects how resolve treats the last component and missing directories.
type resolveMode uint8

const (
	followLast    resolveMode = 1 << iota // expand a symlink in the last component
	createParents                         // missing directories are allowed; the caller creates them
)

// target is a resolved name: where policy is decided and the operation is performed.
type target struct {
	name string      // canonical, symlink-free, root-relative slash path; "." for the root
	info fs.FileInfo // lstat of name, taken during the walk; nil when it does not exist
	dir  bool        // the caller's name ended in '/' and so asserts a directory
}

// Resolve returns the canonical root-relative path of name: symlink-free, slash-separated,
// "." for the root. Relative in-root symlinks are expanded (absolute targets and anything
// climbing above the root are refused with ErrOutsideRoot); the last component may be
// missing, everything before it must be an existing directory.
func (r *Root) Resolve(name string) (string, error) {
	t, err := r.resolve("resolve", name, followLast)
	return t.name, err
}

// resolve cleans name and walks it. Without followLast the last component is not expanded
// (the parent is resolved and the base name appended), as needed by Lstat, Remove and
// Rename; a last component ".." is then only accepted when it lands on the root, so that
// the caller can refuse it as the root.
func (r *Root) resolve(op, name string, mode resolveMode) (target, error) {
	c, err := r.clean(op, name)
	if err != nil {
		return target{}, err
	}
	t, err := r.resolveClean(c, mode)
	if err != nil {
		return target{}, pathError(op, name, err)
	}
	if c.dir && t.info != nil && !t.info.IsDir() {
		return target{}, pathError(op, t.name, ErrNotDir)
	}
	t.dir = c.dir
	return t, nil
}

// resolveClean is resolve after the lexical check; its errors are bare causes. Names
// that openat2 resolves without symlinks or mount points skip the walk (fastResolve).
func (r *Root) resolveClean(c cleanName, mode resolveMode) (target, error) {
	if mode&followLast != 0 {
		if t, ok := r.fastResolve(c.parts); ok {
			return t, nil
		}
	}
	n := len(c.parts)
	if mode&followLast != 0 || n == 0 || c.parts[n-1] == ".." {
		t, err := r.walk(c.parts, mode)
		if err == nil && mode&followLast == 0 && t.name != "." {
			return target{}, detail(ErrInvalidPath, "the last component must be a name, not '..'")
		}
		return t, err
	}
	parent, err := r.walk(c.parts[:n-1], mode)
	if err != nil {
		return target{}, err
	}
	t := target{name: joinPath(parent.name, c.parts[n-1])}
	switch {
	case parent.info == nil && mode&createParents == 0:
		return target{}, fs.ErrNotExist
	case parent.info == nil:
		return t, nil
	case !parent.info.IsDir():
		return target{}, ErrNotDir
	}
	info, err := r.root.Lstat(t.name)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return target{}, err
	}
	t.info = info
	return t, nil
}

// walk resolves parts component by component from the root with Root.Lstat and
// Root.Readlink, expanding symlinks (relative targets only, at most maxLinkHops) and
// applying ".." after expansion, as the kernel does. A missing last component yields a
// target with nil info; missing earlier components are accepted only with createParents
// and when no ".." follows them.
func (r *Root) walk(parts []string, mode resolveMode) (target, error) {
	queue := slices.Clone(parts)
	var stack []string
	var info fs.FileInfo // lstat of the current stack, nil when unknown
	hops, lastLink := 0, ""
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		if c == ".." {
			if len(stack) == 0 {
				return target{}, climbError(lastLink)
			}
			stack, info = stack[:len(stack)-1], nil
			continue
		}
		p := joinPath(strings.Join(stack, "/"), c)
		fi, err := r.root.Lstat(p)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			if len(queue) > 0 && (mode&createParents == 0 || slices.Contains(queue, "..")) {
				return target{}, fs.ErrNotExist
			}
			return checkLength(target{name: joinPath(p, strings.Join(queue, "/"))})
		case err != nil:
			return target{}, err
		case fi.Mode()&fs.ModeSymlink != 0:
			if hops++; hops > maxLinkHops {
				return target{}, detail(ErrInvalidPath, "more than %d symbolic links", maxLinkHops)
			}
			link, err := r.readlink(p)
			if err != nil {
				return target{}, err
			}
			queue, lastLink = append(link, queue...), p
		case len(queue) > 0 && !fi.IsDir():
			return target{}, ErrNotDir
		default:
			stack, info = append(stack, c), fi
		}
	}
	t := target{name: joinPath(strings.Join(stack, "/"), ""), info: info}
	if t.info == nil {
		var err error
		if t.info, err = r.root.Lstat(t.name); err != nil {
			return target{}, err
		}
	}
	return checkLength(t)
}

// climbError explains a ".." above the root, naming the last symlink followed if any.
func climbError(lastLink string) error {
	if lastLink != "" {
		return detail(ErrOutsideRoot, "'..' climbs above the project root (after symbolic link %s)", lastLink)
	}
	return detail(ErrOutsideRoot, "'..' climbs above the project root")
}

// readlink returns the components of the symlink p's target, which must be relative and
// pass the lexical checks.
func (r *Root) readlink(p string) ([]string, error) {
	link, err := r.root.Readlink(p)
	if err != nil {
		return nil, err
	}
	if strings.HasPrefix(link, "/") {
		return nil, detail(ErrOutsideRoot, "symbolic link %s has an absolute target; make it relative", p)
	}
	parts, err := splitChecked(link)
	if err != nil {
		return nil, fmt.Errorf("symbolic link %s: %w", p, err)
	}
	return parts, nil
}

// checkLength refuses canonical paths that symlink expansion made longer than a valid name.
func checkLength(t target) (target, error) {
	if len(t.name) > maxPathBytes {
		return target{}, detail(ErrInvalidPath, "resolved path longer than %d bytes", maxPathBytes)
	}
	return t, nil
}

// joinPath joins two root-relative slash paths, either of which may be "" or ".".
func joinPath(dir, name string) string {
	switch {
	case dir == "" || dir == ".":
		if name == "" {
			return "."
		}
		return name
	case name == "" || name == ".":
		return dir
	}
	return dir + "/" + name
}
