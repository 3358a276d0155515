//go:build race

package validate

func init() { raceEnabled = true }
