package builtin

import "context"

// callDirKey keys the working directory of a call in its context.
type callDirKey struct{}

// WithCallDir returns a context whose tool calls resolve their relative paths against dir,
// a root-relative directory (a call's meta.cwd, which the caller has checked): every call
// made under it, nested ones (a user's Lua tool's) included. "" or "." is the root.
func WithCallDir(ctx context.Context, dir string) context.Context {
	return context.WithValue(ctx, callDirKey{}, dir)
}

// callDir returns the working directory WithCallDir put in ctx ("" for the root).
func callDir(ctx context.Context) string {
	dir, _ := ctx.Value(callDirKey{}).(string)
	return dir
}
