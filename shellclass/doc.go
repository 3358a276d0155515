// Package shellclass classifies a shell command line, as an LLM agent would run it with
// "bash -c", so that an approval policy can decide whether to run it.
//
// The line is parsed with a real shell parser (mvdan.cc/sh/v3/syntax, bash dialect), never
// matched with regular expressions, so quoting works as in bash: r""m, \rm and "rm" are all rm,
// while echo rm and echo '$(rm -rf /)' only print. Every simple command is found, wherever it
// is: pipelines, && || ; lists, subshells, { } groups, $(...) and `...` (also inside double
// quotes, assignments, redirection targets and unquoted heredocs), <(...) and >(...),
// if/while/for/case bodies, function bodies, and the command a wrapper runs. Each gets a Class;
// the line's Class is the highest of them.
//
// # Classes
//
// ReadOnly < Mutating < Network < Destructive. Network outranks Mutating (a download also writes
// files); Destructive outranks Network (git push --force is Destructive).
//
// # Rules
//
// The rules are tables in rules.go (commandRules, readOnlyCommands, tools, codeVars), handlers.go
// with code.go and network.go (handlers: classes that depend on arguments), git.go (gitRules,
// gitArgRules) and wrappers.go (wrappers). In short:
//
//   - Destructive: rm, rmdir, unlink, shred, dd, mkfs*, truncate, chmod, chown, chgrp, mv (it
//     can overwrite its destination), ln -f, sudo/doas/su/pkexec (always), kill/pkill/killall,
//     reboot/shutdown/halt/poweroff, crontab -r, find -delete, rsync --delete; git reset --hard,
//     git clean (unless -n), git push --force/-f/--force-with-lease/--mirror/--delete/+refspec/
//     :refspec, git checkout -- paths / git checkout . / git checkout -f, git restore (unless only
//     --staged), git switch --discard-changes, git branch -D, git stash drop/clear, git rebase
//     (but not --abort/--continue), git filter-branch, git gc --prune, git reflog expire, git rm -f,
//     and git -c with a config that runs commands (alias.*, core.pager, core.sshCommand, ...);
//     docker rm/rmi/kill/system prune, kubectl delete, terraform destroy (and apply
//     -auto-approve), npm/yarn/pnpm/pip/cargo/gem/apt/brew uninstall or remove; writing to a device
//     (> /dev/sda); tmux send-keys/new-session/run-shell (commands typed into a shell). Also
//     everything that cannot be analysed: a dynamic command name ($CMD x, "$(which rm)" x),
//     dynamic code (eval "$X", bash -c "$X", source <(curl ...), bash <(curl ...), a shell or
//     interpreter reading its program from a pipe as in curl ... | sh, GIT_SSH_COMMAND="$X"),
//     unparsable input, input over 64 KiB, nesting over 64 levels; sed's e without a command and
//     s///e (they run the text being edited), mapfile -C, printf -v or read with a computed
//     callback, name or subscript; make with rules or a shell from its arguments (--eval, -f -,
//     SHELL other than a system shell, .SHELLFLAGS, a variable holding $(shell ...)).
//   - Network: curl, wget, ssh (a remote command is classified too), scp, sftp, rsync to host:path,
//     nc, telnet, ftp, ping, dig, nslookup, npx; git push (plain), fetch, pull, clone, ls-remote,
//     submodule update; package installs and fetches (npm install/ci/add/update/publish, yarn,
//     pnpm add/install, pip install, uv pip install, go get/install/mod download, cargo
//     install/add/fetch/publish, gem install, apt install/update, brew install, docker
//     pull/push/build); kubectl (a cluster) and cloud CLIs (aws, gcloud, az, gh; Destructive with
//     a delete-like verb); redirections to or from bash's /dev/tcp/HOST/PORT and /dev/udp.
//   - Mutating: touch, mkdir, cp, ln, install, patch, make, sed -i, sed scripts that write (w FILE,
//     s///w FILE) or run a command (e CMD, which is classified too) or cannot be read (-f FILE, a
//     computed script), perl, tee FILE (and tee -a),
//     awk whose program text holds system, > or |, sort/tree/iconv -o, less -o/+!CMD, man -C/-H,
//     history -w/-a, hostname NAME, date -s, mapfile -C, printf -v/read/mapfile into PATH or
//     LD_PRELOAD, git -c with a setting that runs a command (core.fsmonitor, ...; a pager is
//     only classified), go -toolexec/-exec/-vettool (the command named is classified and
//     listed too: go test -exec 'rm -rf x' is Destructive), tar (unless -t), unzip, gzip;
//     test runners and checkers that load the project's code, which the agent may have
//     written (go test, cargo test/check/clippy, pytest, python -m pytest/unittest/mypy, mypy,
//     eslint, prettier, bun test); a read-only command that names a secret file or reads its
//     input from one (cat .env, less id_rsa, git show HEAD:.env, cat < ~/.aws/credentials; see
//     SecretFiles);
//     git add/commit/merge/cherry-pick/apply/stash/tag/branch (create)/switch/checkout
//     <branch>/init/mv/rm (git rm is recoverable from history); go build/generate/fmt/mod tidy;
//     cargo build/run; npm run/test and other package scripts; alias; every output redirection to a
//     file (>, >|, &>, >>), but not to /dev/null nor fd duplication (2>&1), and heredocs are input;
//     setting LD_PRELOAD, BASH_ENV, NODE_OPTIONS, ... or a PATH that does not start with $PATH;
//     any unknown command, including local programs (./script.sh) and interpreters (python x.py,
//     node x.js, bash script.sh).
//   - ReadOnly: ls, cat, head, tail, less, wc, grep, rg, find and fd (without -delete, -exec of a
//     non-read-only command, -fprint), tree, pwd, echo, printf, test, stat, file, du, df, which,
//     type, command -v, env (without a command), date, whoami, id, uname, sort, uniq, cut, tr, awk
//     (see above), sed (see above), diff, cmp, jq, yq (without -i), xxd, od, basename, dirname,
//     realpath, readlink, sleep; shell builtins that change only the shell (cd, export, set,
//     read); git status/log/diff/show/blame/branch (list)/rev-parse/ls-files/grep/describe/remote
//     -v/config --get; go version/env/vet/list/doc, cargo metadata/tree; --version of
//     interpreters and test runners.
//
// # Wrappers
//
// env [-i] [VAR=val...] CMD, VAR=val CMD, nice, nohup, time, timeout N, stdbuf, ionice, setsid,
// command CMD (command -v is read-only), exec CMD, builtin, busybox, xargs CMD, watch CMD,
// sudo/doas/pkexec CMD (Destructive anyway), find -exec CMD, fd -x CMD, git bisect run CMD: the
// command run is classified recursively and listed after the wrapper, whose class is the higher
// of its own and the command's. bash/sh -c STRING, eval STRING, trap STRING, su -c STRING,
// ssh host CMD, watch CMD, env -S STRING, parallel CMD, flock -c STRING, tar --to-command,
// rsync -e, ssh -o ProxyCommand, git submodule foreach CMD, git -c alias.x='!CMD' and git config
// core.pager CMD are parsed as shell code when the string is literal, and are Destructive
// ("dynamic code") when it is not. So is the value of a variable that programs run as a command
// (GIT_SSH_COMMAND, EDITOR, PAGER, PROMPT_COMMAND, ...) when set on a command or exported. A
// shell reading a literal heredoc (bash <<'EOF') parses the heredoc. git's global options
// (-C dir, -c k=v, --git-dir) are skipped to find the subcommand.
//
// # Words
//
// Arguments are what the program will see after brace expansion ({a,b}) and quote removal
// (including $'...'). A word with a parameter, substitution, arithmetic or unquoted glob is
// not literal: it is kept as its source text, never matches an option, and as a command name
// makes the command Destructive. A command named by a path runs its base name (/bin/rm is rm);
// a path outside the system directories (./rm, ~/bin/ls) is at least Mutating. A call to a
// function defined earlier at the top level of the same script gets the class of the function's
// body, unless the name is a command the rules know: "rm() { :; }; rm -rf /" stays Destructive.
//
// Output order is source order; a command found inside a nested script (bash -c '...') sorts at
// the position of the string it came from.
package shellclass
