package shellclass

import (
	"slices"
	"strings"
)

// configVars make a program read configuration from elsewhere, which can name a program
// to run: git's injected config (GIT_CONFIG_COUNT with GIT_CONFIG_KEY_0=core.fsmonitor
// runs any command), or a home whose dotfiles the agent wrote. Destructive, like dynamic code.
var configVars = map[string]bool{
	"GIT_CONFIG_COUNT": true, "GIT_CONFIG_PARAMETERS": true, "GIT_CONFIG": true, "GIT_CONFIG_GLOBAL": true,
	"GIT_CONFIG_SYSTEM": true, "GIT_DIR": true, "GIT_WORK_TREE": true, "GIT_EXEC_PATH": true, "GIT_TEMPLATE_DIR": true,
	"HOME": true, "XDG_CONFIG_HOME": true, "ENV": true, "SHELLOPTS": true, "BASHOPTS": true, "PS4": true,
}

// codePathVars make interpreters and build tools load code from other places or run other
// programs: Mutating, like running a local program (see loaderVars).
var codePathVars = map[string]bool{
	"PYTHONPATH": true, "PYTHONHOME": true, "NODE_PATH": true, "RUBYLIB": true, "PERL5LIB": true, "PERLLIB": true,
	"JAVA_TOOL_OPTIONS": true, "_JAVA_OPTIONS": true, "JDK_JAVA_OPTIONS": true, "CLASSPATH": true,
	"GOFLAGS": true, "CC": true, "CXX": true, "RUSTC": true, "RUSTC_WRAPPER": true, "CARGO_BUILD_RUSTC_WRAPPER": true,
	"GCONV_PATH": true, "LOCPATH": true, "NLSPATH": true, "MAKEFLAGS": true,
}

// envRisk classifies setting name beyond envVar's own lists: git's injected configuration
// keys (GIT_CONFIG_KEY_n, GIT_CONFIG_VALUE_n), every LD_ variable, and the two maps above.
func envRisk(name string) verdict {
	switch {
	case configVars[name], strings.HasPrefix(name, "GIT_CONFIG_KEY_"), strings.HasPrefix(name, "GIT_CONFIG_VALUE_"):
		return verdict{Destructive, "setting " + name + " makes programs read configuration that can run any command"}
	case codePathVars[name], strings.HasPrefix(name, "LD_"), strings.HasPrefix(name, "DYLD_"):
		return verdict{Mutating, "setting " + name + " makes programs load other code"}
	}
	return verdict{ReadOnly, ""}
}

// ClassifyEnv classifies the variables a tool call adds to a command's environment (run_shell's
// env) as the same assignments written before the command would be. Risky lists the
// variables that raised the class: while one is set, no allow rule should match the call.
func ClassifyEnv(env map[string]string) (res Result, risky []string) {
	loadTables()
	c := newClassifier()
	defer c.recover(&res)
	names := make([]string, 0, len(env))
	for name := range env {
		names = append(names, name)
	}
	slices.Sort(names)
	res = Result{Parsed: true}
	for i, name := range names {
		v := c.envVar(name, arg{val: env[name], lit: true, key: []int{i}}, 0)
		if v.Class == ReadOnly {
			continue
		}
		risky = append(risky, name)
		if v.Class > res.Class {
			res.Class = v.Class
		}
		if !slices.Contains(res.Reasons, v.Reason) {
			res.Reasons = append(res.Reasons, v.Reason)
		}
	}
	return res, risky
}
