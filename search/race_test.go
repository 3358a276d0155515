//go:build race

package search

// The race detector makes sync.Pool drop items, so regexp's pooled machines are allocated anew.
func init() { raceEnabled = true }
