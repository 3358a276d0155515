package policy

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	toml "github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"
)

// Config files are decoded twice: go-toml's strict decoder checks syntax,
// keys and types (its errors carry line and column), then a walk over the
// syntax tree finds where each rule, key and path glob is, so that semantic
// errors (bad class, glob or mode) can name a line too, and so that Revoke
// can cut a rule's table out of the file text while keeping the rest.

// fileConfig is the shape of a config file.
type fileConfig struct {
	Mode *string `toml:"mode"`
	// Profile is the dialect sessions speak (package profile): `profile = "claude"`. It
	// renames and reshapes, and grants nothing, so a project's applies before trust.
	Profile *string             `toml:"profile"`
	Allow   []tomlRule          `toml:"allow"`
	Ask     []tomlRule          `toml:"ask"`
	Deny    []tomlRule          `toml:"deny"`
	Roles   map[string]tomlRole `toml:"roles"`
	// Protected adds doublestar globs of paths that neither the file tools nor commands
	// may change to jido's defaults (security.DefaultProtected): top-level
	// `protected = ["deploy/**", "Makefile"]`, relative to the project root, matched
	// case-insensitively; a directory's glob protects what it holds. It only adds
	// protection, so a project's list applies before trust.
	Protected []string `toml:"protected"`
	// Model is the [model] table: the model chat and ask talk to (ModelConfig).
	Model *ModelConfig `toml:"model"`
}

// ModelConfig is a config's [model] table: which model `jido chat` and `jido ask` talk to,
// under the command's flags (--provider, --model, --base-url). It names the environment
// variable that holds the API key, never the key: a config file is read by tools and
// shared, an environment is not.
//
//	[model]
//	provider = "openai"                 # gemini, openai, interpreter, offline or auto
//	name = "qwen2.5-coder:7b"
//	base_url = "http://localhost:11434/v1"
//	api_key_env = "OLLAMA_API_KEY"
//
// A project's [model] applies only once the project is trusted (jido trust): it says where
// the conversation, and the key, are sent.
type ModelConfig struct {
	Provider  string `toml:"provider"`
	Name      string `toml:"name"`
	BaseURL   string `toml:"base_url"`
	APIKeyEnv string `toml:"api_key_env"`
}

// Providers are the values of [model] provider.
var Providers = []string{"auto", "gemini", "openai", "interpreter", "offline"}

// over returns m with the fields that o sets replaced by o's.
func (m ModelConfig) over(o ModelConfig) ModelConfig {
	if o.Provider != "" && o.Provider != m.Provider {
		m = ModelConfig{} // another provider: the name, URL and key of this one do not apply
	}
	m.Provider = cmpOr(o.Provider, m.Provider)
	m.Name = cmpOr(o.Name, m.Name)
	m.BaseURL = cmpOr(o.BaseURL, m.BaseURL)
	m.APIKeyEnv = cmpOr(o.APIKeyEnv, m.APIKeyEnv)
	return m
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// envName is the shape of an environment variable's name.
var envName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// keyLike matches values that look like API keys: OpenAI's, Anthropic's, Google's, GitHub's,
// Hugging Face's, bearer tokens, or a long run of letters and digits.
var keyLike = regexp.MustCompile(`^(sk-|sk_|AIza|ghp_|gho_|github_pat_|hf_|xai-|gsk_|Bearer )|^[A-Za-z0-9_\-.]{32,}$`)

// checkModel says what is wrong with a [model] table, and which key: "" when nothing.
func checkModel(m ModelConfig) (key, msg string) {
	switch {
	case m.Provider != "" && !slices.Contains(Providers, m.Provider):
		return "provider", fmt.Sprintf("unknown provider %q (want %s)", m.Provider, strings.Join(Providers, ", "))
	case m.APIKeyEnv != "" && (keyLike.MatchString(m.APIKeyEnv) && !isUpperEnvName(m.APIKeyEnv)):
		return "api_key_env", "looks like an API key: api_key_env is the NAME of the environment variable that holds the key " +
			"(e.g. api_key_env = \"OPENAI_API_KEY\"), never the key itself; remove the key from this file (and revoke it if the file was shared)"
	case m.APIKeyEnv != "" && !envName.MatchString(m.APIKeyEnv):
		return "api_key_env", fmt.Sprintf("%q is not the name of an environment variable (e.g. OPENAI_API_KEY): api_key_env names the variable that holds the key, never the key itself", m.APIKeyEnv)
	case m.BaseURL != "":
		u, err := url.Parse(m.BaseURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return "base_url", fmt.Sprintf("%q is not an http or https URL (e.g. http://localhost:11434/v1)", m.BaseURL)
		}
		if u.User != nil {
			return "base_url", "has a user or password in it: put the key in an environment variable and name it with api_key_env"
		}
	}
	return "", ""
}

// isUpperEnvName reports whether s is an environment variable name in the usual style
// (OPENAI_API_KEY), which a key never is.
func isUpperEnvName(s string) bool {
	return envName.MatchString(s) && strings.ToUpper(s) == s
}

type tomlRule struct {
	Tool     string   `toml:"tool"`
	Paths    []string `toml:"paths"`
	Hosts    []string `toml:"hosts"`
	Command  string   `toml:"command"`
	Commands []string `toml:"commands"`
	Class    string   `toml:"class"`
}

type tomlRole struct {
	Tools *[]string `toml:"tools"`
}

// pos is a 1-based line and column; line 0 means unknown.
type pos struct{ line, col int }

// ruleLoc says where a rule is in the file text.
type ruleLoc struct {
	action Action
	at     pos
	offset int  // byte offset of the header or inline table, for ordering
	start  int  // offset of the start of the header line
	inline bool // an inline table in `allow = [...]`: cannot be cut out
	keys   map[string]pos
	paths  []pos
}

type parsedRule struct {
	rule Rule
	loc  *ruleLoc
}

// parsedConfig is a checked config file.
type parsedConfig struct {
	mode      Mode
	hasMode   bool
	profile   *string
	rules     []parsedRule // in document order
	roles     map[string][]string
	protected []string
	model     *ModelConfig
	headers   []int // offsets of the start of every table header line
}

var actionByName = map[string]Action{"allow": Allow, "ask": Ask, "deny": Deny}

// configError formats a problem at a position of a file.
func configError(name string, at pos, format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	if at.line == 0 {
		return fmt.Errorf("%s: %s", name, msg)
	}
	return fmt.Errorf("%s:%d:%d: %s", name, at.line, at.col, msg)
}

// parseConfig decodes and checks the config text data of file name.
func parseConfig(name string, data []byte) (*parsedConfig, error) {
	var fc fileConfig
	dec := toml.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&fc); err != nil {
		return nil, decodeError(name, err)
	}
	sc := scanConfig(data)

	pc := &parsedConfig{roles: map[string][]string{}, headers: sc.headers}
	if fc.Mode != nil {
		m, err := ParseMode(*fc.Mode)
		if err != nil {
			return nil, configError(name, sc.mode, "%v", err)
		}
		pc.mode, pc.hasMode = m, true
	}
	pc.profile = fc.Profile
	for _, group := range []struct {
		action Action
		rules  []tomlRule
	}{{Allow, fc.Allow}, {Ask, fc.Ask}, {Deny, fc.Deny}} {
		locs := sc.rules[group.action]
		if len(locs) != len(group.rules) {
			return nil, configError(name, pos{}, "%s rules must be [[%s]] tables or an inline array of tables", group.action, group.action)
		}
		for i, tr := range group.rules {
			r := Rule{Action: group.action, Tool: tr.Tool, Paths: tr.Paths, Hosts: tr.Hosts, Command: tr.Command, Commands: tr.Commands, Class: tr.Class}
			if err := checkRule(name, r, locs[i]); err != nil {
				return nil, err
			}
			pc.rules = append(pc.rules, parsedRule{rule: r, loc: locs[i]})
		}
	}
	sort.SliceStable(pc.rules, func(i, j int) bool { return pc.rules[i].loc.offset < pc.rules[j].loc.offset })
	for i, p := range fc.Protected {
		if msg := checkProtected(p); msg != "" {
			at := sc.protected
			if i < len(sc.protectedItems) {
				at = sc.protectedItems[i]
			}
			return nil, configError(name, at, "protected: %q %s", p, msg)
		}
		pc.protected = append(pc.protected, p)
	}
	if fc.Model != nil {
		if key, msg := checkModel(*fc.Model); key != "" {
			at, ok := sc.model[key]
			if !ok {
				at = sc.modelTable
			}
			return nil, configError(name, at, "[model] %s: %s", key, msg)
		}
		pc.model = fc.Model
	}
	for role, v := range fc.Roles {
		if v.Tools == nil {
			return nil, configError(name, sc.roles[role], "role %q has no tools key", role)
		}
		pc.roles[role] = append([]string{}, *v.Tools...)
	}
	return pc, nil
}

// checkProtected says what is wrong with a glob of the protected list, or "" if nothing:
// it must be a valid doublestar pattern relative to the project root, since it is matched
// against root-relative paths as they are once resolved (no "./", "..", "//" or trailing
// slash, which would never match).
func checkProtected(p string) string {
	const want = `must be a glob relative to the project root, such as "deploy/**", "Makefile" or "**/*.sh"`
	switch {
	case p == "":
		return "is empty: " + want
	case strings.HasPrefix(p, "/"), strings.HasPrefix(p, "~"):
		return "is absolute: " + want
	case strings.Contains(p, `\`):
		return "has a backslash (a glob escape; paths use /): " + want
	case !doublestar.ValidatePattern(p):
		return "is not a valid glob: " + want
	}
	for _, part := range strings.Split(p, "/") {
		switch part {
		case "", ".", "..":
			return "has an empty, \".\" or \"..\" part, which never matches: " + want
		}
	}
	return ""
}

// checkRule reports a bad rule field at its position.
func checkRule(name string, r Rule, loc *ruleLoc) error {
	field, msg := validateRule(r)
	if field == "" {
		return nil
	}
	at, ok := loc.keys[field]
	if !ok {
		at = loc.at
	}
	if field == "paths" {
		for i, p := range r.Paths {
			if f, _ := validateRule(Rule{Paths: []string{p}}); f != "" && i < len(loc.paths) {
				at = loc.paths[i]
				break
			}
		}
	}
	return configError(name, at, "%s rule: %s: %s", r.Action, field, msg)
}

// decodeError turns a go-toml error into "file:line:col: problem".
func decodeError(name string, err error) error {
	var se *toml.StrictMissingError
	if errors.As(err, &se) && len(se.Errors) > 0 {
		de := se.Errors[0]
		line, col := de.Position()
		return configError(name, pos{line, col}, "unknown key %q", strings.Join(de.Key(), "."))
	}
	var de *toml.DecodeError
	if !errors.As(err, &de) {
		return fmt.Errorf("%s: %w", name, err)
	}
	line, col := de.Position()
	msg := strings.TrimPrefix(de.Error(), "toml: ")
	if key := de.Key(); strings.Contains(msg, "cannot decode") && len(key) > 0 {
		msg = fmt.Sprintf("wrong type for %q: want %s", strings.Join(key, "."), wantType(key))
	}
	return configError(name, pos{line, col}, "%s", msg)
}

// wantType names the TOML type expected for key.
func wantType(key []string) string {
	last := key[len(key)-1]
	switch {
	case len(key) == 2 && key[0] == "roles":
		return "a table"
	case last == "paths" || last == "tools":
		return "an array of strings"
	case last == "allow" || last == "ask" || last == "deny":
		return "an array of tables"
	case last == "roles" || last == "model":
		return "a table"
	}
	return "a string"
}

// scanned holds the positions found by scanConfig.
type scanned struct {
	mode    pos
	rules   map[Action][]*ruleLoc // per action, in document order
	roles   map[string]pos
	headers []int
	// protected is where the protected key is, protectedItems where each of its strings is.
	protected      pos
	protectedItems []pos
	// modelTable is where the [model] table starts, model where each of its keys is.
	modelTable pos
	model      map[string]pos
}

// scanConfig walks the syntax tree of data, which must be valid TOML, and
// records where things are.
func scanConfig(data []byte) scanned {
	sc := scanned{rules: map[Action][]*ruleLoc{}, roles: map[string]pos{}, model: map[string]pos{}}
	var p unstable.Parser
	p.Reset(data)
	// Line starts, to turn offsets into positions without rescanning.
	starts := []int{0}
	for i, c := range data {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	at := func(off int) pos {
		line := sort.SearchInts(starts, off+1) // first start > off
		return pos{line, off - starts[line-1] + 1}
	}
	var cur *ruleLoc // the rule table being read
	var table []string
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			keys, off := keyParts(e)
			start := lineStart(data, off)
			first := start + len(data[start:off]) - len(bytes.TrimLeft(data[start:off], " \t"))
			sc.headers = append(sc.headers, start)
			table, cur = keys, nil
			if a, ok := actionByName[single(keys)]; ok {
				cur = &ruleLoc{action: a, at: at(first), offset: first, start: start, keys: map[string]pos{}}
				sc.rules[a] = append(sc.rules[a], cur)
			} else if len(keys) == 2 && keys[0] == "roles" {
				sc.roles[keys[1]] = at(first)
			} else if single(keys) == "model" {
				sc.modelTable = at(first)
			}
		case unstable.KeyValue:
			keys, _ := keyParts(e)
			kv := at(int(e.Raw.Offset))
			switch {
			case cur != nil:
				recordKey(cur, keys, e, at)
			case table == nil && single(keys) == "mode":
				sc.mode = kv
			case table == nil && single(keys) == "protected":
				sc.protected = kv
				if e.Value().Kind == unstable.Array {
					for it := e.Value().Children(); it.Next(); {
						if n := it.Node(); n.Kind == unstable.String {
							sc.protectedItems = append(sc.protectedItems, at(int(n.Raw.Offset)))
						}
					}
				}
			case single(table) == "model" && len(keys) == 1:
				sc.model[keys[0]] = kv
			case table == nil && len(keys) == 2 && keys[0] == "model":
				sc.model[keys[1]] = kv
			case table == nil && single(keys) == "model":
				sc.modelTable = kv
			case single(table) == "roles" && len(keys) >= 1:
				sc.roles[keys[0]] = kv
			case table == nil && len(keys) == 2 && keys[0] == "roles":
				sc.roles[keys[1]] = kv
			case table == nil:
				a, ok := actionByName[single(keys)]
				if !ok || e.Value().Kind != unstable.Array {
					break
				}
				for it := e.Value().Children(); it.Next(); {
					n := it.Node()
					if n.Kind != unstable.InlineTable {
						continue
					}
					off := int(n.Raw.Offset)
					loc := &ruleLoc{action: a, at: at(off), offset: off, start: -1, inline: true, keys: map[string]pos{}}
					for kvs := n.Children(); kvs.Next(); {
						if k := kvs.Node(); k.Kind == unstable.KeyValue {
							ks, _ := keyParts(k)
							recordKey(loc, ks, k, at)
						}
					}
					sc.rules[a] = append(sc.rules[a], loc)
				}
			}
		}
	}
	return sc
}

// recordKey notes where a key of a rule (and each of its path globs) is.
func recordKey(loc *ruleLoc, keys []string, kv *unstable.Node, at func(int) pos) {
	k := single(keys)
	if k == "" {
		return
	}
	loc.keys[k] = at(int(kv.Raw.Offset))
	if k == "paths" && kv.Value().Kind == unstable.Array {
		for it := kv.Value().Children(); it.Next(); {
			if n := it.Node(); n.Kind == unstable.String {
				loc.paths = append(loc.paths, at(int(n.Raw.Offset)))
			}
		}
	}
}

// keyParts returns the parts of the key of a table or key-value node and the
// offset of its first part.
func keyParts(n *unstable.Node) ([]string, int) {
	var parts []string
	off := -1
	for it := n.Key(); it.Next(); {
		k := it.Node()
		if off < 0 {
			off = int(k.Raw.Offset)
		}
		parts = append(parts, string(k.Data))
	}
	return parts, max(off, 0)
}

func single(keys []string) string {
	if len(keys) == 1 {
		return keys[0]
	}
	return ""
}

func lineStart(data []byte, off int) int {
	return bytes.LastIndexByte(data[:off], '\n') + 1
}

// Load reads the user config, then the project config. Either path may be ""
// (no such file) or name a missing file (no rules yet; Remember creates it).
// The project's mode and roles override the user's. A bad file is an error
// of the form "file:line:column: problem". The project config is trusted
// whole; LoadWithTrust guards against a project that loosens the user's rules.
func Load(userPath, projectPath string) (*Engine, error) {
	return LoadWithTrust(userPath, projectPath, "")
}

// LoadWithTrust is Load for projects the user did not write: unless trustPath
// ("" trusts every project) records the project config's exact content as
// trusted (Trust, or jido writing the file itself), the parts of it that give
// more than the user's own config (allow rules, the auto-edit and yolo modes,
// roles) are ignored and listed by Engine.Ignored; deny and ask rules, a
// stricter mode and the protected list (Engine.Protected) still apply. A
// repository cannot approve its own commands.
func LoadWithTrust(userPath, projectPath, trustPath string) (*Engine, error) {
	e := New(ModeDefault)
	e.trustPath = trustPath
	for _, f := range []struct {
		scope Scope
		path  string
	}{{ScopeUser, userPath}, {ScopeProject, projectPath}} {
		e.files[scopeIndex(f.scope)] = f.path
		if f.path == "" {
			continue
		}
		data, err := os.ReadFile(f.path)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("policy: %w", err)
		}
		if err := e.loadBytes(f.scope, f.path, data); err != nil {
			return nil, err
		}
	}
	if projectPath != "" && trustPath != "" {
		e.mu.Lock()
		if tools := e.projectToolsLocked(); len(tools) > 0 {
			config, _ := os.ReadFile(projectPath)
			if !e.trustsBundle(config, tools) {
				for _, t := range tools {
					e.ignored = append(e.ignored, fmt.Sprintf("%s: tool file %s (not loaded)", filepath.Join(filepath.Dir(projectPath), ToolsDir), t.Name))
				}
			}
		}
		e.mu.Unlock()
	}
	return e, nil
}

// loadBytes adds the config text data of file name at scope.
func (e *Engine) loadBytes(scope Scope, name string, data []byte) error {
	pc, err := parseConfig(name, data)
	if err != nil {
		return err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	guarded := scope == ScopeProject && !e.trusts(data)
	switch {
	case !pc.hasMode:
	case guarded && (pc.mode == ModeAutoEdit || pc.mode == ModeYolo):
		e.ignored = append(e.ignored, fmt.Sprintf("%s: mode = %q", name, pc.mode))
	default:
		e.mode = pc.mode
	}
	e.protected = append(e.protected, pc.protected...) // it only adds protection: applied untrusted too
	if pc.profile != nil {
		e.profile = *pc.profile // names and shapes only: applied untrusted too
	}
	switch {
	case pc.model == nil:
	case guarded:
		// It says where the conversation and the user's key go: not a repository's to decide.
		e.ignored = append(e.ignored, fmt.Sprintf("%s: [model]", name))
	default:
		e.model = e.model.over(*pc.model)
	}
	for role, tools := range pc.roles {
		if guarded {
			e.ignored = append(e.ignored, fmt.Sprintf("%s: [roles.%s]", name, role))
			continue
		}
		e.roles[role] = tools
	}
	si := scopeIndex(scope)
	for i, pr := range pc.rules {
		r := pr.rule
		if guarded && r.Action == Allow {
			e.ignored = append(e.ignored, fmt.Sprintf("%s:%d: [[allow]] %s", name, pr.loc.at.line, describeRule(r)))
			continue
		}
		r.Scope = scope
		e.next[si]++
		r.ID = fmt.Sprintf("%s-%d", scope, e.next[si])
		r.Source = fmt.Sprintf("%s:%d", name, pr.loc.at.line)
		e.rules[si] = append(e.rules[si], &entry{rule: r, file: name, ord: i})
	}
	return nil
}

// readConfig reads and checks path; a missing file is empty.
func readConfig(path string) ([]byte, *parsedConfig, error) {
	data, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, nil, fmt.Errorf("policy: %w", err)
	}
	pc, err := parseConfig(path, data)
	if err != nil {
		return nil, nil, err
	}
	return data, pc, nil
}

// appendRuleToFile appends r as a table to the config file path and returns
// its ordinal among the file's rules, its line, and the file's content as read and as
// written (so that trust is decided on, and recorded for, exactly those bytes).
func appendRuleToFile(path string, r Rule) (ord, line int, before, after []byte, err error) {
	data, _, err := readConfig(path)
	if err != nil {
		return 0, 0, nil, nil, fmt.Errorf("policy: not changing a bad config file: %w", err)
	}
	buf := append([]byte(nil), data...)
	if len(buf) > 0 {
		if buf[len(buf)-1] != '\n' {
			buf = append(buf, '\n')
		}
		buf = append(buf, '\n')
	}
	buf = append(buf, renderRule(r)...)
	pc, err := parseConfig(path, buf)
	if err != nil || len(pc.rules) == 0 {
		return 0, 0, nil, nil, fmt.Errorf("policy: cannot append a rule to %s: %v", path, err)
	}
	if err := writeAtomic(path, buf); err != nil {
		return 0, 0, nil, nil, err
	}
	last := pc.rules[len(pc.rules)-1]
	return len(pc.rules) - 1, last.loc.at.line, data, buf, nil
}

// removeRuleFromFile cuts the table of r out of the config file path. It
// looks at ordinal ord first, then for any table with the same content. It
// returns the ordinal removed, or -1 when the file no longer has the rule, and the
// file's content as read and as written (nil when nothing was written).
func removeRuleFromFile(path string, ord int, r Rule) (int, []byte, []byte, error) {
	data, pc, err := readConfig(path)
	if err != nil {
		return -1, nil, nil, fmt.Errorf("policy: not changing a bad config file: %w", err)
	}
	idx := -1
	if ord < len(pc.rules) && sameRule(pc.rules[ord].rule, r) {
		idx = ord
	} else {
		for i, pr := range pc.rules {
			if sameRule(pr.rule, r) {
				idx = i
				break
			}
		}
	}
	if idx < 0 {
		return -1, data, nil, nil
	}
	loc := pc.rules[idx].loc
	if loc.inline {
		return -1, nil, nil, fmt.Errorf("policy: rule %s is in an inline array in %s:%d; edit the file by hand", r.ID, path, loc.at.line)
	}
	start, end := loc.start, len(data)
	for _, h := range pc.headers {
		if h > start {
			end = h
			break
		}
	}
	if end < len(data) {
		// A comment block right above the next header belongs to it.
		for end > start {
			prev := lineStart(data, end-1)
			if !bytes.HasPrefix(bytes.TrimSpace(data[prev:end]), []byte("#")) {
				break
			}
			end = prev
		}
	}
	out := append(append([]byte(nil), data[:start]...), data[end:]...)
	if _, err := parseConfig(path, out); err != nil {
		return -1, nil, nil, fmt.Errorf("policy: removing rule %s would break %s: %w", r.ID, path, err)
	}
	return idx, data, out, writeAtomic(path, out)
}

// ruleLines returns the line of each rule of the config file path, by
// ordinal; nil if the file cannot be read.
func ruleLines(path string) []int {
	_, pc, err := readConfig(path)
	if err != nil {
		return nil
	}
	lines := make([]int, len(pc.rules))
	for i, pr := range pc.rules {
		lines[i] = pr.loc.at.line
	}
	return lines
}

func sameRule(a, b Rule) bool {
	if a.Action != b.Action || a.Tool != b.Tool || a.Command != b.Command || a.Class != b.Class || len(a.Paths) != len(b.Paths) ||
		!slices.Equal(a.Commands, b.Commands) || !slices.Equal(a.Hosts, b.Hosts) {
		return false
	}
	for i := range a.Paths {
		if a.Paths[i] != b.Paths[i] {
			return false
		}
	}
	return true
}

// writeAtomic replaces path with data: it writes a temporary file in the same
// directory and renames it over path, so readers never see half a file. It
// creates the parent directories and keeps the permissions of an existing
// file.
func writeAtomic(path string, data []byte) (err error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("policy: %w", err)
	}
	perm := fs.FileMode(0o644)
	if fi, err := os.Stat(path); err == nil {
		perm = fi.Mode().Perm()
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("policy: %w", err)
	}
	defer func() {
		if err != nil {
			os.Remove(f.Name())
			err = fmt.Errorf("policy: writing %s: %w", path, err)
		}
	}()
	if _, err = f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err = f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	if err = os.Chmod(f.Name(), perm); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}
