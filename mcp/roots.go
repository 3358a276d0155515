package mcp

import (
	"context"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/jido-run/jido/tools/definitions"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// root returns the project root of the MCP session ss's jido session, "" for the manager's
// own: with Options.ClientRoots, the first file:// root of a client that supports roots.
// With Options.ConfineRoots, a root outside the manager's is refused (permission-error).
func (s *Server) root(ctx context.Context, ss *sdk.ServerSession) (string, error) {
	if !s.opts.ClientRoots {
		return "", nil
	}
	if p := ss.InitializeParams(); p == nil || p.Capabilities == nil || p.Capabilities.RootsV2 == nil {
		return "", nil
	}
	res, err := ss.ListRoots(ctx, nil)
	if err != nil {
		return "", definitions.NewError(definitions.InternalError, "listing the client's roots (roots/list) failed: %v", err).
			Hint("Retry; if the client cannot list its roots, start jido mcp with --root")
	}
	for _, r := range res.Roots {
		dir, ok := filePath(r.URI)
		if !ok {
			continue
		}
		if s.opts.ConfineRoots && !within(dir, s.m.Root()) {
			return "", definitions.NewError(definitions.PermissionError, "the client's root %s is outside the server's root %s", dir, s.m.Root()).
				With("root", dir).With("server_root", s.m.Root()).
				Hint("Open a project inside " + s.m.Root() + ", or start jido mcp --http with --root set to a directory that holds this one")
		}
		return dir, nil
	}
	return "", nil
}

// filePath is the local path of a file:// URI (of this host); ok is false for any other URI.
func filePath(uri string) (string, bool) {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" || (u.Host != "" && u.Host != "localhost") || !filepath.IsAbs(u.Path) {
		return "", false
	}
	return filepath.Clean(u.Path), true
}

// within reports whether dir is base or inside it, once both are free of symlinks (a link
// inside base may point out of it). base is already symlink-free (Manager.Root). The
// check is done again on the root as opened (openSession): a link may change in between.
func within(dir, base string) bool {
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	return inside(dir, base)
}

// inside reports whether the symlink-free path dir is base or inside it, lexically.
func inside(dir, base string) bool {
	rel, err := filepath.Rel(base, dir)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
