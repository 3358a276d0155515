//go:build unix

package main

import "golang.org/x/sys/unix"

// processSession is the id of jido's process session (its terminal's shell's), 0 if unknown.
func processSession() int {
	sid, err := unix.Getsid(0)
	if err != nil {
		return 0
	}
	return sid
}
