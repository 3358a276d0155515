package validate

import (
	"encoding/json"
	"errors"
)

// checkJSON reports whether src is exactly one JSON value, surrounded by
// nothing but whitespace. Empty content is not JSON: it is reported like any
// other problem (creating an empty file is the caller's call).
func checkJSON(src []byte) *Problem {
	if json.Valid(src) {
		return nil
	}
	// Valid says no more than yes or no; Unmarshal runs the same scanner
	// and says where, including for data after the value.
	err := json.Unmarshal(src, new(json.RawMessage))
	var syntax *json.SyntaxError
	if !errors.As(err, &syntax) {
		return &Problem{Message: err.Error()}
	}
	// Offset counts the bytes read, up to and including the offending one;
	// at the end of input there is no offending byte.
	off := int(syntax.Offset) - 1
	if syntax.Error() == "unexpected end of JSON input" {
		off = len(src)
	}
	return problemAt(src, off, "%s", syntax.Error())
}
