package planshell

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"
	"time"

	"github.com/spf13/afero"
	"mvdan.cc/sh/v3/interp"
)

// status is the exit status of a command that reported errors as it went on.
func status(ok bool) error {
	if ok {
		return nil
	}
	return interp.ExitStatus(1)
}

// cat [-n] [file...]
func cat(c *call) error {
	f, operands, err := c.parse("n", "")
	if err != nil {
		return err
	}
	line := 0
	ok, err := c.inputs(operands, func(_ string, data []byte) error {
		if !f.has('n') {
			_, err := c.stdout.Write(data)
			return err
		}
		var b strings.Builder
		for _, l := range lines(data) {
			line++
			fmt.Fprintf(&b, "%6d\t%s\n", line, l)
		}
		_, err := c.stdout.Write([]byte(b.String()))
		return err
	})
	if err != nil {
		return err
	}
	return status(ok)
}

// ls [-a -A -l -1 -R] [path...]: entries sorted by name, one per line; -a and -A both
// show dot files (without "." and "..").
func ls(c *call) error {
	f, operands, err := c.parse("aAl1R", "")
	if err != nil {
		return err
	}
	if len(operands) == 0 {
		operands = []string{"."}
	}
	all, long := f.has('a') || f.has('A'), f.has('l')
	var dirs []string
	files, ok := 0, true
	for _, p := range operands {
		info, err := c.fsys.Stat(c.abs(p))
		switch {
		case err != nil:
			c.errorf("cannot access '%s': %s", p, reason(err))
			ok = false
		case info.IsDir():
			dirs = append(dirs, p)
		default:
			c.lsEntry(p, info, long)
			files++
		}
	}
	headers := len(operands) > 1 || f.has('R')
	for i, d := range dirs {
		if i > 0 || files > 0 {
			fmt.Fprintln(c.stdout)
		}
		if !c.lsDir(d, headers, all, long, f.has('R')) {
			ok = false
		}
	}
	if !ok {
		return interp.ExitStatus(2)
	}
	return c.ctx.Err()
}

// lsDir lists directory p, and with recursive its subdirectories after it.
func (c *call) lsDir(p string, header, all, long, recursive bool) bool {
	if header {
		fmt.Fprintf(c.stdout, "%s:\n", p)
	}
	infos, err := afero.ReadDir(c.fsys, c.abs(p))
	if err != nil {
		c.errorf("cannot open directory '%s': %s", p, reason(err))
		return false
	}
	var subdirs []string
	for _, info := range infos {
		if !all && strings.HasPrefix(info.Name(), ".") {
			continue
		}
		c.lsEntry(info.Name(), info, long)
		if info.IsDir() {
			subdirs = append(subdirs, joinDisplay(p, info.Name()))
		}
	}
	ok := true
	for _, d := range subdirs {
		if !recursive || c.ctx.Err() != nil {
			break
		}
		fmt.Fprintln(c.stdout)
		ok = c.lsDir(d, true, all, long, true) && ok
	}
	return ok
}

// lsEntry prints one entry: its name, or with long its mode, size, time and name.
func (c *call) lsEntry(name string, info fs.FileInfo, long bool) {
	if !long {
		fmt.Fprintln(c.stdout, name)
		return
	}
	fmt.Fprintf(c.stdout, "%s %8d %s %s\n", info.Mode(), info.Size(), info.ModTime().Format("Jan _2 15:04"), name)
}

// joinDisplay joins a path as the user wrote it and an entry name.
func joinDisplay(dir, name string) string {
	if strings.HasSuffix(dir, "/") {
		return dir + name
	}
	return dir + "/" + name
}

// mkdir [-p] dir...
func mkdir(c *call) error {
	f, operands, err := c.parse("p", "")
	if err != nil {
		return err
	}
	if len(operands) == 0 {
		return c.fail(1, "missing operand")
	}
	ok := true
	for _, p := range operands {
		var err error
		if f.has('p') {
			err = c.mkdirAll(c.abs(p))
		} else if err = checkParent(c.fsys, c.abs(p)); err == nil {
			err = c.fsys.Mkdir(c.abs(p), 0o755)
		}
		if err != nil {
			c.errorf("cannot create directory '%s': %s", p, reason(err))
			ok = false
		}
	}
	return status(ok)
}

// mkdirAll creates name and its missing parents; it fails on a parent that is a file.
func (c *call) mkdirAll(name string) error {
	if name != "/" {
		if err := c.mkdirAll(path.Dir(name)); err != nil {
			return err
		}
	}
	info, err := c.fsys.Stat(name)
	switch {
	case err == nil && info.IsDir():
		return nil
	case err == nil:
		return errNotDir
	case !errors.Is(err, fs.ErrNotExist):
		return err
	}
	return c.fsys.Mkdir(name, 0o755)
}

// rm [-r -R -f] path...: refuses "/", "." and "..".
func rm(c *call) error {
	f, operands, err := c.parse("rRf", "")
	if err != nil {
		return err
	}
	recursive, force := f.has('r') || f.has('R'), f.has('f')
	if len(operands) == 0 && !force {
		return c.fail(1, "missing operand")
	}
	ok := true
	for _, p := range operands {
		if base := path.Base(p); base == "." || base == ".." {
			c.errorf("refusing to remove '.' or '..' directory: skipping '%s'", p)
			ok = false
			continue
		}
		name := c.abs(p)
		if name == "/" {
			c.errorf("it is dangerous to operate recursively on '%s'", p)
			ok = false
			continue
		}
		info, err := c.fsys.Stat(name)
		switch {
		case errors.Is(err, fs.ErrNotExist) && force:
			continue
		case err != nil:
		case !info.IsDir():
			err = c.fsys.Remove(name)
		case recursive:
			err = c.fsys.RemoveAll(name)
		default:
			err = errIsDir
		}
		if err != nil {
			c.errorf("cannot remove '%s': %s", p, reason(err))
			ok = false
		}
	}
	return status(ok)
}

// transfer parses the arguments of cp and mv (bools: their flags): the sources and where
// each goes.
func (c *call) transfer(bools string) (f flags, srcs, targets []string, err error) {
	f, operands, err := c.parse(bools, "")
	if err != nil {
		return f, nil, nil, err
	}
	if len(operands) < 2 {
		return f, nil, nil, c.fail(1, "missing destination file operand")
	}
	srcs = operands[:len(operands)-1]
	targets, err = c.target(srcs, operands[len(operands)-1])
	return f, srcs, targets, err
}

// target resolves the destination of cp and mv: with several sources, or when dst is
// an existing directory, each source goes into dst.
func (c *call) target(srcs []string, dst string) ([]string, error) {
	info, err := c.fsys.Stat(c.abs(dst))
	into := err == nil && info.IsDir()
	if len(srcs) > 1 && !into {
		return nil, c.fail(1, "target '%s' is not a directory", dst)
	}
	targets := make([]string, len(srcs))
	for i, src := range srcs {
		targets[i] = dst
		if into {
			targets[i] = joinDisplay(dst, path.Base(c.abs(src)))
		}
	}
	return targets, nil
}

// cp [-r -R] src... dst
func cp(c *call) error {
	f, srcs, targets, err := c.transfer("rR")
	if err != nil {
		return err
	}
	ok := true
	for i, src := range srcs {
		from, to := c.abs(src), c.abs(targets[i])
		info, err := c.fsys.Stat(from)
		switch {
		case err != nil:
			c.errorf("cannot stat '%s': %s", src, reason(err))
		case from == to:
			c.errorf("'%s' and '%s' are the same file", src, targets[i])
		case info.IsDir() && !(f.has('r') || f.has('R')):
			c.errorf("-r not specified; omitting directory '%s'", src)
		case info.IsDir() && strings.HasPrefix(to, from+"/"):
			c.errorf("cannot copy a directory, '%s', into itself, '%s'", src, targets[i])
		default:
			if err = c.copyTree(from, to, info); err == nil {
				continue
			}
			c.errorf("cannot copy '%s' to '%s': %s", src, targets[i], reason(err))
		}
		ok = false
	}
	return status(ok)
}

// copyTree copies the file or directory from (whose info is given) to to.
func (c *call) copyTree(from, to string, info fs.FileInfo) error {
	if err := c.ctx.Err(); err != nil {
		return err
	}
	if !info.IsDir() {
		return c.copyFile(from, to, info.Mode().Perm())
	}
	if tinfo, err := c.fsys.Stat(to); err == nil && !tinfo.IsDir() {
		return errNotDir
	} else if err != nil {
		if err := checkParent(c.fsys, to); err != nil {
			return err
		}
		if err := c.fsys.Mkdir(to, info.Mode().Perm()); err != nil {
			return err
		}
	}
	infos, err := afero.ReadDir(c.fsys, from)
	if err != nil {
		return err
	}
	for _, child := range infos {
		if err := c.copyTree(path.Join(from, child.Name()), path.Join(to, child.Name()), child); err != nil {
			return err
		}
	}
	return nil
}

// copyFile copies the content of file from to file to, which gets perm if it is new.
func (c *call) copyFile(from, to string, perm fs.FileMode) error {
	data, err := c.readFile(from)
	if err != nil {
		return err
	}
	return c.writeFile(to, data, perm)
}

// writeFile replaces the content of file name, creating it with perm if needed.
func (c *call) writeFile(name string, data []byte, perm fs.FileMode) error {
	f, err := openFile(c.fsys, name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, perm)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// mv src... dst
func mv(c *call) error {
	_, srcs, targets, err := c.transfer("")
	if err != nil {
		return err
	}
	ok := true
	for i, src := range srcs {
		from, to := c.abs(src), c.abs(targets[i])
		_, err := c.fsys.Stat(from)
		switch {
		case err != nil:
			c.errorf("cannot stat '%s': %s", src, reason(err))
		case from == to:
			c.errorf("'%s' and '%s' are the same file", src, targets[i])
		case strings.HasPrefix(to, from+"/"):
			c.errorf("cannot move '%s' to a subdirectory of itself, '%s'", src, targets[i])
		default:
			if err = checkParent(c.fsys, to); err == nil {
				err = c.fsys.Rename(from, to)
			}
			if err == nil {
				continue
			}
			c.errorf("cannot move '%s' to '%s': %s", src, targets[i], reason(err))
		}
		ok = false
	}
	return status(ok)
}

// touch file...: creates missing files and sets the times of existing ones.
func touch(c *call) error {
	_, operands, err := c.parse("", "")
	if err != nil {
		return err
	}
	if len(operands) == 0 {
		return c.fail(1, "missing file operand")
	}
	ok := true
	for _, p := range operands {
		name := c.abs(p)
		var err error
		if _, err = c.fsys.Stat(name); err == nil {
			now := time.Now()
			err = c.fsys.Chtimes(name, now, now)
		} else if errors.Is(err, fs.ErrNotExist) {
			var f afero.File
			if f, err = openFile(c.fsys, name, os.O_WRONLY|os.O_CREATE, 0o644); err == nil {
				err = f.Close()
			}
		}
		if err != nil {
			c.errorf("cannot touch '%s': %s", p, reason(err))
			ok = false
		}
	}
	return status(ok)
}
