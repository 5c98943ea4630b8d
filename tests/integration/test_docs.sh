#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# One source of truth: `prec --help`, the man page prec(1) and the bash
# completion (build/doc/, generated from the option table at build time)
# list the same options, which are exactly the ones the built prec takes.
# Row for row, each option has its full text in recorder/options/manual/
# (and each text there is an option's), and the rendered page holds it under
# that option. The man page renders without a warning and is the manual (its
# sections, at least 30 KB); the completion completes option names and fixed
# values; `prec -h NAME` picks what `perf record -h NAME` picks; the install
# rules put the documents where man and bash look.
source "${TEST_LIB:-$(dirname "$0")/lib.sh}" || exit 1

BUILD=$(cd "$(dirname "$PREC")" && pwd)
DOC=${DOC_DIR:-$BUILD/doc}
for f in prec.1 prec-record.1 prec.bash; do
	[[ -s $DOC/$f ]] || fail "$DOC/$f is missing: the build (target prec-docs) did not generate it"
done

# ---- the three lists ----------------------------------------------------------

# The left column of each option row of a -h listing: "-F, --freq <freq|max>",
# "    --aio[=<n>]", "-g".
left_column()
{
	grep -E '^    (-[A-Za-z0-9]|    --)' "$1" | sed -E 's/^ +//; s/ {2,}.*//'
}
# Its labels: "-F, --freq", "--aio", "-g".
labels()
{
	left_column "$1" | sed -E 's/( <|\[).*//' | sort
}

# Names in --help: "-F" and "--freq" from "    -F, --freq <freq|max>".
run_prec --help
((PREC_RC == 0)) || fail "--help exited $PREC_RC"
cp "$PREC_OUT" help.txt
labels help.txt >help.rows
sed 's/, /\n/' help.rows | sort -u >help.names
(($(wc -l <help.names) > 60)) || fail "--help lists only $(wc -l <help.names) option names"

# Names in the man page's OPTIONS: each .TP's next line.
awk '/^\.SH OPTIONS/ { on = 1; next } /^\.SH / { on = 0 } on && prev == ".TP" { print } { prev = $0 }' \
	"$DOC/prec.1" | sed 's/\\-/-/g; s/\\f[BRI]//g' | grep -Eo -- '(^|, )-{1,2}[A-Za-z0-9-]+' |
	sed 's/^, //' | sort -u >man.names

# Names the completion offers, "=" (value follows) taken off.
(
	source "$DOC/prec.bash" || exit 1
	for w in $_prec_long $_prec_short; do
		printf "%s\n" "${w%=}"
	done
) | sort -u >comp.names
[[ -s comp.names ]] || fail "sourcing $DOC/prec.bash defined no option words"

for list in man comp; do
	if ! diff help.names $list.names >$list.diff; then
		fail "$list lists other options than --help (< --help only, > $list only): $(tr '\n' ' ' <$list.diff)"
	fi
done

# ---- every listed name is one the built prec takes ---------------------------

# A value for the option, from the completion's fixed words, else "1".
value_of()
{
	local kind
	# shellcheck disable=SC1090
	kind=$(source "$DOC/prec.bash" && _prec_value_kind "$1") || kind=
	case $kind in
	@* | "") echo 1 ;;
	*) echo "${kind%% *}" ;;
	esac
}
# NAME [VALUE] for each option, VALUE where its row shows one ("<...>").
left_column help.txt | while read -r left; do
	value=
	[[ $left == *" <"* ]] && value=1
	for name in $(sed -E 's/( <|\[).*//; s/,//' <<<"$left"); do
		printf "%s\n" "$name${value:+ $(value_of "$name")}"
	done
done >help.args
while read -r -a args; do
	# -h after it: prec parses the option, then answers the help without
	# recording (and without checking combinations): the unknown word after
	# it is then the one complaint.
	run_prec -e cpu-clock "${args[@]}" -h nosuch-word-xyz
	((PREC_RC == 2)) && grep -q "no option matches 'nosuch-word-xyz'" "$PREC_ERR" ||
		fail "prec ${args[*]}: not taken: $(head -n 1 "$PREC_ERR")"
done <help.args
for name in --no-such-option --frequency -Y; do
	grep -qx -- "$name" help.names && continue
	run_prec "$name" -h
	((PREC_RC == 2)) && grep -q "unknown option" "$PREC_ERR" ||
		fail "prec $name: taken (rc $PREC_RC), but it is in no list"
done

# ---- the man pages render ----------------------------------------------------

if ! command -v man >/dev/null; then
	fail "man is not installed (scripts/bootstrap --test installs man-db)"
fi
mkdir -p man/man1
cp "$DOC/prec.1" "$DOC/prec-record.1" man/man1/
for page in prec prec-record; do
	MANWIDTH=80 MANPATH=$TMP/man man --warnings "$page" >$page.txt 2>$page.err </dev/null
	[[ -s $page.err ]] && fail "man $page warns: $(head -n 3 $page.err)"
	for section in NAME SYNOPSIS DESCRIPTION OPTIONS 'EXIT STATUS' ENVIRONMENT FILES EXAMPLES 'SEE ALSO'; do
		grep -q "^$section" $page.txt || fail "man $page has no $section section"
	done
	grep -q 'perf-record(1)' $page.txt || fail "man $page does not refer to perf-record(1)"
done
grep -q -- '--call-graph mode' prec.txt || fail "man prec: --call-graph has no entry"
for section in SIGNALS DIAGNOSTICS 'PIPE MODE' 'CRASH-SAFE OUTPUT' 'PARALLEL STREAMS' \
	'DWARF CALL GRAPHS UNWOUND AT RECORD TIME' 'THE STATUS LINE' 'DIFFERENCES FROM PERF RECORD'; do
	grep -q "^$section\$" prec.txt || fail "man prec has no $section section"
done
# The manual moved out of README.md into this page: it must stay a manual.
size=$(wc -c <prec.txt)
((size >= 30 * 1024)) || fail "man prec renders to $size bytes, under 30 KB: is a section missing?"
# The sources beside this test (FIXTURES is their tests/fixtures/).
src=$(cd "$FIXTURES/../.." && pwd)

# ---- row for row: each option's full text ---------------------------------------

# Each row of --help ("-F, --freq", "--aio", "-g") has recorder/options/
# manual/NAME.md (its long name, or its letter), whose first line names it.
manual=$src/recorder/options/manual
[[ -d $manual ]] || fail "no $manual beside this test"
: >rows.files
while read -r row; do
	long=$(grep -oE -- '--[A-Za-z0-9-]+' <<<"$row")
	want=${long:-$row}
	name=${want##*-}
	[[ -n $long ]] && name=${long#--}
	file=$manual/$name.md
	[[ -f $file ]] || fail "$row has no full text: write $file (its format: $manual/README.md)"
	[[ $(head -n 1 "$file") == "$want" ]] || fail "$file: its first line must be '$want', the option it is"
	echo "$name.md" >>rows.files
done <help.rows
for f in "$manual"/*.md; do
	base=${f##*/}
	[[ $base == README.md ]] && continue
	grep -qxF "$base" rows.files || fail "$f names no option prec takes (prec --help has no ${base%.md})"
done

# Text without layout: letters and digits only, lower case (hyphenation,
# filling, fonts and bullets aside, the words in their order).
squash()
{
	tr -cd '[:alnum:]' | tr '[:upper:]' '[:lower:]'
}
# The rendered OPTIONS, one entry a line: "LABEL<TAB>text", LABEL as --help
# writes it ("-F, --freq"), the list bullets taken off. Entries start after
# the first subsection ("   Event selection"); a short tag ("-g") has its
# text on the same line, two spaces or more after it.
awk '/^OPTIONS$/ { on = 1; next } on && /^[A-Z]/ { exit }
	on && /^   [^ ]/ { entries = 1; next }
	entries && /^       -/ { sub(/^ +/, ""); head = $0; rest = ""
		if (match(head, /  +/)) { rest = substr(head, RSTART); head = substr(head, 1, RSTART - 1) }
		sub(/\[.*/, "", head); sub(/ [^-].*/, "", head); printf "\n%s\t%s ", head, rest; next }
	entries { sub(/^ +(o|[*+]|\xe2\x80\xa2) /, " "); printf "%s ", $0 }' prec.txt >man.entries
while read -r row; do
	long=$(grep -oE -- '--[A-Za-z0-9-]+' <<<"$row")
	name=${long#--}
	[[ -n $long ]] || name=${row#-}
	want=$(tail -n +3 "$manual/$name.md" | sed -E 's/`//g; s/^- //' | squash)
	entry=$(grep -F -- "$row"$'\t' man.entries | head -n 1 | cut -f 2 | squash)
	[[ -n $entry ]] || fail "man prec has no entry for $row"
	[[ $entry == *"$want"* ]] ||
		fail "man prec: the entry of $row lacks (some of) the text of $manual/$name.md"
done <help.rows

# Every environment variable prec reads is in ENVIRONMENT, from the sources
# beside this test: getenv("NAME"), and the names read through a macro
# (#define X_ENV "NAME").
vars=$({
	grep -rhoE 'getenv\("[A-Z_]+"\)' "$src"/recorder "$src"/writer "$src"/sysinfo "$src"/base |
		sed 's/getenv("\(.*\)")/\1/'
	grep -rhoE '#define [A-Z_]+_ENV "[A-Z_]+"' "$src"/recorder "$src"/writer "$src"/sysinfo \
		"$src"/base | sed -E 's/.*"(.*)"/\1/'
} | sort -u)
[[ -n $vars ]] || fail "no getenv found under $src"
env_section=$(sed -n '/^ENVIRONMENT/,/^FILES/p' prec.txt)
for v in $vars; do
	grep -qE "^ +$v( |\$)" <<<"$env_section" || fail "man prec: ENVIRONMENT lacks $v, which prec reads"
done
grep -q 'Values: fp dwarf lbr' prec.txt || fail "man prec: --call-graph lacks its values"

# ---- completion --------------------------------------------------------------

# complete WORD...: COMPREPLY of _prec for the command line WORD... (the
# last word is the one completed), one per line.
complete_words()
{
	(
		source "$DOC/prec.bash" || exit 1
		COMP_WORDS=("$PREC" "$@")
		COMP_CWORD=$#
		_prec
		((${#COMPREPLY[@]} == 0)) || printf '%s\n' "${COMPREPLY[@]}"
	) | sort
}
expect()
{
	local want=$1 got
	shift
	got=$(complete_words "$@" | tr '\n' ' ')
	[[ "$got" == "$want" ]] || fail "prec $* <TAB>: '$got', expected '$want'"
}
expect "--switch-events --switch-max-files= --switch-output --switch-output-event= --switch-output= " --sw
expect "dwarf fp lbr " --call-graph ''
expect "dwarf fp lbr " --call-graph = ''
expect "dwarf " --call-graph = d
expect "core cpu numa package " --threads = ''
expect "cpu node " --affinity ''
expect "all cgroup mmap no task " --synth ''
expect "task,mmap " --synth task,m
expect "cpu-clock " -e cpu-c
expect "cycles,cpu-clock " -e cycles,cpu-c
expect "cpu-clock " -qe cpu-c
expect "--call-graph= " record --call
expect "-F " -e cpu-clock -F
expect "--freq= " -F 100 --fr
touch some-file.data
expect "some-file.data " -o some-f
# After the command, its words are its own: files, not prec's options.
expect "" true --sw
if (($("$PREC" --list-events 2>/dev/null | grep -c '^ *sched:sched_switch ') > 0)); then
	# bash splits "sched:sched_sw" at ':'; the reply is what follows it.
	expect "sched_switch " -e sched : sched_switc
fi

# ---- prec -h NAME against perf record -h NAME ---------------------------------

for name in -F --freq -g --call-graph --mmap-pages -a --switch-output -z --aio --no-buildid; do
	run_prec -h "$name"
	((PREC_RC == 0)) || fail "prec -h $name exited $PREC_RC"
	labels "$PREC_OUT" >prec.labels
	run_perf record -h "$name"
	labels "$PERF_ERR" >perf.labels
	[[ -s perf.labels ]] || fail "perf record -h $name printed no option"
	diff perf.labels prec.labels >/dev/null ||
		fail "prec -h $name shows '$(tr '\n' ' ' <prec.labels)', perf record -h $name '$(tr '\n' ' ' <perf.labels)'"
done
# A word: both pick the option named so (and each those whose help holds it).
for word in freq call-graph F; do
	run_prec -h "$word"
	labels "$PREC_OUT" >prec.labels
	run_perf record -h "$word"
	labels "$PERF_ERR" >perf.labels
	while read -r l; do
		grep -qx -- "$l" help.rows || continue
		grep -qx -- "$l" prec.labels || fail "prec -h $word lacks '$l' (perf record -h $word shows it)"
	done <perf.labels
done
run_prec -h call-graph freq
((PREC_RC == 0)) || fail "prec -h call-graph freq exited $PREC_RC"
grep -q -- '--call-graph' "$PREC_OUT" && grep -q -- '--freq' "$PREC_OUT" ||
	fail "prec -h call-graph freq does not show both"
# No such option: one line naming it, status 2 (perf: its usage, status 129).
run_prec -h nosuchoption
((PREC_RC == 2)) || fail "prec -h nosuchoption exited $PREC_RC, expected 2"
[[ $(wc -l <"$PREC_ERR") == 1 ]] && grep -q "^prec: .*'nosuchoption'" "$PREC_ERR" ||
	fail "prec -h nosuchoption: expected one 'prec:' line naming it, got: $(cat "$PREC_ERR")"
[[ -s $PREC_OUT ]] && fail "prec -h nosuchoption printed on stdout"

# ---- install rules ------------------------------------------------------------

# DESTDIR: every file, whatever its destination, lands under $TMP/inst.
if command -v cmake >/dev/null && [[ -f $BUILD/cmake_install.cmake ]]; then
	_run install env DESTDIR="$TMP/inst" cmake --install "$BUILD" --prefix /usr
	((LAST_RC == 0)) || fail "cmake --install failed"
	for f in share/man/man1/prec.1 share/man/man1/prec-record.1 share/bash-completion/completions/prec; do
		[[ -s $TMP/inst/usr/$f ]] || fail "cmake --install did not install /usr/$f"
	done
	MANWIDTH=80 MANPATH=$TMP/inst/usr/share/man man --warnings prec-record >inst.txt 2>inst.err </dev/null
	[[ -s inst.err ]] && fail "installed man prec-record warns: $(head -n 3 inst.err)"
	grep -q '^NAME' inst.txt || fail "installed man prec-record does not show prec(1)"
fi

pass "$(wc -l <help.names) option names in --help, man page and completion"
