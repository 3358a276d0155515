package ignore

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type configVar struct {
	name, value string
	hasValue    bool
}

func readConfig(data string) ([]configVar, error) {
	var vars []configVar
	err := parseGitConfig([]byte(data), func(name, value string, hasValue bool) {
		vars = append(vars, configVar{name, value, hasValue})
	})
	return vars, err
}

func TestParseGitConfig(t *testing.T) {
	tests := []struct {
		name    string
		data    string
		want    []configVar
		wantErr bool
	}{
		{"empty", "", nil, false},
		{"simple", "[core]\n\texcludesFile = ~/.gitignore\n", []configVar{{"core.excludesfile", "~/.gitignore", true}}, false},
		{"no spaces", "[core]\nexcludesfile=/x\n", []configVar{{"core.excludesfile", "/x", true}}, false},
		{"case-insensitive section and key", "[CoRe]\nEXCLUDESFILE = a\n", []configVar{{"core.excludesfile", "a", true}}, false},
		{"subsection is another section", "[core \"sub\"]\nexcludesFile = a\n", []configVar{{"core.sub.excludesfile", "a", true}}, false},
		{"subsection keeps case and escapes", "[remote \"Or\\\"ig\"]\nurl = u\n", []configVar{{"remote.Or\"ig.url", "u", true}}, false},
		{"old-style subsection", "[core.sub]\nx = 1\n", []configVar{{"core.sub.x", "1", true}}, false},
		{"bare key", "[core]\n\tbare\n", []configVar{{"core.bare", "", false}}, false},
		{"bare key at EOF", "[core]\nbare", []configVar{{"core.bare", "", false}}, false},
		{"comments", "# c\n; c\n[core] # c\nx = a # c\ny = b ; c\n", []configVar{{"core.x", "a", true}, {"core.y", "b", true}}, false},
		{"quoted", "[core]\nx = \" a # b ; c \"\n", []configVar{{"core.x", " a # b ; c ", true}}, false},
		{"escapes", "[core]\nx = \"a\\\"b\\\\c\\nd\\te\"\n", []configVar{{"core.x", "a\"b\\c\nd\te", true}}, false},
		{"escapes outside quotes", "[core]\nx = a\\tb\n", []configVar{{"core.x", "a\tb", true}}, false},
		{"continuation", "[core]\nx = a\\\n  b\n", []configVar{{"core.x", "a  b", true}}, false},
		{"trailing whitespace trimmed", "[core]\nx = a b \t \n", []configVar{{"core.x", "a b", true}}, false},
		{"inner tab becomes space", "[core]\nx = a\tb\n", []configVar{{"core.x", "a b", true}}, false},
		{"quotes in the middle", "[core]\nx = a\" b \"c\n", []configVar{{"core.x", "a b c", true}}, false},
		{"CRLF", "[core]\r\nx = a\r\n", []configVar{{"core.x", "a", true}}, false},
		{"BOM", "\xef\xbb\xbf[core]\nx = a\n", []configVar{{"core.x", "a", true}}, false},
		{"key on section line", "[core] x = a\n", []configVar{{"core.x", "a", true}}, false},
		{"empty value", "[core]\nx =\n", []configVar{{"core.x", "", true}}, false},
		{"key with dash and digits", "[core]\nmy-key2 = v\n", []configVar{{"core.my-key2", "v", true}}, false},
		{"unterminated quote", "[core]\nx = \"a\ny = b\n", nil, true},
		{"bad escape", "[core]\nx = a\\qb\ny = c\n", nil, true},
		{"unterminated section", "[core\nx = a\n", nil, true},
		{"empty section", "[]\nx = a\n", nil, true},
		{"bad section char", "[co_re]\nx = a\n", nil, true},
		{"subsection without quotes", "[core sub]\nx = a\n", nil, true},
		{"subsection unterminated", "[core \"sub]\nx = a\n", nil, true},
		{"key starting with digit", "[core]\n1x = a\n", nil, true},
		{"garbage after key", "[core]\nx y\n", nil, true},
		{"values before an error are kept", "[core]\nx = a\n!!!\ny = b\n", []configVar{{"core.x", "a", true}}, true},
		{"partial BOM", "\xef\xbbx", nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := readConfig(tt.data)
			assert.Equal(t, tt.want, got)
			if tt.wantErr {
				assert.Error(t, err)
			} else {
				assert.NoError(t, err)
			}
		})
	}
}

func TestExcludesFilePath(t *testing.T) {
	tests := []struct {
		name            string
		home, xdgHome   string
		xdg, user, repo string
		want            string
	}{
		{"default under home", "/h", "", "", "", "", "/h/.config/git/ignore"},
		{"default under XDG_CONFIG_HOME", "/h", "/x", "", "", "", "/x/git/ignore"},
		{"no home no default", "", "", "", "", "", ""},
		{"XDG_CONFIG_HOME without home", "", "/x", "", "", "", "/x/git/ignore"},
		{"user config", "/h", "", "", "[core]\nexcludesFile = ~/.gitignore_global\n", "", "/h/.gitignore_global"},
		{"user overrides XDG config", "/h", "", "[core]\nexcludesfile = /a\n", "[core]\nexcludesfile = /b\n", "", "/b"},
		{"repo overrides user", "/h", "", "[core]\nexcludesfile = /a\n", "[core]\nexcludesfile = /b\n", "[core]\nexcludesfile = /c\n", "/c"},
		{"last one in a file wins", "/h", "", "", "[core]\nexcludesfile = /a\n[core]\nexcludesfile = /b\n", "", "/b"},
		{"XDG config only", "/h", "", "[core]\nexcludesfile = /a\n", "", "", "/a"},
		{"tilde alone", "/h", "", "", "[core]\nexcludesfile = ~\n", "", "/h"},
		{"tilde needs home", "", "/x", "", "[core]\nexcludesfile = ~/g\n", "", ""},
		{"tilde user not resolved", "/h", "", "", "[core]\nexcludesfile = ~bob/g\n", "", ""},
		{"relative kept", "/h", "", "", "[core]\nexcludesfile = rel/g\n", "", "rel/g"},
		{"empty value means none", "/h", "", "", "[core]\nexcludesfile =\n", "", ""},
		{"bare key ignored", "/h", "", "", "[core]\nexcludesfile = /a\nexcludesfile\n", "", "/a"},
		{"other section ignored", "/h", "", "", "[core \"x\"]\nexcludesfile = /a\n[user]\nexcludesfile = /b\n", "", "/h/.config/git/ignore"},
		{"quoted with spaces", "/h", "", "", "[core]\nexcludesfile = \"/a b/c \"\n", "", "/a b/c "},
		{"broken repo config keeps earlier files", "/h", "", "", "[core]\nexcludesfile = /a\n", "[core\n", "/a"},
		{"broken file keeps its earlier values", "/h", "", "", "[core]\nexcludesfile = /a\n[bad\nexcludesfile = /b\n", "", "/a"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ExcludesFilePath(tt.home, tt.xdgHome, []byte(tt.xdg), []byte(tt.user), []byte(tt.repo))
			assert.Equal(t, tt.want, got)
		})
	}
}

// TestExcludesFilePathAgainstGit checks the config reader against git's own
// reading of core.excludesFile for a few files.
func TestExcludesFilePathAgainstGit(t *testing.T) {
	requireGit(t)
	configs := map[string]string{
		"plain":        "[core]\n\texcludesFile = /tmp/a\n",
		"quoted":       "[CORE]\nEXCLUDESFILE = \"/tmp/a b\\t\" ; comment\n",
		"continuation": "[core] excludesfile = /tmp/\\\nx # c\n",
		"subsection":   "[core \"x\"]\nexcludesfile = /nope\n[core]\nexcludesfile=/tmp/y\n",
		"inner spaces": "[core]\nexcludesfile = /tmp/a  \t b   \n",
	}
	for name, cfg := range configs {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			file := filepath.Join(dir, "config")
			require.NoError(t, os.WriteFile(file, []byte(cfg), 0o644))
			out := runGit(t, dir, nil, false, "config", "--file", file, "--get", "core.excludesFile")
			assert.Equal(t, strings.TrimSuffix(string(out), "\n"), ExcludesFilePath("/h", "", nil, nil, []byte(cfg)))
		})
	}
}

func FuzzGitConfig(f *testing.F) {
	f.Add([]byte("[core]\nexcludesFile = \"a\\\"b\" ; c\n"))
	f.Add([]byte("[core \"x\"]\n\tk\n[a.b]\nx=\\\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_ = parseGitConfig(data, func(string, string, bool) {})
		ExcludesFilePath("/h", "", data, data, data)
	})
}
