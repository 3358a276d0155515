package definitions

import (
	"fmt"
	"strings"
)

// Outcomer is a result that says in a few words what its call did, for people: "212
// lines", "+3 -1", "exit 0". Every built-in result type is one (a test checks); a Go tool
// of one's own can be one too.
type Outcomer interface{ Outcome() string }

// Count says n things in words: "1 line", "2 lines", "3 entries", "4 matches".
func Count(n int, one string) string {
	switch {
	case n == 1:
		return "1 " + one
	case strings.HasSuffix(one, "y"):
		return fmt.Sprintf("%d %sies", n, one[:len(one)-1])
	case strings.HasSuffix(one, "ch"):
		return fmt.Sprintf("%d %ses", n, one)
	}
	return fmt.Sprintf("%d %ss", n, one)
}

// Outcome says which lines were read.
func (r *ReadFileResult) Outcome() string {
	if r.StartLine > 1 || r.EndLine < r.TotalLines {
		return fmt.Sprintf("lines %d-%d of %d", r.StartLine, r.EndLine, r.TotalLines)
	}
	return Count(r.TotalLines, "line")
}

// Outcome says how many bytes were written, and whether the file is new.
func (r *WriteFileResult) Outcome() string {
	if r.Created {
		return "created, " + Count(r.BytesWritten, "byte")
	}
	return Count(r.BytesWritten, "byte")
}

// Outcome counts the lines added and removed.
func (d *FileDiff) Outcome() string { return fmt.Sprintf("+%d -%d", d.LinesAdded, d.LinesRemoved) }

// Outcome counts the lines added and removed.
func (r *EditFileResult) Outcome() string { return r.FileDiff.Outcome() }

// Outcome counts the lines added and removed.
func (r *EditRegionResult) Outcome() string { return r.FileDiff.Outcome() }

// Outcome counts the lines added and removed over every file, and the files when several.
func (r *MultiEditResult) Outcome() string {
	var sum FileDiff
	for _, f := range r.Files {
		sum.LinesAdded += f.LinesAdded
		sum.LinesRemoved += f.LinesRemoved
	}
	if len(r.Files) > 1 {
		return sum.Outcome() + " in " + Count(len(r.Files), "file")
	}
	return sum.Outcome()
}

// Outcome says what was (or would be) deleted.
func (r *DeleteFileResult) Outcome() string {
	if r.DryRun {
		return "would delete " + r.Path
	}
	return "deleted"
}

// Outcome says where the file went.
func (r *MoveFileResult) Outcome() string {
	if r.DryRun {
		return "would move to " + r.Destination
	}
	return "moved to " + r.Destination
}

// Outcome counts the entries.
func (r *ListDirResult) Outcome() string { return Count(len(r.Entries), "entry") }

// Outcome counts the files.
func (r *FileList) Outcome() string { return Count(r.Count, "file") }

// Outcome counts the matches (or files, or counts) returned.
func (r *SearchResult) Outcome() string { return Count(r.Count, "match") }

// Outcome says whether the path exists.
func (r *FileExistsResult) Outcome() string {
	if r.Exists {
		return "exists"
	}
	return "does not exist"
}

// Outcome counts the files of the plan.
func (r *PlanResult) Outcome() string { return Count(r.Files, "file") }

// Differ is a result that shows its change as a unified diff: what a dry run of a file
// tool returns, for an approval prompt to show.
type Differ interface{ ChangeDiff() string }

// ChangeDiff is the diff of the write.
func (r *WriteFileResult) ChangeDiff() string { return r.Diff }

// ChangeDiff is the diff of the edit.
func (r *EditFileResult) ChangeDiff() string { return r.Diff }

// ChangeDiff is the diff of the edit.
func (r *EditRegionResult) ChangeDiff() string { return r.Diff }

// ChangeDiff is the diffs of every file, one after the other.
func (r *MultiEditResult) ChangeDiff() string { return joinDiffs(r.Files) }

// joinDiffs is the diffs of files, one after the other.
func joinDiffs(files []FileDiff) string {
	var b strings.Builder
	for _, f := range files {
		b.WriteString(f.Diff)
	}
	return b.String()
}

// ChangeDiff is the diff of the whole plan.
func (r *PlanResult) ChangeDiff() string { return r.Diff }

// Outcome names the todo and its status, or counts the list, or tells the change.
func (r *TodoWriteResult) Outcome() string {
	switch {
	case r.Todo != nil:
		return r.Todo.ID + " " + r.Todo.Status
	case r.Todos != nil:
		return Count(len(*r.Todos), "todo")
	}
	return r.BoardChange.outcome("todo")
}

// Outcome names the task and its status, or counts the list, or tells the change.
func (r *TaskResult) Outcome() string {
	switch {
	case r.Task != nil:
		return r.Task.ID + " " + r.Task.Status
	case r.Tasks != nil:
		return Count(len(*r.Tasks), "task")
	}
	return r.BoardChange.outcome("task")
}

// outcome tells a deletion or an export of items of the kind named.
func (c *BoardChange) outcome(kind string) string {
	switch {
	case c.Deleted:
		return "deleted " + c.ID
	case c.Count != nil:
		return "exported " + Count(*c.Count, kind) + " to " + c.Path
	}
	return "done"
}

// Outcome says how big the new buffer is.
func (r *BufferCreateResult) Outcome() string { return "created, " + Count(r.Lines, "line") }

// Outcome says how much was appended.
func (r *BufferAppendResult) Outcome() string {
	return "+" + Count(r.Appended, "byte") + ", " + Count(r.Lines, "line")
}

// Outcome counts the lines added and removed.
func (r *BufferEditResult) Outcome() string {
	return fmt.Sprintf("+%d -%d", r.LinesAdded, r.LinesRemoved)
}

// Outcome says which lines were returned.
func (r *BufferGetContentResult) Outcome() string {
	if r.Truncated {
		return fmt.Sprintf("%d of %s", r.Lines, Count(r.TotalLines, "line"))
	}
	return Count(r.TotalLines, "line")
}

// Outcome counts the buffers.
func (r *BufferListResult) Outcome() string { return Count(len(r.Buffers), "buffer") }

// Outcome says where the buffer went.
func (r *BufferSaveResult) Outcome() string {
	if r.DryRun {
		return "would save " + r.Path
	}
	if r.Created {
		return "created " + r.Path + ", " + Count(r.BytesWritten, "byte")
	}
	return "saved " + r.Path + ", " + Count(r.BytesWritten, "byte")
}

// Outcome says which line the point is on.
func (r *GotoLineResult) Outcome() string { return fmt.Sprintf("line %d of %d", r.Line, r.TotalLines) }

// Outcome counts the matches.
func (r *SearchInBufferResult) Outcome() string {
	if r.Truncated {
		return Count(r.Count, "match") + "+"
	}
	return Count(r.Count, "match")
}

// Outcome names the working directory.
func (r *CurrentDirectoryResult) Outcome() string { return r.Path }

// Outcome counts the lines added and removed over every file, and the files.
func (r *ApplyPatchResult) Outcome() string {
	var sum FileDiff
	for _, f := range r.Files {
		sum.LinesAdded += f.LinesAdded
		sum.LinesRemoved += f.LinesRemoved
	}
	return sum.Outcome() + " in " + Count(len(r.Files), "file")
}

// ChangeDiff is the diffs of every file, one after the other.
func (r *ApplyPatchResult) ChangeDiff() string { return joinDiffs(r.Files) }
