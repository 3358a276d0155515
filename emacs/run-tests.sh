#!/usr/bin/env bash
# Tests jido.el: byte-compiles it with warnings as errors, runs checkdoc (any complaint
# fails), then runs the ERT tests of emacs/jido-tests.el, the end-to-end ones against a
# jido binary built here. Without emacs it says so and exits 0, unless JIDO_REQUIRE_EMACS=1.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(dirname "$here")"
emacs="${EMACS:-emacs}"

if ! command -v "$emacs" >/dev/null 2>&1; then
	if [ "${JIDO_REQUIRE_EMACS:-}" = 1 ]; then
		echo "emacs/run-tests.sh: emacs is not installed, and JIDO_REQUIRE_EMACS=1 requires it" >&2
		exit 1
	fi
	echo "emacs/run-tests.sh: emacs is not installed: skipping the Emacs tests"
	exit 0
fi

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

echo "== building jido"
(cd "$repo" && go build -o "$tmp/" ./cmd/jido ./cmd/jido-sandbox)
export JIDO_TEST_PROGRAM="$tmp/jido"

# Work on a copy, so that no .elc is left in the repository.
mkdir -p "$tmp/el"
cp "$here/jido.el" "$here/jido-tests.el" "$tmp/el/"

echo "== byte-compiling jido.el (warnings are errors)"
(cd "$tmp/el" && "$emacs" --batch -Q -L . \
	--eval '(setq byte-compile-error-on-warn t)' \
	-f batch-byte-compile jido.el) >"$tmp/compile.log" 2>&1 || {
	cat "$tmp/compile.log" >&2
	echo "emacs/run-tests.sh: jido.el does not byte-compile cleanly" >&2
	exit 1
}
if grep -q . "$tmp/compile.log"; then
	cat "$tmp/compile.log" >&2
	echo "emacs/run-tests.sh: byte-compiling jido.el printed something" >&2
	exit 1
fi
rm -f "$tmp/el/jido.elc"

echo "== checkdoc jido.el"
(cd "$tmp/el" && "$emacs" --batch -Q -L . \
	--eval '(require (quote checkdoc))' \
	--eval '(checkdoc-file "jido.el")') >"$tmp/checkdoc.log" 2>&1 || {
	cat "$tmp/checkdoc.log" >&2
	echo "emacs/run-tests.sh: checkdoc failed" >&2
	exit 1
}
if grep -q . "$tmp/checkdoc.log"; then
	cat "$tmp/checkdoc.log" >&2
	echo "emacs/run-tests.sh: checkdoc complains about jido.el" >&2
	exit 1
fi

echo "== ERT"
cd "$repo"
# A write to a process that is gone (the fake model's client, a server the tests kill)
# must be an error Emacs reports, not a SIGPIPE that kills it: ignored, Emacs inherits it.
trap '' PIPE
"$emacs" --batch -Q -L emacs -l emacs/jido-tests.el -f ert-run-tests-batch-and-exit
