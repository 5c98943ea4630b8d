#!/usr/bin/env bash
# The README is the front page, not the manual (DESIGN.md, "Documentation"):
# at most 12 KB; no table of options (each option's text lives in
# recorder/options/manual/ and `man prec` shows it); the two quick-start
# commands in one code block, as CI runs them; where the manual is; and the
# files it names exist. Run from anywhere; prints each breach and fails on
# any.
set -uo pipefail
root=${PREC_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
readme=$root/README.md
max=${MAX_README_BYTES:-12288}
bad=0
breach() { echo "readme: $*" >&2; bad=1; }

[[ -s $readme ]] || { echo "readme: no $readme" >&2; exit 2; }

size=$(wc -c <"$readme")
((size <= max)) || breach "README.md is $size bytes, over $max: move the detail into man prec (doc/manual/, recorder/options/manual/)"

# A markdown table whose first column is an option ("| `-F, --freq` |",
# "| --aio |"): the manual's job. The separator row (|---|) is no option.
while IFS=: read -r n line; do
	cell=${line#|}
	cell=${cell%%|*}
	cell=${cell//\`/}
	cell=${cell#"${cell%%[![:space:]]*}"}
	cell=${cell%"${cell##*[![:space:]]}"}
	[[ $cell =~ ^--?[A-Za-z0-9] ]] &&
		breach "README.md:$n: a table row of options ('$cell'): options are documented in recorder/options/manual/ and man prec"
done < <(grep -n '^|' "$readme")

# The quick start: both commands in the same fenced block (CI runs the
# README's test command, .ci/run).
awk '/^```/ { if (inblock) { if (run && test) found = 1; run = test = 0 } inblock = !inblock; next }
	inblock && /^scripts\/run -- sleep 1( |$)/ { run = 1 }
	inblock && /^scripts\/test( |$)/ { test = 1 }
	END { exit !found }' "$readme" ||
	breach "README.md has no code block holding both 'scripts/run -- sleep 1' and 'scripts/test'"

# shellcheck disable=SC2016 # the backquotes are markdown's, not the shell's
grep -q '`man prec`' "$readme" || breach "README.md does not say where the manual is ('man prec')"

# Files of the tree it names in code spans (`doc/performance.md`,
# `HACKING.md`, the first word of `scripts/run -- sleep 1`).
while read -r path; do
	[[ -e $root/$path ]] || breach "README.md names $path, which is not in the tree"
done < <(grep -oE "\`[^\`]+\`" "$readme" | tr -d "\`" | awk '{ print $1 }' |
	grep -E '^([A-Z]+\.md|(doc|scripts|recorder|tests|cmake|base|sysinfo|writer|include)/[A-Za-z0-9_./-]*)$' |
	sort -u)

((bad == 0)) && echo "readme: $size bytes, a front page"
exit $bad
