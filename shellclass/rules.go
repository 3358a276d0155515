package shellclass

import (
	"path"
	"strings"
)

// rule is the class of a command (or subcommand) and the phrase that explains it. In reasons,
// "{}" stands for the command as written: "npm install", "docker system prune".
type rule struct {
	Class  Class
	Reason string
}

func (r rule) verdict(what string) verdict {
	return verdict{r.Class, strings.ReplaceAll(r.Reason, "{}", what)}
}

// readOnlyCommands only read files or print. Commands whose options can make them write or run
// programs (sort -o, tree -o, iconv -o, tar, sed -i, awk, find, less +!, man -P, date -s,
// printf -v, ...) are handled in handlers.go instead; test runners and checkers that load the
// project's code (pytest, mypy, eslint, cargo check) are not read-only.
var readOnlyCommands = []string{
	// files and text
	"ls", "dir", "vdir", "cat", "tac", "nl", "head", "tail", "more", "most", "wc",
	"grep", "egrep", "fgrep", "ag", "ack", "zcat", "zgrep", "bzcat", "xzcat", "zstdcat",
	"stat", "file", "du", "df", "cut", "tr", "paste", "join", "comm", "column", "fold", "fmt",
	"expand", "unexpand", "rev", "diff", "cmp", "colordiff", "jq", "od", "hexdump",
	"strings", "basename", "dirname", "realpath", "readlink", "md5sum", "sha1sum", "sha224sum",
	"sha256sum", "sha384sum", "sha512sum", "b2sum", "cksum", "sum", "base64", "base32", "basenc",
	"tsort", "look", "nm", "objdump", "readelf", "size", "lsattr", "getfacl", "namei",
	"pwd", "echo", "true", "false", "test", "[", "seq", "yes", "expr",
	"factor", "numfmt", "sleep", "shellcheck", "staticcheck", "pyright",
	// system information
	"which", "whereis", "cal", "whoami", "id", "groups", "uname", "uptime",
	"who", "w", "last", "ps", "pgrep", "pidof", "lsof", "free", "nproc", "lscpu", "lsblk", "lspci",
	"lsusb", "locale", "tty", "printenv", "getconf", "arch", "whatis", "apropos", "tput",
	"clear", "apt-cache",
	// shell builtins that change only the shell's own state
	"cd", "pushd", "popd", "dirs", "set", "unset", "shift", "wait", "jobs",
	"ulimit", "umask", "help", "return", "exit", "break", "continue", ":", "getopts", "bg", "fg",
	"disown", "shopt", "caller", "times", "compgen", "complete", "compopt",
	"type", "logout",
}

// commandRules are commands whose class does not depend on their arguments. Together with
// readOnlyCommands, handlers, tools and wrappers they make the rule tables; any other command
// is Mutating ("unknown command").
var commandRules map[string]rule

// buildCommandRules fills commandRules (see loadTables).
func buildCommandRules() {
	commandRules = map[string]rule{
		// Destructive: delete, overwrite, change permissions, stop processes or the machine.
		"rm":       {Destructive, "rm deletes files"},
		"unlink":   {Destructive, "unlink deletes a file"},
		"rmdir":    {Destructive, "rmdir deletes directories"},
		"shred":    {Destructive, "shred destroys file contents"},
		"dd":       {Destructive, "dd writes raw data and can overwrite disks"},
		"truncate": {Destructive, "truncate cuts files"},
		"chmod":    {Destructive, "chmod changes permissions"},
		"chown":    {Destructive, "chown changes owners"},
		"chgrp":    {Destructive, "chgrp changes groups"},
		"chattr":   {Destructive, "chattr changes file attributes"},
		"mv":       {Destructive, "mv can overwrite its destination"},
		"kill":     {Destructive, "kill stops processes"},
		"pkill":    {Destructive, "pkill stops processes"},
		"killall":  {Destructive, "killall stops processes"},
		"reboot":   {Destructive, "reboot restarts the machine"},
		"shutdown": {Destructive, "shutdown stops the machine"},
		"halt":     {Destructive, "halt stops the machine"},
		"poweroff": {Destructive, "poweroff stops the machine"},
		"wipefs":   {Destructive, "wipefs erases disk signatures"},
		"fdisk":    {Destructive, "fdisk changes disk partitions"},
		"sfdisk":   {Destructive, "sfdisk changes disk partitions"},
		"parted":   {Destructive, "parted changes disk partitions"},
		"mkswap":   {Destructive, "mkswap formats a device"},
		"mke2fs":   {Destructive, "mke2fs formats a device"},
		"userdel":  {Destructive, "userdel deletes a user"},
		"groupdel": {Destructive, "groupdel deletes a group"},

		// Network: talk to other machines.
		"curl":        {Network, "curl transfers data over the network"},
		"wget":        {Network, "wget downloads over the network"},
		"sftp":        {Network, "sftp transfers files over the network"},
		"nc":          {Network, "nc opens network connections"},
		"ncat":        {Network, "ncat opens network connections"},
		"netcat":      {Network, "netcat opens network connections"},
		"socat":       {Network, "socat opens network connections"},
		"telnet":      {Network, "telnet opens network connections"},
		"ftp":         {Network, "ftp transfers files over the network"},
		"lftp":        {Network, "lftp transfers files over the network"},
		"ping":        {Network, "ping sends network packets"},
		"ping6":       {Network, "ping6 sends network packets"},
		"traceroute":  {Network, "traceroute sends network packets"},
		"tracepath":   {Network, "tracepath sends network packets"},
		"mtr":         {Network, "mtr sends network packets"},
		"nmap":        {Network, "nmap scans the network"},
		"dig":         {Network, "dig queries DNS"},
		"nslookup":    {Network, "nslookup queries DNS"},
		"host":        {Network, "host queries DNS"},
		"whois":       {Network, "whois queries the network"},
		"http":        {Network, "http (httpie) sends HTTP requests"},
		"https":       {Network, "https (httpie) sends HTTP requests"},
		"xh":          {Network, "xh sends HTTP requests"},
		"aria2c":      {Network, "aria2c downloads over the network"},
		"mosh":        {Network, "mosh opens a remote shell"},
		"ssh-copy-id": {Network, "ssh-copy-id installs keys on a remote host"},
		"ssh-keyscan": {Network, "ssh-keyscan contacts remote hosts"},
		"npx":         {Network, "npx downloads and runs a package"},
		"pnpx":        {Network, "pnpx downloads and runs a package"},
		"bunx":        {Network, "bunx downloads and runs a package"},
		"uvx":         {Network, "uvx downloads and runs a package"},

		// Mutating: write local files or state.
		"touch":   {Mutating, "touch creates or updates files"},
		"mkdir":   {Mutating, "mkdir creates directories"},
		"mktemp":  {Mutating, "mktemp creates a file"},
		"cp":      {Mutating, "cp writes files"},
		"install": {Mutating, "install copies files"},
		"patch":   {Mutating, "patch edits files"},
		"split":   {Mutating, "split writes files"},
		"csplit":  {Mutating, "csplit writes files"},
		"zip":     {Mutating, "zip writes an archive"},
		"alias":   {Mutating, "alias changes what later commands run"},
		"unalias": {Mutating, "unalias changes what later commands run"},
		"enable":  {Mutating, "enable changes or loads shell builtins"},
	}
}

// codeVars are environment variables whose value programs run as a command line:
// GIT_SSH_COMMAND='...' git fetch. A literal value is parsed as shell code; a computed one is
// dynamic code.
var codeVars = map[string]bool{
	"GIT_SSH_COMMAND": true, "GIT_SSH": true, "GIT_EDITOR": true, "GIT_SEQUENCE_EDITOR": true,
	"GIT_PAGER": true, "GIT_EXTERNAL_DIFF": true, "GIT_ASKPASS": true, "GIT_PROXY_COMMAND": true,
	"SSH_ASKPASS": true, "SUDO_ASKPASS": true, "EDITOR": true, "VISUAL": true, "PAGER": true,
	"MANPAGER": true, "LESSOPEN": true, "LESSCLOSE": true, "PROMPT_COMMAND": true, "BROWSER": true,
	"SYSTEMD_PAGER": true, "GH_PAGER": true,
}

// loaderVars make programs load code from other files: Mutating, like running a local program.
var loaderVars = map[string]bool{
	"LD_PRELOAD": true, "LD_AUDIT": true, "LD_LIBRARY_PATH": true, "DYLD_INSERT_LIBRARIES": true,
	"DYLD_LIBRARY_PATH": true, "BASH_ENV": true, "NODE_OPTIONS": true, "PYTHONSTARTUP": true,
	"PERL5OPT": true, "RUBYOPT": true,
}

// envVar classifies setting variable name to value (VAR=val CMD, export VAR=val, env VAR=val).
func (c *classifier) envVar(name string, value arg, depth int) verdict {
	switch {
	case codeVars[name] && !value.lit:
		return verdict{Destructive, name + " is set to a computed command (dynamic code)"}
	case codeVars[name] && strings.TrimSpace(value.val) != "":
		return c.script(value.val, value.key, depth+1)
	case name == "MANOPT" && !value.lit:
		return verdict{Destructive, "MANOPT is set to computed man options (dynamic code)"}
	case name == "MANOPT" && strings.TrimSpace(value.val) != "":
		return c.script("man "+value.val, value.key, depth+1) // man reads its options from MANOPT
	case name == "PATH" && !safePath(value):
		return verdict{Mutating, "setting PATH may run other programs than the system ones"}
	case loaderVars[name]:
		return verdict{Mutating, "setting " + name + " makes programs load other code"}
	}
	return envRisk(name)
}

// safePath reports whether a PATH value keeps the system programs first: it appends to $PATH
// (export PATH=$PATH:/usr/local/go/bin) or lists only system directories.
func safePath(value arg) bool {
	first, _, _ := strings.Cut(strings.Trim(value.val, `"`), ":")
	if first == "$PATH" || first == "${PATH}" {
		return true
	}
	if !value.lit {
		return false
	}
	for _, dir := range strings.Split(value.val, ":") {
		if !systemDirs[path.Clean(dir)] {
			return false
		}
	}
	return true
}

// sub is the rule for one subcommand of a tool.
type sub struct {
	rule
	flags map[string]rule // options after the subcommand that raise the class: terraform apply -auto-approve
	next  *tool           // nested subcommands: docker container rm
}

func ro(reason string) sub  { return sub{rule: rule{ReadOnly, reason}} }
func mut(reason string) sub { return sub{rule: rule{Mutating, reason}} }
func net(reason string) sub { return sub{rule: rule{Network, reason}} }
func des(reason string) sub { return sub{rule: rule{Destructive, reason}} }

// with adds options that raise the subcommand's class.
func (s sub) with(flags map[string]rule) sub { s.flags = flags; return s }

// then makes the subcommand's class depend on the next word (docker container rm).
func (s sub) then(t *tool) sub { s.next = t; return s }

// tool is a command whose class depends on its subcommand: npm install vs npm ls.
type tool struct {
	opts      optSpec             // options before the subcommand (kubectl -n NS get)
	plus      bool                // a +toolchain word may precede the subcommand (cargo +nightly build)
	wordFlags bool                // options are whole words (go -count=1, terraform -auto-approve), not clusters
	bare      rule                // no subcommand
	other     rule                // a subcommand not in subs
	subs      map[string]sub      // keys may list aliases separated by spaces: "install i add"
	programs  func(*call) verdict // classifies the commands its options name to run (go -exec), or nil
	index     map[string]*sub     // subs by single name, built by build
}

// classify finds the subcommand in args and applies its rule; what is the command so far
// ("docker", then "docker container").
func (t *tool) classify(what string, args []arg) verdict {
	_, rest := t.opts.leading(args)
	if t.plus && len(rest) > 0 && rest[0].lit && strings.HasPrefix(rest[0].val, "+") {
		_, rest = t.opts.leading(rest[1:])
	}
	if len(rest) == 0 {
		return t.bare.verdict(what)
	}
	if !rest[0].lit {
		return verdict{Destructive, what + " with a computed subcommand " + rest[0].val}
	}
	what += " " + rest[0].val
	s := t.lookup(rest[0].val)
	if s == nil {
		return t.other.verdict(what)
	}
	v := s.rule.verdict(what)
	if s.next != nil {
		v = s.next.classify(what, rest[1:])
	}
	if s.flags != nil {
		for _, a := range rest[1:] {
			for _, k := range flagKeys(a, t.wordFlags) {
				r, ok := s.flags[k]
				if !ok && t.wordFlags && strings.HasPrefix(k, "--") {
					r, ok = s.flags[k[1:]] // go test --exec=x is go test -exec=x
				}
				if ok {
					v.raise(r.verdict(what + " " + k))
				}
			}
		}
	}
	return v
}

func (t *tool) lookup(name string) *sub { return t.index[name] }

// build indexes the subcommands of t and of its nested tools by single name. It runs once, in
// init, so that concurrent classifications only read the tables.
func (t *tool) build() {
	if t.index != nil {
		return
	}
	t.index = map[string]*sub{}
	for keys, s := range t.subs {
		for _, k := range strings.Fields(keys) {
			t.index[k] = &s
		}
		if s.next != nil {
			s.next.build()
		}
	}
}

// flagKeys are the option names one argument stands for: "--force=x" -> --force,
// "-fd" -> -fd, -f, -d (unless options are whole words).
func flagKeys(a arg, wordFlags bool) []string {
	if !a.lit || len(a.val) < 2 || a.val[0] != '-' {
		return nil
	}
	name, _, _ := strings.Cut(a.val, "=")
	keys := []string{name}
	if !wordFlags && a.val[1] != '-' && len(a.val) > 2 {
		for i := 1; i < len(a.val); i++ {
			keys = append(keys, "-"+a.val[i:i+1])
		}
	}
	return keys
}

var (
	roHelp     = rule{ReadOnly, "{} without a subcommand prints help"}
	mutUnknown = rule{Mutating, "{} may change files"}
	mutScript  = rule{Mutating, "{} runs a package script"}
)

// packageTools classify package managers, build tools and infrastructure CLIs by subcommand.
// Filled by loadTables: the tables refer to each other (pip is also python -m pip).
var tools map[string]*tool

// buildTools fills tools (see loadTables).
func buildTools() {
	apt, compose, terraform := aptTool(), composeTool(), terraformTool()
	docker := dockerTool(compose)
	pip := &tool{
		opts: optSpec{long: longs("proxy", "cache-dir", "log", "timeout", "retries", "cert", "client-cert", "python")},
		bare: roHelp, other: mutUnknown,
		subs: map[string]sub{
			"install download wheel index search":            net("{} downloads packages"),
			"uninstall":                                      des("{} removes packages"),
			"list show freeze check help debug hash inspect": ro("{} only reads"),
			"cache": mut("{} changes the cache").then(&tool{bare: roHelp, other: rule{Mutating, "{} changes the cache"},
				subs: map[string]sub{"list dir info": ro("{} only reads")}}),
			"config": mut("{} changes configuration").then(&tool{bare: roHelp, other: rule{Mutating, "{} changes configuration"},
				subs: map[string]sub{"list get debug": ro("{} only reads")}}),
		},
	}
	npm := &tool{
		opts: optSpec{value: "wC", long: longs("prefix", "registry", "cache", "userconfig", "workspace")},
		bare: roHelp, other: mutUnknown,
		subs: map[string]sub{
			"install i in ins inst insta instal isnt isntall add ci clean-install ic install-clean isntall-clean install-test it install-ci-test update up upgrade udpate": net("{} downloads packages"),
			"publish": net("{} publishes a package"),
			"audit outdated view v info show search s se find login adduser logout whoami dist-tag deprecate owner access team token ping doctor repo docs bugs star unstar stars org hook profile": net("{} talks to the registry"),
			"exec x":                          net("{} may download and run a package"),
			"uninstall un unlink remove rm r": des("{} removes packages"),
			"unpublish":                       des("{} deletes a published package"),
			"run run-script rum urn test tst t start stop restart build rebuild rb":             mutScript.sub(),
			"init create innit link ln prune dedupe ddp shrinkwrap pack version set-script pkg": mut("{} changes the project"),
			"ls list la ll explain why prefix root bin help help-search completion query fund":  ro("{} only reads"),
			"config c": mut("{} changes configuration").then(&tool{bare: roHelp, other: rule{Mutating, "{} changes configuration"},
				subs: map[string]sub{"get list ls": ro("{} only reads")}}),
			"cache": mut("{} changes the cache").then(&tool{bare: roHelp, other: rule{Mutating, "{} changes the cache"},
				subs: map[string]sub{"ls verify": ro("{} only reads"), "add": net("{} downloads packages")}}),
		},
	}
	yarnGlobal := &tool{bare: roHelp, other: mutUnknown, subs: map[string]sub{
		"add upgrade": net("{} downloads packages"), "remove": des("{} removes packages"), "list bin dir": ro("{} only reads")}}
	tools = map[string]*tool{
		"npm":  npm,
		"pip":  pip,
		"pip3": pip,
		"pip2": pip,
		"yarn": {
			bare: rule{Network, "{} installs dependencies"}, other: mutScript,
			subs: map[string]sub{
				"add install upgrade up upgrade-interactive dlx publish info outdated audit login npm": net("{} talks to the registry"),
				"remove unlink": des("{} removes packages"),
				"global":        net("{}").then(yarnGlobal),
				"run test build start exec node create init link pack version": mutScript.sub(),
				"list why bin help config licenses workspaces":                 ro("{} only reads"),
			},
		},
		"pnpm": {
			bare: roHelp, other: mutScript,
			subs: map[string]sub{
				"add install i update up upgrade dlx publish fetch outdated audit import":     net("{} talks to the registry"),
				"remove rm uninstall un unlink":                                               des("{} removes packages"),
				"run test t exec start build init create link pack rebuild prune patch store": mutScript.sub(),
				"ls list ll la why root bin help config licenses":                             ro("{} only reads"),
			},
		},
		"bun": {
			bare: roHelp, other: mutScript,
			subs: map[string]sub{
				"install i add update upgrade outdated publish x create": net("{} talks to the registry"),
				"remove rm": des("{} removes packages"),
				"test":      mut("{} runs the project's tests"), // tests and preloads are the project's code
				"run build": mutScript.sub(),
				"pm":        mut("{} manages packages"),
			},
		},
		"uv": {
			bare: roHelp, other: mutUnknown,
			subs: map[string]sub{
				"pip": net("{}").then(&tool{bare: roHelp, other: mutUnknown, subs: map[string]sub{
					"install sync compile download": net("{} downloads packages"),
					"uninstall":                     des("{} removes packages"),
					"list show freeze check tree":   ro("{} only reads"),
				}}),
				"add sync lock publish": net("{} downloads or publishes packages"),
				"remove":                des("{} removes dependencies"),
				"tool": net("{}").then(&tool{bare: roHelp, other: mutUnknown, subs: map[string]sub{
					"install run upgrade": net("{} downloads packages"),
					"uninstall":           des("{} removes a tool"),
					"list dir":            ro("{} only reads"),
				}}),
				"python": net("{}").then(&tool{bare: roHelp, other: mutUnknown, subs: map[string]sub{
					"install":       net("{} downloads Python"),
					"uninstall":     des("{} removes a Python"),
					"list find dir": ro("{} only reads"),
				}}),
				"run init venv build format": mut("{} changes the project or runs code"),
				"tree export version help":   ro("{} only reads"),
				"cache": mut("{} changes the cache").then(&tool{bare: roHelp, other: rule{Mutating, "{} changes the cache"},
					subs: map[string]sub{"dir": ro("{} only reads")}}),
				"self": net("{} updates uv"),
			},
		},
		"go": {
			wordFlags: true, bare: roHelp, other: mutUnknown, programs: goPrograms,
			subs: map[string]sub{
				"get install":                       net("{} downloads modules"),
				"build generate fmt fix clean work": mut("{} writes files"),
				"run tool":                          mut("{} runs a program"),
				"mod": mut("{}").then(&tool{bare: roHelp, other: mutUnknown, subs: map[string]sub{
					"download":              net("{} downloads modules"),
					"tidy init edit vendor": mut("{} changes go.mod or files"),
					"graph why verify":      ro("{} only reads"),
				}}),
				// go test runs the project's code (tests, TestMain, init functions), which the
				// agent may have written: Mutating, like running a local program.
				"test": mut("{} builds and runs the project's tests").with(goRunFlags),
				// go vet and go list build and analyse without running the project's code,
				// unless an option names another program to run.
				"vet":  ro("{} only reads and builds into the cache").with(goRunFlags),
				"list": ro("{} only reads").with(goRunFlags),

				"version doc help bug telemetry": ro("{} only reads"),
				"env": ro("{} only reads").with(map[string]rule{
					"-w": {Mutating, "{} changes go env settings"}, "-u": {Mutating, "{} changes go env settings"}}),
			},
		},
		"cargo": {
			opts: optSpec{value: "ZC", long: longs("config", "color", "manifest-path")}, plus: true,
			bare: roHelp, other: mutUnknown,
			subs: map[string]sub{
				"install add fetch publish update search login logout yank owner vendor": net("{} talks to the registry"),
				"remove rm uninstall": des("{} removes packages"),
				"build b run r fmt fix new init clean doc d bench rustc rustdoc generate-lockfile package": mut("{} writes files"),
				// Checking and testing compile the project, which runs its build.rs and
				// procedural macros (and, for test, the tests): code the agent may have written.
				"test t check c clippy": mut("{} builds and runs the project's build scripts").with(map[string]rule{"--fix": {Mutating, "{} edits source files"}}),
				"metadata tree version help verify-project locate-project pkgid read-manifest": ro("{} only reads"),
			},
		},
		"gem": {
			bare: roHelp, other: mutUnknown,
			subs: map[string]sub{
				"install update fetch push owner yank sources search": net("{} talks to the registry"),
				"uninstall cleanup": des("{} removes gems"),
				"list info contents which environment env help query specification": ro("{} only reads"),
				"build": mut("{} writes a gem"),
			},
		},
		"bundle": {
			bare: rule{Network, "{} installs gems"}, other: mutUnknown,
			subs: map[string]sub{
				"install update add lock outdated cache package": net("{} downloads gems"),
				"remove":                            des("{} removes gems"),
				"exec":                              mut("{} runs a program"),
				"list show check info version help": ro("{} only reads"),
			},
		},
		"apt":      apt,
		"apt-get":  apt,
		"aptitude": apt,
		"brew": {
			bare: roHelp, other: mutUnknown,
			subs: map[string]sub{
				"install upgrade update tap fetch reinstall bundle search outdated":            net("{} downloads packages"),
				"uninstall remove rm untap autoremove":                                         des("{} removes packages"),
				"cleanup link unlink pin unpin services":                                       mut("{} changes installed packages"),
				"list ls info config doctor deps uses leaves home --version --prefix --cellar": ro("{} only reads"),
			},
		},
		"docker":         docker,
		"podman":         docker,
		"docker-compose": compose,
		"kubectl": {
			opts: optSpec{value: "ns", long: longs("namespace", "context", "kubeconfig", "server", "cluster", "user", "token", "as", "request-timeout")},
			bare: roHelp, other: rule{Network, "{} talks to a cluster"},
			subs: map[string]sub{
				"delete drain": des("{} removes cluster resources"),
				"replace": net("{} talks to a cluster").with(map[string]rule{
					"--force": {Destructive, "{} deletes and recreates resources"}}),
				"config": mut("{} changes kubeconfig").then(&tool{bare: roHelp, other: rule{Mutating, "{} changes kubeconfig"},
					subs: map[string]sub{"view get-contexts get-clusters get-users current-context": ro("{} only reads")}}),
			},
		},
		"terraform": terraform,
		"tofu":      terraform,
		"systemctl": {
			opts: optSpec{value: "HMtpon", long: longs("host", "machine", "type", "property", "output", "lines", "root", "state")},
			bare: rule{ReadOnly, "{} lists units"}, other: mutUnknown,
			subs: map[string]sub{
				"status show list-units list-unit-files list-timers list-sockets list-dependencies is-active is-enabled is-failed cat help show-environment": ro("{} only reads"),
				"stop disable mask kill poweroff reboot halt isolate rescue emergency suspend hibernate":                                                     des("{} stops services or the machine"),
				"start restart reload enable unmask daemon-reload edit set-property link preset try-restart reload-or-restart revert":                        mut("{} changes services"),
			},
		},
	}
	for _, t := range tools {
		t.build()
	}
}

func aptTool() *tool {
	return &tool{
		opts: optSpec{value: "oct"},
		bare: roHelp, other: mutUnknown,
		subs: map[string]sub{
			"install update upgrade dist-upgrade full-upgrade download source build-dep reinstall changelog": net("{} downloads packages"),
			"remove purge autoremove autopurge":                    des("{} removes packages"),
			"list search show showsrc policy depends rdepends moo": ro("{} only reads"),
			"clean autoclean mark satisfy":                         mut("{} changes the package state"),
		},
	}
}

func dockerTool(compose *tool) *tool {
	return &tool{
		opts: optSpec{value: "Hcl", long: longs("host", "context", "config", "log-level", "tlscacert", "tlscert", "tlskey")},
		bare: roHelp, other: mutUnknown,
		subs: map[string]sub{
			"ps images inspect logs version info history top stats diff port events": ro("{} only reads"),
			"pull push build login logout search":                                    net("{} talks to a registry"),
			"rm rmi kill":                                                            des("{} removes containers or images"),
			"run exec create start stop restart pause unpause cp commit tag save load import export rename update attach wait": mut("{} changes containers"),
			"container": mut("{}").then(&tool{bare: roHelp, other: rule{Mutating, "{} changes containers"}, subs: map[string]sub{
				"ls list ps inspect logs top stats diff port": ro("{} only reads"),
				"rm prune kill": des("{} removes containers"),
			}}),
			"image": mut("{}").then(&tool{bare: roHelp, other: rule{Mutating, "{} changes images"}, subs: map[string]sub{
				"ls list inspect history": ro("{} only reads"),
				"rm prune":                des("{} removes images"),
				"pull push build":         net("{} talks to a registry"),
			}}),
			"volume": mut("{}").then(&tool{bare: roHelp, other: rule{Mutating, "{} changes volumes"}, subs: map[string]sub{
				"ls list inspect": ro("{} only reads"),
				"rm prune":        des("{} deletes volumes"),
			}}),
			"network": mut("{}").then(&tool{bare: roHelp, other: rule{Mutating, "{} changes networks"}, subs: map[string]sub{
				"ls list inspect": ro("{} only reads"),
				"rm prune":        des("{} removes networks"),
			}}),
			"system": mut("{}").then(&tool{bare: roHelp, other: mutUnknown, subs: map[string]sub{
				"prune":          des("{} deletes unused data"),
				"df info events": ro("{} only reads"),
			}}),
			"builder buildx": mut("{}").then(&tool{bare: roHelp, other: mutUnknown, subs: map[string]sub{
				"prune rm":              des("{} deletes build cache"),
				"build bake":            net("{} builds and may pull images"),
				"ls inspect du version": ro("{} only reads"),
			}}),
			"compose": mut("{}").then(compose),
		},
	}
}

func composeTool() *tool {
	return &tool{
		opts: optSpec{value: "fp", long: longs("file", "project-name", "profile", "env-file", "project-directory")},
		bare: roHelp, other: rule{Mutating, "{} changes containers"},
		subs: map[string]sub{
			"ps logs config ls top images version port events": ro("{} only reads"),
			"pull push build": net("{} talks to a registry"),
			"rm kill":         des("{} removes containers"),
			"down": mut("{} stops and removes containers").with(map[string]rule{
				"-v": {Destructive, "{} deletes volumes"}, "--volumes": {Destructive, "{} deletes volumes"},
				"--rmi": {Destructive, "{} deletes images"}}),
		},
	}
}

func terraformTool() *tool {
	return &tool{
		wordFlags: true, bare: roHelp, other: mutUnknown,
		subs: map[string]sub{
			"destroy": des("{} destroys infrastructure"),
			"apply": net("{} changes remote infrastructure").with(map[string]rule{
				"-destroy":      {Destructive, "{} destroys infrastructure"},
				"-auto-approve": {Destructive, "{} changes infrastructure without confirmation"}}),
			"plan init import refresh get login logout force-unlock taint untaint": net("{} talks to providers or state"),
			"state": mut("{}").then(&tool{wordFlags: true, bare: roHelp, other: rule{Network, "{} changes remote state"}, subs: map[string]sub{
				"list show": ro("{} only reads"),
				"pull":      net("{} reads remote state"),
				"rm":        des("{} removes resources from state"),
			}}),
			"workspace": mut("{}").then(&tool{wordFlags: true, bare: roHelp, other: rule{Network, "{} changes workspaces"}, subs: map[string]sub{
				"list show": ro("{} only reads"),
				"delete":    des("{} deletes a workspace"),
			}}),
			"fmt": mut("{} rewrites files"),
			"validate show output version graph providers metadata console test": ro("{} only reads"),
		},
	}
}

// goRunFlags are go build flags that make go run another program, or write a file.
var goRunFlags = map[string]rule{
	"-o": {Mutating, "{} writes a file"}, "-c": {Mutating, "{} writes a test binary"},
	"-exec": {Mutating, "{} runs another program"}, "-toolexec": {Mutating, "{} runs another program"},
	"-vettool": {Mutating, "{} runs another program"}, "-overlay": {Mutating, "{} replaces source files"},
}

// sub turns a shared rule into a subcommand rule.
func (r rule) sub() sub { return sub{rule: r} }
