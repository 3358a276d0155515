package edit

import (
	"errors"

	"github.com/jido-run/jido/tools/definitions"
)

// ToolError turns an *Error into the tool error every edit tool returns (edit_file,
// multi_edit, apply_patch, buffer_edit): a match that is not there, or not unique, is a
// conflict with the text as it is; an edit that can change nothing is invalid. The lines
// and closest candidates go in its details, and hints[kind] in its recovery. Any other
// error is returned as it is.
func ToolError(err error, hints map[ErrorKind][]string) error {
	var ee *Error
	if !errors.As(err, &ee) {
		return err
	}
	typ := definitions.ConflictError
	if ee.Kind == NoChange || ee.Kind == Invalid {
		typ = definitions.ValidationError
	}
	te := definitions.NewError(typ, "%s", ee.Message)
	if len(ee.Lines) > 0 {
		te.With("lines", ee.Lines)
	}
	if len(ee.Closest) > 0 {
		te.With("closest", ee.Closest)
	}
	return te.Hint(hints[ee.Kind]...)
}
