package validate

import (
	"bytes"
	"errors"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// checkYAML parses every document of src, then looks for keys defined twice
// in a mapping, which YAML forbids and yaml.v3 reports only when decoding into
// Go values.
func checkYAML(src []byte) *Problem {
	dec := yaml.NewDecoder(bytes.NewReader(src))
	for {
		var doc yaml.Node
		err := dec.Decode(&doc)
		switch {
		case errors.Is(err, io.EOF):
			return nil
		case err != nil:
			return yamlProblem(src, err)
		}
		if p := duplicateKey(&doc); p != nil {
			return p
		}
	}
}

// yamlLine matches the position yaml.v3 puts in front of its messages.
var yamlLine = regexp.MustCompile(`^yaml: (?:line (\d+): )?`)

// yamlParserProblems are yaml.v3's parser messages (as opposed to its
// scanner's and reader's): for them it numbers lines from 0.
var yamlParserProblems = []string{
	"did not find expected ',' or ']'",
	"did not find expected ',' or '}'",
	"did not find expected '-' indicator",
	"did not find expected <document start>",
	"did not find expected <stream-start>",
	"did not find expected key",
	"did not find expected node content",
	"found duplicate %TAG directive",
	"found duplicate %YAML directive",
	"found incompatible YAML document",
	"found undefined tag handle",
}

// yamlProblem locates a yaml.v3 error from its message, which gives a line at
// best: that of the problem or of the start of the construct it is in. The
// line is left out when it is the first (line 0 to the parser), or when the
// error is the reader's, about a character, which yamlProblem then finds
// itself.
func yamlProblem(src []byte, err error) *Problem {
	msg := err.Error()
	m := yamlLine.FindStringSubmatch(msg)
	if m == nil {
		return &Problem{Message: msg}
	}
	p := &Problem{Message: msg[len(m[0]):]}
	p.Line, _ = strconv.Atoi(m[1])
	switch {
	case slices.Contains(yamlParserProblems, p.Message):
		p.Line++
	case p.Line > 0:
		// The scanner's, numbered from 1.
	case strings.HasPrefix(p.Message, "unknown anchor"):
		// Found after parsing, with no position.
	default:
		// The scanner's on the first line, or the reader's.
		if off := yamlBadChar(src); off >= 0 {
			p.Line, p.Column = position(src, off)
		} else {
			p.Line = 1
		}
	}
	return p
}

// yamlBadChar returns the offset of the first byte that is not part of a
// character YAML allows, or -1.
func yamlBadChar(src []byte) int {
	for i := 0; i < len(src); {
		r, n := utf8.DecodeRune(src[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			return i
		case r == '\t' || r == '\n' || r == '\r' || r == 0x85,
			0x20 <= r && r <= 0x7e, 0xa0 <= r && r <= 0xd7ff,
			0xe000 <= r && r <= 0xfffd, 0x10000 <= r:
		default:
			return i
		}
		i += n
	}
	return -1
}

// duplicateKey returns the first key, in document order, that a mapping of
// the tree at root defines twice, as yaml.v3 compares them: scalar keys by
// their text.
func duplicateKey(root *yaml.Node) *Problem {
	var first *Problem
	stack := []*yaml.Node{root}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = append(stack[:len(stack)-1], n.Content...)
		if n.Kind != yaml.MappingNode {
			continue
		}
		seen := make(map[string]int, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if k.Kind != yaml.ScalarNode {
				continue
			}
			line, dup := seen[k.Value]
			if !dup {
				seen[k.Value] = k.Line
				continue
			}
			if first == nil || k.Line < first.Line || k.Line == first.Line && k.Column < first.Column {
				first = &Problem{Line: k.Line, Column: k.Column, Message: "mapping key " + strconv.Quote(k.Value) + " already defined at line " + strconv.Itoa(line)}
			}
			break
		}
	}
	return first
}
