package validate

import (
	"errors"
	"strings"

	"github.com/pelletier/go-toml/v2"
)

// checkTOML decodes src as a TOML document, which also catches keys and
// tables defined twice.
func checkTOML(src []byte) *Problem {
	var doc map[string]any
	err := toml.Unmarshal(src, &doc)
	if err == nil {
		return nil
	}
	p := &Problem{Message: strings.TrimPrefix(err.Error(), "toml: ")}
	var decode *toml.DecodeError
	if errors.As(err, &decode) {
		p.Line, p.Column = decode.Position()
	}
	return p
}
