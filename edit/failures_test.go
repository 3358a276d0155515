package edit

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// The failure corpus: cases written from the classes of failure that agents' edit tools were
// reported to make (issue 18), each class with its own group. The groups name the tools
// where that class of failure was reported; the cases are written from the class, across
// languages, not copied from any one report.

var failureCorpus = []corpusCase{
	// --- A loose match must start and end on a word boundary, and where old_string says it
	// starts or ends a line. Reported for whitespace-tolerant replacers that match a trimmed
	// old_string inside a longer identifier (opencode's and crush's whitespace-normalized
	// replacers; aider's fuzzy search-block matching): "return foo" matched inside
	// "return foobar" and wrote "return bazbar".
	{name: "loose_match_inside_identifier_refused", content: "\treturn foobar\n", req: req("    return foo\n", "    return baz\n"),
		kind: NotFound},
	{name: "python_single_line_starting_inside_a_word_refused", content: "x = recount(a,  b)\n", req: req("count(a, b)", "count(a, c)"),
		kind: NotFound},
	{name: "c_single_line_ending_inside_a_word_refused", content: "if (ready  && doneSoon) {\n", req: req("ready && done", "ready && finished"),
		kind: NotFound},
	{name: "js_single_line_skips_the_place_inside_a_word", content: "let t = subtotal(items,  tax);\nlet u = total(items,  tax);\n", req: req("total(items, tax)", "total(items, 0)"),
		want: "let t = subtotal(items,  tax);\nlet u = total(items, 0);\n", strategy: "single-line-whitespace"},
	{name: "c_single_line_end_boundary_counts_underscore", content: "#define BUF  SIZE_MAX\n#define BUF  SIZE\n", req: req("BUF SIZE", "BUF LEN"),
		want: "#define BUF  SIZE_MAX\n#define BUF LEN\n", strategy: "single-line-whitespace"},
	// Blanks before a one-line old_string alone do not anchor it to the line's start (models
	// copy a space or two around a fragment); indentation before a whole line does.
	{name: "python_leading_blanks_alone_do_not_anchor", content: "result = base  + offset  # note\n", req: req("  base + offset", "  base + delta"),
		want: "result = base + delta  # note\n", strategy: "single-line-whitespace"},
	{name: "python_indented_whole_line_must_start_the_lines_text", content: "result = base  + offset\n", req: req("  base + offset\n", "  base + delta\n"),
		kind: NotFound},
	{name: "python_leading_whitespace_at_the_start_of_the_lines_text", content: "total = (\n    base  + offset  # note\n)\n", req: req("    base + offset", "    base + delta"),
		want: "total = (\n    base + delta  # note\n)\n", strategy: "single-line-whitespace"},
	{name: "shell_trailing_line_break_must_end_the_line", content: "echo  \"start\"; run_job\n", req: req("echo \"start\"\n", "echo \"begin\"\n"),
		kind: NotFound},
	{name: "shell_trailing_line_break_with_blanks_before_the_end", content: "cd /srv && echo  \"start\"   \n", req: req("echo \"start\"\n", "echo \"begin\"\n"),
		want: "cd /srv && echo \"begin\"   \n", strategy: "single-line-whitespace"},
	{name: "markdown_typography_skips_the_place_inside_a_word", content: "The user’s guide and the superuser’s guide.\n", req: req("user's guide", "user's manual"),
		want: "The user’s manual and the superuser’s guide.\n", strategy: "typography"},
	{name: "typography_match_ending_inside_a_number_refused", content: "range 1–100\n", req: req("range 1-10", "range 1-20"),
		kind: NotFound},
	{name: "crlf_in_word_place_skipped_line_match_elsewhere", content: "\treturn foobar\r\n\treturn foo\r\n", req: req("    return foo\n", "    return baz\n"),
		want: "\treturn foobar\r\n\treturn baz\r\n", strategy: "indentation"},
	{name: "crlf_loose_match_inside_identifier_refused", content: "\treturn foobar\r\n", req: req("    return foo\n", "    return baz\n"),
		kind: NotFound},

	// --- Lines the model did not change keep their bytes. Reported for trailing-whitespace
	// and indentation-tolerant replacers that write new_string's copy of an unchanged line
	// over the file's (aider's whitespace-flexible matching, opencode's line-trimmed
	// replacer, Cline's line-trimmed fallback): Markdown hard breaks (two trailing spaces)
	// dropped, tab-aligned columns and curly quotes replaced.
	{name: "markdown_hard_break_on_unchanged_line_kept", content: "a  \nb\nc\n", req: req("a\nb", "a\nB"),
		want: "a  \nB\nc\n", strategy: "trailing-whitespace"},
	{name: "markdown_poem_hard_breaks_kept", content: "Roses are red,  \nViolets are blue,  \nSugar is sweet\n",
		req:  req("Roses are red,\nViolets are blue,\nSugar is sweet", "Roses are red,\nViolets are blue,\nHoney is sweet"),
		want: "Roses are red,  \nViolets are blue,  \nHoney is sweet\n", strategy: "trailing-whitespace"},
	{name: "markdown_trailing_unchanged_line_kept", content: "# Title\nold intro\nSee below.  \nNext\n", req: req("old intro\nSee below.\n", "new intro\nSee below.\n"),
		want: "# Title\nnew intro\nSee below.  \nNext\n", strategy: "trailing-whitespace"},
	{name: "markdown_lines_between_changes_come_from_new_string", content: "- one \n- two \n- three \n", req: req("- one\n- two\n- three", "- One\n- two\n- Three"),
		want: "- One\n- two\n- Three\n", strategy: "trailing-whitespace"},
	{name: "yaml_inserted_line_keeps_both_neighbours", content: "a: 1  \nb: 2\nc: 3  \n", req: req("a: 1\nb: 2\nc: 3", "a: 1\nb: 2\nb2: 4\nc: 3"),
		want: "a: 1  \nb: 2\nb2: 4\nc: 3  \n", strategy: "trailing-whitespace"},
	{name: "python_deleted_line_keeps_both_neighbours", content: "x = 1  \ny = 2\nz = 3\n", req: req("x = 1\ny = 2\nz = 3", "x = 1\nz = 3"),
		want: "x = 1  \nz = 3\n", strategy: "trailing-whitespace"},
	{name: "go_indentation_keeps_trailing_spaces_of_unchanged_line", content: "func f() {\n\ta := 1 // keep  \n\tb := 2\n}\n",
		req:  req("    a := 1 // keep\n    b := 2", "    a := 1 // keep\n    b := 3"),
		want: "func f() {\n\ta := 1 // keep  \n\tb := 3\n}\n", strategy: "indentation"},
	{name: "python_tabs_file_unchanged_header_kept", content: "class A:\n\tdef f(self):  \n\t\treturn 1\n", req: req("def f(self):\n    return 1", "def f(self):\n    return 2"),
		want: "class A:\n\tdef f(self):  \n\t\treturn 2\n", strategy: "indentation"},
	{name: "c_inner_whitespace_keeps_unchanged_lines", content: "if  (a)  {\n    return b;\n}\n", req: req("if (a) {\n    return b;\n}", "if (a) {\n    return c;\n}"),
		want: "if  (a)  {\n    return c;\n}\n", strategy: "inner-whitespace"},
	{name: "c_tab_aligned_defines_kept", content: "#define A\t1\n#define B\t2\n#define C\t3\n", req: req("#define A 1\n#define B 2\n#define C 3", "#define A 1\n#define B 20\n#define C 3"),
		want: "#define A\t1\n#define B 20\n#define C\t3\n", strategy: "inner-whitespace"},
	{name: "go_nbsp_comment_line_kept_by_inner_whitespace", content: "func f() {\n\t// see\u00a0docs\n\treturn 1\n}\n",
		req:  req("    // see docs\n    return 1", "    // see docs\n    return 2"),
		want: "func f() {\n\t// see\u00a0docs\n\treturn 2\n}\n", strategy: "inner-whitespace"},
	{name: "markdown_nfd_heading_kept", content: "# Cafe\u0301 menu\nprice = 3\n", req: req("# Café menu\nprice = 3", "# Café menu\nprice = 4"),
		want: "# Cafe\u0301 menu\nprice = 4\n", strategy: "unicode-nfc"},
	{name: "crlf_markdown_hard_break_kept", content: "a  \r\nb\r\nc\r\n", req: req("a\nb", "a\nB"),
		want: "a  \r\nB\r\nc\r\n", strategy: "trailing-whitespace"},
	{name: "over_escaped_markdown_hard_break_kept", content: "Line one  \nLine two\n", req: req(`Line one\nLine two`, `Line one\nLine 2`),
		want: "Line one  \nLine 2\n", strategy: "unescape+trailing-whitespace"},

	// --- Unescaping is all or nothing. Reported for gemini-cli's editCorrector (unescaping
	// old_string but only some sequences of new_string), qwen-code's copy of it, and for
	// Claude Code and Codex users whose model over-escaped quotes, newlines, backticks and
	// dollar signs in a JS template literal or a shell script: a partial unescape wrote a
	// syntax error.
	{name: "python_over_escaped_quotes_and_newline_fully_unescaped", content: "def f():\n    print(\"a\")\n    x = 1\n",
		req:  req(`print(\"a\")\n    x = 1`, `print(\"b\")\n    x = 2`),
		want: "def f():\n    print(\"b\")\n    x = 2\n", strategy: "unescape"},
	{name: "js_template_literal_over_escaped_backticks_and_dollar", content: "const greet = (name) => `Hello ${name}`;\nexport default greet;\n",
		req:  req("const greet = (name) => \\`Hello \\${name}\\`;", "const greet = (name) => \\`Hello, \\${name}!\\`;"),
		want: "const greet = (name) => `Hello, ${name}!`;\nexport default greet;\n", strategy: "unescape"},
	{name: "shell_over_escaped_dollar_and_quotes", content: "#!/bin/sh\necho \"$HOME\"\n", req: req(`echo \"\$HOME\"`, `echo \"\$HOME/bin\"`),
		want: "#!/bin/sh\necho \"$HOME/bin\"\n", strategy: "unescape"},
	{name: "python_over_escaped_single_quotes", content: "name = 'x'\nprint(name)\n", req: req(`name = \'x\'`, `name = \'y\'`),
		want: "name = 'y'\nprint(name)\n", strategy: "unescape"},
	{name: "makefile_over_escaped_newline_and_tab", content: "build:\n\tgo build ./cmd/app\n", req: req(`build:\n\tgo build ./cmd/app`, `build:\n\tgo build -o bin/app ./cmd/app`),
		want: "build:\n\tgo build -o bin/app ./cmd/app\n", strategy: "unescape"},
	{name: "js_over_escaped_double_and_single_quotes", content: "const s = \"a\";\nconst t = 'b';\n", req: req(`const s = \"a\";\nconst t = \'b\';`, `const s = \"x\";\nconst t = \'y\';`),
		want: "const s = \"x\";\nconst t = 'y';\n", strategy: "unescape"},
	{name: "rust_over_escaped_backslashes_in_a_raw_string", content: "let re = Regex::new(r\"\\d+\").unwrap();\n", req: req(`Regex::new(r\"\\d+\")`, `Regex::new(r\"\\d+\\.\\d+\")`),
		want: "let re = Regex::new(r\"\\d+\\.\\d+\").unwrap();\n", strategy: "unescape"},
	{name: "new_string_unescapes_kinds_old_string_lacks", content: "x = \"a\"\n", req: req(`x = \"a\"`, `x = \"a\"\ny = \"b\"`),
		want: "x = \"a\"\ny = \"b\"\n", strategy: "unescape"},
	{name: "go_kind_the_file_holds_literally_stays_in_new_string", content: "fmt.Printf(\"%d\\n\", n)\nname := \"a\"\n",
		req:  req(`name := \"a\"`, `name := \"a\"; fmt.Printf(\"%s\n\", name)`),
		want: "fmt.Printf(\"%d\\n\", n)\nname := \"a\"; fmt.Printf(\"%s\\n\", name)\n", strategy: "unescape"},
	{name: "python_new_string_with_raw_quotes_used_as_written", content: "msg = \"hi\"\nprint(msg)\n", req: req(`msg = \"hi\"`, `msg = "bye\n"`),
		want: "msg = \"bye\\n\"\nprint(msg)\n", strategy: "unescape"},
	{name: "new_string_with_raw_line_break_used_as_written", content: "a = 1\nb = \"x\"\n", req: req(`a = 1\nb = \"x\"`, "a = 1\nb = \\\"y\\\""),
		want: "a = 1\nb = \\\"y\\\"\n", strategy: "unescape"},
	{name: "escaped_old_string_found_as_written_is_exact", content: "s := \"say(\\\"hi\\\")\"\nsay(\"hi\")\n", req: req(`say(\"hi\")`, `say(\"bye\")`),
		want: "s := \"say(\\\"bye\\\")\"\nsay(\"hi\")\n", strategy: "exact"},

	// --- Typography and whitespace differences in the same old_string. Reported for
	// gemini-cli and qwen-code ("0 occurrences found" for a re-indented block with curly
	// quotes), Claude Code ("String to replace not found" on text with an en dash) and crush:
	// each difference alone is forgiven, both together were not.
	{name: "jsx_curly_quotes_in_a_reindented_block", content: "export function Hello() {\n  return (\n    <p>\n      “Hello,” she said.\n      It is late.\n    </p>\n  );\n}\n",
		req:  req("<p>\n  \"Hello,\" she said.\n  It is late.\n</p>", "<p>\n  \"Hello,\" she said.\n  It is early.\n</p>"),
		want: "export function Hello() {\n  return (\n    <p>\n      “Hello,” she said.\n      It is early.\n    </p>\n  );\n}\n", strategy: "typography+indentation"},
	{name: "python_en_dash_and_missing_indent", content: "def rng():\n    # range 1–10\n    return range(1, 10)\n",
		req:  req("# range 1-10\nreturn range(1, 10)", "# range 1-10\nreturn range(1, 11)"),
		want: "def rng():\n    # range 1–10\n    return range(1, 11)\n", strategy: "typography+indentation"},
	{name: "yaml_curly_quoted_name_reindented", content: "steps:\n  - name: “Build”\n    run: make\n", req: req("- name: \"Build\"\n  run: make", "- name: \"Build\"\n  run: make all"),
		want: "steps:\n  - name: “Build”\n    run: make all\n", strategy: "typography+indentation"},
	{name: "rust_doc_comment_curly_quotes_reindented", content: "impl S {\n    /// Returns “None” if empty.\n    fn get(&self) -> Option<u8> {\n        self.v.first().copied()\n    }\n}\n",
		req:  req("/// Returns \"None\" if empty.\nfn get(&self) -> Option<u8> {\n    self.v.first().copied()\n}", "/// Returns \"None\" if empty.\nfn get(&self) -> Option<u8> {\n    self.v.last().copied()\n}"),
		want: "impl S {\n    /// Returns “None” if empty.\n    fn get(&self) -> Option<u8> {\n        self.v.last().copied()\n    }\n}\n", strategy: "typography+indentation"},
	{name: "crlf_go_curly_quotes_spaces_for_tabs", content: "if ok {\r\n\tmsg := “hi”\r\n\tsend(msg)\r\n}\r\n", req: req("    msg := \"hi\"\n    send(msg)", "    msg := \"hi\"\n    send(msg, true)"),
		want: "if ok {\r\n\tmsg := “hi”\r\n\tsend(msg, true)\r\n}\r\n", strategy: "typography+indentation"},
	{name: "markdown_curly_quotes_and_hard_break", content: "“Quote” line one  \nline two\n", req: req("\"Quote\" line one\nline two", "\"Quote\" line one\nline 2"),
		want: "“Quote” line one  \nline 2\n", strategy: "typography+trailing-whitespace"},
	{name: "markdown_ellipsis_and_hard_break", content: "Loading…  \nDone\n", req: req("Loading...\nDone", "Loading...\nFinished"),
		want: "Loading…  \nFinished\n", strategy: "typography+trailing-whitespace"},
	{name: "c_curly_quotes_and_aligned_comment", content: "int max = 10;\nint min = 0;   /* “floor” */\n", req: req("int max = 10;\nint min = 0; /* \"floor\" */", "int max = 20;\nint min = 0; /* \"floor\" */"),
		want: "int max = 20;\nint min = 0;   /* “floor” */\n", strategy: "typography+inner-whitespace"},
	{name: "ts_curly_quotes_and_runs_of_spaces", content: "const label  =  ‘Save’;\nconst hint = 'x';\n", req: req("const label = 'Save';\nconst hint = 'x';", "const label = 'Save';\nconst hint = 'y';"),
		want: "const label  =  ‘Save’;\nconst hint = 'y';\n", strategy: "typography+inner-whitespace"},
	{name: "typography_and_indentation_twice_is_ambiguous", content: "func a() {\n\tlog(“x”)\n\tdone()\n}\nfunc b() {\n\tlog(“x”)\n\tdone()\n}\n",
		req:  req("    log(\"x\")\n    done()", "    log(\"x\")\n    finish()"),
		kind: Ambiguous, lines: []int{2, 6}, msg: `"typography+indentation"`},
	{name: "typography_and_indentation_with_replace_all", content: "func a() {\n\tlog(“x”)\n\tdone()\n}\nfunc b() {\n\tlog(“x”)\n\tdone()\n}\n",
		req:  reqAll("    log(\"x\")\n    done()", "    log(\"x\")\n    finish()"),
		want: "func a() {\n\tlog(“x”)\n\tfinish()\n}\nfunc b() {\n\tlog(“x”)\n\tfinish()\n}\n", strategy: "typography+indentation", n: 2},

	// --- Zero-width characters the model dropped (or added). Reported for gemini-cli and
	// Claude Code on text pasted from the web or chat (U+200B inside a URL or word, a ZWJ
	// inside an emoji sequence, a stray U+FEFF where files were concatenated): the model
	// cannot see them, so its old_string never matched.
	{name: "js_zero_width_space_inside_a_url", content: "const url = \"https://exa\u200bmple.com\";\n", req: req(`const url = "https://example.com";`, `const url = "https://example.org";`),
		want: "const url = \"https://exa\u200bmple.org\";\n", strategy: "typography"},
	{name: "yaml_zwj_in_an_emoji_kept", content: "status: \"👩\u200d💻 coding\"\nmood: ok\n", req: req("status: \"👩💻 coding\"", "status: \"👩💻 resting\""),
		want: "status: \"👩\u200d💻 resting\"\nmood: ok\n", strategy: "typography"},
	{name: "python_zero_width_in_old_string_not_in_file", content: "greeting = \"Hello world\"\nx = 1\n",
		req:  req("greeting = \"Hello\u200b world\"\nx = 1", "greeting = \"Hello\u200b world\"\nx = 2"),
		want: "greeting = \"Hello world\"\nx = 2\n", strategy: "typography"},
	{name: "byte_order_mark_inside_the_file_kept", content: "a = 1\n\ufeffb = 2\n", req: req("a = 1\nb = 2", "a = 1\nb = 3"),
		want: "a = 1\n\ufeffb = 3\n", strategy: "typography"},
	{name: "markdown_zwnj_in_persian_text_kept", content: "- می\u200cخواهم\n- item two\n", req: req("- میخواهم\n- item two", "- میخواهم\n- item 2"),
		want: "- می\u200cخواهم\n- item 2\n", strategy: "typography"},
	{name: "shell_word_joiner_kept", content: "NAME=web\u2060app\nPORT=80\n", req: req("NAME=webapp\nPORT=80", "NAME=webapp\nPORT=8080"),
		want: "NAME=web\u2060app\nPORT=8080\n", strategy: "typography"},
	{name: "go_zero_width_kept_with_indentation", content: "func greet() string {\n\tname := \"Jo\u200bhn\"\n\treturn name\n}\n",
		req:  req("    name := \"John\"\n    return name", "    name := \"John\"\n    return strings.ToUpper(name)"),
		want: "func greet() string {\n\tname := \"Jo\u200bhn\"\n\treturn strings.ToUpper(name)\n}\n", strategy: "typography+indentation"},
	{name: "markdown_zero_width_and_hard_break_kept", content: "Hello\u200b world  \nbye\n", req: req("Hello world\nbye", "Hello world\nsee you"),
		want: "Hello\u200b world  \nsee you\n", strategy: "typography+trailing-whitespace"},
	{name: "exact_beats_a_zero_width_lookalike", content: "id\u200b = 1\nid = 1\n", req: req("id = 1", "id = 2"),
		want: "id\u200b = 1\nid = 2\n", strategy: "exact"},

	// --- Spurious blank lines on both strings. Reported for aider (search/replace blocks
	// with extra blank lines around them), Cline and deepagents: the model pads old_string and
	// new_string alike with blank lines the file does not have there.
	{name: "python_trailing_blank_lines_on_both", content: "def a():\n    return 1\ndef b():\n    return 2\n",
		req:  req("def a():\n    return 1\n\n\n", "def a():\n    return 10\n\n\n"),
		want: "def a():\n    return 10\ndef b():\n    return 2\n", strategy: "blank-lines"},
	{name: "python_leading_blank_lines_on_both", content: "import os\nimport sys\ndef main():\n    pass\n",
		req:  req("\n\ndef main():\n    pass", "\n\ndef main():\n    print(sys.argv)"),
		want: "import os\nimport sys\ndef main():\n    print(sys.argv)\n", strategy: "blank-lines"},
	{name: "js_blank_lines_at_both_ends_on_both", content: "x();\nfoo();\nbar();\ny();\n", req: req("\nfoo();\nbar();\n\n", "\nfoo();\nbaz();\n\n"),
		want: "x();\nfoo();\nbaz();\ny();\n", strategy: "blank-lines"},
	{name: "python_blank_lines_then_indentation", content: "class A:\n    def f(self):\n        return 1\n",
		req:  req("\n\ndef f(self):\n    return 1", "\n\ndef f(self):\n    return 2"),
		want: "class A:\n    def f(self):\n        return 2\n", strategy: "blank-lines+indentation"},
	{name: "crlf_go_trailing_blank_lines_on_both", content: "a := 1\r\nb := 2\r\nc := 3\r\n", req: req("a := 1\nb := 2\n\n", "a := 1\nb := 20\n\n"),
		want: "a := 1\r\nb := 20\r\nc := 3\r\n", strategy: "blank-lines"},
	{name: "python_different_trailing_blank_lines_refused", content: "import os\ndef main():\n    pass\nx = 1\n",
		req:  req("def main():\n    pass\n\n\n", "def main():\n    print()\n\n"),
		kind: NotFound},
	{name: "yaml_blank_lines_only_on_old_string_refused", content: "a:\n  b: 1\nc: 2\n", req: req("a:\n  b: 1\n\n", "a:\n  b: 2\n"),
		kind: NotFound},

	// --- Both strings wrapped in a Markdown code fence. Reported for aider (which strips the
	// fence from edit blocks), opencode and Codex users whose model copied its chat formatting
	// into the tool call.
	{name: "python_code_fence_around_both", content: "def add(a, b):\n    return a + b\n",
		req:  req("```python\ndef add(a, b):\n    return a + b\n```", "```python\ndef add(a, b):\n    return b + a\n```"),
		want: "def add(a, b):\n    return b + a\n", strategy: "code-fence"},
	{name: "rust_code_fence_around_both", content: "fn main() {\n    println!(\"hi\");\n}\n",
		req:  req("```rust\nfn main() {\n    println!(\"hi\");\n}\n```", "```rust\nfn main() {\n    println!(\"hello\");\n}\n```"),
		want: "fn main() {\n    println!(\"hello\");\n}\n", strategy: "code-fence"},
	{name: "go_bare_code_fence_then_indentation", content: "func f() {\n\tx := 1\n\treturn x\n}\n",
		req:  req("```\n    x := 1\n    return x\n```", "```\n    x := 2\n    return x\n```"),
		want: "func f() {\n\tx := 2\n\treturn x\n}\n", strategy: "code-fence+indentation"},
	{name: "markdown_code_fence_then_trailing_whitespace", content: "Hello  \nWorld\n", req: req("```markdown\nHello\nWorld\n```", "```markdown\nHello\nEveryone\n```"),
		want: "Hello  \nEveryone\n", strategy: "code-fence+trailing-whitespace"},
	{name: "js_code_fence_with_final_line_break_around_both", content: "const a = 1;\nconst b = 2;\n", req: req("```js\nconst b = 2;\n```\n", "```js\nconst b = 3;\n```\n"),
		want: "const a = 1;\nconst b = 3;\n", strategy: "code-fence"},
	{name: "code_fence_only_on_old_string_refused", content: "x := 1\n", req: req("```go\nx := 1\n```", "x := 2"),
		kind: NotFound},
	{name: "markdown_real_code_fence_matches_exactly", content: "Run:\n\n```sh\nmake\n```\n", req: req("```sh\nmake\n```", "```sh\nmake test\n```"),
		want: "Run:\n\n```sh\nmake test\n```\n", strategy: "exact"},

	// --- Elision: new_string stands for code with a placeholder. gemini-cli and qwen-code
	// refuse it; reported for aider ("... existing code ..." lazy edits), Claude Code and
	// Cline, where the placeholder was written to the file and the code it stood for was lost.
	{name: "js_existing_code_comment_replaces_a_method", content: "class Cart {\n  add(item) {\n    this.items.push(item);\n  }\n  total() {\n    return this.items.length;\n  }\n}\n",
		req:  req("  add(item) {\n    this.items.push(item);\n  }\n  total() {\n    return this.items.length;\n  }", "  add(item) {\n    this.items.push(item);\n    this.save();\n  }\n  // ... existing code ..."),
		kind: Invalid, msg: "placeholder"},
	{name: "python_rest_unchanged_comment", content: "def load(path):\n    with open(path) as f:\n        data = f.read()\n    return parse(data)\n",
		req:  req("def load(path):\n    with open(path) as f:\n        data = f.read()\n    return parse(data)", "def load(path, encoding=\"utf-8\"):\n    # rest unchanged"),
		kind: Invalid, msg: "placeholder"},
	{name: "c_rest_of_methods_block_comment", content: "static int add(int a, int b) {\n\treturn a + b;\n}\n\nstatic int sub(int a, int b) {\n\treturn a - b;\n}\n",
		req:  req("static int add(int a, int b) {\n\treturn a + b;\n}\n\nstatic int sub(int a, int b) {\n\treturn a - b;\n}", "static long add(long a, long b) {\n\treturn a + b;\n}\n\n/* rest of methods ... */"),
		kind: Invalid, msg: "placeholder"},
	{name: "markdown_html_comment_ellipsis", content: "## Steps\n\n1. Install\n2. Configure\n3. Run\n", req: req("1. Install\n2. Configure\n3. Run", "1. Install the CLI\n<!-- ... -->"),
		kind: Invalid, msg: "placeholder"},
	{name: "jsx_brace_comment_ellipsis", content: "export const Page = () => (\n  <main>\n    <Header />\n    <Body />\n    <Footer />\n  </main>\n);\n",
		req:  req("  <main>\n    <Header />\n    <Body />\n    <Footer />\n  </main>", "  <main>\n    <Header title=\"Home\" />\n    {/* ... */}\n  </main>"),
		kind: Invalid, msg: "placeholder"},
	{name: "rust_rest_of_impl_comment", content: "impl Stack {\n    fn push(&mut self, v: i32) {\n        self.items.push(v);\n    }\n    fn pop(&mut self) -> Option<i32> {\n        self.items.pop()\n    }\n}\n",
		req:  req("impl Stack {\n    fn push(&mut self, v: i32) {\n        self.items.push(v);\n    }\n    fn pop(&mut self) -> Option<i32> {\n        self.items.pop()\n    }\n}", "impl Stack {\n    fn push(&mut self, v: i32) {\n        self.len += 1;\n        self.items.push(v);\n    }\n    // rest of impl unchanged\n}"),
		kind: Invalid, msg: "placeholder"},
	{name: "yaml_remaining_services_omitted", content: "services:\n  web:\n    image: nginx\n    ports:\n      - \"80:80\"\n  db:\n    image: postgres\n",
		req:  req("  web:\n    image: nginx\n    ports:\n      - \"80:80\"\n  db:\n    image: postgres", "  web:\n    image: nginx:1.27\n    # ... remaining services omitted"),
		kind: Invalid, msg: "placeholder"},
	{name: "shell_remaining_steps_placeholder", content: "#!/bin/sh\nset -e\nmake build\nmake test\nmake install\n", req: req("make build\nmake test\nmake install", "make build VERBOSE=1\n# ... remaining steps ..."),
		kind: Invalid, msg: "placeholder"},
	{name: "sql_rest_of_query_unchanged", content: "SELECT id,\n       name,\n       email\nFROM users\nWHERE active = 1;\n",
		req:  req("SELECT id,\n       name,\n       email\nFROM users\nWHERE active = 1;", "SELECT id,\n       name,\n-- rest of the query unchanged"),
		kind: Invalid, msg: "placeholder"},
	{name: "ini_semicolon_comment_settings_omitted", content: "[server]\nport = 80\nhost = localhost\ntimeout = 30\n", req: req("[server]\nport = 80\nhost = localhost\ntimeout = 30", "[server]\nport = 8080\n; ... other settings omitted"),
		kind: Invalid, msg: "placeholder"},
	{name: "go_unicode_ellipsis_alone_replaces_a_block", content: "func run() error {\n\tif err := a(); err != nil {\n\t\treturn err\n\t}\n\treturn b()\n}\n",
		req:  req("func run() error {\n\tif err := a(); err != nil {\n\t\treturn err\n\t}\n\treturn b()\n}", "func run() error {\n\t…\n\treturn c()\n}"),
		kind: Invalid, msg: "placeholder"},
	{name: "python_bare_ellipsis_replaces_several_lines", content: "def total(xs):\n    s = 0\n    for x in xs:\n        s += x\n    return s\n",
		req:  req("def total(xs):\n    s = 0\n    for x in xs:\n        s += x\n    return s", "def total(xs):\n    ...\n    return sum(xs)"),
		kind: Invalid, msg: "placeholder"},
	{name: "go_omitted_for_brevity_placeholder", content: "func (s *Server) routes() {\n\ts.mux.HandleFunc(\"/a\", s.a)\n\ts.mux.HandleFunc(\"/b\", s.b)\n\ts.mux.HandleFunc(\"/c\", s.c)\n}\n",
		req:  req("\ts.mux.HandleFunc(\"/a\", s.a)\n\ts.mux.HandleFunc(\"/b\", s.b)\n\ts.mux.HandleFunc(\"/c\", s.c)", "\ts.mux.HandleFunc(\"/a\", s.a)\n\t// ... omitted for brevity ...\n\ts.mux.HandleFunc(\"/d\", s.d)"),
		kind: Invalid, msg: "placeholder"},
	{name: "ts_placeholder_refused_at_a_loose_level", content: "export class Api {\n\tget(url: string) {\n\t\treturn fetch(url);\n\t}\n\tpost(url: string) {\n\t\treturn fetch(url, { method: \"POST\" });\n\t}\n}\n",
		req:  req("    get(url: string) {\n        return fetch(url);\n    }\n    post(url: string) {\n        return fetch(url, { method: \"POST\" });\n    }", "    get(url: string) {\n        return fetch(url, { cache: \"no-store\" });\n    }\n    // ... existing code ..."),
		kind: Invalid, msg: "placeholder"},
	{name: "go_placeholder_refused_with_replace_all", content: "func a() {\n\tlog()\n\twork()\n}\nfunc b() {\n\tlog()\n\twork()\n}\n",
		req:  reqAll("\tlog()\n\twork()", "\tlog()\n\t// ... existing code ..."),
		kind: Invalid, msg: "placeholder"},

	// --- Real code that looks like elision is applied: Python's Ellipsis, spreads, variadic
	// parameters, "..." in strings, a placeholder-like line old_string already had.
	{name: "python_protocol_stub_old_already_had_ellipsis", content: "class P(Protocol):\n    def f(self) -> int:\n        ...\n    def g(self) -> str:\n        ...\n",
		req:  req("class P(Protocol):\n    def f(self) -> int:\n        ...\n    def g(self) -> str:\n        ...", "class P(Protocol):\n    def f(self) -> int:\n        ...\n    def g(self) -> bytes:\n        ..."),
		want: "class P(Protocol):\n    def f(self) -> int:\n        ...\n    def g(self) -> bytes:\n        ...\n", strategy: "exact"},
	{name: "python_body_becomes_ellipsis_one_line_fewer", content: "class Shape:\n    def area(self):\n        r = self.r\n        return 3.14 * r * r\n",
		req:  req("    def area(self):\n        r = self.r\n        return 3.14 * r * r", "    def area(self):\n        ..."),
		want: "class Shape:\n    def area(self):\n        ...\n", strategy: "exact"},
	{name: "python_return_ellipsis_is_code", content: "def default() -> int:\n    raise NotImplementedError\n", req: req("    raise NotImplementedError", "    return ..."),
		want: "def default() -> int:\n    return ...\n", strategy: "exact"},
	{name: "js_spread_args_is_code", content: "function f(a, b) {\n  return g(a, b);\n}\n", req: req("function f(a, b) {\n  return g(a, b);\n}", "function f(...args) {\n  return g(...args);\n}"),
		want: "function f(...args) {\n  return g(...args);\n}\n", strategy: "exact"},
	{name: "c_variadic_parameter_is_code", content: "void log_msg(const char *fmt);\n", req: req("void log_msg(const char *fmt);", "void log_msg(const char *fmt, ...);"),
		want: "void log_msg(const char *fmt, ...);\n", strategy: "exact"},
	{name: "go_println_of_dots_is_code", content: "func wait() {\n\tfmt.Println(\"waiting\")\n}\n", req: req("fmt.Println(\"waiting\")", "fmt.Println(\"...\")"),
		want: "func wait() {\n\tfmt.Println(\"...\")\n}\n", strategy: "exact"},
	{name: "ts_ellipsis_character_in_a_string_is_code", content: "export function start() {\n  setStatus(\"Idle\");\n}\n", req: req("setStatus(\"Idle\")", "setStatus(\"Loading…\")"),
		want: "export function start() {\n  setStatus(\"Loading…\");\n}\n", strategy: "exact"},
	{name: "python_placeholder_line_old_string_already_had", content: "def f():\n    # ...\n    return 1\n", req: req("def f():\n    # ...\n    return 1", "def f():\n    # ...\n    return 2"),
		want: "def f():\n    # ...\n    return 2\n", strategy: "exact"},
	{name: "go_comment_with_unchanged_kept_from_old_string", content: "// Normalize returns s unchanged when it is already clean.\nfunc Normalize(s string) string {\n\treturn s\n}\n",
		req:  req("// Normalize returns s unchanged when it is already clean.\nfunc Normalize(s string) string {\n\treturn s\n}", "// Normalize returns s unchanged when it is already clean.\nfunc Normalize(s string) string {\n\treturn strings.TrimSpace(s)\n}"),
		want: "// Normalize returns s unchanged when it is already clean.\nfunc Normalize(s string) string {\n\treturn strings.TrimSpace(s)\n}\n", strategy: "exact"},
	{name: "go_variable_named_remaining_is_code", content: "func left(total, used int) int {\n\treturn total - used\n}\n", req: req("\treturn total - used", "\tremaining := total - used\n\treturn remaining"),
		want: "func left(total, used int) int {\n\tremaining := total - used\n\treturn remaining\n}\n", strategy: "exact"},

	// --- What must keep working: exact matches next to look-alikes, replace_all and
	// ambiguity at a loose level, CRLF files.
	{name: "exact_line_break_picks_the_line_not_the_lookalike", content: "return foobar\nreturn foo\n", req: req("return foo\n", "return bar\n"),
		want: "return foobar\nreturn bar\n", strategy: "exact"},
	{name: "exact_match_inside_an_identifier_still_allowed", content: "const userName = 1;\n", req: req("Name", "Id"),
		want: "const userId = 1;\n", strategy: "exact"},
	{name: "replace_all_typography", content: "It’s a test. It’s fine.\n", req: reqAll("It's", "It is"),
		want: "It is a test. It is fine.\n", strategy: "typography", n: 2},
	{name: "replace_all_single_line_skips_places_inside_words", content: "x = f(a,  b)\ny = ff(a,  b)\nz = f(a,\tb)\n", req: reqAll("f(a, b)", "f(b, a)"),
		want: "x = f(b, a)\ny = ff(a,  b)\nz = f(b, a)\n", strategy: "single-line-whitespace", n: 2},
	{name: "single_line_ambiguous_after_dropping_in_word_places", content: "a = max(x,  y)\nb = max(x,\ty)\nc = argmax(x,  y)\n", req: req("max(x, y)", "min(x, y)"),
		kind: Ambiguous, lines: []int{1, 2}, msg: `"single-line-whitespace"`},
	{name: "markdown_typography_twice_is_ambiguous", content: "He said “yes”.\nShe said “yes”.\n", req: req(`said "yes"`, `said "no"`),
		kind: Ambiguous, lines: []int{1, 2}, msg: `"typography"`},
	{name: "crlf_replace_all_typography_skips_in_word_place", content: "user’s\r\nsuperuser’s\r\n", req: reqAll("user's", "member's"),
		want: "member’s\r\nsuperuser’s\r\n", strategy: "typography"},
}

// TestFailureCorpusCoversEveryStrategyCombination checks that the corpora exercise every
// strategy and every combination of strategies that Apply may report.
func TestFailureCorpusCoversEveryStrategyCombination(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range append(corpus[:len(corpus):len(corpus)], failureCorpus...) {
		if c.kind != 0 {
			continue
		}
		res, err := Apply(c.content, c.req)
		if err == nil && res.Content == c.want {
			seen[res.Strategy] = true
		}
	}
	for _, name := range []string{
		"exact", "typography", "trailing-whitespace", "indentation", "inner-whitespace", "unicode-nfc",
		"typography+trailing-whitespace", "typography+indentation", "typography+inner-whitespace",
		"single-line-whitespace",
		"unescape", "unescape+indentation", "unescape+trailing-whitespace",
		"blank-lines", "blank-lines+indentation",
		"code-fence", "code-fence+indentation", "code-fence+trailing-whitespace",
	} {
		assert.True(t, seen[name], "no successful case reports strategy %q", name)
	}
}
