package shellclass

import (
	"strings"
)

// gitGlobal are git's options before the subcommand: git -C dir -c k=v push.
var gitGlobal = optSpec{value: "Cc", long: longs("git-dir", "work-tree", "namespace", "super-prefix", "config-env")}

// gitExecConfig are -c config keys (lower case, matched as substrings) whose value git runs as
// a command: git -c alias.x='!rm -rf ~' x, git -c core.pager='sh -c ...' log.
var gitExecConfig = []string{"alias.", "pager", "editor", "sshcommand", "fsmonitor", "hookspath", "proxy",
	"askpass", "external", "textconv", "command", "driver", "program", "helper", "hook", "include",
	"uploadpack", "receivepack", "difffilter", "cmd", "tool", "filter."}

// gitRules are git subcommands whose class does not depend on their arguments.
var gitRules map[string]rule

// buildGit fills gitRules and gitArgRules (see loadTables).
func buildGit() {
	gitRules = map[string]rule{}
	for keys, r := range map[string]rule{
		"status log diff show blame annotate rev-parse ls-files ls-tree grep describe shortlog cat-file rev-list whatchanged name-rev for-each-ref show-ref merge-base check-ignore check-attr check-ref-format check-mailmap count-objects fsck verify-commit verify-tag verify-pack show-branch range-diff cherry diff-tree diff-files diff-index var help version get-tar-commit-id column": {ReadOnly, "{} only reads"},
		"fetch pull clone ls-remote send-email fetch-pack send-pack request-pull svn p4 daemon instaweb": {Network, "{} talks to a remote repository"},
		"add commit merge cherry-pick format-patch revert am apply init notes pack-refs repack maintenance commit-tree mktree read-tree write-tree update-index checkout-index symbolic-ref merge-file mergetool difftool sparse-checkout update-ref replace hash-object mktag bundle interpret-trailers stripspace": {Mutating, "{} changes the repository or working tree"},
		"filter-branch filter-repo prune": {Destructive, "{} rewrites or discards history"},
	} {
		for _, k := range strings.Fields(keys) {
			gitRules[k] = r
		}
	}
}

// gitArgRules are git subcommands whose class depends on their arguments.
var gitArgRules map[string]func(x *call, args []arg) verdict

func buildGitArgs() {
	gitArgRules = map[string]func(*call, []arg) verdict{
		"push":      gitPush,
		"clean":     gitClean,
		"checkout":  gitCheckout,
		"restore":   gitRestore,
		"switch":    gitSwitch,
		"reset":     gitReset,
		"branch":    gitBranch,
		"stash":     gitStash,
		"tag":       gitTag,
		"remote":    gitRemote,
		"config":    gitConfig,
		"rebase":    gitRebase,
		"gc":        gitGC,
		"reflog":    gitReflog,
		"rm":        forceIs("rm", "git rm -f discards uncommitted changes", "git rm removes files (recoverable from history)", "n"),
		"mv":        forceIs("mv", "git mv -f overwrites files", "git mv moves files", ""),
		"worktree":  gitWorktree,
		"submodule": gitSubmodule,
		"bisect":    gitBisect,
		"lfs":       gitLFS,
		"archive":   gitArchive,
	}
}

// gitCmd classifies git: global options (-C, -c), then the subcommand.
func gitCmd(x *call) verdict {
	opts, rest := gitGlobal.leading(x.args)
	pre := verdict{ReadOnly, "read-only command"}
	for _, o := range opts {
		switch o.name {
		case "-c", "--config-env":
			pre.raise(gitConfigOption(x, o))
		case "--exec-path":
			if o.value != "" {
				return verdict{Destructive, "git --exec-path runs git commands from another directory"}
			}
		}
	}
	v := gitSubcommand(x, rest)
	v.raise(pre)
	return v
}

// gitConfigOption classifies git -c KEY=VALUE and --config-env KEY=ENVVAR. A setting that makes
// git run a command (alias.x=!cmd, core.fsmonitor, core.sshCommand, ...) is at least Mutating,
// since git appends arguments or input of its own, and the command is classified; a pager
// (core.pager, pager.log) is only classified, so core.pager=less stays read-only while
// core.pager=sh, which runs git's output as commands, is dynamic code.
func gitConfigOption(x *call, o opt) verdict {
	key, value, _ := strings.Cut(o.value, "=")
	lkey := strings.ToLower(key)
	switch {
	case o.dynamic && strings.ContainsAny(key, "$`\"'"):
		return verdict{Destructive, "git " + o.name + " with a computed setting " + o.value + " (dynamic code)"}
	case !gitExecKey(lkey):
		return verdict{ReadOnly, "read-only command"}
	case o.name == "--config-env" || o.dynamic:
		return verdict{Destructive, "git " + o.name + " " + key + " runs a computed command (dynamic code)"}
	}
	v := gitExecValue(x, "git -c "+key, value)
	if !strings.Contains(lkey, "pager") {
		v.raise(verdict{Mutating, "git -c " + key + " makes git run a command"})
	}
	return v
}

// gitSubcommand classifies git's subcommand and its arguments.
func gitSubcommand(x *call, rest []arg) verdict {
	if len(rest) == 0 {
		return verdict{ReadOnly, "git without a subcommand only prints"}
	}
	if !rest[0].lit {
		return verdict{Destructive, "git with a computed subcommand " + rest[0].val}
	}
	sub, args := rest[0].val, rest[1:]
	if f := gitArgRules[sub]; f != nil {
		return f(x, args)
	}
	if r, ok := gitRules[sub]; ok {
		v := r.verdict("git " + sub)
		if v.Class == ReadOnly {
			v.raise(gitOutputFile(sub, args))
		}
		return v
	}
	return verdict{Mutating, "git " + sub + " is unknown (an alias or extension) and may change files"}
}

// gitOutputFile catches read-only subcommands told to write a file or run a pager program.
func gitOutputFile(sub string, args []arg) verdict {
	for _, a := range args {
		if !a.lit {
			continue
		}
		switch {
		case strings.HasPrefix(a.val, "--output"):
			return verdict{Mutating, "git " + sub + " --output writes a file"}
		case sub == "grep" && (strings.HasPrefix(a.val, "-O") || strings.HasPrefix(a.val, "--open-files-in-pager")):
			return verdict{Mutating, "git grep -O runs a program"}
		}
	}
	return verdict{ReadOnly, "read-only command"}
}

// gitFlags scans git subcommand arguments: options (clusters split) and operands. values are
// short options taking a value; long options with values are expected as --opt=value.
func gitFlags(args []arg, values string, long ...string) ([]opt, []arg) {
	return optSpec{value: values, long: longs(long...)}.scan(args)
}

// gitPush: network, but Destructive when it can overwrite or delete remote history.
func gitPush(x *call, args []arg) verdict {
	opts, operands := gitFlags(args, "o", "push-option", "repo", "receive-pack", "exec")
	for _, o := range opts {
		switch o.name {
		case "-f", "--force", "--force-with-lease", "--force-if-includes", "--mirror":
			return verdict{Destructive, "git push " + o.name + " rewrites remote history"}
		case "-d", "--delete", "--prune":
			return verdict{Destructive, "git push " + o.name + " deletes remote refs"}
		}
	}
	for i, a := range operands {
		if i == 0 || !a.lit { // the remote
			continue
		}
		switch {
		case strings.HasPrefix(a.val, "+"):
			return verdict{Destructive, "git push " + a.val + " force-pushes a refspec"}
		case strings.HasPrefix(a.val, ":"):
			return verdict{Destructive, "git push " + a.val + " deletes a remote ref"}
		}
	}
	return verdict{Network, "git push uploads commits"}
}

// gitClean deletes untracked files unless it is a dry run.
func gitClean(x *call, args []arg) verdict {
	opts, _ := gitFlags(args, "e", "exclude")
	if has(opts, "-n", "--dry-run") {
		return verdict{ReadOnly, "git clean -n only lists files"}
	}
	return verdict{Destructive, "git clean deletes untracked files"}
}

// isPathLike reports whether a checkout operand looks like a path rather than a branch.
func isPathLike(a arg) bool {
	v := a.val
	return v == "." || v == ".." || strings.HasPrefix(v, "./") || strings.HasPrefix(v, "../") ||
		strings.HasPrefix(v, "/") || strings.HasPrefix(v, ":") || strings.ContainsAny(v, "*?[")
}

// checkoutForce are git checkout options that overwrite local changes.
var checkoutForce = []string{"-f", "--force", "-B", "--ours", "--theirs", "-p", "--patch", "--pathspec-from-file"}

// gitCheckout switches branches (Mutating) or, with paths, discards their changes (Destructive).
func gitCheckout(x *call, args []arg) verdict {
	paths := false
	for _, a := range args {
		if a.lit && a.val == "--" {
			paths = true
		}
	}
	opts, operands := gitFlags(args, "bBU", "orphan", "conflict", "pathspec-from-file")
	switch {
	case has(opts, checkoutForce...):
		return verdict{Destructive, "git checkout " + firstOf(opts, checkoutForce...) + " discards local changes"}
	case paths && len(operands) > 0:
		return verdict{Destructive, "git checkout -- <paths> discards changes to files"}
	case len(operands) > 1 && !has(opts, "-b", "--orphan"):
		return verdict{Destructive, "git checkout <commit> <paths> overwrites files"}
	}
	for _, a := range operands {
		if isPathLike(a) {
			return verdict{Destructive, "git checkout " + a.val + " discards changes to files"}
		}
	}
	if has(opts, "-b", "--orphan") {
		return verdict{Mutating, "git checkout -b creates a branch"}
	}
	return verdict{Mutating, "git checkout switches branches"}
}

// gitRestore discards working-tree changes, unless it only unstages (--staged without --worktree).
func gitRestore(x *call, args []arg) verdict {
	opts, _ := gitFlags(args, "s", "source", "pathspec-from-file")
	if has(opts, "-S", "--staged") && !has(opts, "-W", "--worktree") {
		return verdict{Mutating, "git restore --staged unstages changes"}
	}
	return verdict{Destructive, "git restore discards changes to files"}
}

// gitSwitch switches branches; forcing discards local changes or resets a branch.
func gitSwitch(x *call, args []arg) verdict {
	opts, _ := gitFlags(args, "cC", "create", "force-create", "orphan", "conflict")
	if has(opts, "-f", "--force", "--discard-changes", "-C", "--force-create") {
		return verdict{Destructive, "git switch with force discards local changes"}
	}
	return verdict{Mutating, "git switch switches branches"}
}

// gitReset moves HEAD (Mutating); --hard discards changes.
func gitReset(x *call, args []arg) verdict {
	opts, _ := gitFlags(args, "", "pathspec-from-file")
	if has(opts, "--hard") {
		return verdict{Destructive, "git reset --hard discards changes"}
	}
	return verdict{Mutating, "git reset moves HEAD or unstages"}
}

// gitBranch lists branches; creating, renaming or deleting merged ones is Mutating; forced
// deletion (-D) or forced moves are Destructive.
func gitBranch(x *call, args []arg) verdict {
	opts, operands := gitFlags(args, "utf", "set-upstream-to", "contains", "no-contains", "merged",
		"no-merged", "points-at", "sort", "format", "color", "column")
	del := has(opts, "-d", "--delete")
	force := has(opts, "-f", "--force")
	switch {
	case has(opts, "-D") || (del && force):
		return verdict{Destructive, "git branch -D deletes unmerged branches"}
	case has(opts, "-M", "-C") || (force && len(operands) > 0):
		return verdict{Destructive, "git branch with force overwrites a branch"}
	case del || has(opts, "-m", "-c", "--move", "--copy", "-u", "--set-upstream-to", "--unset-upstream", "--edit-description", "--track", "--no-track"):
		return verdict{Mutating, "git branch changes branches"}
	case len(operands) > 0 && !has(opts, "-l", "--list", "-a", "--all", "-r", "--remotes"):
		return verdict{Mutating, "git branch creates a branch"}
	}
	return verdict{ReadOnly, "git branch lists branches"}
}

// gitStash: list/show read, drop/clear delete stashes, everything else changes the tree.
func gitStash(x *call, args []arg) verdict {
	_, operands := gitFlags(args, "m", "message", "pathspec-from-file")
	if len(operands) == 0 || !operands[0].lit {
		return verdict{Mutating, "git stash saves and reverts changes"}
	}
	switch operands[0].val {
	case "list", "show":
		return verdict{ReadOnly, "git stash " + operands[0].val + " only reads"}
	case "drop", "clear":
		return verdict{Destructive, "git stash " + operands[0].val + " deletes stashed changes"}
	}
	return verdict{Mutating, "git stash " + operands[0].val + " changes the working tree"}
}

// gitTag lists tags, or creates, moves and deletes them (Mutating).
func gitTag(x *call, args []arg) verdict {
	opts, operands := gitFlags(args, "mFnu", "message", "file", "contains", "no-contains", "points-at",
		"merged", "no-merged", "sort", "format", "color", "column", "local-user", "cleanup")
	switch {
	case has(opts, "-d", "--delete", "-f", "--force", "-a", "--annotate", "-s", "--sign", "-m", "--message", "-F", "--file"):
		return verdict{Mutating, "git tag changes tags"}
	case has(opts, "-l", "--list", "-v", "--verify") || len(operands) == 0:
		return verdict{ReadOnly, "git tag lists tags"}
	}
	return verdict{Mutating, "git tag creates a tag"}
}

// gitRemote lists remotes; show, update and prune contact them; add, remove and set-url change them.
func gitRemote(x *call, args []arg) verdict {
	_, operands := gitFlags(args, "tm")
	if len(operands) == 0 || !operands[0].lit {
		return verdict{ReadOnly, "git remote lists remotes"}
	}
	switch operands[0].val {
	case "get-url":
		return verdict{ReadOnly, "git remote get-url only reads"}
	case "show", "update", "prune":
		return verdict{Network, "git remote " + operands[0].val + " contacts a remote"}
	}
	return verdict{Mutating, "git remote " + operands[0].val + " changes remotes"}
}

// gitConfig reads settings (--get, --list, a single key) or writes them.
func gitConfig(x *call, args []arg) verdict {
	opts, operands := gitFlags(args, "f", "file", "blob", "type", "default")
	v := gitConfigRead(opts, operands)
	if v.Class > ReadOnly { // a setting that makes git run a command is as risky as running it
		for i, a := range operands {
			if a.lit && gitExecKey(strings.ToLower(a.val)) {
				if i+1 < len(operands) {
					if !operands[i+1].lit {
						return verdict{Destructive, "git config sets " + a.val + " to a computed command (dynamic code)"}
					}
					v.raise(gitExecValue(x, "git config "+a.val, operands[i+1].val))
				}
				break
			}
		}
	}
	return v
}

// gitExecValue classifies the command line a git setting runs (an alias starting with "!" is a
// shell command; other aliases are git subcommands, classified as unknown commands).
func gitExecValue(x *call, what, value string) verdict {
	v := x.script(strings.TrimPrefix(value, "!"), x.self)
	if v.Class > ReadOnly {
		v.Reason = what + " runs: " + v.Reason
	}
	return v
}

// gitExecKey reports whether a config key (lower case) makes git run its value as a command.
func gitExecKey(key string) bool {
	for _, k := range gitExecConfig {
		if strings.Contains(key, k) {
			return true
		}
	}
	return false
}

// gitConfigRead tells reading settings from writing them.
func gitConfigRead(opts []opt, operands []arg) verdict {
	if len(operands) > 0 && operands[0].lit {
		switch operands[0].val {
		case "get", "list":
			return verdict{ReadOnly, "git config " + operands[0].val + " only reads"}
		case "set", "unset", "rename-section", "remove-section", "edit":
			return verdict{Mutating, "git config " + operands[0].val + " changes settings"}
		}
	}
	for _, o := range opts {
		switch {
		case strings.HasPrefix(o.name, "--get"), o.name == "--list", o.name == "-l":
			return verdict{ReadOnly, "git config " + o.name + " only reads"}
		case strings.HasPrefix(o.name, "--unset"), o.name == "--add", o.name == "--replace-all",
			o.name == "--rename-section", o.name == "--remove-section", o.name == "-e", o.name == "--edit":
			return verdict{Mutating, "git config " + o.name + " changes settings"}
		}
	}
	if len(operands) <= 1 {
		return verdict{ReadOnly, "git config reads a setting"}
	}
	return verdict{Mutating, "git config sets a setting"}
}

// gitRebase rewrites history; --abort, --continue and --quit only finish one in progress.
func gitRebase(x *call, args []arg) verdict {
	opts, _ := gitFlags(args, "xsX", "exec", "strategy", "strategy-option", "onto")
	if has(opts, "--abort", "--continue", "--quit", "--edit-todo", "--show-current-patch") {
		return verdict{Mutating, "git rebase " + firstOf(opts, "--abort", "--continue", "--quit", "--edit-todo", "--show-current-patch") + " finishes a rebase"}
	}
	return verdict{Destructive, "git rebase rewrites history"}
}

// gitGC packs objects (Mutating); --prune deletes unreachable ones.
func gitGC(x *call, args []arg) verdict {
	opts, _ := gitFlags(args, "")
	if has(opts, "--prune") {
		return verdict{Destructive, "git gc --prune deletes unreachable objects"}
	}
	return verdict{Mutating, "git gc repacks the repository"}
}

// gitReflog reads the reflog; expire and delete discard entries.
func gitReflog(x *call, args []arg) verdict {
	if len(args) > 0 && args[0].lit && (args[0].val == "expire" || args[0].val == "delete") {
		return verdict{Destructive, "git reflog " + args[0].val + " discards recovery points"}
	}
	return verdict{ReadOnly, "git reflog only reads"}
}

// forceIs makes a rule that is Mutating, or Destructive with -f/--force. dryRun lists short
// options that make it read-only (git rm -n).
func forceIs(sub, forced, normal, dryRun string) func(*call, []arg) verdict {
	return func(x *call, args []arg) verdict {
		opts, _ := gitFlags(args, "", "pathspec-from-file")
		for _, ch := range dryRun {
			if has(opts, "-"+string(ch)) {
				return verdict{ReadOnly, "git " + sub + " -" + string(ch) + " is a dry run"}
			}
		}
		if has(opts, "-f", "--force") {
			return verdict{Destructive, forced}
		}
		return verdict{Mutating, normal}
	}
}

// gitWorktree: list reads; remove --force discards a worktree's changes.
func gitWorktree(x *call, args []arg) verdict {
	opts, operands := gitFlags(args, "bB", "reason")
	if len(operands) == 0 || !operands[0].lit {
		return verdict{Mutating, "git worktree changes worktrees"}
	}
	switch operands[0].val {
	case "list":
		return verdict{ReadOnly, "git worktree list only reads"}
	case "remove":
		if has(opts, "-f", "--force") {
			return verdict{Destructive, "git worktree remove --force discards changes"}
		}
	}
	return verdict{Mutating, "git worktree " + operands[0].val + " changes worktrees"}
}

// gitSubmodule: update/add fetch; foreach runs a shell command, which is classified.
func gitSubmodule(x *call, args []arg) verdict {
	i := 0
	for i < len(args) && args[i].lit && strings.HasPrefix(args[i].val, "-") {
		i++
	}
	if i == len(args) || !args[i].lit {
		return verdict{ReadOnly, "git submodule lists submodules"}
	}
	sub, rest := args[i].val, args[i+1:]
	switch sub {
	case "update", "add":
		return verdict{Network, "git submodule " + sub + " fetches submodules"}
	case "status", "summary":
		return verdict{ReadOnly, "git submodule " + sub + " only reads"}
	case "foreach":
		for len(rest) > 0 && rest[0].lit && strings.HasPrefix(rest[0].val, "--") {
			rest = rest[1:]
		}
		v := verdict{Mutating, "git submodule foreach runs a command in each submodule"}
		if len(rest) > 0 {
			v.raise(joinedScript(x, "git submodule foreach", rest))
		}
		return v
	case "deinit":
		opts, _ := gitFlags(rest, "")
		if has(opts, "-f", "--force", "--all") {
			return verdict{Destructive, "git submodule deinit --force discards submodule changes"}
		}
	}
	return verdict{Mutating, "git submodule " + sub + " changes submodules"}
}

// gitBisect: "bisect run CMD" runs CMD, which is classified.
func gitBisect(x *call, args []arg) verdict {
	v := verdict{Mutating, "git bisect checks out commits"}
	if len(args) > 1 && args[0].lit && args[0].val == "run" {
		v.raise(x.inner(args[1:]))
	}
	return v
}

// gitLFS: pull, fetch, push and clone transfer objects.
func gitLFS(x *call, args []arg) verdict {
	if len(args) > 0 && args[0].lit {
		switch args[0].val {
		case "pull", "fetch", "push", "clone":
			return verdict{Network, "git lfs " + args[0].val + " transfers objects"}
		case "ls-files", "status", "env", "version", "logs":
			return verdict{ReadOnly, "git lfs " + args[0].val + " only reads"}
		}
	}
	return verdict{Mutating, "git lfs changes the repository"}
}

// gitArchive prints an archive; --remote fetches one, -o writes a file.
func gitArchive(x *call, args []arg) verdict {
	opts, _ := gitFlags(args, "o", "output", "remote", "format", "prefix", "exec")
	switch {
	case has(opts, "--remote"):
		return verdict{Network, "git archive --remote fetches from a remote"}
	case has(opts, "-o", "--output"):
		return verdict{Mutating, "git archive -o writes a file"}
	}
	return verdict{ReadOnly, "git archive writes to standard output"}
}

// firstOf is the first of names among opts, for reasons.
func firstOf(opts []opt, names ...string) string {
	for _, o := range opts {
		for _, n := range names {
			if o.name == n {
				return n
			}
		}
	}
	return ""
}
