package interpret

import (
	"fmt"
	"path"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/jido-run/jido/tools/definitions"
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

// gates are the words of the gated rules, by pattern: one of them must be in the
// lower-case query for the pattern to be tried, so that a rule that cannot match costs a
// few string searches, not a regular expression. Written while the table is built, read
// only after.
var gates = map[string][]string{}

// gated is a rule tried only on queries that hold one of the |-separated words of needs.
func gated(needs, intent, pattern string, build func(match, Context) (Plan, bool)) rule {
	gates[pattern] = strings.Split(needs, "|")
	return rule{intent: intent, pattern: pattern, build: build}
}

// holds reports whether s holds one of words.
func holds(s string, words []string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// compiledRule is a rule whose pattern is compiled the first time a query reaches it: a
// query that an early rule answers (the common ones) does not pay for compiling the whole
// table, which takes about 6 ms, at each start of jido ask.
type compiledRule struct {
	rule
	needs []string // see gates; nil: always tried
	re    func() *regexp.Regexp
}

// match is a rule's pattern matched against a query.
type match struct {
	s   string
	re  *regexp.Regexp
	loc []int
	cs  *bool // the query said "case sensitive" (true) or "ignoring case" (false)
	rx  bool  // the query said "as a regex"
	// has reports whether the session offers a tool: a rule plans no call to a tool that
	// is not there (the git tools, glob to find a bare name), and says so or does without.
	has func(name string) bool
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
	lineRange = `(?P<a>\d+)(?: ?(?:-|–|—|to|through|thru|until|till|\.\.|,) ?(?:line )?(?P<b>\d+))?`
	// scope is where: " in src" (group t) or " here" (group here).
	scope = `(?: (?:in|under|inside|within|across|throughout|from|below) (?P<t>.+?)| (?P<here>here|in here))?`
	// depth is "depth 2" or "3 levels deep": groups d and d2.
	depth = `(?:,? (?:(?:with |to )?(?:a )?(?:max(?:imum)? )?depth(?: of)? (?P<d>\d+)|(?P<d2>\d+) levels?(?: deep)?))?`
	// kinds are the words that say what a symbol is ("the function X").
	kinds = `function|func|fn|method|type|class|struct|interface|enum|trait|module|variable|var|const|constant|macro|symbol|defun|def|record|protocol|object`
	// langWords are the languages a definition question may name ("the python class X").
	langWords = `go|golang|python|py|javascript|js|typescript|ts|rust|elixir|elisp|emacs lisp|lisp`
	// symbol is a symbol of a code question: group q.
	symbol = `(?P<q>[\w.:#$?!-]+?)(?:\(\))?`
	// showVerbs show a file's lines.
	showVerbs = `show|read|print|display|view|cat|give|get|see|dump|open|output`
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
		{"chat", `^(?:|hi|hello|hey|yo|thanks|thank you|thx|ty|cheers|good (?:morning|afternoon|evening|night)|bye|goodbye|see you|ok|okay|cool|nice|great|awesome|perfect|lol|yes|no|sure|how are you(?: doing)?(?: today)?|how's it going|how is it going|what's up|whats up|sup|who made you|are you (?:there|alive|a bot|human|ok)|what time is it|what day is it|(?:thanks|thank you|thx|ty)(?: (?:so much|a lot|a bunch|very much|again|man|mate|buddy|jido))*|(?:great|nice|good|awesome|cool|perfect)(?: (?:job|work|one|stuff))?(?: ,?(?:thanks|thank you|thx))?|well done|never ?mind|nvm|got it|understood|makes sense|i see|no worries|all good|good bye|see ya|later|hmm+|wow)$`, chatPlan},
		gated("tail", "read_file", `^tail(?: -n ?(?P<n>\d+)| -(?P<n2>\d+))? (?P<t>\S+)$`, lastPlan),
		gated("wc", "read_file", `^wc(?: -[lcwm]+)? (?P<t>\S+)$`, countPlan),
		gated("sed", "read_file", `^sed -n ["']?(?P<a>\d+)(?:,(?P<b>\d+))?p["']? (?P<t>\S+)$`, linesPlan),
		gated("-name|-iname", "glob", `^find(?: (?:\.|\./|(?P<t>[^\s-]\S*)))?(?: -type [fd])? -i?name (?P<p>"[^"]*"|'[^']*'|\S+)(?: -type [fd])?$`, globName(false)),
		gated("tree", "list_files", `^tree(?: -[adfL]+ ?(?P<d>\d+)?)*(?: (?P<t>[^\s-]\S*))?(?: -L ?(?P<d2>\d+))?$`, treePlan),
		gated("git", "git", `^git (?P<sub>status|st|diff|log|show)(?P<rest>(?: \S+)*)$`, gitShellPlan),
		{"search", `^(?:git )?(?:grep|rg|ack|ag)(?: for)?(?P<flags>(?: -{1,2}[\w-]+)*) (?P<q>"[^"]*"|'[^']*'|\S+)(?: (?:in |under )?(?P<t>\S+|(?:the |all )?[\w.*+#-]+ files))?$`, grepPlan},
		gated("files", "glob", `^(?:(?:show|list|find|get|give|display|print|what are|which are|what're)(?: me)? )?(?:the )?(?:(?P<n>\d+) )?(?:newest|latest|most recent|most recently (?:changed|modified|edited|updated|touched)|recently (?:changed|modified|edited|updated|touched|added)|last (?:changed|modified|edited|touched)|recent|freshest)(?: (?P<n2>\d+))? files`+scope+`$`, sizedPlan(ShowNewest)),
		gated("files", "glob", `^(?:(?:which|what|find|list|show)(?: me)? )?(?:the )?files (?:have |were |got |did i |did we |that )?(?:changed|modified|edited|updated|touched|change|modify|edit) (?:recently|lately|last|most recently|today|this week)`+scope+`$`, sizedPlan(ShowNewest)),
		gated("files", "glob", `^(?:(?:list|show|sort|order)(?: me)? )?(?:the )?files (?:sorted |ordered )?by (?:date|time|mtime|modification time|age|recency)`+scope+`$`, sizedPlan(ShowNewest)),
		gated("file", "list_files", `^(?:(?:show|list|find|get|give|display|print|what are|which are|what're)(?: me)? )?(?:the )?(?:(?P<n>\d+) )?(?:largest|biggest|heaviest|fattest|huge|big|large)(?: (?P<n2>\d+))? files`+scope+`(?: by size)?$`, sizedPlan(ShowLargest)),
		gated("file", "list_files", `^(?:which|what) files? (?:are|is) (?:the )?(?:largest|biggest|heaviest|the largest|the biggest|huge|big|large)`+scope+`$`, sizedPlan(ShowLargest)),
		gated("file", "list_files", `^(?:(?:list|show|sort|order)(?: me)? )?(?:the )?files (?:sorted |ordered )?by size`+scope+`$`, sizedPlan(ShowLargest)),
		gated("taking", "list_files", `^what(?:'s| is) taking (?:up )?(?:the most |all the |so much )?(?:space|room|disk space)$`, sizedPlan(ShowLargest)),
		gated("status", "git", `^(?:(?:show|what's|whats|what is|check|get|see|view|give)(?: me)? )?(?:the )?(?:git |repo |repository |working tree |current |project )?status(?: of (?:the )?(?:repo|repository|project|working tree|working copy))?$`, gitStatusPlan),
		gated("files", "git", `^(?:(?:which|what) )?files (?:have |were |are |did i |did we |got |i've |we've )?(?:changed|modified|touched|edited|dirty|uncommitted|staged|untracked|change|modify|edit|touch)(?: (?:so far|since the last commit|locally|in the working tree))?`+scope+`$`, gitStatusPlan),
		gated("clean|dirty", "git", `^(?:is|are) (?:the )?(?:working tree|working copy|repo|repository|tree|checkout|workspace|project) (?:clean|dirty)$`, gitStatusPlan),
		gated("uncommitted|unstaged|untracked|local|pending|unsaved", "git", `^(?:are there|do i have|do we have|any|is there)(?: any)? (?:uncommitted|unstaged|untracked|local|pending|unsaved) (?:changes|files|work|modifications)$`, gitStatusPlan),
		gated("diff|change|modification|edits", "git", `^(?:(?:show|see|view|get|print|display|give|list)(?: me)? )?(?:the |my |our )?(?:git )?(?:diff|changes|uncommitted changes|unstaged changes|local changes|pending changes|working tree changes|current changes|modifications|staged changes|cached changes|staged diff|unstaged diff|diffs|edits i made)(?: (?:of|in|for|to|on) (?P<t>\S+))?$`, gitDiffPlan),
		gated("what", "git", `^what (?:did|have) (?:i|we|you) (?:change|changed|modify|modified|edit|edited|touch|touched|do|done)(?: (?:in|to) (?P<t>\S+))?(?: so far)?$`, gitDiffPlan),
		gated("changed", "git", `^what(?:'s| is| has)? (?:been )?changed in (?P<t>\S+)$`, gitDiffPlan),
		gated("against|with|vs|versus|from|since|to |relative", "git", `^(?:(?:git )?diff|(?:show )?(?:the )?changes|what(?:'s| has)? changed|compare) (?:against|with|vs\.?|versus|from|since|to|relative to) (?P<ref>HEAD\S*|[0-9a-f]{7,40}|v?\d+\.\d[\w.-]*|main|master|develop|origin/\S+|the last commit|last commit)$`, gitDiffPlan),
		gated("commit|log|history", "git", `^(?:(?:show|see|view|get|list|print|display|give)(?: me)? )?(?:the )?(?:(?P<n>\d+|`+numberWords+`) )?(?:last |latest |recent |most recent |past |previous |newest )?(?:(?P<n2>\d+|`+numberWords+`) )?(?:git )?(?:commits|commit log|commit history|git log|log|history|git history|commit messages|changelog of commits)(?: (?:of|for|on|in|touching|to) (?P<t>\S+))?$`, gitLogPlan),
		gated("history|log|commit", "git", `^(?:history|log|commits) (?:of|for) (?P<t>\S+)$`, gitLogPlan),
		gated("changed|happened|done", "git", `^what(?:'s| has| have)? (?:changed|happened|been changed|been done) (?:recently|lately|today|yesterday|this week|since .+|in the last .+|over the last .+|last week)$`, gitLogPlan),
		gated("recent|latest", "git", `^(?:recent|latest|the latest|the recent) (?:changes|commits|activity|history)$`, gitLogPlan),
		gated("who|when", "git", `^(?:who|when) (?:last )?(?:changed|modified|edited|touched|wrote|committed)(?: to)? (?P<t>\S+)(?P<one> last)?$`, gitLogPlan),
		gated("when", "git", `^when (?:was|did) (?P<t>\S+) (?:last )?(?:get )?(?P<one>changed|change|modified|edited|committed|touched)(?: last)?$`, gitLogPlan),
		gated("commit", "git", `^(?:(?:show|see|view|get|display|what(?:'s| is| was)|give)(?: me)? )?(?:the )?(?:last|latest|most recent|newest|head|current|(?P<prev>previous|second to last)) commit$`, gitShowPlan),
		gated("commit", "git", `^(?:(?:show|see|view|display|what(?:'s| is) in|open)(?: me)? )?(?:the )?commit (?P<ref>[0-9a-fA-F]{6,40}|HEAD\S*)$`, gitShowPlan),
		gated("commit|push|pull|checkout|switch|stash|rebase|merge|cherry|tag|reset|restore|fetch|clone|init|amend|squash", "git", `^(?:git )?(?:commit|push|pull|checkout|switch|stash|rebase|merge|cherry-pick|tag|reset|restore|fetch|clone|init|amend|squash)\b.*$`, gitChangePlan),
		{"git", `^(?:git\b.*|(?:(?:show|what's|whats|what is|what are|list|see|get|view|check)(?: me)? )?(?:the )?(?:git |current |recent |latest )?(?:status|diff|log|history|commits?|commit log|commit history|branch(?:es)?|blame|staged changes|unstaged changes|uncommitted changes|pending changes|local changes|changes since .+|history of .+)|what (?:has |have )?changed(?: .*)?|what did (?:i|you|we) change(?: .*)?|which files (?:have |were )?(?:changed|modified)(?: .*)?|(?:commit|push|pull|checkout|stash|rebase|merge|cherry-pick|tag)\b.*)$`, gitPlan},
		{"run_tests", `^(?:run|rerun|re-run|execute|launch|start|kick off|trigger|do)(?: (?:all|the|my|our|every|unit|go|project's|project|whole|entire|full|integration))* (?:tests?|test suite|testsuite|suite|specs?)(?: again)?(?: (?:in|for|of|under|on|inside) (?P<t>.+?))?(?: (?:matching|named|called|that match|with names? matching) (?P<sel>\S+))?$`, testsPlan},
		gated("test|spec|suite", "run_tests", `^(?:run|rerun|re-run|execute|launch|start|kick off|trigger)(?: (?:all|the|my|our|every|only|just))* (?P<sel>[\w.-]+) (?:tests?|specs?|test suite|testsuite|suite)(?: again)?(?: (?:in|for|of|under|inside) (?P<t>.+?))?$`, namedTestsPlan),
		{"run_tests", `^(?:go )?test(?: (?P<t>\S+))?$`, testsPlan},
		{"run_tests", `^(?:run )?(?:the )?(?P<sel>(?-i:(?:Test|Benchmark|Example|Fuzz)[A-Z0-9_])\w*)(?: test| benchmark)?(?: (?:in|from|under) (?P<t>.+?))?$`, testsPlan},
		{"run_tests", `^(?:do|does|are|is|did|will) (?:the |all (?:the )?|my |our )?(?:tests?|test suite|build)(?: still)? (?:pass|passing|green|ok|work|working|succeed|succeeding|fail|failing|broken|break)(?: (?:in|for) (?P<t>.+?))?$`, testsPlan},
		{"run_tests", `^(?:check|verify|make sure|see|confirm|find out)(?: if| whether| that)? (?:the |all (?:the )?)?tests? (?:pass|still pass|are passing|are green|work|succeed)$`, testsPlan},
		{"cd", `^(?:cd|chdir|pushd|go (?:to|into|in)|enter|switch to|change (?:the )?(?:directory|dir|folder) to|move into|step into|focus on) (?P<t>.+?)$`, cdPlan},
		{"mutating", `^(?:how (?:do|can|would|should) (?:i|we|you) )?(?:` + mutations + `)\b`, mutatingPlan},
		{"search", `^(?:(?:list|show|find|get|search|search for|grep|grep for|look for|scan for|collect|print|give me|display|count|how many)(?: me)?(?: all| every| any)?(?: (?:the|of the|my|our))?(?: open| remaining| outstanding| pending)? )?(?:todos|to-dos|todo comments|todo items|todo notes|todo markers|fixmes|fixme comments|todos?(?: and| or| &|/| /) ?fixmes?|fixmes?(?: and| or| &|/| /) ?todos?)(?: comments| notes| items| markers)?(?: (?:are )?(?:left|remaining|there))?` + scope + `(?: (?:are there|left|remaining))?$`, todosPlan},
		{"search", `^(?:list|show|any|are there(?: any)?|is there(?: any)?|what are(?: the)?|do we have(?: any)?|how many)(?: (?:the|open|remaining))* (?:todo|fixme)s?(?: comments| items| notes)?(?: (?:left|remaining))?` + scope + `(?: (?:left|remaining|are there))?$`, todosPlan},
		{"search", `^(?:what|which) (?:todos|fixmes|todo comments|fixme comments)(?: are there| do we have| are left| remain| exist)` + scope + `$`, todosPlan},
		gated("line", "read_file", `^(?:(?:`+showVerbs+`)(?: me)? )?(?:the )?(?:from )?lines? `+lineRange+` (?:of|in|from) (?P<t>.+?)$`, linesPlan),
		gated("line", "read_file", `^(?:(?:`+showVerbs+`)(?: me)? )?(?:the )?(?:first|top|initial|opening|beginning) (?:(?P<n>`+numberWords+`) )?(?:lines|(?P<one>line)) (?:of|in|from) (?P<t>.+?)$`, linesPlan),
		gated("line", "read_file", `^(?:(?:`+showVerbs+`)(?: me)? )?(?:the )?(?:last|final|bottom|ending|closing) (?:(?P<n>`+numberWords+`) )?(?:lines|(?P<one>line)) (?:of|in|from) (?P<t>.+?)$`, lastLinesPlan),
		gated("end|bottom|tail", "read_file", `^(?:(?:`+showVerbs+`)(?: me)? )?the (?:end|bottom|tail) of (?P<t>.+?)$`, lastPlan),
		gated("line", "read_file", `^(?:(?:`+showVerbs+`)(?: me)? )?(?:the )?(?P<t>\S+),? (?:from|starting (?:at|from|on|with)|beginning (?:at|with|on)|after) line (?P<o>\d+)(?: (?:on|onwards|onward|forward|forwards|to the end|to the bottom))?$`, fromLinePlan),
		gated("line", "read_file", `^(?:(?:`+showVerbs+`)(?: me)? )?(?:everything |all )?(?:from|starting (?:at|from|on)|beginning (?:at|on)|after) line (?P<o>\d+)(?: (?:on|onwards|onward))? (?:of|in) (?P<t>.+?)$`, fromLinePlan),
		gated("line|long|big|large|length|loc|size|wc|count", "read_file", `^(?:(?:what(?:'s| is) )?(?:the )?(?:line count|number of lines|lines? count|count of lines|length|loc|size in lines) (?:of|in|for)|how (?:many lines|long|big|large)(?: (?:are|is|does|do|there|in|of))*|count(?: the)? lines (?:of|in)|(?:wc|count lines)(?: -l)?)(?: the)? (?P<t>.+?)(?: (?:have|has|contain|contains|got|is))?$`, countPlan),
		{"read_file", `^(?:show|read|print|display|view|cat|see|open|dump)(?: me)? (?P<t>.+?),? (?:from |at |on )?lines? ` + lineRange + `$`, linesPlan},
		{"read_file", `^(?:show|read|print|display|view|cat|give|get|see|dump)(?: me)?(?: the)? (?:first|top) (?P<n>\d+) lines (?:of|in|from) (?P<t>.+?)$`, linesPlan},
		{"read_file", `^head(?: -n ?(?P<n>\d+)| -(?P<n2>\d+))? (?P<t>\S+)$`, linesPlan},
		{"read_file", `^(?:(?:show|read|open|view|cat|print|see|go to|jump to)(?: me)? )?(?P<t>[^\s:]+):` + lineRange + `$`, linesPlan},
		gated("test", "glob", `^(?:(?:list|show|find|get|give|locate|where are|which are|what are|display|print)(?: me)? )?(?:all )?(?:the |our |my )?test files`+scope+`$`, testFilesPlan),
		gated("test", "search", `^(?:what|which) tests (?:are there|do we have|exist|are defined|have we got|are in there|does (?:the |this )?(?:project|repo) have)`+scope+`$`, testsListPlan),
		gated("test", "search", `^(?:(?:list|show|find|get|enumerate|print|display|give)(?: me)? )?(?:all )?(?:the |our |my )?(?:tests|test functions|test cases|test names|unit tests)`+scope+`$`, testsListPlan),
		gated("test", "search", `^(?:are there|do we have|do i have|is there)(?: any)? tests`+scope+`$`, testsListPlan),
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
		gated("defined|declared", "search", `^where (?:is|are) (?:the )?(?:(?:`+kinds+`) )?`+symbol+` (?:defined|declared) and (?P<and>used|called|where (?:is it|it is) (?:used|called)|who calls it|what calls it|its callers|its uses)$`, definitionPlan),
		gated("definition|declaration", "search", `^(?:(?:find|show|get|give|list)(?: me)? )?(?:the )?(?:definition|declaration)s? (?:and|&) (?P<and>usages|uses|callers|calls|call sites|references) of (?:the )?(?:(?:`+kinds+`) )?`+symbol+`$`, definitionPlan),
		gated("defined|declared|implemented|introduced", "search", `^(?:where's|wheres|where|in which files?|which files?|what files?)(?: (?:is|are|was|were|does|do|did))? (?:the )?(?:(?P<lang>`+langWords+`) )?(?:(?:`+kinds+`) )?`+symbol+` (?:gets? |being |actually |first )?(?:defined|declared|implemented|introduced)(?: (?:in|under|within|inside|among) (?P<t>.+?)| in)?$`, definitionPlan),
		gated("def|decl|implementation", "search", `^(?:(?:find|show|get|go to|goto|jump to|take me to|where(?:'s| is)|locate|search for|look for|look up|open|print|display|give)(?: me)? )?(?:the )?(?:(?P<lang>`+langWords+`) )?(?:definition|declaration|implementation|decl|def)s? (?:of|for) (?:the )?(?:(?:`+kinds+`) )?`+symbol+`(?: (?:in|under) (?P<t>.+?))?$`, definitionPlan),
		gated("define|declare|implement", "search", `^(?:which|what) files? (?:defines?|declares?|implements?) (?:the )?(?:(?:`+kinds+`) )?`+symbol+`(?: (?:in|under) (?P<t>.+?))?$`, definitionPlan),
		gated("where", "search", `^(?:show|tell)(?: me)? where (?:the )?(?:(?P<lang>`+langWords+`) )?(?:(?:`+kinds+`) )?`+symbol+` (?:is|are|gets|was) (?:defined|declared|implemented)(?: (?:in|under) (?P<t>.+?))?$`, definitionPlan),
		gated("where|find|locate|show|go to|jump", "search", `^(?:where(?:'s| is| are)|find|locate|show me|go to|jump to) (?:the )?(?:(?P<lang>`+langWords+`) )?(?P<loose>`+kinds+`) `+symbol+`(?: (?:in|under) (?P<t>.+?))?$`, definitionPlan),
		gated("def|decl|gd", "search", `^(?:def|defn|definition|goto definition|go to definition|jump to definition|gd|declaration)(?: of)? `+symbol+`$`, definitionPlan),
		gated("call|invoke", "search", `^(?:who|what|which (?:functions?|code|files?|methods?)) (?:calls|call|invokes|invoke)(?: the)?(?: (?:function|method|func))? `+symbol+`(?: (?:in|under) (?P<t>.+?))?$`, callersPlan),
		gated("call|invocation", "search", `^(?:(?:find|show|list|get|search for|look for|give me|where are)(?: me)? )?(?:(?:all|every) )?(?:the )?(?:callers|call sites|call-sites|callsites|calls|invocations) (?:of|to|for) (?:the )?(?:(?:function|method|func) )?`+symbol+scope+`$`, callersPlan),
		gated("called|invoked", "search", `^(?:where|from where) (?:is|are|does|do) (?:the )?(?:(?:function|method|func) )?`+symbol+` (?:get )?(?:called|invoked|called from|invoked from)(?: (?:in|under) (?P<t>.+?))?$`, callersPlan),
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
		out[i] = compiledRule{rule: r, needs: gates[r.pattern], re: sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)` + r.pattern) })}
	}
	return out
})

// Rules interprets query with the rule table alone: no model, no session. Its paths pass
// the lexical check (relative, inside the root); Interpreter.Interpret also checks its plans
// against the session's tools and sandbox. Listing defaults to the directory in focus,
// searching and finding to the whole project.
func Rules(query string, c Context) Plan {
	return rulesWith(query, c, builtin)
}

// builtin reports whether name is a built-in tool: what Rules, which knows no session,
// takes to be on offer.
func builtin(name string) bool {
	_, ok := definitions.Lookup(name)
	return ok
}

// rulesWith is Rules for a session that offers the tools has says it does.
func rulesWith(query string, c Context, has func(string) bool) Plan {
	q, cs, rx := cutModifiers(normalize(query))
	lower := strings.ToLower(q)
	for _, r := range table() {
		if r.needs != nil && !holds(lower, r.needs) {
			continue
		}
		re := r.re()
		loc := re.FindStringSubmatchIndex(q)
		if loc == nil {
			continue
		}
		if p, ok := r.build(match{s: q, re: re, loc: loc, cs: cs, rx: rx, has: has}, c); ok {
			p.Source = SourceRules
			return p
		}
	}
	return Plan{Source: SourceRules, Rationale: "I could not match this to a tool without a language model. Requests like these work:",
		Suggestions: suggest()}
}

// cutModifiers takes the words that say how to search off a query, wherever they are:
// "ignoring case" or "case sensitive" (cs), "as a regex" (rx). "search for foo ignoring
// case in src" is then "search for foo in src".
func cutModifiers(q string) (string, *bool, bool) {
	re := textRegexps()
	var cs *bool
	for _, m := range []struct {
		re *regexp.Regexp
		cs bool
	}{{re.caseOff, false}, {re.caseOn, true}} {
		if loc := m.re.FindStringIndex(q); loc != nil {
			v := m.cs
			cs = &v
			q = splice(q, loc)
			break
		}
	}
	rx := false
	if m := re.lead.FindStringSubmatchIndex(q); m != nil {
		switch w := strings.ToLower(q[m[2]:m[3]]); {
		case strings.Contains(w, "insensitive") || w == "caseless":
			cs = new(false)
		case strings.Contains(w, "sensitive"):
			cs = new(true)
		default:
			rx = true
		}
		q = "search for " + q[m[1]:]
	}
	if loc := re.regex.FindStringIndex(q); loc != nil {
		rx = true
		q = splice(q, loc)
	}
	return q, cs, rx
}

// splice cuts q[loc[0]:loc[1]] out of q, leaving one space between what was around it.
func splice(q string, loc []int) string {
	return strings.TrimSpace(strings.TrimSpace(q[:loc[0]]) + " " + strings.TrimSpace(q[loc[1]:]))
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
	return answer("There is no git tool for that (git_status, git_diff, git_log and git_show read the status, the changes, the history and a commit, where the session offers them). "+
		"With a language model configured (e.g. GEMINI_API_KEY), run_shell can run git for you.",
		suggest("list_files", "search", "read_file")...), true
}

func mutatingPlan(match, Context) (Plan, bool) {
	return answer("Offline mode only reads the project: without a language model I do not guess at changes. Deleting, writing, editing, "+
		"moving files and running commands need one (e.g. GEMINI_API_KEY), which shows each call for your approval.",
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
		if t.paths == nil {
			return fileCall(m, t, call("read_file", sure, map[string]any{}), "Read "+t.path+"."), true
		}
		t.kind = fileKind
		return viewPlan(t, sure), true
	})
}

func viewRule(m match, c Context) (Plan, bool) {
	return with(m.get("t"), c, func(t target) (Plan, bool) {
		if t.kind == fileKind && t.paths == nil {
			return fileCall(m, t, call("read_file", likely, map[string]any{}), "Read "+t.path+"."), true
		}
		return viewPlan(t, likely), true
	})
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
		args := map[string]any{}
		var what string
		switch a, n := m.get("a"), m.first("n", "n2"); {
		case a == "" && n == "" && m.get("one") != "":
			args["limit"] = 1
			what = "the first line of "
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
			args["limit"] = min(max(number(n, 10), 1), int(caps["limit"])) // 10: head's default
			what = fmt.Sprintf("the first %d lines of ", args["limit"])
		}
		return fileCall(m, t, call("read_file", sure, args), "Read "+what+t.path+"."), true
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
		s, ok := specOf(m.get("q"), m.get("rx") != "" || m.rx, m)
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
	s, ok := specOf(m.get("q"), m.get("rx") != "" || m.rx, m)
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
	if globs, ok := filesScope(where); ok {
		args["include_paths"] = globs
		return calls(rationale+" in "+where+".", call("search", sure, args)), true
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

// filesScope reads "go files", "all *.ts files", "*.md", "python code", "the test files"
// as the file-name globs to search in.
func filesScope(where string) ([]any, bool) {
	w := strings.TrimPrefix(strings.TrimPrefix(where, "all "), "the ")
	switch strings.ToLower(w) {
	case "test files", "tests", "test code", "test sources", "the tests", "unit tests", "test suite":
		return testGlobs, true
	}
	for _, suffix := range []string{" files", " code", " sources", " source files", " source"} {
		if word, ok := strings.CutSuffix(w, suffix); ok && knownExtension(word) {
			g, ok := fileGlob(word)
			return []any{g}, ok
		}
	}
	if g, ok := languages[strings.ToLower(w)]; ok && len(w) >= 4 && !strings.Contains(g, "{") && w != "text" && w != "header" {
		return []any{g}, true // "in python", "in rust"
	}
	if hasGlobMeta(w) && !strings.Contains(w, "/") && pathLike(w) && checkGlob(w) == nil {
		return []any{w}, true
	}
	return nil, false
}

func grepPlan(m match, c Context) (Plan, bool) {
	q, _ := unquote(m.get("q"))
	if q == "" {
		return Plan{}, false
	}
	s := searchSpec{query: q, regex: m.rx || looksLikeRegex(q), cs: m.cs}
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
