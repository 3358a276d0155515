package shellclass

import (
	"strings"
)

// rsyncCmd: rsync copies files (Mutating), over the network when an operand is remote
// (host:path, rsync://), and deletes files with --delete or --remove-source-files.
func rsyncCmd(x *call) verdict {
	opts, operands := optSpec{value: "efTBM", long: longs("rsh", "filter", "exclude", "include", "exclude-from",
		"include-from", "files-from", "temp-dir", "partial-dir", "compare-dest", "copy-dest", "link-dest",
		"backup-dir", "suffix", "chmod", "chown", "log-file", "password-file", "rsync-path", "bwlimit",
		"port", "block-size", "max-size", "min-size", "timeout", "out-format", "remote-option")}.scan(x.args)
	v := verdict{Mutating, "rsync copies files"}
	if rsh, ok := optValue(opts, "-e", "--rsh"); ok {
		v.raise(x.script(rsh, x.self)) // the remote shell runs locally
	}
	for _, a := range operands {
		if isRemote(a.val) {
			v.raise(verdict{Network, "rsync copies files over the network"})
		}
	}
	for _, o := range opts {
		if strings.HasPrefix(o.name, "--del") || o.name == "--remove-source-files" {
			v.raise(verdict{Destructive, "rsync " + o.name + " deletes files"})
		}
	}
	return v
}

// isRemote reports whether an rsync or scp operand names a remote location.
func isRemote(s string) bool {
	if strings.Contains(s, "://") || strings.Contains(s, "::") {
		return true
	}
	i := strings.IndexByte(s, ':')
	return i > 0 && !strings.Contains(s[:i], "/")
}

// sshCmd: ssh is Network; a command it runs on the remote host is classified as if local, since
// deleting files over ssh is no safer. A ProxyCommand or LocalCommand runs locally.
func sshCmd(x *call) verdict {
	opts, rest := optSpec{value: "BbcDEeFIiJLlmOopQRSWw"}.leading(x.args)
	v := verdict{Network, "ssh opens a remote shell"}
	v.raise(sshLocalCommands(x, opts))
	if len(rest) > 1 {
		v.raise(verdict{Network, "ssh runs a command on a remote host"})
		v.raise(joinedScript(x, "ssh", rest[1:]))
	}
	return v
}

// sshLocalCommands classifies ssh -o options that run a local command (ProxyCommand, ...).
func sshLocalCommands(x *call, opts []opt) verdict {
	var v verdict
	for _, o := range opts {
		if o.name != "-o" {
			continue
		}
		key, value, ok := strings.Cut(o.value, "=")
		if !ok {
			key, value, _ = strings.Cut(strings.TrimSpace(o.value), " ")
		}
		switch strings.ToLower(strings.TrimSpace(key)) {
		case "proxycommand", "localcommand", "knownhostscommand":
			v.raise(x.script(value, x.self))
		}
	}
	return v
}

// scpCmd: scp copies over the network; -S PROGRAM and -o ProxyCommand run local commands.
func scpCmd(x *call) verdict {
	opts, _ := optSpec{value: "cDFiJloPSX"}.scan(x.args)
	v := verdict{Network, "scp copies files over the network"}
	v.raise(sshLocalCommands(x, opts))
	if prog, ok := optValue(opts, "-S"); ok {
		v.raise(x.script(prog, x.self))
	}
	return v
}

// cloudVerbs in a cloud CLI's arguments delete remote resources: aws s3 rm, gh repo delete.
var cloudVerbs = map[string]bool{
	"delete": true, "rm": true, "rb": true, "remove": true, "destroy": true, "purge": true, "terminate": true,
}

// cloudCmd: cloud CLIs talk to the network; a delete-like verb or --delete makes them Destructive.
func cloudCmd(x *call) verdict {
	for _, a := range x.args {
		if !a.lit {
			continue
		}
		v := strings.ToLower(a.val)
		if cloudVerbs[v] || v == "--delete" || strings.HasPrefix(v, "delete-") || strings.HasPrefix(v, "terminate-") || strings.HasPrefix(v, "remove-") {
			return verdict{Destructive, x.name + " " + a.val + " deletes remote resources"}
		}
	}
	return verdict{Network, x.name + " talks to a remote service"}
}
