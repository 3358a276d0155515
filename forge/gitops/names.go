package gitops

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/jido-run/jido/tools/definitions"
)

// BranchPrefix starts the name of every task branch.
const BranchPrefix = "forge/"

// idPattern is what a task id may look like: it becomes a branch name component and a
// directory name, so no slash, no leading dot or dash, nothing git or a shell reads.
var idPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)

// checkTaskID refuses a task id that does not match idPattern or contains "..".
func checkTaskID(taskID string) error {
	if !idPattern.MatchString(taskID) || strings.Contains(taskID, "..") || strings.HasSuffix(taskID, ".lock") {
		return definitions.NewError(definitions.ValidationError, "invalid task id %q", taskID).
			With("taskId", taskID).
			Hint("A task id is 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit, without '..'")
	}
	return nil
}

// checkAttempt refuses a negative attempt number.
func checkAttempt(attempt int) error {
	if attempt < 0 {
		return definitions.NewError(definitions.ValidationError, "invalid attempt %d: must be 0 or more", attempt).
			With("attempt", attempt)
	}
	return nil
}

// BranchName returns the branch of a task's attempt, forge/<taskId>/<attempt>, or a
// ValidationError when the task id or attempt is invalid.
func BranchName(taskID string, attempt int) (string, error) {
	if err := checkTaskID(taskID); err != nil {
		return "", err
	}
	if err := checkAttempt(attempt); err != nil {
		return "", err
	}
	return BranchPrefix + taskID + "/" + strconv.Itoa(attempt), nil
}

// checkBranchText refuses, before git sees it, a branch name that git could read as an
// option or that is not plain text: empty, a leading '-', control characters or spaces,
// or longer than 255 bytes. git check-ref-format then decides the rest (see
// Repo.checkBranch).
func checkBranchText(name string) error {
	bad := name == "" || len(name) > 255 || strings.HasPrefix(name, "-") ||
		strings.ContainsFunc(name, func(r rune) bool { return r <= ' ' || r == 0x7f })
	if bad {
		return invalidBranch(name)
	}
	return nil
}

// invalidBranch is the ValidationError of a branch name that is refused.
func invalidBranch(name string) error {
	return definitions.NewError(definitions.ValidationError, "invalid branch name %q", name).
		With("branch", name).
		Hint("Pass the name of an existing local branch, such as main or forge/<taskId>/<attempt>")
}
