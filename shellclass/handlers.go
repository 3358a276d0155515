package shellclass

import (
	"path"
	"strings"
)

// systemDirs hold installed programs: /bin/rm is rm, while ./rm or /tmp/x/ls is a local program
// that may do anything.
var systemDirs = map[string]bool{
	"/bin": true, "/usr/bin": true, "/usr/local/bin": true, "/sbin": true, "/usr/sbin": true,
	"/usr/local/sbin": true, "/opt/homebrew/bin": true,
}

// decide classifies the command x names.
func (c *classifier) decide(x *call, direct bool) verdict {
	if !x.self.lit {
		return verdict{Destructive, "dynamic command name " + x.self.val}
	}
	name := x.self.val
	local := strings.Contains(name, "/")
	v, known := lookup(x)
	if cls, ok := x.ctx.funcs[name]; ok && direct && !local && !known {
		// Only for names no rule knows: a function must not make "rm() { :; }; rm -rf /"
		// look harmless should the definition not take effect (unset -f, a subshell).
		return verdict{cls, "calls function " + name + " defined in this line"}
	}
	if local && !systemDirs[path.Dir(path.Clean(name))] && v.Class < Mutating {
		v = verdict{Mutating, "runs local program " + name}
	}
	return readsSecret(x, v)
}

// lookup applies the rule tables to x, most specific first. A command in no table is Mutating,
// and known is false.
func lookup(x *call) (v verdict, known bool) {
	key := strings.ToLower(x.name) // a case-insensitive file system runs /bin/RM as rm
	if w := wrappers[key]; w != nil {
		return unwrap(x, w), true
	}
	if h := handlers[key]; h != nil {
		return h(x), true
	}
	if t := tools[key]; t != nil {
		v := t.classify(x.name, x.args)
		if t.programs != nil {
			v.raise(t.programs(x))
		}
		return v, true
	}
	if r, ok := commandRules[key]; ok {
		return r.verdict(x.name), true
	}
	if readOnly[key] {
		return verdict{ReadOnly, "read-only command"}, true
	}
	for _, p := range prefixHandlers {
		if strings.HasPrefix(key, p.prefix) {
			return p.handle(x), true
		}
	}
	return verdict{Mutating, "unknown command " + x.name + " may change files"}, false
}

var readOnly map[string]bool

// shellNames are the shells, whose -c string is parsed as a script.
var shellNames = map[string]bool{"bash": true, "sh": true, "zsh": true, "dash": true, "ksh": true, "mksh": true, "ash": true, "fish": true}

// handlers classify commands whose class depends on their arguments. Filled by loadTables,
// which also breaks the initialization cycle handlers -> argv -> handlers.
var handlers map[string]func(*call) verdict

// prefixHandlers match command names by prefix: mkfs.ext4, python3.12, pip3.12.
var prefixHandlers []struct {
	prefix string
	handle func(*call) verdict
}

// buildHandlers fills readOnly, handlers and prefixHandlers (see loadTables).
func buildHandlers() {
	readOnly = map[string]bool{}
	for _, n := range readOnlyCommands {
		readOnly[n] = true
	}
	handlers = map[string]func(*call) verdict{
		"git":           gitCmd,
		"find":          findCmd,
		"fd":            fdCmd,
		"fdfind":        fdCmd,
		"sed":           sedCmd,
		"gsed":          sedCmd,
		"perl":          perlCmd,
		"ln":            lnCmd,
		"crontab":       crontabCmd,
		"tee":           teeCmd,
		"rsync":         rsyncCmd,
		"ssh":           sshCmd,
		"eval":          evalCmd,
		"trap":          trapCmd,
		"su":            suCmd,
		"sort":          outputOption("sort", "ktoST", "key", "field-separator", "output", "buffer-size", "temporary-directory", "parallel", "files0-from", "random-source"),
		"shuf":          outputOption("shuf", "inoe", "input-range", "head-count", "output", "random-source"),
		"uniq":          uniqCmd,
		"xxd":           xxdCmd,
		"yq":            yqCmd,
		"tar":           tarCmd,
		"unzip":         unzipCmd,
		"journalctl":    journalctlCmd,
		"dpkg":          dpkgCmd,
		"python":        pythonCmd,
		"node":          nodeCmd,
		"nodejs":        nodeCmd,
		"source":        sourceCmd,
		".":             sourceCmd,
		"scp":           scpCmd,
		"rg":            rgCmd,
		"sdiff":         sdiffCmd,
		"parallel":      parallelCmd,
		"flock":         flockCmd,
		"at":            atCmd,
		"batch":         atCmd,
		"tmux":          tmuxCmd,
		"script":        scriptCmd,
		"hash":          hashCmd,
		"gofmt":         readOnlyUnless("gofmt", "-w"),
		"goimports":     readOnlyUnless("goimports", "-w"),
		"prettier":      projectCode("prettier", "loads the project's configuration and plugins, which are code"),
		"eslint":        projectCode("eslint", "loads the project's configuration and plugins, which are code"),
		"pytest":        projectCode("pytest", "runs the project's tests and conftest.py, and writes caches"),
		"py.test":       projectCode("py.test", "runs the project's tests and conftest.py, and writes caches"),
		"mypy":          projectCode("mypy", "loads plugins named in the project's configuration, and writes .mypy_cache"),
		"iconv":         outputOption("iconv", "fto", "from-code", "to-code", "output"),
		"tree":          outputOption("tree", "LPIoHT", "charset", "filelimit", "timefmt", "sort", "output"),
		"less":          lessCmd,
		"zless":         lessCmd,
		"man":           manCmd,
		"mapfile":       mapfileCmd,
		"readarray":     mapfileCmd,
		"printf":        printfCmd,
		"read":          readCmd,
		"history":       historyCmd,
		"hostname":      hostnameCmd,
		"date":          dateCmd,
		"golangci-lint": readOnlyUnless("golangci-lint", "--fix"),
		"make":          makeCmd,
		"gmake":         makeCmd,
	}
	for _, n := range []string{"awk", "gawk", "mawk", "nawk", "busybox-awk"} {
		handlers[n] = awkCmd
	}
	for n := range shellNames {
		handlers[n] = shellCmd
	}
	for _, n := range []string{"ruby", "php", "lua", "luajit", "deno", "java", "rscript", "julia", "tclsh", "pypy", "pypy3", "osascript"} {
		handlers[n] = interpreterCmd
	}
	for _, n := range []string{"gzip", "gunzip", "bzip2", "bunzip2", "xz", "unxz", "zstd", "unzstd", "lz4", "compress", "uncompress"} {
		handlers[n] = compressCmd
	}
	for _, n := range []string{"aws", "gcloud", "az", "gh", "doctl"} {
		handlers[n] = cloudCmd
	}
	prefixHandlers = []struct {
		prefix string
		handle func(*call) verdict
	}{
		{"mkfs", func(x *call) verdict { return verdict{Destructive, x.name + " formats a device"} }},
		{"python", pythonCmd},
		{"pip", func(x *call) verdict { return tools["pip"].classify(x.name, x.args) }},
	}
}

// stdinPaths name a program's standard input as a file.
var stdinPaths = map[string]bool{"-": true, "/dev/stdin": true, "/dev/fd/0": true, "/proc/self/fd/0": true}

// makeCmd: make runs the project's build rules (Mutating, like a local program), unless its
// arguments bring rules or a shell of their own, which run anything: makefile text (--eval,
// -E), a makefile from standard input (-f -), a SHELL other than a system shell, .SHELLFLAGS,
// or a variable whose value runs a command ($(shell ...)).
func makeCmd(x *call) verdict {
	v := verdict{Mutating, x.name + " runs build rules"}
	dynamic := func(why string) { v.raise(verdict{Destructive, x.name + " " + why + " (dynamic code)"}) }
	for i, a := range x.args {
		if !a.lit {
			continue
		}
		next := func() string {
			if i+1 < len(x.args) {
				return x.args[i+1].val
			}
			return ""
		}
		name, value, assign := strings.Cut(a.val, "=")
		switch {
		case a.val == "-E", a.val == "--eval", strings.HasPrefix(a.val, "--eval="), strings.HasPrefix(a.val, "-E") && !assign:
			dynamic("--eval runs makefile text from its arguments")
		case a.val == "-f" || a.val == "--file" || a.val == "--makefile":
			if stdinPaths[next()] {
				dynamic("reads a makefile from standard input")
			}
		case assign && (name == "--file" || name == "--makefile"), strings.HasPrefix(a.val, "-f") && !assign:
			if stdinPaths[value] || stdinPaths[strings.TrimPrefix(a.val, "-f")] {
				dynamic("reads a makefile from standard input")
			}
		case assign && name == "SHELL":
			if !shellNames[path.Base(value)] || strings.Contains(value, "/") && !systemDirs[path.Dir(value)] {
				dynamic("SHELL=" + value + " runs the recipes with another program")
			}
		case assign && (name == ".SHELLFLAGS" || name == "MAKESHELL"):
			dynamic(name + " changes how recipes run")
		case assign && (strings.Contains(value, "$(shell") || strings.Contains(value, "${shell") || strings.Contains(value, "`")):
			dynamic("variable " + name + " runs a command")
		}
	}
	return v
}

// goProgramFlags are go's build flags whose value is a program go runs, with its arguments.
var goProgramFlags = map[string]bool{"exec": true, "toolexec": true, "vettool": true}

// goPrograms classifies the command a go build flag names (go test -exec 'rm -rf src' runs
// rm -rf src with the test binary), split into words as go splits it, so that it is listed
// like find -exec's command; go's subcommands are the "go" tool's table.
func goPrograms(x *call) verdict {
	v := verdict{ReadOnly, "read-only command"}
	for i, a := range x.args {
		if !a.lit || !strings.HasPrefix(a.val, "-") {
			continue
		}
		flag, value, attached := strings.Cut(strings.TrimLeft(a.val, "-"), "=")
		if !goProgramFlags[flag] {
			continue
		}
		at := a
		if !attached {
			if i+1 == len(x.args) {
				continue
			}
			at = x.args[i+1]
			value = at.val
		}
		if !at.lit {
			v.raise(verdict{Destructive, "go -" + flag + " runs a computed command " + value})
			continue
		}
		var words []arg
		for _, w := range strings.Fields(value) {
			words = append(words, arg{val: w, lit: true, key: at.key})
		}
		if len(words) > 0 {
			v.raise(x.inner(words))
		}
	}
	return v
}

// findCmd: find only lists, unless it deletes (-delete), writes (-fprint) or runs a command
// (-exec, -execdir, -ok, -okdir), which is classified in turn.
func findCmd(x *call) verdict {
	v := verdict{ReadOnly, "find only lists files"}
	args := x.args
	for i := 0; i < len(args); i++ {
		if !args[i].lit {
			continue
		}
		switch a := args[i].val; a {
		case "-delete":
			v.raise(verdict{Destructive, "find -delete deletes files"})
		case "-exec", "-execdir", "-ok", "-okdir":
			j := i + 1
			for j < len(args) && !(args[j].lit && (args[j].val == ";" || args[j].val == "+")) {
				j++
			}
			inner := x.inner(args[i+1 : j])
			if inner.Class == ReadOnly {
				// find ~/.ssh -exec cat {} +: the command reads the files found.
				if f, ok := secretOperand(findStarts(args)); ok {
					inner = verdict{Mutating, "find " + a + " reads files under secret path " + f}
				}
			}
			v.raise(inner)
			i = j
		case "-fprint", "-fprint0", "-fprintf", "-fls":
			v.raise(verdict{Mutating, "find " + a + " writes a file"})
		}
	}
	return v
}

// findStarts are find's starting points: the operands before the first expression.
func findStarts(args []arg) []arg {
	for i, a := range args {
		if a.lit && (strings.HasPrefix(a.val, "-") || a.val == "(" || a.val == "!") {
			return args[:i]
		}
	}
	return args
}

// fdCmd: fd only lists, unless it runs a command (-x, -X).
func fdCmd(x *call) verdict {
	v := verdict{ReadOnly, "fd only lists files"}
	for i, a := range x.args {
		if a.lit && (a.val == "-x" || a.val == "--exec" || a.val == "-X" || a.val == "--exec-batch") {
			j := i + 1
			for j < len(x.args) && !(x.args[j].lit && x.args[j].val == ";") {
				j++
			}
			v.raise(x.inner(x.args[i+1 : j]))
			break
		}
	}
	return v
}

// awkCmd: awk only reads, unless its program can write files or run commands: a program file,
// or program text with system(, > or | (print > "f", "cmd" | getline).
func awkCmd(x *call) verdict {
	opts, rest := optSpec{value: "FvfeEil", long: longs("field-separator", "assign", "file", "source", "exec", "include", "load")}.leading(x.args)
	if has(opts, "-f", "--file", "-E", "--exec", "-i", "--include", "-l", "--load") {
		return verdict{Mutating, x.name + " runs a program file"}
	}
	if has(opts, "-p", "--profile", "-o", "--pretty-print", "-d", "--dump-variables") {
		return verdict{Mutating, x.name + " writes its profile, program or variables to a file"}
	}
	var programs []string
	for _, o := range opts {
		if o.name == "-e" || o.name == "--source" {
			programs = append(programs, o.value)
		}
	}
	if len(programs) == 0 {
		if len(rest) == 0 {
			return verdict{ReadOnly, x.name + " without a program does nothing"}
		}
		if !rest[0].lit {
			return verdict{Mutating, x.name + " program is computed"}
		}
		programs = append(programs, rest[0].val)
	}
	for _, p := range programs {
		if strings.Contains(p, "system") || strings.ContainsAny(p, ">|") {
			return verdict{Mutating, x.name + " program can write files or run commands"}
		}
	}
	return verdict{ReadOnly, x.name + " only reads"}
}

// lnCmd: ln creates links (Mutating); with -f it replaces existing files (Destructive).
func lnCmd(x *call) verdict {
	opts, _ := optSpec{value: "St", long: longs("suffix", "target-directory")}.scan(x.args)
	if has(opts, "-f", "--force") {
		return verdict{Destructive, "ln -f replaces existing files"}
	}
	return verdict{Mutating, "ln creates links"}
}

// crontabCmd: -l lists, -r deletes, anything else installs a crontab.
func crontabCmd(x *call) verdict {
	opts, _ := optSpec{value: "u"}.scan(x.args)
	switch {
	case has(opts, "-r"):
		return verdict{Destructive, "crontab -r deletes the crontab"}
	case has(opts, "-l"):
		return verdict{ReadOnly, "crontab -l lists the crontab"}
	}
	return verdict{Mutating, "crontab installs a crontab"}
}

// writeTarget classifies writing to file: devices are Destructive, /dev/null harmless.
func writeTarget(who, verb string, f arg) verdict {
	if !f.lit {
		return verdict{Mutating, who + " " + verb + " a computed path " + f.val}
	}
	clean := path.Clean(f.val)
	switch {
	case harmlessTargets[clean] || strings.HasPrefix(clean, "/dev/fd/"):
		return verdict{ReadOnly, "read-only command"}
	case strings.HasPrefix(clean, "/dev/"):
		return verdict{Destructive, who + " writes to device " + f.val}
	}
	return verdict{Mutating, who + " " + verb + " " + f.val}
}

// teeCmd: tee writes (or with -a appends to) each file it is given.
func teeCmd(x *call) verdict {
	opts, files := optSpec{}.scan(x.args)
	who, verb := "tee", "writes"
	if has(opts, "-a", "--append") {
		who, verb = "tee -a", "appends to"
	}
	v := verdict{ReadOnly, "tee without files only copies its input"}
	for _, f := range files {
		if f.lit && f.val == "-" {
			continue
		}
		v.raise(writeTarget(who, verb, f))
	}
	return v
}

// rgCmd: rg only reads, unless --pre runs a preprocessor program.
func rgCmd(x *call) verdict {
	opts, _ := optSpec{value: "ABCefgjmMtTE", long: longs("pre", "pre-glob", "type", "type-not", "glob", "iglob",
		"regexp", "file", "max-count", "max-depth", "context", "after-context", "before-context", "replace",
		"threads", "encoding", "engine", "sort", "sortr", "type-add", "color", "colors", "path-separator")}.scan(x.args)
	if pre, ok := optValue(opts, "--pre"); ok && pre != "" {
		v := verdict{ReadOnly, "read-only command"}
		v.raise(x.inner([]arg{{val: pre, lit: true, key: x.self.key}}))
		return v
	}
	return verdict{ReadOnly, "read-only command"}
}

// sdiffCmd: sdiff compares files; --diff-program=PROG runs PROG to do it.
func sdiffCmd(x *call) verdict {
	opts, _ := optSpec{value: "oIw", long: longs("output", "ignore-matching-lines", "width", "diff-program", "tabsize")}.scan(x.args)
	if f, ok := optValue(opts, "-o", "--output"); ok {
		return writeTarget("sdiff -o", "writes", arg{val: f, lit: true})
	}
	v := verdict{ReadOnly, "read-only command"}
	if prog, ok := optValue(opts, "--diff-program"); ok && prog != "" {
		v.raise(x.inner([]arg{{val: prog, lit: true, key: x.self.key}}))
	}
	return v
}

// hashCmd: hash lists or forgets remembered command paths; hash -p PATH NAME makes NAME run PATH.
func hashCmd(x *call) verdict {
	opts, _ := optSpec{value: "p"}.leading(x.args)
	if p, ok := optValue(opts, "-p"); ok {
		return verdict{Mutating, "hash -p makes a command name run " + p}
	}
	return verdict{ReadOnly, "hash only lists or forgets command paths"}
}

// outputOption makes a handler for a read-only command whose -o/--output writes a file.
func outputOption(name, valueOpts string, long ...string) func(*call) verdict {
	spec := optSpec{value: valueOpts, long: longs(long...)}
	return func(x *call) verdict {
		opts, _ := spec.scan(x.args)
		if f, ok := optValue(opts, "-o", "--output"); ok {
			return writeTarget(name+" -o", "writes", arg{val: f, lit: true})
		}
		if has(opts, "--compress-program") {
			return verdict{Mutating, name + " --compress-program runs another program"}
		}
		return verdict{ReadOnly, "read-only command"}
	}
}

// readOnlyUnless makes a handler for a checker or formatter that only reports, unless one of
// flags makes it rewrite files (gofmt -w, eslint --fix).
func readOnlyUnless(name string, flags ...string) func(*call) verdict {
	return func(x *call) verdict {
		for _, a := range x.args {
			for _, f := range flags {
				if a.lit && (a.val == f || strings.HasPrefix(a.val, f+"=")) {
					return verdict{Mutating, name + " " + f + " rewrites files"}
				}
			}
		}
		return verdict{ReadOnly, name + " only reports"}
	}
}

// uniqCmd: uniq IN OUT writes OUT.
func uniqCmd(x *call) verdict {
	_, operands := optSpec{value: "fsw", long: longs("skip-fields", "skip-chars", "check-chars")}.scan(x.args)
	if len(operands) > 1 {
		return writeTarget("uniq", "writes", operands[1])
	}
	return verdict{ReadOnly, "read-only command"}
}

// xxdCmd: xxd IN OUT writes OUT.
func xxdCmd(x *call) verdict {
	_, operands := optSpec{value: "cglsoCn"}.scan(x.args)
	if len(operands) > 1 {
		return writeTarget("xxd", "writes", operands[1])
	}
	return verdict{ReadOnly, "read-only command"}
}

// yqCmd: yq -i edits files in place.
func yqCmd(x *call) verdict {
	for _, a := range x.args {
		if a.lit && (a.val == "-i" || a.val == "--inplace" || strings.HasPrefix(a.val, "--inplace=")) {
			return verdict{Mutating, "yq -i edits files in place"}
		}
	}
	return verdict{ReadOnly, "read-only command"}
}

// tarCmd: tar -t lists an archive; creating, extracting or updating writes files. Options that
// run commands (--to-command, --checkpoint-action=exec=, -I PROGRAM) are classified in turn.
func tarCmd(x *call) verdict {
	list, write := false, false
	var runs verdict
	for i, a := range x.args {
		if !a.lit {
			continue
		}
		name, value, _ := strings.Cut(a.val, "=")
		switch name {
		case "--to-command", "--info-script", "--new-volume-script", "--rsh-command":
			runs.raise(x.script(value, a))
			continue
		case "--checkpoint-action":
			if cmd, ok := strings.CutPrefix(value, "exec="); ok {
				runs.raise(x.script(cmd, a))
			}
			continue
		case "--use-compress-program":
			runs.raise(x.script(value, a))
			continue
		case "-I":
			if i+1 < len(x.args) {
				runs.raise(joinedScript(x, "tar -I", x.args[i+1:i+2]))
			}
			continue
		}
		switch {
		case a.val == "--list":
			list = true
		case strings.HasPrefix(a.val, "--"):
			switch strings.SplitN(a.val, "=", 2)[0] {
			case "--extract", "--get", "--create", "--append", "--update", "--delete", "--concatenate", "--catenate":
				write = true
			}
		case strings.HasPrefix(a.val, "-") || i == 0: // -tzf, or old style: tar tzf
			for _, ch := range strings.TrimPrefix(a.val, "-") {
				switch ch {
				case 't':
					list = true
				case 'x', 'c', 'r', 'u', 'A':
					write = true
				}
			}
		}
	}
	v := verdict{Mutating, "tar writes or extracts files"}
	if list && !write {
		v = verdict{ReadOnly, "tar -t only lists an archive"}
	}
	v.raise(runs)
	return v
}

// unzipCmd: unzip -l/-v/-t/-Z only reads; extracting writes files.
func unzipCmd(x *call) verdict {
	opts, _ := optSpec{value: "dxP"}.scan(x.args)
	if has(opts, "-l", "-v", "-t", "-Z", "-z") {
		return verdict{ReadOnly, "unzip only lists an archive"}
	}
	return verdict{Mutating, "unzip extracts files"}
}

// compressCmd: gzip and friends replace files, unless writing to stdout, listing or testing.
func compressCmd(x *call) verdict {
	opts, _ := optSpec{value: "oSbM", long: longs("suffix", "output")}.scan(x.args)
	if !has(opts, "-o", "--output") && has(opts, "-c", "--stdout", "--to-stdout", "-l", "--list", "-t", "--test", "-h", "--help", "-V", "--version") {
		return verdict{ReadOnly, x.name + " only writes to standard output"}
	}
	return verdict{Mutating, x.name + " replaces or writes files"}
}

// journalctlCmd reads logs; --vacuum-* deletes them.
func journalctlCmd(x *call) verdict {
	opts, _ := optSpec{}.scan(x.args)
	for _, o := range opts {
		switch {
		case strings.HasPrefix(o.name, "--vacuum"):
			return verdict{Destructive, "journalctl " + o.name + " deletes logs"}
		case o.name == "--rotate" || o.name == "--flush" || o.name == "--sync" || o.name == "--setup-keys":
			return verdict{Mutating, "journalctl " + o.name + " changes logs"}
		}
	}
	return verdict{ReadOnly, "journalctl reads logs"}
}

// dpkgCmd: dpkg -l/-L/-s lists, -i installs, -r/-P removes.
func dpkgCmd(x *call) verdict {
	opts, _ := optSpec{}.scan(x.args)
	switch {
	case has(opts, "-r", "-P", "--remove", "--purge"):
		return verdict{Destructive, "dpkg removes packages"}
	case has(opts, "-l", "-L", "-s", "-S", "-p", "-c", "-I", "--list", "--listfiles", "--status", "--search",
		"--print-avail", "--contents", "--info", "--get-selections", "--version", "--help"):
		return verdict{ReadOnly, "dpkg only reads"}
	}
	return verdict{Mutating, "dpkg changes installed packages"}
}
