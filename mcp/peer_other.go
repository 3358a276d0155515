//go:build !linux

package mcp

import (
	"errors"
	"io"
	"net"
)

// ListenSocket fails: only Linux's SO_PEERCRED is used to tell who connects to a UNIX
// socket, and without it any local user could.
func ListenSocket(path string, log io.Writer) (net.Listener, error) {
	return nil, errors.New("a UNIX socket needs Linux here (SO_PEERCRED tells the uid of whoever connects); serve over --http, which asks for a token")
}
