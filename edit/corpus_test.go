package edit

// The case corpus: each case is named after the failure it covers. Groups cite where the
// failure comes from: the anchors' own tests (opencode packages/opencode/test/tool/edit.test.ts
// and its replacers in src/tool/edit.ts, crush internal/agent/tools/edit_whitespace_test.go,
// gemini-cli packages/core/src/utils/editCorrector.test.ts, aider tests/basic/test_editblock.py)
// and their users' reports (issue numbers in the comments).

// corpusCase is one edit and what must come of it.
type corpusCase struct {
	name    string
	content string
	req     Request

	// On success:
	want     string // the new content
	strategy string // the strategy that matched
	n        int    // replacements; 0 means 1
	edits    []Span // when set, the expected Result.Edits

	// On refusal (kind != 0):
	kind    ErrorKind
	lines   []int  // when set, the expected Error.Lines
	closest int    // when set, the line of the first closest candidate
	msg     string // when set, a part of the message
}

func req(old, repl string) Request { return Request{OldString: old, NewString: repl} }
func reqAll(old, repl string) Request {
	return Request{OldString: old, NewString: repl, ReplaceAll: true}
}

var corpus = []corpusCase{
	// --- Exact: unique, ambiguous, overlapping.
	// opencode edit.test.ts "replaces text in existing file", "handles multiline replacements";
	// gemini-cli editCorrector.test.ts countOccurrences (case-sensitive, overlapping counts).
	{name: "exact_unique_substring", content: "old content here", req: req("old content", "new content"),
		want: "new content here", strategy: "exact", edits: []Span{{1, 1}}},
	{name: "exact_new_text_adds_lines", content: "line1\nline2\nline3", req: req("line2", "new line 2\nextra line"),
		want: "line1\nnew line 2\nextra line\nline3", strategy: "exact", edits: []Span{{2, 3}}},
	{name: "exact_twice_refused_with_both_lines", content: "x = 1\ny = 2\nx = 1\n", req: req("x = 1", "x = 2"),
		kind: Ambiguous, lines: []int{1, 3}, msg: "replace_all"},
	{name: "exact_overlapping_occurrences_are_ambiguous", content: "aaa", req: req("aa", "b"),
		kind: Ambiguous, lines: []int{1}},
	{name: "exact_overlapping_blocks_across_lines", content: "ab\nab\nab", req: req("ab\nab", "x"),
		kind: Ambiguous, lines: []int{1, 2}},
	{name: "exact_is_case_sensitive", content: "abcABC", req: req("A", "z"),
		want: "abczBC", strategy: "exact"},
	{name: "exact_match_stops_before_looser_strategies", content: "a:\n\tb\nc:\n    b\n", req: req("    b", "    d"),
		want: "a:\n\tb\nc:\n    d\n", strategy: "exact", edits: []Span{{4, 4}}},

	// --- replace_all.
	// opencode edit.test.ts "replaces all occurrences with replaceAll option", "replaceAll
	// preserves CRLF for multi-line blocks"; crush TestNormalizedReplace "replaceAll with
	// multiple matches".
	{name: "replace_all_every_occurrence", content: "foo bar foo baz foo", req: reqAll("foo", "qux"),
		want: "qux bar qux baz qux", strategy: "exact", n: 3},
	{name: "replace_all_overlapping_goes_left_to_right", content: "aaaa", req: reqAll("aa", "b"),
		want: "bb", strategy: "exact", n: 2},
	{name: "replace_all_at_a_fuzzy_level", content: "func a() {\n\tfoo()\n}\nfunc b() {\n\tfoo()\n}\n", req: reqAll("    foo()", "    bar()"),
		want: "func a() {\n\tbar()\n}\nfunc b() {\n\tbar()\n}\n", strategy: "indentation", n: 2, edits: []Span{{2, 2}, {5, 5}}},
	{name: "replace_all_not_found_is_still_refused", content: "abc", req: reqAll("x", "y"),
		kind: NotFound},
	{name: "replace_all_crlf_multiline_blocks", content: "alpha\r\nbeta\r\nalpha\r\nbeta\r\n", req: reqAll("alpha\nbeta", "alpha\nbeta-updated"),
		want: "alpha\r\nbeta-updated\r\nalpha\r\nbeta-updated\r\n", strategy: "exact", n: 2},

	// --- The replacement is literal: no $ expansion.
	// nix-config PR #637 "stop the edit tool from eating dollar signs" (opencode), withastro/flue
	// PR #507 (a $` in newText duplicated the file's prefix).
	{name: "dollar_ampersand_is_literal", content: "a = x\n", req: req("x", "$&$&"),
		want: "a = $&$&\n", strategy: "exact"},
	{name: "dollar_group_and_dollar_dollar_are_literal", content: "a = x\n", req: req("x", "$1 $$ $`"),
		want: "a = $1 $$ $`\n", strategy: "exact"},
	{name: "dollar_quote_literal_with_replace_all", content: "x x", req: reqAll("x", "$'"),
		want: "$' $'", strategy: "exact", n: 2},
	{name: "backslashes_in_new_string_kept_on_exact_match", content: "p = \"x\"\n", req: req(`"x"`, `"C:\\dir\n"`),
		want: "p = \"C:\\\\dir\\n\"\n", strategy: "exact"},

	// --- Tabs vs spaces, shifted blocks, re-indentation.
	// crush TestNormalizedReplace ("tabs to spaces conversion", "spaces to tabs conversion",
	// "same indent unit but wrong depth") and TestAdaptIndentation ("2-space to 4-space");
	// aider test_editblock.py test_replace_part_with_missing_leading_whitespace, ..._varied_...,
	// ..._just_some_...; opencode #29573 (first line of new_string lost its indentation).
	{name: "spaces_old_on_tab_file_writes_tabs", content: "func main() {\n\tfmt.Println(\"hello\")\n}\n",
		req:  req("func main() {\n    fmt.Println(\"hello\")\n}", "func main() {\n    fmt.Println(\"goodbye\")\n}"),
		want: "func main() {\n\tfmt.Println(\"goodbye\")\n}\n", strategy: "indentation"},
	{name: "tabs_old_on_space_file_writes_spaces", content: "func main() {\n    fmt.Println(\"hello\")\n}\n",
		req:  req("func main() {\n\tfmt.Println(\"hello\")\n}", "func main() {\n\tfmt.Println(\"goodbye\")\n}"),
		want: "func main() {\n    fmt.Println(\"goodbye\")\n}\n", strategy: "indentation"},
	{name: "block_shifted_one_level_is_reindented", content: "func main() {\n\tif ok {\n\t\told()\n\t}\n}\n",
		req:  req("if ok {\n\told()\n}", "if ok {\n\tnew()\n}"),
		want: "func main() {\n\tif ok {\n\t\tnew()\n\t}\n}\n", strategy: "indentation"},
	{name: "aider_missing_leading_whitespace", content: "    line1\n    line2\n    line3\n",
		req:  req("line1\nline2\n", "new_line1\nnew_line2\n"),
		want: "    new_line1\n    new_line2\n    line3\n", strategy: "indentation"},
	{name: "aider_missing_varied_leading_whitespace", content: "\n    line1\n    line2\n        line3\n    line4\n",
		req:  req("line2\n    line3\n", "new_line2\n    new_line3\n"),
		want: "\n    line1\n    new_line2\n        new_line3\n    line4\n", strategy: "indentation"},
	{name: "aider_just_some_missing_leading_whitespace", content: "    line1\n    line2\n    line3\n",
		req:  req(" line1\n line2\n", " new_line1\n     new_line2\n"),
		want: "    new_line1\n        new_line2\n    line3\n", strategy: "indentation"},
	{name: "two_space_old_on_four_space_file", content: "func main() {\n    fmt.Println(\"hello\")\n}\n",
		req:  req("func main() {\n  fmt.Println(\"hello\")\n}", "func main() {\n  if x {\n    fmt.Println(\"goodbye\")\n  }\n}"),
		want: "func main() {\n    if x {\n        fmt.Println(\"goodbye\")\n    }\n}\n", strategy: "indentation"},
	{name: "new_level_uses_the_files_tabs", content: "func f() {\n\tx()\n}\n",
		req:  req("    x()", "    if ok {\n        x()\n    }"),
		want: "func f() {\n\tif ok {\n\t\tx()\n\t}\n}\n", strategy: "indentation"},
	{name: "single_line_indentation_difference", content: "func f() {\n\treturn x\n}\n", req: req("  return x", "  return y"),
		want: "func f() {\n\treturn y\n}\n", strategy: "indentation"},
	{name: "python_block_nested_differently_is_refused", content: "if a:\n    b()\n    c()\n", req: req("if a:\n    b()\nc()", "if a:\n    b()\nd()"),
		kind: NotFound, closest: 1},
	{name: "first_line_of_new_string_keeps_its_indentation", content: "def f():\n        if condition:\n            result = calculate()\n            return result\n",
		req:  req("        if condition:\n            result = calculate()\n            return result", "        if condition:\n            new_result = calculate_v2()\n            return new_result"),
		want: "def f():\n        if condition:\n            new_result = calculate_v2()\n            return new_result\n", strategy: "exact"},
	{name: "blank_lines_inside_a_shifted_block", content: "f() {\n\n  x()\n\n}\n", req: req("f() {\n\n    x()\n\n}", "f() {\n\n    y()\n\n}"),
		want: "f() {\n\n  y()\n\n}\n", strategy: "indentation"},

	// --- Line endings.
	// opencode edit.test.ts "handles CRLF line endings" and describe("line endings"); crush PR #684
	// and pi #355 (LF old_string on a CRLF file: "old_string not found"); gemini-cli #1497.
	{name: "lf_old_on_crlf_file", content: "line1\r\nold\r\nline3", req: req("old", "new"),
		want: "line1\r\nnew\r\nline3", strategy: "exact"},
	{name: "lf_multiline_old_on_crlf_file_writes_crlf", content: "alpha\r\nbeta\r\ngamma\r\n", req: req("alpha\nbeta\ngamma", "alpha\nbeta-updated\ngamma"),
		want: "alpha\r\nbeta-updated\r\ngamma\r\n", strategy: "exact"},
	{name: "crlf_old_on_lf_file_stays_lf", content: "alpha\nbeta\ngamma\n", req: req("alpha\r\nbeta\r\ngamma", "alpha\r\nbeta-updated\r\ngamma"),
		want: "alpha\nbeta-updated\ngamma\n", strategy: "exact"},
	{name: "crlf_old_and_new_on_crlf_file", content: "alpha\r\nbeta\r\ngamma\r\n", req: req("alpha\r\nbeta\r\ngamma", "alpha\r\nbeta-updated\r\ngamma"),
		want: "alpha\r\nbeta-updated\r\ngamma\r\n", strategy: "exact"},
	{name: "mixed_endings_in_old_and_new_on_crlf_file", content: "alpha\r\nbeta\r\ngamma\r\n", req: req("alpha\r\nbeta\ngamma", "alpha\nbeta\r\nomega"),
		want: "alpha\r\nbeta\r\nomega\r\n", strategy: "exact"},
	{name: "lf_new_lines_become_crlf", content: "a\r\nb\r\nc\r\n", req: req("b", "b1\nb2"),
		want: "a\r\nb1\r\nb2\r\nc\r\n", strategy: "exact", edits: []Span{{2, 3}}},
	{name: "mixed_file_untouched_lines_keep_their_endings", content: "a\r\nb\nc\r\nd\r\n", req: req("c", "c1\nc2"),
		want: "a\r\nb\nc1\r\nc2\r\nd\r\n", strategy: "exact"},
	{name: "mixed_file_with_lf_majority", content: "a\nb\nc\r\nd\n", req: req("b\nc", "b1\nb2\nc"),
		want: "a\nb1\nb2\nc\r\nd\n", strategy: "exact"},
	{name: "crlf_fuzzy_match_writes_crlf", content: "if x {\r\n\tdo()\r\n}\r\n", req: req("if x {\n    do()\n}", "if x {\n    do()\n    more()\n}"),
		want: "if x {\r\n\tdo()\r\n\tmore()\r\n}\r\n", strategy: "indentation"},

	// --- Byte order mark.
	// opencode edit.test.ts "replaces the first visible line in BOM files", "preserves BOM when
	// oldString is empty on existing files"; qwen-code PR #2474 (BOM + CRLF projects).
	{name: "bom_kept_when_first_line_edited", content: "\ufeffusing System;\nclass Test {}\n", req: req("using System;", "using Up;"),
		want: "\ufeffusing Up;\nclass Test {}\n", strategy: "exact", edits: []Span{{1, 1}}},
	{name: "bom_copied_into_old_string_is_ignored", content: "\ufeffusing System;\nclass Test {}\n", req: req("\ufeffusing System;", "\ufeffusing Up;"),
		want: "\ufeffusing Up;\nclass Test {}\n", strategy: "exact"},
	{name: "bom_and_crlf_together", content: "\ufeffa\r\nb\r\n", req: req("a\nb", "x\ny"),
		want: "\ufeffx\r\ny\r\n", strategy: "exact"},
	{name: "empty_old_fills_a_bom_only_file", content: "\ufeff", req: req("", "hello\n"),
		want: "\ufeffhello\n", strategy: "exact"},
	{name: "empty_old_on_bom_file_with_content_refused", content: "\ufeffusing System;\n", req: req("", "using Up;\n"),
		kind: Invalid, msg: "write_file"},

	// --- Final newline and edits at the end of the file.
	// opencode #1676 ("removed last line break in multi-line replacement"); aider
	// test_find_original_update_blocks_no_final_newline.
	{name: "eof_edit_without_final_newline", content: "a\nb", req: req("b", "c"),
		want: "a\nc", strategy: "exact"},
	{name: "eof_new_string_adds_newline_file_had_none", content: "a\nb", req: req("b", "c\n"),
		want: "a\nc", strategy: "exact"},
	{name: "eof_old_string_takes_final_newline_it_stays", content: "a\nb\n", req: req("b\n", "c"),
		want: "a\nc\n", strategy: "exact"},
	{name: "line_match_keeps_the_break_after_the_block", content: "line1  \nline2\nline3\n", req: req("line1\nline2", "l1\nl2"),
		want: "l1\nl2\nline3\n", strategy: "trailing-whitespace"},
	{name: "line_match_old_with_break_new_without_does_not_glue", content: "a  \nb\n", req: req("a\n", "z"),
		want: "z\nb\n", strategy: "trailing-whitespace"},
	{name: "eof_fuzzy_match_without_final_newline", content: "x\n    y", req: req("y\n", "z\n"),
		want: "x\n    z", strategy: "indentation"},

	// --- Typography: curly quotes, dashes, odd spaces, ellipses.
	// gemini-cli "Failed to edit, 0 occurrences found for old_string" reports (#6766, #7706,
	// #18370: a character the model did not copy exactly); jido's own engine test (quotes.go).
	{name: "straight_quotes_old_on_curly_file_keeps_curly", content: "package q\n\nvar msg = “hello”\n", req: req(`var msg = "hello"`, `var msg = "bye"`),
		want: "package q\n\nvar msg = “bye”\n", strategy: "typography"},
	{name: "curly_quotes_old_on_straight_file_keeps_straight", content: `say "hi"` + "\n", req: req("say “hi”", "say “bye”"),
		want: `say "bye"` + "\n", strategy: "typography"},
	{name: "curly_apostrophe_kept", content: "it’s fine\n", req: req("it's fine", "it's great"),
		want: "it’s great\n", strategy: "typography"},
	{name: "en_and_em_dashes_kept", content: "range 1–10 — inclusive\n", req: req("range 1-10 - inclusive", "range 1-20 - inclusive"),
		want: "range 1–20 — inclusive\n", strategy: "typography"},
	{name: "non_breaking_space_kept", content: "price:\u00a0100\n", req: req("price: 100", "price: 200"),
		want: "price:\u00a0200\n", strategy: "typography"},
	{name: "ellipsis_character_kept", content: "wait…\n", req: req("wait...", "wait...!"),
		want: "wait…!\n", strategy: "typography"},
	{name: "new_string_changing_the_quotes_wins", content: "x = “a”\n", req: req(`x = "a"`, `x = 'a'`),
		want: "x = 'a'\n", strategy: "typography"},
	{name: "typography_twice_is_ambiguous", content: "it’s\nit‘s\n", req: req("it's", "it is"),
		kind: Ambiguous, lines: []int{1, 2}, msg: `"typography"`},
	{name: "half_of_an_ellipsis_is_not_a_match", content: "a…b\n", req: req("a..", "x"),
		kind: NotFound},

	// --- Unicode normalization.
	// The unicode-nfc strategy: text typed on macOS arrives decomposed (NFD), models
	// write it precomposed (NFC), and the other way round.
	{name: "nfd_file_nfc_old", content: "x\ncafe\u0301\ny\n", req: req("café", "thé"),
		want: "x\nthé\ny\n", strategy: "unicode-nfc"},
	{name: "nfc_file_nfd_old", content: "x\ncafé\ny\n", req: req("cafe\u0301", "the\u0301"),
		want: "x\nthe\u0301\ny\n", strategy: "unicode-nfc"},
	{name: "nfc_compares_whole_lines_only", content: "le cafe\u0301 noir\n", req: req("café", "thé"),
		kind: NotFound, closest: 1},

	// --- Over-escaped strings.
	// gemini-cli editCorrector.test.ts unescapeStringForGeminiBug and ensureCorrectEdit
	// Scenario Groups 1 and 2; opencode EscapeNormalizedReplacer.
	{name: "over_escaped_quotes", content: `This is a test string to find "me".`, req: req(`find \"me\"`, `replace with \"this\"`),
		want: `This is a test string to replace with "this".`, strategy: "unescape"},
	{name: "over_escaped_newlines", content: "a\nb\n", req: req(`a\nb`, `a\nc`),
		want: "a\nc\n", strategy: "unescape"},
	{name: "over_escaped_backslash", content: `This is a test string to find \me.`, req: req(`find \\me`, "replace with foobar"),
		want: "This is a test string to replace with foobar.", strategy: "unescape"},
	{name: "literal_backslash_sequences_match_exactly", content: `fmt.Println("a\n")` + "\nfoo()\n", req: req(`fmt.Println("a\n")`, `fmt.Println("b\n")`),
		want: `fmt.Println("b\n")` + "\nfoo()\n", strategy: "exact"},
	{name: "over_escaped_newline_in_a_file_that_holds_backslash_n", content: "s = \"x\\n\"\ny = 1\nz = 2\n", req: req(`y = 1\nz = 2`, `y = 3\nz = 4`),
		want: "s = \"x\\n\"\ny = 3\nz = 4\n", strategy: "unescape"},
	{name: "double_escaped_literal_backslash_n", content: `fmt.Println("a\n")` + "\nfoo()\n", req: req(`fmt.Println(\"a\\n\")\nfoo()`, `fmt.Println(\"b\\n\")\nfoo()`),
		want: `fmt.Println("b\n")` + "\nfoo()\n", strategy: "unescape"},
	{name: "over_escaped_quotes_next_to_the_files_backslash_n", content: `s := "a\n"` + "\n" + `t := "b"` + "\n", req: req(`s := "a\n"`+"\n"+`t := \"b\"`, `s := "a\n"`+"\n"+`t := \"c\"`),
		want: `s := "a\n"` + "\n" + `t := "c"` + "\n", strategy: "unescape"},
	{name: "backslashes_that_are_no_escape_do_not_trigger_unescape", content: "path = C:\\dir\n", req: req(`path = C:\Dir`, `path = C:\Other`),
		kind: NotFound},
	{name: "over_escaped_and_indented_differently", content: "func f() {\n\tfoo()\n\tbar()\n}\n", req: req(`    foo()\n    bar()`, `    baz()\n    bar()`),
		want: "func f() {\n\tbaz()\n\tbar()\n}\n", strategy: "unescape+indentation"},

	// --- Partial first/last lines, stale lines, elided bodies: never anchors, never similarity.
	// opencode #14046 (BlockAnchorReplacer accepted a single candidate with hallucinated
	// middle lines), #14632 (3-line search with a final newline skipped validation), #2433
	// (edits that broke syntax), #45199; the stale "port = 8080" line.
	{name: "stale_middle_line_refused", content: "a\nport = 9090\nb\n", req: req("a\nport = 8080\nb", "a\nport = 7070\nb"),
		kind: NotFound, closest: 1, msg: "+port = 9090"},
	{name: "body_replaced_by_ellipsis_refused", content: "function f() {\n  one();\n  two();\n}\n", req: req("function f() {\n  ...\n}", "function f() {\n  three();\n}"),
		kind: NotFound, msg: "leave lines out"},
	{name: "elided_comment_line_refused", content: "class A:\n    def f(self):\n        return 1\n    def g(self):\n        return 2\n",
		req:  req("class A:\n    # ... existing code ...\n    def g(self):\n        return 2", "class A:\n    def g(self):\n        return 3"),
		kind: NotFound, msg: "leave lines out"},
	{name: "single_candidate_with_hallucinated_middle_refused", content: "class A {\n  m() {\n    return 1\n  }\n}\n", req: req("  m() {\n    return 2 // cached\n  }", "  m() {\n    return 3\n  }"),
		kind: NotFound, closest: 2},
	{name: "anchors_with_final_newline_do_not_match_a_longer_block", content: "function foo() {\n  x = 1\n  y = 2\n}\n", req: req("function foo() {\n}\n", "function foo() {}\n"),
		kind: NotFound},
	{name: "first_line_partial_exact_is_fine", content: "    result := compute(a, b)\n    return result\n", req: req("compute(a, b)\n    return result", "compute(a, c)\n    return result"),
		want: "    result := compute(a, c)\n    return result\n", strategy: "exact"},
	{name: "first_line_partial_with_whitespace_difference_refused", content: "    result := compute(a, b)\n    return result\n", req: req("compute(a,  b)\n    return result", "x"),
		kind: NotFound, closest: 1},
	{name: "last_line_partial_exact_is_fine", content: "a()\nb(1, 2)\n", req: req("a()\nb(1", "a()\nb(3"),
		want: "a()\nb(3, 2)\n", strategy: "exact"},
	{name: "short_lines_found_nowhere_show_no_candidate", content: "package main\n\nfunc main() {\n\tx := 1\n}\n", req: req("a  \nb", "x\ny"),
		kind: NotFound, msg: "Nothing in the file looks like it"},
	{name: "unrelated_text_shows_no_candidate", content: "package main\n\nfunc main() {}\n", req: req("this text does not exist anywhere in the file at all", "x"),
		kind: NotFound, msg: "Nothing in the file looks like it"},

	// --- Several occurrences.
	// aider test_replace_multiple_matches (aider replaced the first; jido refuses), crush
	// TestNormalizedReplace "ambiguous match fails", opencode "Found multiple matches".
	{name: "several_occurrences_refused_with_lines", content: "line1\nline2\nline1\nline3\n", req: req("line1\n", "new_line\n"),
		kind: Ambiguous, lines: []int{1, 3}},
	{name: "several_fuzzy_occurrences_refused", content: "func a() {\n\tfoo()\n}\nfunc b() {\n\tfoo()\n}\n", req: req("    foo()\n}", "    bar()\n}"),
		kind: Ambiguous, lines: []int{2, 5}, msg: `"indentation"`},
	{name: "several_occurrences_replaced_with_replace_all", content: "line1\nline2\nline1\nline3\n", req: reqAll("line1\n", "new_line\n"),
		want: "new_line\nline2\nnew_line\nline3\n", strategy: "exact", n: 2, edits: []Span{{1, 1}, {3, 3}}},

	// --- Deleting lines: no blank line left, neighbours not joined.
	// opencode #1676; crush deleteContent; the deletion rule.
	{name: "delete_middle_line_leaves_no_blank_line", content: "a\nb\nc\n", req: req("b", ""),
		want: "a\nc\n", strategy: "exact", edits: []Span{{2, 1}}},
	{name: "delete_line_given_with_its_newline", content: "a\nb\nc\n", req: req("b\n", ""),
		want: "a\nc\n", strategy: "exact"},
	{name: "delete_several_lines", content: "a\nb\nc\nd\n", req: req("b\nc", ""),
		want: "a\nd\n", strategy: "exact"},
	{name: "delete_last_line_without_final_newline", content: "a\nb", req: req("b", ""),
		want: "a", strategy: "exact", edits: []Span{{1, 1}}},
	{name: "delete_last_line_with_final_newline", content: "a\nb\n", req: req("b", ""),
		want: "a\n", strategy: "exact"},
	{name: "delete_first_line", content: "a\nb\n", req: req("a", ""),
		want: "b\n", strategy: "exact"},
	{name: "delete_part_of_a_line_does_not_join_lines", content: "a\nbc\nd\n", req: req("b", ""),
		want: "a\nc\nd\n", strategy: "exact"},
	{name: "delete_adjacent_lines_with_replace_all", content: "x\nx\ny\n", req: reqAll("x", ""),
		want: "y\n", strategy: "exact", n: 2},
	{name: "delete_last_lines_with_replace_all", content: "a\nb\nb", req: reqAll("b", ""),
		want: "a", strategy: "exact", n: 2},
	{name: "delete_block_matched_by_indentation", content: "f()\n\tg()\n\th()\nk()\n", req: req("    g()\n    h()\n", ""),
		want: "f()\nk()\n", strategy: "indentation"},
	{name: "delete_crlf_line", content: "a\r\nb\r\nc\r\n", req: req("b", ""),
		want: "a\r\nc\r\n", strategy: "exact"},

	// --- Empty file, empty old_string.
	// opencode edit.test.ts "creates new file when oldString is empty"; ai-agent-book PR #178
	// (empty old_string with replace_all inserted between every character); anthropic-sdk-python
	// PR #1709 (reject empty old_string).
	{name: "empty_old_fills_an_empty_file", content: "", req: req("", "new content"),
		want: "new content", strategy: "exact", edits: []Span{{1, 1}}},
	{name: "empty_old_keeps_crlf_of_new_text_in_empty_file", content: "", req: req("", "a\r\nb\r\n"),
		want: "a\r\nb\r\n", strategy: "exact"},
	{name: "empty_old_on_content_refused", content: "content", req: req("", "x"),
		kind: Invalid},
	{name: "empty_old_with_replace_all_refused", content: "abcd", req: reqAll("", "X"),
		kind: Invalid},

	// --- Whitespace-only old_string: exact only.
	{name: "whitespace_only_old_matches_exactly", content: "a  b\n", req: req("  ", " "),
		want: "a b\n", strategy: "exact"},
	{name: "whitespace_only_old_never_matches_loosely", content: "a\n\t\nb\n", req: req("    ", ""),
		kind: NotFound},
	{name: "blank_lines_old_is_ambiguous", content: "a\n\nb\n\nc\n", req: req("\n\n", "\n"),
		kind: Ambiguous, lines: []int{1, 3}},

	// --- Edits that change nothing.
	// opencode edit.test.ts "throws error when oldString equals newString" (twice, once empty).
	{name: "old_equals_new", content: "same\n", req: req("same", "same"),
		kind: NoChange, msg: "identical"},
	{name: "empty_old_equals_empty_new", content: "content", req: req("", ""),
		kind: NoChange},
	{name: "only_line_endings_differ", content: "a\r\nb\r\n", req: req("a\r\nb", "a\nb"),
		kind: NoChange},
	{name: "fuzzy_match_whose_result_is_unchanged", content: "x = 1\n", req: req("x  =  1", "x = 1"),
		kind: NoChange, msg: `"inner-whitespace"`},
	{name: "typography_match_whose_result_is_unchanged", content: "it’s\n", req: req("it's", "it’s"),
		kind: NoChange},

	// --- Runs of whitespace, whole lines and inside one line.
	// crush TestNormalizedReplace ("unindented old string in indented context", "surrounding
	// text on the line is preserved"); opencode WhitespaceNormalizedReplacer.
	{name: "inner_whitespace_whole_line_reindented", content: "func f() {\n\tfoo := 1\n\tbar := 2\n}\n", req: req("foo :=  1", "foo := 99"),
		want: "func f() {\n\tfoo := 99\n\tbar := 2\n}\n", strategy: "inner-whitespace"},
	{name: "single_line_flexible_spaces_inside_a_line", content: "x := compute(a,  b) + 1\n", req: req("compute(a, b)", "compute(a, c)"),
		want: "x := compute(a, c) + 1\n", strategy: "single-line-whitespace"},
	{name: "single_line_tabs_and_spaces", content: "if (a\t&&  b) {\n", req: req(" a && b ", " a || b "),
		want: "if (a || b) {\n", strategy: "single-line-whitespace"},
	{name: "single_line_needs_some_whitespace_where_old_has_some", content: "foo(a,b)\n", req: req("foo(a, b)", "foo(a, c)"),
		kind: NotFound},
	{name: "single_line_twice_is_ambiguous", content: "f(a,  b)\ng(a,\tb)\n", req: req("a, b", "a, c"),
		kind: Ambiguous, lines: []int{1, 2}},
}
