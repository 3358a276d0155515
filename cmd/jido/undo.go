package main

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/jido-run/jido/journal"
	"github.com/jido-run/jido/manager"
	"github.com/jido-run/jido/termsafe"
	"github.com/jido-run/jido/tools/builtin"
	"github.com/jido-run/jido/tools/definitions"
)

// undoOptions are the parsed arguments of `jido undo`.
type undoOptions struct {
	sessionFlags
	list, force bool
	json        bool   // --list as the undo tool's JSON, not a table
	id          string // "" for the last change set
}

func parseUndo(args []string, stderr io.Writer) (*undoOptions, error) {
	o := &undoOptions{}
	fs := newFlagSet("undo", stderr)
	o.register(fs)
	fs.BoolVar(&o.list, "list", false, "list the change sets, newest first")
	fs.BoolVar(&o.force, "force", false, "undo even if files changed since")
	fs.BoolVar(&o.json, "json", false, "with --list: print the undo tool's result as JSON instead of a table")
	if err := parseArgs(fs, args); err != nil {
		return nil, err
	}
	switch fs.NArg() {
	case 0:
	case 1:
		o.id = fs.Arg(0)
	default:
		return nil, fmt.Errorf("undo takes at most one CHANGE_ID, got %d arguments", fs.NArg())
	}
	return o, nil
}

// runUndo implements `jido undo`: the undo tool, approved by the command itself. Without
// an id it undoes the newest change set of the most recent session that changed anything
// (journal.LastOfLatestSession): what the last `jido call`, chat or agent did, newest
// first, before older sessions' changes. It names the change set and its files on stderr,
// then undoes that one, and prints the ToolResult as JSON on stdout. --list prints the
// change sets as a table (id, when, session, tool, files), or with --json as the tool's
// result.
func runUndo(argv []string, stdout, stderr io.Writer) int {
	o, err := parseUndo(argv, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "jido undo: %v\n", err)
		return exitUsage
	}
	o.yes = true // the user asked for this undo on the command line
	return o.withSession("undo", stderr, func(ctx context.Context, s *manager.Session) int {
		list := s.CallCanonical(ctx, manager.ToolCall{Name: "undo", Args: map[string]any{"list": true}})
		changes, err := manager.ResultAs[builtin.UndoResult](list)
		switch {
		case err != nil || o.list && o.json:
			writeJSON(stdout, list)
			if !list.OK {
				return exitToolError
			}
			return exitOK
		case o.list:
			writeChanges(stdout, changes.Changes)
			return exitOK
		}
		var e journal.Entry
		found := false
		if o.id == "" {
			if e, found = journal.LastOfLatestSession(changes.Changes); !found {
				writeJSON(stdout, manager.ToolResult{Name: "undo", Error: definitions.NewError(definitions.ValidationError, "nothing to undo: every change set is undone").
					Hint("jido undo --list shows the change sets; jido undo ID undoes one (an undo's id redoes it)")})
				return exitToolError
			}
		} else {
			i := slices.IndexFunc(changes.Changes, func(e journal.Entry) bool { return e.ID == o.id })
			if found = i >= 0; found {
				e = changes.Changes[i]
			}
		}
		args := map[string]any{"force": o.force, "change_id": cmp.Or(e.ID, o.id)}
		if found {
			fmt.Fprintf(stderr, "jido: %s\n", termsafe.Line(e.DescribeUndo()))
		}
		res := s.CallCanonical(ctx, manager.ToolCall{Name: "undo", Args: args})
		writeJSON(stdout, res)
		if !res.OK {
			return exitToolError
		}
		return exitOK
	})
}

// writeChanges prints change sets (newest first) as a table for people: id (what jido undo
// takes), time, session, tool (and whether it was undone), files.
func writeChanges(w io.Writer, changes []journal.Entry) {
	if len(changes) == 0 {
		fmt.Fprintln(w, "no change sets journaled for this project")
		return
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tWHEN\tSESSION\tTOOL\tFILES")
	for _, e := range changes {
		tool := e.Tool
		switch {
		case e.Undoes != "":
			tool = "undo of " + e.Undoes
		case e.Undone:
			tool += " (undone)"
		}
		session := cmp.Or(e.Session, "-")
		if e.Conversation != "" && e.Conversation != e.Session {
			session += " (" + e.Conversation + ")"
		}
		files := e.Files()
		if len(files) > maxListedFiles {
			files = append(files[:maxListedFiles:maxListedFiles], fmt.Sprintf("and %d more", len(files)-maxListedFiles))
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", e.ID, e.Time.Local().Format("2006-01-02 15:04:05"),
			termsafe.Line(session), termsafe.Line(tool), termsafe.Line(strings.Join(files, ", ")))
	}
	tw.Flush()
}

// maxListedFiles caps the files one row of the table names.
const maxListedFiles = 5
