package store

import (
	"regexp"
	"strings"

	"github.com/jido-run/jido/tools/definitions"
)

// namePattern is what run ids, task ids and artifact file names look like: one path
// component of safe characters, so that no name can climb out of or alias its directory.
var namePattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)

// reservedTaskIDs are the entries of a run directory that a task's own directory
// (artifacts/<runId>/<taskId>/) would collide with.
var reservedTaskIDs = []string{"specs", "tasks", "crs", "dag.json", "state.json", "events.ndjson"}

// checkName validates the value of field (a run id, task id or file name) against
// namePattern and refuses "..".
func checkName(field, value string) error {
	if namePattern.MatchString(value) && !strings.Contains(value, "..") {
		return nil
	}
	return definitions.NewError(definitions.ValidationError, "invalid %s %q", field, value).
		With("field", field).With("value", value).
		Hint("use 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit, without \"..\"")
}

// checkTaskID is checkName for task ids, which also must not be a reserved name.
func checkTaskID(field, id string) error {
	if err := checkName(field, id); err != nil {
		return err
	}
	for _, r := range reservedTaskIDs {
		if strings.EqualFold(id, r) {
			return definitions.NewError(definitions.ValidationError, "%s %q is reserved", field, id).
				With("field", field).With("value", id).With("reserved", reservedTaskIDs).
				Hint("pick another task id")
		}
	}
	return nil
}
