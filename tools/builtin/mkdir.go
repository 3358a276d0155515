package builtin

import (
	"context"
	"errors"
	"io/fs"

	"github.com/jido-run/jido/tools/definitions"
)

// CreateDirectory creates a directory and its missing parents (mkdir -p), idempotently: an
// existing directory is no error. The path passes the checks of any write (confinement,
// symlinks resolved inside the root, secret and protected paths refused) before anything
// is created. It works on the disk (d.Root): a plan holds files, not bare directories, so
// the tool is not offered in plan mode (its declaration says NotInPlan).
func (f *Files) CreateDirectory(ctx context.Context, p definitions.CreateDirectoryParams) (*definitions.CreateDirectoryResult, error) {
	canon, err := f.Root.CheckWrite(p.Path)
	if err != nil {
		return nil, err
	}
	info, err := f.Root.Stat(canon)
	switch {
	case err == nil && info.IsDir():
		return &definitions.CreateDirectoryResult{Path: canon, DryRun: p.DryRun}, nil
	case err == nil:
		return nil, definitions.NewError(definitions.ConflictError, "cannot create directory %s: a file of that name exists", canon).
			With("path", canon).
			Hint("Choose another path, or delete the file first with delete_file")
	case !errors.Is(err, fs.ErrNotExist):
		return nil, err
	case p.DryRun:
		return &definitions.CreateDirectoryResult{Path: canon, DryRun: true, WouldCreate: true}, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := f.Root.MkdirAll(canon); err != nil {
		return nil, err
	}
	return &definitions.CreateDirectoryResult{Path: canon, Created: true}, nil
}
