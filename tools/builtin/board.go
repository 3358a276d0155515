package builtin

import (
	"cmp"
	"context"
	"fmt"

	"github.com/jido-run/jido/tools/definitions"
)

// BoardTools is the module of todo_write and task: the session's board (Deps.Board), and for
// export a Markdown file written as write_file writes it.
type BoardTools struct{ Deps }

// TodoWrite runs todo_write.
func (b *BoardTools) TodoWrite(ctx context.Context, p definitions.TodoWriteParams) (*definitions.TodoWriteResult, error) {
	if b.Deps.Board == nil {
		return nil, noBoard()
	}
	if p.Action == "export" {
		md, n := b.Deps.Board.ExportTodos()
		w, err := b.export(ctx, cmp.Or(p.ExportPath, "docs/TODO.md"), md)
		if err != nil {
			return nil, err
		}
		return &definitions.TodoWriteResult{BoardChange: definitions.BoardChange{Path: w.Path, Count: &n, Backup: w.Backup}}, nil
	}
	if p.Location != nil {
		if err := b.checkLocation("location", p.Location); err != nil {
			return nil, err
		}
	}
	res, terr := b.Deps.Board.Todo(p)
	if terr != nil {
		return nil, terr
	}
	return res, nil
}

// Task runs task.
func (b *BoardTools) Task(ctx context.Context, p definitions.TaskParams) (*definitions.TaskResult, error) {
	if b.Deps.Board == nil {
		return nil, noBoard()
	}
	if p.Action == "export" {
		md, n := b.Deps.Board.ExportTasks()
		w, err := b.export(ctx, cmp.Or(p.ExportPath, "docs/roadmap.md"), md)
		if err != nil {
			return nil, err
		}
		return &definitions.TaskResult{BoardChange: definitions.BoardChange{Path: w.Path, Count: &n, Backup: w.Backup}}, nil
	}
	for i := range p.Links {
		if err := b.checkLocation(fmt.Sprintf("links[%d]", i), &p.Links[i]); err != nil {
			return nil, err
		}
	}
	res, terr := b.Deps.Board.Task(p)
	if terr != nil {
		return nil, terr
	}
	return res, nil
}

// noBoard is the error of a session without a board.
func noBoard() error {
	return definitions.NewError(definitions.InternalError, "this session keeps no todos or tasks").
		Hint("Open the session through manager, which gives each session its board")
}

// checkLocation makes a location's path canonical after checking that it names an
// existing file or directory inside the root.
func (b *BoardTools) checkLocation(field string, l *definitions.Location) error {
	canon, err := b.Store.Resolve(l.Path)
	if err == nil {
		_, err = b.Store.Stat(canon)
	}
	if err != nil {
		return definitions.NewError(definitions.ValidationError, "%s.path %q: %v", field, l.Path, err).With("field", field+".path").
			Hint("Point at an existing file of the project, relative to its root")
	}
	if l.EndLine != 0 && l.EndLine < l.Line {
		return definitions.NewError(definitions.ValidationError, "%s.end_line %d is before its line %d", field, l.EndLine, l.Line).With("field", field+".end_line")
	}
	l.Path = canon
	return nil
}

// export writes an export's Markdown to path as write_file would write it (secrets
// redacted first): inside the root, atomically, asked about with its diff, journaled for
// undo. It replaces what path holds: the approval shows what that is.
func (b *BoardTools) export(ctx context.Context, path, md string) (*definitions.WriteFileResult, error) {
	md, _ = b.redactor().String(md)
	files := &Files{Deps: b.Deps}
	p := definitions.WriteFileParams{Path: path, Content: md, CreateIfMissing: true}
	if cur, err := b.Store.ReadFile(path); err == nil {
		b.Reads.Record(cur.Path, cur.Version) // an export may replace the file unread
	}
	if terr := gated(ctx, b.Deps, definitions.WriteFile, p, files.WriteFile); terr != nil {
		return nil, terr
	}
	return journaled(ctx, b.Deps, definitions.WriteFile, p, files.WriteFile)
}
