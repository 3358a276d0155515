package validate

import (
	"errors"
	"go/parser"
	"go/scanner"
	"go/token"
)

// checkGo parses src as a Go source file and reports the first error, as
// go/parser finds it without parser.AllErrors.
func checkGo(src []byte) *Problem {
	_, err := parser.ParseFile(token.NewFileSet(), "", src, parser.SkipObjectResolution)
	var list scanner.ErrorList
	switch {
	case err == nil:
		return nil
	case errors.As(err, &list) && len(list) > 0:
		return &Problem{Line: list[0].Pos.Line, Column: list[0].Pos.Column, Message: list[0].Msg}
	}
	return &Problem{Message: err.Error()}
}
