package interpret

import (
	"fmt"
	"path"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// rule is one phrasing of an intent: a pattern over the normalized query, and what to plan
// when it matches.
type rule struct {
	intent  string // the tool (or list_dir's "cd", "mutating", "git", "help", ...) the rule leads to
	pattern string // RE2, matched case-insensitively against the whole normalized query
	// build plans from the match; false when the phrasing matched but names nothing the
	// intent can use (not a path, not a file), so that the next rule is tried.
	build func(m match, c Context) (Plan, bool)
}

// compiledRule is a rule whose pattern is compiled the first time a query reaches it: a
// query that an early rule answers (the common ones) does not pay for compiling the whole
// table, which takes about 6 ms, at each start of jido ask.
type compiledRule struct {
	rule
	re func() *regexp.Regexp
}

// match is a rule's pattern matched against a query.
type match struct {
	s   string
	re  *regexp.Regexp
	loc []int
	cs  *bool // the query said "case sensitive" (true) or "ignoring case" (false)
}

// get returns the text of the named group, "" when it did not take part.
func (m match) get(name string) string {
	i := m.re.SubexpIndex(name)
	if i < 0 || m.loc[2*i] < 0 {
		return ""
	}
	return m.s[m.loc[2*i]:m.loc[2*i+1]]
}

// first returns the text of the first of the named groups that took part.
func (m match) first(names ...string) string {
	for _, n := range names {
		if s := m.get(n); s != "" {
			return s
		}
	}
	return ""
}

// through returns the query from the start of group a to the end of group b: the whole
// "text in place" when "place" named no path after all. Without b, it is group a.
func (m match) through(a, b string) string {
	i, j := m.re.SubexpIndex(a), m.re.SubexpIndex(b)
	if i < 0 || m.loc[2*i] < 0 || j < 0 || m.loc[2*j+1] < m.loc[2*i] {
		return m.get(a)
	}
	return m.s[m.loc[2*i]:m.loc[2*j+1]]
}

// The patterns share these pieces.
const (
	// lineRange is "10", "10-20", "10 to 20", ...: groups a and b.
	lineRange = `(?P<a>\d+)(?: ?(?:-|–|—|to|through|thru|until|till|\.\.) ?(?P<b>\d+))?`
	// scope is where: " in src" (group t) or " here" (group here).
	scope = `(?: (?:in|under|inside|within|across|throughout|from|below) (?P<t>.+?)| (?P<here>here|in here))?`
	// depth is "depth 2" or "3 levels deep": groups d and d2.
	depth = `(?:,? (?:(?:with |to )?(?:a )?(?:max(?:imum)? )?depth(?: of)? (?P<d>\d+)|(?P<d2>\d+) levels?(?: deep)?))?`
	// viewVerbs show a file's content or a directory's entries, whichever the target is.
	viewVerbs = `show|see|view|display|print|open|give|get|look at|check out|inspect|examine|peek at|peek into|` +
		`take a look at|have a look at|look in|look inside|look into|browse|explore|pull up|bring up`
	// readVerbs read a file.
	readVerbs = `read|cat|less|more|type|bat|dump|load|read out|read through|go through|print out`
	// mutations are the verbs of requests that change the project or run commands.
	mutations = `delete|remove|rm|del|erase|wipe|unlink|rmdir|destroy|trash|write|overwrite|save|create|make|mkdir|` +
		`touch|add|append|insert|prepend|put|edit|modify|change|update|replace|substitute|rename|move|mv|copy|cp|` +
		`fix|patch|refactor|rewrite|implement|format|reformat|lint|install|uninstall|upgrade|downgrade|revert|undo|` +
		`redo|apply|chmod|chown|kill|execute|exec|run|sudo|npm|yarn|pnpm|pip|cargo|bash|sh|zsh|curl|wget|deploy|` +
		`build|compile|generate|comment out|uncomment|clean|cleanup|clean up|enable|disable|bump|release|publish|` +
		`download|upload|empty|truncate|convert|translate|go (?:build|run|install|get|mod|generate|fmt|vet|clean)`
)

// table is the rule table, in order of precedence: the first rule that matches and builds
// a plan answers. Specific phrasings come before general ones ("list todos" before "list
// X", "find all go files" before "find X").
var table = sync.OnceValue(func() []compiledRule {
	rules := []rule{
		{"help", `^(?:help|h|\?|what can you do|what can i (?:ask|say|do)|how (?:do|can) i use (?:you|this|jido)|what do you (?:do|understand|know)|usage|commands|examples?|who are you|what are you)$`, helpPlan},
		{"chat", `^(?:|hi|hello|hey|yo|thanks|thank you|thx|ty|cheers|good (?:morning|afternoon|evening|night)|bye|goodbye|see you|ok|okay|cool|nice|great|awesome|perfect|lol|yes|no|sure|how are you(?: doing)?|how's it going|what's up|sup|who made you|are you (?:there|alive|a bot|human)|what time is it|what day is it)$`, chatPlan},
		{"search", `^(?:git )?(?:grep|rg|ack|ag)(?: for)?(?P<flags>(?: -{1,2}[\w-]+)*) (?P<q>"[^"]*"|'[^']*'|\S+)(?: (?:in |under )?(?P<t>\S+))?$`, grepPlan},
		{"git", `^(?:git\b.*|(?:(?:show|what's|whats|what is|what are|list|see|get|view|check)(?: me)? )?(?:the )?(?:git |current |recent |latest )?(?:status|diff|log|history|commits?|commit log|commit history|branch(?:es)?|blame|staged changes|unstaged changes|uncommitted changes|pending changes|local changes|changes since .+|history of .+)|what (?:has |have )?changed(?: .*)?|what did (?:i|you|we) change(?: .*)?|which files (?:have |were )?(?:changed|modified)(?: .*)?|(?:commit|push|pull|checkout|stash|rebase|merge|cherry-pick|tag)\b.*)$`, gitPlan},
		{"run_tests", `^(?:run|rerun|re-run|execute|launch|start|kick off|trigger|do)(?: (?:all|the|my|our|every|unit|go|project's|project|whole|entire|full|integration))* (?:tests?|test suite|testsuite|suite|specs?)(?: again)?(?: (?:in|for|of|under|on|inside) (?P<t>.+?))?(?: (?:matching|named|called|that match|with names? matching) (?P<sel>\S+))?$`, testsPlan},
		{"run_tests", `^(?:go )?test(?: (?P<t>\S+))?$`, testsPlan},
		{"run_tests", `^(?:run )?(?:the )?(?P<sel>(?-i:(?:Test|Benchmark|Example|Fuzz)[A-Z0-9_])\w*)(?: test| benchmark)?(?: (?:in|from|under) (?P<t>.+?))?$`, testsPlan},
		{"run_tests", `^(?:do|does|are|is|did|will) (?:the |all (?:the )?|my |our )?(?:tests?|test suite|build)(?: still)? (?:pass|passing|green|ok|work|working|succeed|succeeding|fail|failing|broken|break)(?: (?:in|for) (?P<t>.+?))?$`, testsPlan},
		{"run_tests", `^(?:check|verify|make sure|see|confirm|find out)(?: if| whether| that)? (?:the |all (?:the )?)?tests? (?:pass|still pass|are passing|are green|work|succeed)$`, testsPlan},
		{"cd", `^(?:cd|chdir|pushd|go (?:to|into|in)|enter|switch to|change (?:the )?(?:directory|dir|folder) to|move into|step into|focus on) (?P<t>.+?)$`, cdPlan},
		{"mutating", `^(?:how (?:do|can|would|should) (?:i|we|you) )?(?:` + mutations + `)\b`, mutatingPlan},
		{"search", `^(?:(?:list|show|find|get|search|search for|grep|grep for|look for|scan for|collect|print|give me|display|count|how many)(?: me)?(?: all| every| any)?(?: (?:the|of the|my|our))?(?: open| remaining| outstanding| pending)? )?(?:todos|to-dos|todo comments|todo items|todo notes|todo markers|fixmes|fixme comments|todos?(?: and| or| &|/| /) ?fixmes?|fixmes?(?: and| or| &|/| /) ?todos?)(?: comments| notes| items| markers)?(?: (?:are )?(?:left|remaining|there))?` + scope + `(?: (?:are there|left|remaining))?$`, todosPlan},
		{"search", `^(?:list|show|any|are there(?: any)?|is there(?: any)?|what are(?: the)?|do we have(?: any)?|how many)(?: (?:the|open|remaining))* (?:todo|fixme)s?(?: comments| items| notes)?(?: (?:left|remaining))?` + scope + `(?: (?:left|remaining|are there))?$`, todosPlan},
		{"search", `^(?:what|which) (?:todos|fixmes|todo comments|fixme comments)(?: are there| do we have| are left| remain| exist)` + scope + `$`, todosPlan},
		{"read_file", `^(?:show|read|print|display|view|cat|give|get|see|open|output|dump)(?: me)?(?: the)? lines? ` + lineRange + ` (?:of|in|from) (?P<t>.+?)$`, linesPlan},
		{"read_file", `^(?:show|read|print|display|view|cat|see|open|dump)(?: me)? (?P<t>.+?),? (?:from |at |on )?lines? ` + lineRange + `$`, linesPlan},
		{"read_file", `^(?:show|read|print|display|view|cat|give|get|see|dump)(?: me)?(?: the)? (?:first|top) (?P<n>\d+) lines (?:of|in|from) (?P<t>.+?)$`, linesPlan},
		{"read_file", `^head(?: -n ?(?P<n>\d+)| -(?P<n2>\d+))? (?P<t>\S+)$`, linesPlan},
		{"read_file", `^(?:(?:show|read|open|view|cat|print|see|go to|jump to)(?: me)? )?(?P<t>[^\s:]+):` + lineRange + `$`, linesPlan},
		{"glob", `^(?:(?P<v>find|list|show|get|give|search for|search|locate|look for|where are|which are|what are|count|how many|are there|is there|do we have|display|print|enumerate)(?: me)? )?(?:(?:all|every|the|any|of|my|our) )*(?P<lang>emacs lisp|[\w.+#*-]+) (?:files?|sources?|source files|scripts?|modules|documents|docs|configs?)(?: (?:are there|do we have|exist|there are))?` + scope + `(?: (?:are there|do we have|exist|there are))?$`, globLangPlan},
		{"glob", `^(?:(?P<v>find|list|show|get|give|locate)(?: me)? )?(?:(?:all|every|the|any) )*files (?:ending (?:in|with)|with (?:the )?(?:extension|suffix|ext)) (?P<lang>\S+)` + scope + `$`, globLangPlan},
		{"glob", `^(?:(?P<v>find|list|show|get|give|locate)(?: me)? )?(?:(?:all|every|the|any) )*files with (?:the |an? )?(?P<lang>\S+) extension` + scope + `$`, globLangPlan},
		{"glob", `^(?:(?:find|locate|search for|look for|get|show|list|where (?:is|are)|where's)(?: me)? )?(?:(?:all|the|any) )?(?:files?|paths?) (?:named|called|matching|like|with (?:the )?name|whose names? (?:is|are|match|matches)|that match|(?:with )?names? (?:like|matching)) (?P<p>.+?)` + scope + `$`, globName(false)},
		{"glob", `^glob (?P<p>\S+)` + scope + `$`, globName(false)},
		{"glob", `^(?:where is|where's|wheres|where are|where can i find|locate|find|find me|which (?:directory|folder) (?:has|contains|holds)|where does|where do) (?:the |a |an |file |the file )?(?P<p>\S+?)(?: file)?(?: (?:live|lives|sit|sits|reside|resides)| (?:is|are) (?:located|kept|stored)| located)?` + scope + `$`, globName(true)},
		{"file_exists", `^(?:does|do) (?P<t>.+?) (?:exist|exists|exist already|already exist|exist yet)(?: (?:in|under) (?P<in>.+?))?$`, existsPlan(false)},
		{"file_exists", `^(?:if|whether) (?P<t>.+?) (?:exists|exist|is there)(?: (?:in|under) (?P<in>.+?))?$`, existsPlan(false)},
		{"file_exists", `^(?:check|see|verify|confirm|find out|test)(?: if| whether| that)?(?: there is| there's)?(?: an?| the)? (?P<t>.+?) (?:exists|exist|is there|is present|is missing)(?: (?:in|under) (?P<in>.+?))?$`, existsPlan(false)},
		{"file_exists", `^(?:exists|file exists|test -[efd]|stat) (?P<t>\S+)$`, existsPlan(false)},
		{"file_exists", `^is (?P<t>\S+) (?:there|present|missing|around|a file|a directory|a folder|a dir)$`, existsPlan(false)},
		{"file_exists", `^(?:is there|are there|do we have|do i have|have we got|have i got|does the (?:project|repo) have|does this (?:project|repo) have)(?: already)?(?: an?| the| any| some)? (?P<t>.+?)(?: (?:in|under) (?P<in>.+?)| (?P<here>here|in here))?$`, existsPlan(true)},
		{"list_files", `^(?:(?:show|display|print|give|get|list|draw|render|output|see|view)(?: me)? )?(?:(?:the|a|an|me) )?(?:(?:whole|full|entire|complete|overall|recursive|project|file|files|directory|folder|source|repo|repository|code|codebase|dir) )*(?:tree|structure|layout|hierarchy|overview|organi[sz]ation|file list)(?: (?:of|for|in|under) (?P<t>.+?)| (?P<here>here)| (?P<t2>\S+))?` + depth + `$`, treePlan},
		{"list_files", `^(?:list|show|display|print|give|get|find|enumerate|see|what are)(?: me)? (?:all|every|each)(?: of)?(?: the| my| our)?(?: (?:source|code|project))? (?:files?|entries|paths|contents|things|stuff)(?: recursively| in the (?:project|repo|repository|codebase))?` + scope + `(?: recursively)?` + depth + `$`, treePlan},
		{"list_files", `^recursively (?:list|show)(?: me)?(?: the| all(?: the)?)?(?: files| contents| entries)?(?: (?:in|of|under))?(?: (?P<t>.+?))?$`, treePlan},
		{"list_files", `^(?:list|show)(?: me)?(?: the| all(?: the)?)? (?:files|contents|entries)(?: (?:in|of|under) (?P<t>.+?))? recursively$`, treePlan},
		{"list_files", `^(?:ls|ll) (?-i:-\w*R\w*)(?: (?P<t>\S+))?$`, treePlan},
		{"list_files", `^(?:what does|how does) (?P<t>(?:the |this |our )?(?:project|repo|repository|codebase|code base|code)) look(?: like)?$`, treePlan},
		{"list_files", `^how is (?P<t>(?:the |this |our )?(?:project|repo|repository|codebase|code)) (?:organi[sz]ed|structured|laid out|arranged)$`, treePlan},
		{"search", `^(?:(?:find|show|list|get|search for|search|look for|grep for|give me)(?: me)? )?(?:(?:all|every) )?(?:the )?(?:usages?|uses|references|refs|occurrences|instances|calls|callers|call sites|mentions|invocations) (?:of|to|for) (?P<q>.+?)` + scope + `$`, searchRule("")},
		{"search", `^(?:where|in which files?|which files?|what files?)(?: (?:is|are|does|do|was|were))? (?:the )?(?:(?:function|method|type|class|struct|interface|variable|var|const|constant|field|symbol|macro) )?(?P<q>.+?) (?:gets? |being )?(?:defined|declared|implemented|used|called|referenced|mentioned|set|initiali[sz]ed|imported|created|thrown|raised|handled|registered|live|lives|come from|comes from|assigned|invoked|instantiated)(?: (?:in|under) (?P<t>.+?)| in)?$`, searchRule("")},
		{"search", `^(?:who|what) (?:calls|uses|references|imports|invokes|mentions|sets|implements) (?P<q>.+?)(?: (?:in|under) (?P<t>.+?))?$`, searchRule("")},
		{"search", `^(?:which|what) files? (?:contain|contains|mention|mentions|use|uses|reference|references|include|includes|have|has|import|imports|define|defines|call|calls)(?: the (?:string|text|word|phrase|term))? (?P<q>.+?)(?: (?:in|under) (?P<t>.+?))?$`, searchRule("files_with_matches")},
		{"search", `^(?:(?:list|find|show|get)(?: me)? )?(?:(?:all|the) )*files (?:that |which )?(?:contain|containing|mention|mentioning|use|using|reference|referencing|including|importing|with the (?:string|text|word)) (?P<q>.+?)(?: (?:in|under) (?P<t>.+?))?$`, searchRule("files_with_matches")},
		{"search", `^how many (?:times|occurrences of|matches (?:of|for)|references to|usages of|uses of|lines (?:contain|with|mention)|calls to) (?:does |do |is |are )?(?P<q>.+?)(?: (?:appear|appears|occur|occurs|is used|are used|show up|shows up|are there|exist|is mentioned|is called))?(?: (?:in|under) (?P<t>.+?))?$`, searchRule("count")},
		{"list_dir", `^(?:ls|ll|la|dir|list|lsd|exa|eza)(?: -{1,2}[\w-]+)*(?: (?:the )?(?:files|entries|contents|content|stuff|things|everything)(?: (?:in|of|inside|under|at))?)?(?: (?P<t>.+?))?$`, listPlan},
		{"list_dir", `^(?:what's|whats|what is|what are|what're|what all is|what exactly is|show(?: me)?|tell me|see|display|list|view)(?: all)?(?: of)?(?: the)?(?: (?:files|contents|content|things|stuff|entries|everything))? (?:in|inside|under|within) (?P<t>.+?)$`, listPlan},
		{"list_dir", `^(?:what's|whats|what is|what are|what files are|which files are|what do we have|what have we got|what exists|what do you see|what can you see)(?: all)?(?: the)?(?: (?:files|contents|things|stuff))? ?(?:here|in here|around here|over here|there|in there)$`, listPlan},
		{"list_dir", `^(?:show(?: me)?|list|display) what(?:'s| is) (?:here|in here|there|in (?P<t>.+?))$`, listPlan},
		{"list_dir", `^(?:the )?(?:contents?|listing|entries|files) (?:of|in|for|inside|under) (?P<t>.+?)$`, listPlan},
		{"list_dir", `^(?:what|which) (?:files|entries|things|directories|folders|subdirectories|subfolders|dirs)(?: and (?:folders|directories|dirs|files))? (?:are|do we have|exist|live|are there|can you see|do you see)(?: there)? (?:in|under|inside) (?P<t>.+?)$`, listPlan},
		{"list_dir", `^(?:what|which) (?:files|entries|directories|folders)(?: and (?:folders|directories|files))? (?:are|do we have|exist)(?: there)?(?: here| in here)?$`, listPlan},
		{"current_directory", `^(?:where am i|pwd|current directory|cwd|what directory am i in|which directory am i in|what(?:'s| is) (?:the |my )?(?:current|working|current working) (?:directory|dir|folder))\??$`, cwdPlan},
		{"list_dir", `^what does (?P<t>.+?) (?:contain|have in it|hold)$`, listPlan},
		{"read_file", `^(?:` + readVerbs + `)(?: -{1,2}[\w-]+)*(?: me)?(?: (?:the|all|all of|all the))?(?: (?:contents?|content|text|source(?: code)?|code|body|whole|full|entire)(?: (?:of|in|for))?)?(?: the)? (?P<t>.+?)(?: (?:out loud|in full|in its entirety|completely))?$`, readPlan},
		{"read_file", `^(?:` + viewVerbs + `)(?: me)?(?: (?:the|all|all of|all the))?(?: (?:contents?|content|text|source(?: code)?|code|body|whole|full|entire|listing)(?: (?:of|in|for))?)?(?: the)? (?P<t>.+?)$`, viewRule},
		{"search", `^(?:where is|where's|wheres|where are|locate|find) (?:the )?(?:(?:function|method|type|class|struct|variable|symbol|constant) )?(?P<q>[\w.:$]+(?:\(\))?)$`, searchRule("")},
		{"search", `^(?:search|look|hunt|scan|seek|find|query)(?: (?:for|up|through the code for|the code for|the codebase for|the project for|the repo for|everywhere for))?(?: (?:the|all|any|every))?(?: (?P<rx>regex|regexp|regular expression|pattern))?(?: (?:text|string|word|phrase|term|identifier|symbol|function|method|class|type|variable|constant|name|keyword|literal|lines?|occurrences of|instances of|mentions of|matches for|matches of))?(?: (?:containing|matching|with|that contain|that match|that mention))? (?P<q>.+?)` + scope + `$`, searchGeneric},
		{"explain", `^(?:explain|summari[sz]e|describe|what does|what is|what's|whats|about|tell me about|give me (?:an overview|a summary) of|walk me through|review)(?: me)?(?: the)? (?P<t>.+?)(?: do| does| for| about| contain| mean| is for)?$`, explainPlan},
		{"bare", `^(?P<t>\S+)$`, barePlan},
	}
	out := make([]compiledRule, len(rules))
	for i, r := range rules {
		out[i] = compiledRule{rule: r, re: sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)` + r.pattern) })}
	}
	return out
})

// Rules interprets query with the rule table alone: no model, no session. Its paths pass
// the lexical check (relative, inside the root); Interpreter.Interpret also checks its plans
// against the session's tools and sandbox. Listing defaults to the directory in focus,
// searching and finding to the whole project.
func Rules(query string, c Context) Plan {
	q, cs := cutCase(normalize(query))
	for _, r := range table() {
		re := r.re()
		loc := re.FindStringSubmatchIndex(q)
		if loc == nil {
			continue
		}
		if p, ok := r.build(match{s: q, re: re, loc: loc, cs: cs}, c); ok {
			p.Source = SourceRules
			return p
		}
	}
	return Plan{Source: SourceRules, Rationale: "I could not match this to a tool without a language model. Requests like these work:",
		Suggestions: suggest()}
}

// cutCase takes a trailing "case sensitive" or "ignoring case" off a query.
func cutCase(q string) (string, *bool) {
	re := textRegexps()
	for _, m := range []struct {
		re *regexp.Regexp
		cs bool
	}{{re.caseOff, false}, {re.caseOn, true}} {
		if loc := m.re.FindStringIndex(q); loc != nil {
			cs := m.cs
			return q[:loc[0]], &cs
		}
	}
	return q, nil
}

// example is a phrasing the rules understand, and the tool it leads to.
type example struct{ text, tool string }

// examples are the suggestions offered for queries no tool fits; the first four are the
// default ones.
var examples = []example{
	{"what's in this directory?", "list_dir"},
	{"find all go files", "glob"},
	{"read README.md", "read_file"},
	{"search for TODO", "search"},
	{"show the project tree", "list_files"},
	{"run the tests", "run_tests"},
}

// suggest returns the example of each tool named, or the default examples when none is.
func suggest(tools ...string) []string {
	var out []string
	if len(tools) == 0 {
		for _, e := range examples[:4] {
			out = append(out, e.text)
		}
		return out
	}
	for _, t := range tools {
		for _, e := range examples {
			if e.tool == t {
				out = append(out, e.text)
				break
			}
		}
	}
	return out
}

// offeredSuggestions drops the examples whose tool the session does not offer.
func (in *Interpreter) offeredSuggestions(ss []string) []string {
	var out []string
	for _, s := range ss {
		keep := true
		for _, e := range examples {
			if e.text == s {
				keep = in.tool(e.tool) != nil
				break
			}
		}
		if keep {
			out = append(out, s)
		}
	}
	return out
}

// calls is a plan of tool calls.
func calls(rationale string, tools ...ToolPlan) Plan {
	return Plan{NeedsTools: true, Tools: tools, Rationale: rationale}
}

// call is one planned call.
func call(name string, confidence float64, args map[string]any) ToolPlan {
	return ToolPlan{Name: name, Args: args, Confidence: confidence}
}

// answer is a plan without tools.
func answer(rationale string, suggestions ...string) Plan {
	return Plan{Rationale: rationale, Suggestions: suggestions}
}

// shown names a path for people: "." is the project root.
func shown(p string) string {
	if p == "." {
		return "the project root"
	}
	return p
}

// Confidence of rule plans: a phrasing that names the tool's job, one that is likely, and a
// guess (a bare path, "explain X" shown instead).
const (
	sure   = 0.9
	likely = 0.75
	guess  = 0.6
)

func helpPlan(match, Context) (Plan, bool) {
	return answer("Without a language model I understand requests about the project's files, like these "+
		"(with a model configured, e.g. GEMINI_API_KEY, you can ask anything):", suggest()...), true
}

func chatPlan(match, Context) (Plan, bool) {
	return answer("Nothing to look up for that. I answer questions about the project's files, like these:", suggest()...), true
}

func gitPlan(match, Context) (Plan, bool) {
	return answer("There is no git tool. With a language model configured (e.g. GEMINI_API_KEY), run_shell can run git for you.",
		suggest("list_files", "search", "read_file")...), true
}

func mutatingPlan(match, Context) (Plan, bool) {
	return answer("Without a language model I do not guess at changes: deleting, writing, editing, moving files and running commands "+
		"need one (e.g. GEMINI_API_KEY), which shows each call for your approval.",
		suggest("read_file", "search", "run_tests")...), true
}

// with resolves the target phrase and hands it to build; a target that cannot be used
// answers with its reason.
func with(phrase string, c Context, build func(target) (Plan, bool)) (Plan, bool) {
	t, ok := resolve(phrase, c)
	if !ok {
		return Plan{}, false
	}
	if t.stop != nil {
		return *t.stop, true
	}
	return build(t)
}

// scopeOf is the place phrase of a match: group t, or "here".
func scopeOf(m match) string {
	if s := m.first("t", "t2"); s != "" {
		return s
	}
	return m.get("here")
}

// listDir lists a directory.
func listDir(p string, confidence float64) Plan {
	return calls("List "+shown(p)+".", call("list_dir", confidence, map[string]any{"path": p}))
}

// readEach reads the files of a listing, at most five; directories are left out.
func readEach(paths []string) Plan {
	const most = 5
	var tools []ToolPlan
	files := 0
	for _, p := range paths {
		if strings.HasSuffix(p, "/") {
			continue
		}
		files++
		if len(tools) < most {
			tools = append(tools, call("read_file", likely, map[string]any{"path": p}))
		}
	}
	if files == 0 {
		return answer("The last listing holds only directories: name one to list it.", suggest("list_dir", "glob")...)
	}
	p := calls(fmt.Sprintf("Read the %d files listed last.", len(tools)), tools...)
	if files > most {
		p.Rationale = fmt.Sprintf("Read the first %d of the %d files listed last.", most, files)
	}
	return p
}

// viewPlan shows a target: a file's content, a directory's entries, a listing's files.
// A path that may be either is taken for a directory (files are told by their extension).
func viewPlan(t target, confidence float64) Plan {
	switch {
	case t.paths != nil:
		return readEach(t.paths)
	case t.kind == fileKind:
		return calls("Read "+t.path+".", call("read_file", confidence, map[string]any{"path": t.path}))
	default:
		return listDir(t.path, confidence)
	}
}

func readPlan(m match, c Context) (Plan, bool) {
	return with(m.get("t"), c, func(t target) (Plan, bool) {
		if t.kind == dirKind {
			return listDir(t.path, likely), true
		}
		t.kind = fileKind
		return viewPlan(t, sure), true
	})
}

func viewRule(m match, c Context) (Plan, bool) {
	return with(m.get("t"), c, func(t target) (Plan, bool) { return viewPlan(t, likely), true })
}

func listPlan(m match, c Context) (Plan, bool) {
	phrase := m.get("t")
	if phrase == "" {
		return listDir(dirOf(c), sure), true
	}
	return with(phrase, c, func(t target) (Plan, bool) { return viewPlan(t, sure), true })
}

func cdPlan(m match, c Context) (Plan, bool) {
	return with(m.get("t"), c, func(t target) (Plan, bool) {
		if t.paths != nil || t.kind == fileKind {
			return Plan{}, false
		}
		p := listDir(t.path, likely)
		p.Rationale = "There is no working directory to change, but listing " + shown(t.path) +
			" puts it in focus: \"here\" now means it."
		return p, true
	})
}

// cwdPlan answers "where am I": the root and the working directory inside it.
func cwdPlan(match, Context) (Plan, bool) {
	return calls("The working directory is the project root unless the session set one.",
		call("current_directory", sure, map[string]any{})), true
}

func explainPlan(m match, c Context) (Plan, bool) {
	return with(m.get("t"), c, func(t target) (Plan, bool) {
		if t.kind == anyKind {
			return Plan{}, false
		}
		p := viewPlan(t, guess)
		p.Notes = "Without a language model I can show it but not explain it."
		return p, true
	})
}

func barePlan(m match, c Context) (Plan, bool) {
	phrase := m.get("t")
	if !strings.Contains(phrase, "/") && !looksLikeFile(phrase) {
		return Plan{}, false
	}
	return with(phrase, c, func(t target) (Plan, bool) { return viewPlan(t, guess), true })
}

func linesPlan(m match, c Context) (Plan, bool) {
	return with(m.get("t"), c, func(t target) (Plan, bool) {
		if t.paths != nil || t.kind == dirKind {
			return Plan{}, false
		}
		args := map[string]any{"path": t.path}
		var what string
		switch a, n := m.get("a"), m.first("n", "n2"); {
		case a != "":
			start, _ := strconv.Atoi(a)
			end := start
			if b := m.get("b"); b != "" {
				end, _ = strconv.Atoi(b)
			}
			start, end = max(min(start, end), 1), max(start, end, 1)
			args["start_line"], args["end_line"] = start, end
			what = fmt.Sprintf("lines %d-%d of ", start, end)
			if start == end {
				what = fmt.Sprintf("line %d of ", start)
			}
		default:
			limit := 10 // head's default
			if n != "" {
				limit, _ = strconv.Atoi(n)
			}
			args["limit"] = min(max(limit, 1), int(caps["limit"]))
			what = fmt.Sprintf("the first %d lines of ", args["limit"])
		}
		return calls("Read "+what+t.path+".", call("read_file", sure, args)), true
	})
}

func testsPlan(m match, c Context) (Plan, bool) {
	args := map[string]any{}
	rationale := "Run the tests"
	if phrase := m.get("t"); phrase != "" {
		// Go's "./pkg/..." names pkg and what is below it, which is what run_tests does.
		phrase = strings.TrimSuffix(strings.TrimSuffix(phrase, "..."), "/")
		if phrase == "" || phrase == "." {
			phrase = "./"
		}
		t, ok := resolve(phrase, c)
		if !ok || t.paths != nil {
			return Plan{}, false
		}
		if t.stop != nil {
			return *t.stop, true
		}
		args["path"] = t.path
		rationale += " of " + shown(t.path)
	}
	if sel := m.get("sel"); sel != "" {
		args["selector"] = sel
		rationale += " matching " + sel
	}
	return calls(rationale+".", call("run_tests", sure, args)), true
}

func treePlan(m match, c Context) (Plan, bool) {
	build := func(t target) (Plan, bool) {
		if t.paths != nil || t.kind == fileKind {
			return Plan{}, false
		}
		args := map[string]any{"directory": t.path}
		if d := m.first("d", "d2"); d != "" {
			n, _ := strconv.Atoi(d)
			args["max_depth"] = min(max(n, 1), int(caps["max_depth"]))
		}
		return calls("List everything under "+shown(t.path)+".", call("list_files", sure, args)), true
	}
	phrase := scopeOf(m)
	if phrase == "" {
		return build(target{path: dirOf(c), kind: dirKind})
	}
	return with(phrase, c, build)
}

func existsPlan(strict bool) func(match, Context) (Plan, bool) {
	return func(m match, c Context) (Plan, bool) {
		return with(m.get("t"), c, func(t target) (Plan, bool) {
			if strict && t.kind == anyKind {
				return Plan{}, false // "is there a bug?" names no path
			}
			if t.paths != nil {
				var tools []ToolPlan
				for _, p := range t.paths[:min(len(t.paths), 5)] {
					tools = append(tools, call("file_exists", likely, map[string]any{"path": strings.TrimSuffix(p, "/")}))
				}
				return calls("Check whether the files listed last exist.", tools...), true
			}
			p := t.path
			if in := m.get("in"); in != "" {
				dir, ok := resolve(in, c)
				if !ok || dir.paths != nil {
					return Plan{}, false
				}
				if dir.stop != nil {
					return *dir.stop, true
				}
				p = path.Join(dir.path, p)
			} else if m.get("here") != "" {
				p = path.Join(dirOf(c), p)
			}
			return calls("Check whether "+p+" exists.", call("file_exists", sure, map[string]any{"path": p})), true
		})
	}
}

func globLangPlan(m match, c Context) (Plan, bool) {
	word := m.get("lang")
	g, ok := fileGlob(word)
	if !ok || (m.get("v") == "" && !knownExtension(word)) {
		return Plan{}, false
	}
	return globPlan("**/"+g, m, c)
}

// knownExtension reports whether word names a language or an extension (".go", "*.ts").
func knownExtension(word string) bool {
	w := strings.ToLower(word)
	_, lang := languages[w]
	return lang || strings.HasPrefix(w, ".") || strings.HasPrefix(w, "*.")
}

// globName finds files by name. strict: the name must read as a file name ("main.go",
// "Makefile", "*.md"), since "find handleRequest" is a search.
func globName(strict bool) func(match, Context) (Plan, bool) {
	return func(m match, c Context) (Plan, bool) {
		name, quoted := unquote(m.get("p"))
		if !quoted && !pathLike(name) || name == "" {
			return Plan{}, false
		}
		meta := hasGlobMeta(name)
		if strict && !meta && !looksLikeFile(name) {
			return Plan{}, false
		}
		pattern := strings.TrimPrefix(name, "./")
		if !meta && !looksLikeFile(name) {
			pattern += "*" // "files named config": config.yaml, config.go, ...
		}
		if !strings.HasPrefix(pattern, "**/") {
			pattern = "**/" + pattern
		}
		return globPlan(pattern, m, c)
	}
}

// globPlan finds the files matching pattern in the match's scope.
func globPlan(pattern string, m match, c Context) (Plan, bool) {
	if err := checkGlob(pattern); err != nil {
		return *refused(pattern, err), true
	}
	args := map[string]any{"pattern": pattern}
	build := func(t target) (Plan, bool) {
		if t.paths != nil || t.kind == fileKind {
			return Plan{}, false
		}
		args["path"] = t.path
		return calls("Find the files matching "+pattern+" under "+shown(t.path)+".", call("glob", sure, args)), true
	}
	phrase := scopeOf(m)
	if phrase == "" {
		return calls("Find the files matching "+pattern+".", call("glob", sure, args)), true
	}
	return with(phrase, c, build)
}

func todosPlan(m match, c Context) (Plan, bool) {
	return searchPlan(searchSpec{query: "TODO|FIXME", regex: true}, scopeOf(m), c, "List the TODO and FIXME comments")
}

// searchSpec is what a search phrasing asked for.
type searchSpec struct {
	query string
	regex bool
	cs    *bool
	mode  string // output_mode; "" for the default, content
}

// searchRule is a search phrasing whose query is group q: literal unless it reads as a
// regular expression; mode is the output mode ("" for content).
func searchRule(mode string) func(match, Context) (Plan, bool) {
	return func(m match, c Context) (Plan, bool) {
		s, ok := specOf(m.get("q"), m.get("rx") != "", m)
		if !ok {
			return Plan{}, false
		}
		s.mode = mode
		return scopedSearch(s, m, c)
	}
}

// searchGeneric is "search for X in Y": when Y names no path ("in user profile"), the
// whole "X in Y" is the query.
func searchGeneric(m match, c Context) (Plan, bool) {
	s, ok := specOf(m.get("q"), m.get("rx") != "", m)
	if !ok {
		return Plan{}, false
	}
	if p, ok := scopedSearch(s, m, c); ok {
		return p, true
	}
	s.query = m.through("q", "t")
	return searchPlan(s, "", c, "")
}

// scopedSearch searches in the match's scope.
func scopedSearch(s searchSpec, m match, c Context) (Plan, bool) {
	return searchPlan(s, scopeOf(m), c, "")
}

// specOf reads a search query: quotes, /regex/ slashes and "regex" words say how to take it.
func specOf(q string, regex bool, m match) (searchSpec, bool) {
	q, quoted := unquote(strings.TrimSpace(q))
	if q == "" {
		return searchSpec{}, false
	}
	if !quoted && len(q) > 2 && q[0] == '/' && q[len(q)-1] == '/' {
		q, regex = q[1:len(q)-1], true
	}
	if !quoted {
		regex = regex || looksLikeRegex(q)
	}
	if regex {
		if _, err := regexp.Compile(q); err != nil {
			regex = false // not a valid RE2 pattern: search for the text itself
		}
	}
	return searchSpec{query: q, regex: regex, cs: m.cs}, true
}

// looksLikeRegex reports whether an unquoted query uses regular-expression syntax a
// literal search would hardly contain: ".*", ".+", "|", escapes like \w, or anchors.
func looksLikeRegex(q string) bool {
	if strings.Contains(q, ".*") || strings.Contains(q, ".+") || strings.Contains(q, "|") ||
		strings.HasPrefix(q, "^") || strings.HasSuffix(q, "$") && !strings.HasPrefix(q, "$") {
		return true
	}
	for _, esc := range []string{`\w`, `\d`, `\s`, `\b`, `\W`, `\D`, `\S`, `\.`, `\(`} {
		if strings.Contains(q, esc) {
			return true
		}
	}
	return false
}

// searchPlan builds the search call; where is the place phrase ("" for the whole project).
// ok is false when where names no place.
func searchPlan(s searchSpec, where string, c Context, rationale string) (Plan, bool) {
	args := map[string]any{"query": s.query}
	if s.regex {
		args["is_regex"] = true
	}
	if s.cs != nil {
		args["case_sensitive"] = *s.cs
	}
	if s.mode != "" {
		args["output_mode"] = s.mode
	}
	if rationale == "" {
		rationale = "Search for " + quote(s.query)
		if s.regex {
			rationale = "Search for the regular expression " + quote(s.query)
		}
	}
	if where == "" {
		return calls(rationale+".", call("search", sure, args)), true
	}
	if g, ok := filesScope(where); ok {
		args["include_paths"] = []any{g}
		return calls(rationale+" in "+g+" files.", call("search", sure, args)), true
	}
	return with(where, c, func(t target) (Plan, bool) {
		if t.paths != nil {
			globs := make([]any, 0, len(t.paths))
			for _, p := range t.paths {
				if dir, isDir := strings.CutSuffix(p, "/"); isDir {
					p = dir + "/**"
				}
				globs = append(globs, p)
			}
			args["include_paths"] = globs
			return calls(rationale+" in the files listed last.", call("search", sure, args)), true
		}
		args["path"] = t.path
		return calls(rationale+" in "+shown(t.path)+".", call("search", sure, args)), true
	})
}

// filesScope reads "go files", "all *.ts files" or "*.md" as the file-name glob to search in.
func filesScope(where string) (string, bool) {
	w := strings.TrimPrefix(strings.TrimPrefix(where, "all "), "the ")
	if word, ok := strings.CutSuffix(w, " files"); ok && knownExtension(word) {
		return fileGlob(word)
	}
	if hasGlobMeta(w) && !strings.Contains(w, "/") && pathLike(w) && checkGlob(w) == nil {
		return w, true
	}
	return "", false
}

func grepPlan(m match, c Context) (Plan, bool) {
	q, _ := unquote(m.get("q"))
	if q == "" {
		return Plan{}, false
	}
	s := searchSpec{query: q, regex: looksLikeRegex(q), cs: m.cs}
	literal := false
	for _, f := range strings.Fields(m.get("flags")) {
		switch {
		case f == "--ignore-case":
			s.cs = new(false)
		case f == "--fixed-strings":
			literal = true
		case f == "--extended-regexp" || f == "--perl-regexp":
			s.regex = true
		case f == "--files-with-matches":
			s.mode = "files_with_matches"
		case f == "--count":
			s.mode = "count"
		case !strings.HasPrefix(f, "--"):
			for _, r := range f[1:] {
				switch r {
				case 'i':
					s.cs = new(false)
				case 'F':
					literal = true
				case 'E', 'P':
					s.regex = true
				case 'l':
					s.mode = "files_with_matches"
				case 'c':
					s.mode = "count"
				}
			}
		}
	}
	if literal {
		s.regex = false
	}
	if s.regex {
		if _, err := regexp.Compile(q); err != nil {
			s.regex = false
		}
	}
	return searchPlan(s, m.get("t"), c, "")
}
