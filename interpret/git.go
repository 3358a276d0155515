package interpret

import (
	"regexp"
	"strconv"
	"strings"
)

// The read-only git tools the rules plan when the session offers them:
// git_status {path?}, git_diff {path?, staged?, ref?}, git_log {path?, max_count?, ref?},
// git_show {ref?, path?}.
const (
	gitStatus = "git_status"
	gitDiff   = "git_diff"
	gitLog    = "git_log"
	gitShow   = "git_show"
)

// defaultLog is the number of commits a log shows when the query does not say; maxLog
// is git_log's maximum.
const (
	defaultLog = 10
	maxLog     = 200
)

// gitCall plans one call of a git tool, or, when the session does not offer it, answers
// that there is no git tool.
func gitCall(m match, name, rationale string, args map[string]any) (Plan, bool) {
	if !m.has(name) {
		return noGit(), true
	}
	return calls(rationale, call(name, sure, args)), true
}

// noGit is the answer to a git question in a session without the git tool it needs.
func noGit() Plan {
	return answer("There is no git tool in this session. With a language model configured (e.g. GEMINI_API_KEY), run_shell can run git for you.",
		suggest("list_files", "search", "read_file")...)
}

// gitPath resolves the place phrase of a git question, "" for the whole repository.
// ok is false when it names no path.
func gitPath(phrase string, c Context) (string, *Plan, bool) {
	if phrase == "" {
		return "", nil, true
	}
	t, ok := resolve(phrase, c)
	if !ok || t.paths != nil {
		return "", nil, false
	}
	if t.stop != nil {
		return "", t.stop, true
	}
	if t.path == "." {
		return "", nil, true
	}
	return t.path, nil, true
}

// gitArgs are the arguments of a git question's place phrase: its path, when it names
// one. stop is the plan that answers instead (the phrase names nothing there); ok is false
// when the phrase is not a path.
func gitArgs(m match, c Context) (args map[string]any, stop *Plan, ok bool) {
	p, stop, ok := gitPath(scopeOf(m), c)
	if stop != nil || !ok {
		return nil, stop, ok
	}
	args = map[string]any{}
	if p != "" {
		args["path"] = p
	}
	return args, nil, true
}

// orNone is the plan stop points at, or none.
func orNone(stop *Plan) Plan {
	if stop == nil {
		return Plan{}
	}
	return *stop
}

// refLike reports whether a word of a git command names a revision rather than a path:
// HEAD~2, main, v1.2.0, a1b2c3d, HEAD..main. A word with a slash or a file extension is a path.
func refLike(w string) bool {
	if strings.HasPrefix(w, "HEAD") || strings.Contains(w, "..") || strings.ContainsAny(w, "~^@") {
		return true
	}
	return !strings.Contains(w, "/") && !looksLikeFile(w) && w != "."
}

// gitShellPlan reads "git status|diff|log|show ..." as typed in a shell.
func gitShellPlan(m match, c Context) (Plan, bool) {
	sub := strings.ToLower(m.get("sub"))
	args := map[string]any{}
	words := strings.Fields(m.get("rest"))
	paths := false // after "--"
	var pathWord string
	for i := 0; i < len(words); i++ {
		w := words[i]
		switch {
		case w == "--":
			paths = true
		case !paths && strings.HasPrefix(w, "-"):
			switch {
			case sub == "diff" && (w == "--staged" || w == "--cached"):
				args["staged"] = true
			case sub == "log" && (w == "-n" || w == "--max-count") && i+1 < len(words):
				if n, err := strconv.Atoi(words[i+1]); err == nil {
					args["max_count"] = n
					i++
				}
			case sub == "log" && strings.HasPrefix(w, "--max-count="):
				if n, err := strconv.Atoi(strings.TrimPrefix(w, "--max-count=")); err == nil {
					args["max_count"] = n
				}
			case sub == "log" && len(w) > 1 && isDigits(strings.TrimPrefix(strings.TrimPrefix(w, "-"), "n")):
				n, _ := strconv.Atoi(strings.TrimPrefix(strings.TrimPrefix(w, "-"), "n"))
				args["max_count"] = n
			}
		case sub == "show" && strings.Contains(w, ":") && !paths:
			ref, p, _ := strings.Cut(w, ":")
			if ref != "" {
				args["ref"] = ref
			}
			pathWord = p
		case !paths && sub != "status" && refLike(w) && args["ref"] == nil:
			args["ref"] = w
		default:
			pathWord = w
		}
	}
	if pathWord != "" {
		p, stop, ok := gitPath(pathWord, c)
		if !ok {
			return Plan{}, false
		}
		if stop != nil {
			return *stop, true
		}
		if p != "" {
			args["path"] = p
		}
	}
	if n, ok := args["max_count"].(int); ok {
		args["max_count"] = min(max(n, 1), maxLog)
	}
	name := map[string]string{"status": gitStatus, "st": gitStatus, "diff": gitDiff, "log": gitLog, "show": gitShow}[sub]
	if name == gitLog && args["max_count"] == nil {
		args["max_count"] = defaultLog
	}
	return gitCall(m, name, "Ask git: "+m.s+".", args)
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// gitStatusPlan is "which files changed", "is the working tree clean".
func gitStatusPlan(m match, c Context) (Plan, bool) {
	args, stop, ok := gitArgs(m, c)
	if stop != nil || !ok {
		return orNone(stop), ok
	}
	return gitCall(m, gitStatus, "Ask git which files changed.", args)
}

// stagedRE tells a question about the staged changes.
var stagedRE = regexp.MustCompile(`(?i)\b(?:staged|cached|index)\b`)

// gitDiffPlan is "what did I change", "show the staged changes", "diff against main".
func gitDiffPlan(m match, c Context) (Plan, bool) {
	args, stop, ok := gitArgs(m, c)
	if stop != nil || !ok {
		return orNone(stop), ok
	}
	if stagedRE.MatchString(m.s) && !strings.Contains(strings.ToLower(m.s), "unstaged") {
		args["staged"] = true
	}
	rationale := "Show the uncommitted changes."
	if ref := m.get("ref"); ref != "" {
		if strings.Contains(strings.ToLower(ref), "last commit") {
			ref = "HEAD"
		}
		args["ref"] = ref
		rationale = "Show the changes since " + ref + "."
	}
	return gitCall(m, gitDiff, rationale, args)
}

// gitLogPlan is "recent commits", "history of main.go", "what changed recently".
func gitLogPlan(m match, c Context) (Plan, bool) {
	args, stop, ok := gitArgs(m, c)
	if stop != nil || !ok {
		return orNone(stop), ok
	}
	n := number(m.first("n", "n2"), defaultLog)
	if m.get("one") != "" {
		n = 1
	}
	args["max_count"] = min(max(n, 1), maxLog)
	return gitCall(m, gitLog, "Show the latest commits.", args)
}

// gitShowPlan is "show the last commit", "show commit a1b2c3d".
func gitShowPlan(m match, _ Context) (Plan, bool) {
	args := map[string]any{}
	if ref := m.get("ref"); ref != "" {
		args["ref"] = ref
	} else if m.get("prev") != "" {
		args["ref"] = "HEAD~1"
	}
	return gitCall(m, gitShow, "Show the commit.", args)
}

// gitChangePlan answers a request to change the repository (commit, push, checkout, ...).
func gitChangePlan(match, Context) (Plan, bool) {
	return answer("Offline mode only reads: there is no git tool that commits, pushes, pulls or switches branches. "+
		"With a language model configured (e.g. GEMINI_API_KEY), run_shell can run git for you, with your approval.",
		suggest("list_files", "search", "read_file")...), true
}
