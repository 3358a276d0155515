package main

import (
	"os"
	"testing"

	"github.com/jido-run/jido/manager"
	"github.com/jido-run/jido/sandbox"
	"github.com/jido-run/jido/worker"
	"github.com/stretchr/testify/assert"
)

func TestMain(m *testing.M) {
	sandbox.MaybeHelper() // run_shell re-executes this test binary as its sandbox helper
	worker.MaybeServe()   // and -isolation worker as the sessions' Lua workers
	os.Exit(m.Run())
}

// TestQuick runs the benchmark as -quick does, in each mode: it must end without a failed
// call. The figures are not checked: they are the machine's.
func TestQuick(t *testing.T) {
	if testing.Short() {
		t.Skip("a few seconds of load per case")
	}
	tests := []struct {
		name string
		o    options
	}{
		{"closed", options{isolation: manager.IsolationProcess}},
		{"open", options{isolation: manager.IsolationProcess, open: true, rates: []int{25, 50, 75}, arrivals: "poisson"}},
		{"open even worker", options{isolation: manager.IsolationWorker, open: true, rates: []int{50}, arrivals: "even"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.NoError(t, run(tt.o.quick()))
		})
	}
}

func TestParsePercents(t *testing.T) {
	tests := []struct {
		in   string
		want []int
		ok   bool
	}{
		{"25,50,75", []int{25, 50, 75}, true},
		{" 50 ", []int{50}, true},
		{"0", nil, false},
		{"50,x", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := parsePercents(tt.in)
			assert.Equal(t, tt.ok, err == nil, "error: %v", err)
			assert.Equal(t, tt.want, got)
		})
	}
}
