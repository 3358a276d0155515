package security

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// Sentinel errors; every error returned is an *fs.PathError (root-relative Path) wrapping one
// of these or an fs/syscall error (fs.ErrNotExist, fs.ErrExist, ...).
var (
	ErrInvalidPath = errors.New("invalid path")                     // lexical check failed
	ErrOutsideRoot = errors.New("path is outside the project root") // escapes by .., absolute path or symlink
	ErrNotRegular  = errors.New("not a regular file")               // FIFO, device, socket, directory where a file is needed
	ErrTooLarge    = errors.New("file too large")                   // over MaxFileSize
	ErrSecret      = errors.New("secret file")                      // policy: secret files are refused
	ErrProtected   = errors.New("protected path")                   // policy: never written, deleted or renamed (DefaultProtected, .git, .jido, ...)
	ErrHardLink    = errors.New("file has more than one hard link") // may alias a file outside the root
	ErrOtherDevice = errors.New("file is on another device")        // mount point / bind mount inside the root
	ErrIsRoot      = errors.New("operation not allowed on the project root")
	ErrIsDir       = errors.New("is a directory")
	ErrNotDir      = errors.New("not a directory")
	ErrChanged     = errors.New("file changed since it was read") // compare-and-swap failed
)

// errPathEscapes is the text of os.Root's unexported error for names that leave the root.
const errPathEscapes = "path escapes from parent"

// pathError builds the error returned by every method: op, a root-relative path and the
// cause translated by mapError.
func pathError(op, path string, err error) error {
	return &fs.PathError{Op: op, Path: path, Err: mapError(err)}
}

// wrapOp turns the error of an os.Root call on the canonical path into a PathError.
func wrapOp(op, canonical string, err error) error {
	if err != nil {
		return pathError(op, canonical, err)
	}
	return nil
}

// detail wraps a sentinel with a human-readable explanation.
func detail(sentinel error, format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{sentinel}, args...)...)
}

// mapError strips the host path that os errors carry and translates os.Root and kernel
// errors into this package's sentinels; other causes (ENOENT, EACCES, ...) pass unchanged.
func mapError(err error) error {
	var pe *fs.PathError
	var le *os.LinkError
	var se *os.SyscallError
	switch {
	case errors.As(err, &pe):
		err = pe.Err
	case errors.As(err, &le):
		err = le.Err
	case errors.As(err, &se):
		err = se.Err
	}
	switch {
	case err.Error() == errPathEscapes:
		return ErrOutsideRoot
	case errors.Is(err, syscall.ELOOP):
		return detail(ErrInvalidPath, "too many levels of symbolic links")
	case errors.Is(err, syscall.ENOTDIR):
		return ErrNotDir
	case errors.Is(err, syscall.EISDIR):
		return ErrIsDir
	}
	return err
}
