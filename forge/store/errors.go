package store

import (
	"errors"
	"io/fs"

	"github.com/jido-run/jido/security"
	"github.com/jido-run/jido/tools/definitions"
)

// ioError turns an error of the security layer on artifact (its human name, e.g.
// "task A") at rel into a ToolError: a refusal of confinement or policy is a
// PermissionError, a missing file a FileError with the hint saying how to create it,
// anything else a FileError. A ToolError passes unchanged.
func ioError(err error, artifact, rel, hint string) error {
	var te *definitions.ToolError
	if errors.As(err, &te) {
		return te
	}
	var e *definitions.ToolError
	switch {
	case errors.Is(err, security.ErrOutsideRoot), errors.Is(err, security.ErrSecret),
		errors.Is(err, security.ErrProtected), errors.Is(err, security.ErrInvalidPath),
		errors.Is(err, security.ErrHardLink), errors.Is(err, security.ErrOtherDevice):
		e = definitions.NewError(definitions.PermissionError, "%s refused: %v", artifact, err)
	case errors.Is(err, fs.ErrNotExist):
		e = definitions.NewError(definitions.FileError, "%s does not exist", artifact)
	default:
		e = definitions.NewError(definitions.FileError, "%s: %v", artifact, err)
	}
	e = e.With("path", rel)
	if hint != "" && errors.Is(err, fs.ErrNotExist) {
		e = e.Hint(hint)
	}
	return e
}

// required is the ValidationError of a missing mandatory field.
func required(field string) error {
	return definitions.NewError(definitions.ValidationError, "%s is required", field).With("field", field)
}
