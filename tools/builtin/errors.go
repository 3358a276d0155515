package builtin

import (
	"context"
	"errors"
	"io/fs"

	"github.com/jido-run/jido/security"
	"github.com/jido-run/jido/tools/definitions"
)

// errorKind maps a security or file-system error to a tool error type and recovery hints.
type errorKind struct {
	target   error
	typ      string
	recovery []string
	sandbox  string // the confinement rule that refused, set as details.sandbox ("" for none)
}

// errorKinds is checked in order; the first match wins.
var errorKinds = []errorKind{
	{context.DeadlineExceeded, definitions.TimeoutError, []string{"The call ran out of time before it changed anything; retry, or do less per call"}, ""},
	{context.Canceled, definitions.TimeoutError, []string{"The call was cancelled before it changed anything"}, ""},
	{security.ErrOutsideRoot, definitions.PermissionError, []string{"Use a path inside the project root, relative to it (e.g. src/main.go)"}, "outside-root"},
	{security.ErrInvalidPath, definitions.ValidationError, []string{"Use a plain relative path: no control or look-alike characters, backslashes or leading ~"}, ""},
	{security.ErrSecret, definitions.PermissionError, []string{"Secret files (.env, keys, credentials) are not readable or writable by tools; ask the user for what you need"}, "secret"},
	{security.ErrProtected, definitions.PermissionError, []string{"This path is protected: git's directory, jido's own config and tools, editor settings (.vscode, .idea), .envrc and shell rc files, and the config's protected list, since what they hold could run later outside the sandbox or widen jido's policy; change files elsewhere, or ask the user to make this change themselves"}, "protected"},
	{security.ErrHardLink, definitions.PermissionError, []string{"The file has several hard links and may alias a file outside the project; copy it to a new file instead"}, "hard-link"},
	{security.ErrOtherDevice, definitions.PermissionError, []string{"The file lies on another mount; only files of the project's file system are accessible"}, "other-device"},
	{security.ErrIsRoot, definitions.PermissionError, []string{"The project root itself cannot be deleted or moved; name a path inside it"}, "root"},
	{security.ErrChanged, definitions.ConflictError, []string{"The file changed since you read it: read it again, then redo the change"}, ""},
	{fs.ErrExist, definitions.ConflictError, []string{"The destination exists: choose another path or pass overwrite: true"}, ""},
	{fs.ErrNotExist, definitions.FileError, []string{"Check the path with list_dir or glob"}, ""},
	{security.ErrTooLarge, definitions.FileError, []string{"Read a part of the file with offset and limit"}, ""},
	{security.ErrIsDir, definitions.FileError, []string{"The path is a directory: list it with list_dir (delete_file needs recursive: true for a directory)"}, ""},
	{security.ErrNotDir, definitions.FileError, []string{"A component of the path is a file, not a directory"}, ""},
	{security.ErrNotRegular, definitions.FileError, []string{"Only regular files can be read or written (not FIFOs, devices or sockets)"}, ""},
	{fs.ErrPermission, definitions.PermissionError, []string{"The file system denied access; check the file's permissions"}, ""},
}

// toolError turns any error of a bridge function into a ToolError.
func toolError(err error) *definitions.ToolError {
	var te *definitions.ToolError
	if errors.As(err, &te) {
		return te
	}
	kind := errorKind{typ: definitions.FileError}
	for _, k := range errorKinds {
		if errors.Is(err, k.target) {
			kind = k
			break
		}
	}
	e := &definitions.ToolError{Type: kind.typ, Message: err.Error(), Recovery: kind.recovery}
	if kind.sandbox != "" {
		e.With("sandbox", kind.sandbox)
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		e.With("path", pe.Path)
	}
	return e
}

// checkWritable refuses, unless forced, to change a file its owner may not write (mode
// 0444): it may be generated or locked on purpose, and the atomic rename would replace it
// regardless of its mode. A forced change keeps the mode.
func checkWritable(path string, info fs.FileInfo, force bool) error {
	if force || info == nil || info.Mode().Perm()&0o200 != 0 {
		return nil
	}
	return definitions.NewError(definitions.PermissionError, "%s is read-only (mode %04o): its owner may not write it", path, info.Mode().Perm()).
		With("path", path).
		Hint("It may be generated or locked on purpose: change its source instead, or pass force: true to change it anyway (its mode stays as it is)")
}
