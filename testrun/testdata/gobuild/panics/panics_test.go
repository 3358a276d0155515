package panics

import "testing"

func TestPanics(t *testing.T) {
	var m map[string]int
	m["x"] = 1
}

func TestNeverRuns(t *testing.T) {}
