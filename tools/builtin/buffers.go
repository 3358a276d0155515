package builtin

import (
	"context"
	"path/filepath"

	"github.com/jido-run/jido/buffers"
	"github.com/jido-run/jido/tools/definitions"
)

// BufferTools is the module of seed 001's buffer tools and current_directory: the
// session's buffers (Deps.Buffers), and for buffer_save a file written as write_file
// writes it.
type BufferTools struct{ Deps }

// bufferOp makes the implementation of a buffer tool from the Buffers method that does
// its work: bind(definitions.GotoLine, bufferOp(buffers.Buffers.GotoLine)).
func bufferOp[P, R any](op func(buffers.Buffers, P) (R, error)) func(*BufferTools, context.Context, P) (R, error) {
	return func(m *BufferTools, _ context.Context, p P) (R, error) {
		if m.Buffers == nil {
			var none R
			return none, noBuffers()
		}
		return op(m.Buffers, p)
	}
}

// noBuffers is the error of a session without buffers.
func noBuffers() error {
	return definitions.NewError(definitions.InternalError, "this session keeps no buffers").
		Hint("Open the session through manager, which gives each session its buffers")
}

// BufferSave runs buffer_save: the buffer's text written to file_path by write_file's
// code (inside the root, not a secret, atomically, the parse guard applied). buffer_save
// is a mutating tool with a path and a dry run: the gate asked about it with the diff of
// its dry run, and the call is journaled for undo, before this runs, as for write_file.
// It replaces what the file holds whether or not the session read it.
func (m *BufferTools) BufferSave(ctx context.Context, p definitions.BufferSaveParams) (*definitions.BufferSaveResult, error) {
	if m.Buffers == nil {
		return nil, noBuffers()
	}
	text, version, err := m.Buffers.Snapshot(p.BufferName)
	if err != nil {
		return nil, err
	}
	if cur, err := m.Store.ReadFile(p.FilePath); err == nil {
		m.Reads.Record(cur.Path, cur.Version)
	}
	files := &Files{Deps: m.Deps}
	w, err := files.WriteFile(ctx, definitions.WriteFileParams{Path: p.FilePath, Content: text, CreateIfMissing: true, Force: p.Force, DryRun: p.DryRun})
	if err != nil {
		return nil, err
	}
	if !p.DryRun {
		if err := m.Buffers.Saved(p.BufferName, w.Path, version); err != nil {
			return nil, err
		}
	}
	return &definitions.BufferSaveResult{BufferName: p.BufferName, Path: w.Path, BytesWritten: w.BytesWritten,
		Created: w.Created, DryRun: w.DryRun, Diff: w.Diff, UncommittedChanges: w.UncommittedChanges}, nil
}

// CurrentDirectory runs current_directory: the project root and the session's working
// directory inside it (the root: no tool sets another yet).
func (m *BufferTools) CurrentDirectory(context.Context, definitions.CurrentDirectoryParams) (*definitions.CurrentDirectoryResult, error) {
	root := m.Root.Path()
	return &definitions.CurrentDirectoryResult{Root: root, WorkingDirectory: ".", Path: filepath.Clean(root)}, nil
}
