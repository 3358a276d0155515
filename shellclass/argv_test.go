package shellclass

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestClassifyArgv(t *testing.T) {
	cases := []struct {
		name  string
		argv  []string
		class Class
		names []string
	}{
		{"rm", []string{"rm", "-rf", "x"}, Destructive, []string{"rm"}},
		{"git push -f", []string{"git", "push", "-f"}, Destructive, []string{"git"}},
		{"git push", []string{"git", "push", "origin", "main"}, Network, []string{"git"}},
		{"git -C status", []string{"git", "-C", "x", "status"}, ReadOnly, []string{"git"}},
		{"ls", []string{"ls"}, ReadOnly, []string{"ls"}},
		{"empty", nil, ReadOnly, []string{}},
		{"bash -c", []string{"bash", "-c", "rm -rf /"}, Destructive, []string{"bash", "rm"}},
		{"bash -c read-only", []string{"bash", "-c", "ls | wc -l"}, ReadOnly, []string{"bash", "ls", "wc"}},
		{"no shell expansion", []string{"echo", "$(rm -rf /)"}, ReadOnly, []string{"echo"}},
		{"dollar name is literal", []string{"$CMD", "x"}, Mutating, []string{"$CMD"}},
		{"env curl", []string{"env", "X=1", "curl", "x"}, Network, []string{"env", "curl"}},
		{"sh from stdin", []string{"sh"}, Destructive, []string{"sh"}},
		{"path", []string{"/bin/rm", "x"}, Destructive, []string{"rm"}},
		{"sudo", []string{"sudo", "ls"}, Destructive, []string{"sudo", "ls"}},
		{"npm install", []string{"npm", "install"}, Network, []string{"npm"}},
		{"find -exec", []string{"find", ".", "-exec", "rm", "{}", ";"}, Destructive, []string{"find", "rm"}},
		{"unknown", []string{"frobnicate"}, Mutating, []string{"frobnicate"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := ClassifyArgv(tc.argv)
			assert.True(t, res.Parsed)
			assert.Equal(t, tc.class, res.Class, "%q: %+v", tc.argv, res)
			assert.Equal(t, tc.names, commandNames(res))
			checkInvariants(t, "argv", res)
		})
	}
	res := ClassifyArgv([]string{"git", "push", "-f"})
	assert.Equal(t, []string{"push", "-f"}, res.Commands[0].Args)
}
