#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The live status line (recorder/live/status_line.c), under a pseudo-terminal
# (util-linux script): it is drawn in the bottom row, kept out of the
# scrolling region, erased with the region given back before the summary,
# whose lines stay perf's; the command's own stderr lines arrive whole; the
# file is good. With -q, PREC_NO_STATUS=1, TERM=dumb, and whenever stderr is
# a file or a pipe, not one byte of it (no CR, no ESC).
# shellcheck source=tests/integration/lib.sh
source "${TEST_LIB:-$(dirname "$0")/lib.sh}" || exit 1

need_tool script "apt-get install util-linux"
ESC=$'\033'
ROWS=30
# The command: lines on stderr between bursts of CPU, about 1.6 s in all.
cat >wl.sh <<EOF
#!/bin/sh
for i in 1 2 3 4 5 6 7 8; do
	echo "workload line \$i on stderr" >&2
	"$WORKLOAD" 200
done
EOF
chmod +x wl.sh

# on_tty TAG "VAR=VALUE ..." PREC_ARGS...: prec under a pseudo-terminal of
# $ROWS x 120 (script's own has no size) with those variables set, its
# bytes in TAG.ts.
on_tty()
{
	local tag=$1 vars=$2
	shift 2
	# shellcheck disable=SC2086 # the variables, one word each
	_run "$tag" env TERM=xterm $vars script -qfec \
		"stty rows $ROWS cols 120; exec $PREC $*" "$TMP/$tag.ts"
	((LAST_RC == 0)) || fail "$tag: prec under script exited $LAST_RC: $(tr -d '\r' <"$TMP/$tag.ts" | tail -n 5)"
}

# The summary after the last erase, CRs dropped: perf's two lines only.
check_summary()
{
	local tag=$1 data=$2 erase="${ESC}7${ESC}[$ROWS;1H${ESC}[K${ESC}[r${ESC}8"
	local after
	grep -aqF "$erase" "$tag.ts" || fail "$tag: the status row is never erased and given back"
	# What follows the erase: nothing of the status any more.
	after=$(<"$tag.ts")
	after=${after##*"$erase"}
	after=${after//$'\r'/}
	[[ "$after" != *"$ESC"* ]] || fail "$tag: terminal sequences after the erase: $(printf '%q' "$after")"
	grep -Eq '^\[ prec record: Woken up [0-9]+ times to write data \]$' <<<"$after" ||
		fail "$tag: no 'Woken up' line after the status was erased: $after"
	grep -Eq "^\[ prec record: Captured and wrote [0-9]+\.[0-9]{3} MB $data \([0-9]+ samples\)( |, compressed \(original [0-9.]+ MB, ratio is [0-9.]+\) )\]$" <<<"$after" ||
		fail "$tag: the 'Captured and wrote' line is not perf's after the erase: $after"
	# The erase came once, at the end: no draw after it.
	(($(grep -aoF "$erase" "$tag.ts" | wc -l) == 1)) || fail "$tag: the status was erased more than once"
}

# The status is drawn in the bottom row, and the region taken once.
check_drawn()
{
	local tag=$1 what=$2
	grep -aqF $'\n'"${ESC}7${ESC}[1;$((ROWS - 1))r${ESC}8${ESC}[1A" "$tag.ts" ||
		fail "$tag: the bottom row is not taken out of the scrolling region"
	(($(grep -aoF "${ESC}[1;$((ROWS - 1))r" "$tag.ts" | wc -l) == 1)) ||
		fail "$tag: the scrolling region set more than once"
	grep -aqE "${ESC}7${ESC}\\[$ROWS;1H${ESC}\\[Kprec: [0-9.hms]+  [0-9]+ samples  [0-9.]+ [KMG]?B$what" "$tag.ts" ||
		fail "$tag: no status line drawn with '$what' ($(grep -aoE 'prec: [^'"$ESC"']*' "$tag.ts" | head -n 2))"
}

# The command's lines arrive whole, each once, no sequence inside.
check_lines()
{
	local tag=$1
	for i in 1 2 3 4 5 6 7 8; do
		(($(grep -ac "workload line $i on stderr" "$tag.ts") == 1)) ||
			fail "$tag: the command's line $i is not there whole, once"
	done
}

on_tty tty "" -o tty.data -- ./wl.sh
check_drawn tty " written  [0-9]+ lost"
check_lines tty
check_summary tty tty.data
require_valid tty.data
# perf record under the same terminal says the same two lines.
_run perf env TERM=xterm script -qfec "stty rows $ROWS cols 120; exec $PERF record -o perf.data -- ./wl.sh" perf.ts
((LAST_RC == 0)) || fail "perf record under script exited $LAST_RC"
for re in '^\[ perf record: Woken up [0-9]+ times to write data \]' \
	'^\[ perf record: Captured and wrote [0-9]+\.[0-9]{3} MB perf\.data \([0-9]+ samples\) \]'; do
	tr -d '\r' <perf.ts | has_match -E "$re" || fail "perf's summary differs from the form checked ($re)"
done
log "drawn in row $ROWS, the command's lines whole, erased before perf's summary lines"

# -z: the compressed size; --switch-output: the rotations.
on_tty z "" -z -o z.data -- ./wl.sh
check_drawn z " \\(zstd [0-9.]+ [KMG]?B\\) written"
check_summary z z.data
require_valid z.data
on_tty rot "" --switch-output=1s -o rot.data -- ./wl.sh
check_drawn rot " written  [0-9]+ lost  [0-9]+ rotations?"
grep -aqE "  [1-9][0-9]* rotations?" rot.ts || fail "rot: the rotations never counted"
# --threads: the streams' counts, read from the main thread.
on_tty thr "" --threads -o thr.data -- ./wl.sh
check_drawn thr " written  [0-9]+ lost"
grep -aqE "prec: [0-9.hms]+  [1-9][0-9]* samples" thr.ts || fail "thr: no samples counted from the streams"
check_summary thr thr.data
require_valid thr.data
log "-z shows the zstd size, --switch-output the rotations, --threads the streams' samples"

# Asked off, or a terminal that cannot: not one byte.
on_tty quiet "" -q -o q.data -- ./wl.sh
# script writes CR LF for each line: only those CRs are the terminal's own.
tr -d '\r' <quiet.ts >quiet.plain
grep -aq "$ESC" quiet.ts && fail "-q: terminal sequences: $(cat -v quiet.ts | head -n 3)"
grep -aq 'prec: [0-9.]*s  ' quiet.plain && fail "-q: a status text"
on_tty optout PREC_NO_STATUS=1 -o o.data -- ./wl.sh
grep -aq "$ESC" optout.ts && fail "PREC_NO_STATUS=1: terminal sequences: $(cat -v optout.ts | head -n 3)"
on_tty dumb TERM=dumb -o d.data -- ./wl.sh
grep -aq "$ESC" dumb.ts && fail "TERM=dumb: terminal sequences: $(cat -v dumb.ts | head -n 3)"
check_lines optout
require_valid o.data
# A background job (job control on: its own process group) on the terminal
# draws nothing in the foreground's.
_run bg env TERM=xterm script -qfec \
	"stty rows $ROWS cols 120; set -m; $PREC -o bg.data -- ./wl.sh & wait \$!" "$TMP/bg.ts"
((LAST_RC == 0)) || fail "bg: prec in the background exited $LAST_RC"
grep -aq "$ESC" bg.ts && fail "a background prec drew on the terminal: $(cat -v bg.ts | head -n 3)"
check_lines bg

# stderr a file, then a pipe: no CR, no ESC at all (the command writes neither).
TERM=xterm "$PREC" -o f.data -- ./wl.sh 2>file.err >/dev/null || fail "stderr to a file: prec failed"
TERM=xterm "$PREC" -o p.data -- ./wl.sh 2>&1 >/dev/null | cat >pipe.err
((PIPESTATUS[0] == 0)) || fail "stderr to a pipe: prec failed"
for f in file.err pipe.err; do
	grep -aq "$ESC" "$f" && fail "$f: ESC bytes without a terminal: $(cat -v "$f" | head -n 3)"
	grep -aq $'\r' "$f" && fail "$f: CR bytes without a terminal: $(cat -v "$f" | head -n 3)"
	grep -Eq '^\[ prec record: Captured and wrote [0-9.]+ MB [fp]\.data \([0-9]+ samples\) \]$' "$f" ||
		fail "$f: the summary line is not perf's"
	for i in 1 2 3 4 5 6 7 8; do
		grep -qx "workload line $i on stderr" "$f" || fail "$f: the command's line $i is not whole"
	done
done
require_valid f.data
pass "status line on a terminal, erased before the summary; none without one"
