package shellclass

import "sync"

// tablesOnce guards the rule tables (commandRules, readOnly, handlers, tools, wrappers,
// gitRules, gitArgRules), built on first use rather than at package init: most runs of
// jido classify no command, and building them took a fifth of a millisecond of each start.
var tablesOnce sync.Once

// loadTables builds the rule tables once. Every exported entry point calls it first.
func loadTables() {
	tablesOnce.Do(func() {
		buildCommandRules()
		buildHandlers()
		buildTools()
		buildWrappers()
		buildGit()
		buildGitArgs()
	})
}
