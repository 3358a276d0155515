package profile

import (
	"fmt"
	"slices"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/jido-run/jido/tools/definitions"
)

// declare builds t's declaration in the dialect from the canonical tool's: each argument's
// schema is the canonical argument's, renamed, with the dialect's description and units.
func declare(t *Tool) (*definitions.Tool, error) {
	canon, ok := definitions.Lookup(t.Canonical)
	if !ok {
		return nil, fmt.Errorf("tool %s: no canonical tool %s", t.Name, t.Canonical)
	}
	cs := canon.Schema()
	s := &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{}, AdditionalProperties: &jsonschema.Schema{Not: &jsonschema.Schema{}}}
	if t.Inherit {
		for name, prop := range cs.Properties {
			s.Properties[name] = prop.CloneSchemas()
		}
		s.Required = slices.Clone(cs.Required)
	}
	for i := range t.Args {
		a := &t.Args[i]
		prop := a.Schema
		if prop == nil {
			cp, ok := cs.Properties[a.target()]
			if !ok {
				return nil, fmt.Errorf("tool %s: argument %s: the canonical tool %s has no argument %s", t.Name, a.Name, t.Canonical, a.target())
			}
			prop = cp.CloneSchemas()
			if a.Scale != 0 {
				scale(prop, 1/a.Scale)
			}
		} else {
			prop = prop.CloneSchemas()
		}
		if a.About != "" {
			prop.Description = a.About
		}
		if a.Default != nil {
			prop.Default = nil // the canonical default is the dialect's absence
		}
		s.Properties[a.Name] = prop
		if a.Required || !a.Optional && a.Convert == nil && slices.Contains(cs.Required, a.target()) {
			s.Required = append(s.Required, a.Name)
		}
	}
	about := t.About
	if about == "" {
		about = canon.Description
	}
	return definitions.NewTool(t.Name, about, canon.Flags, s)
}

// scale converts a numeric argument's bounds and default to the dialect's unit.
func scale(s *jsonschema.Schema, by float64) {
	for _, f := range []**float64{&s.Minimum, &s.Maximum} {
		if *f != nil {
			*f = ptr(**f * by) // a new value: a clone shares the canonical schema's
		}
	}
	if s.Default != nil {
		var v float64
		if _, err := fmt.Sscan(string(s.Default), &v); err == nil {
			s.Default = []byte(fmt.Sprint(v * by))
		}
	}
	if s.Type == "number" && by >= 1 {
		s.Type = "integer" // seconds to milliseconds: a whole number
	}
}
