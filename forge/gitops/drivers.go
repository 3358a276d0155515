package gitops

import (
	"regexp"
	"strings"

	"github.com/jido-run/jido/tools/definitions"
)

// driverKey matches the configuration of a merge driver or a filter, lower-cased as git
// lists it: group 1 is the kind, group 2 the driver's name.
var driverKey = regexp.MustCompile(`^(merge|filter)\.(.+)\.(driver|clean|smudge|process)$`)

// driverOverrides returns the -c arguments that neutralise every merge driver and filter
// the repository's configuration defines: an agent's .gitattributes can name them. An
// empty filter command is no filter; an empty merge driver makes git fail the merge of
// that file instead of running anything. A driver whose name has '=' cannot be overridden
// with -c, so the repository is refused.
func (r *Repo) driverOverrides() ([]string, error) {
	out, err := r.git.run(r.main(), "config", "--list", "--name-only", "-z")
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var args []string
	for _, name := range splitZ(out) {
		name = strings.TrimSuffix(name, "\n")
		m := driverKey.FindStringSubmatch(name)
		if m == nil || seen[m[1]+"."+m[2]] {
			continue
		}
		seen[m[1]+"."+m[2]] = true
		if strings.ContainsAny(m[2], "=\n") {
			return nil, definitions.NewError(definitions.PermissionError, "the repository's config defines a %s driver %q that gitops cannot neutralise", m[1], m[2]).
				With("driver", m[2]).Hint("Rename or remove the driver in .git/config")
		}
		prefix := m[1] + "." + m[2] + "."
		if m[1] == "merge" {
			args = append(args, "-c", prefix+"driver=")
			continue
		}
		args = append(args, "-c", prefix+"clean=", "-c", prefix+"smudge=", "-c", prefix+"process=", "-c", prefix+"required=false")
	}
	return args, nil
}
