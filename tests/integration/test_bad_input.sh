#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Bad command lines: for each, prec prints one clear line on stderr that
# starts with "prec:" and names the problem, exits 1..125 (126: command not
# executable, 127: command not found) without crashing, and leaves no file
# that claims to be a recording: a new -o file is not created, an existing
# one keeps its content and is not rotated to .old.
source "${TEST_LIB:-$(dirname "$0")/lib.sh}" || exit 1

# bad RC PATTERN... -- PREC-ARGS...
#   RC: "err" (1..125), or an exact status. Every PATTERN (extended regex,
#   case-insensitive) must match one and the same "prec:" line. @OUT@ in the
#   arguments is the output file; each case runs twice: with no such file,
#   and with an existing file holding other content.
ncase=0
bad()
{
	local want=$1 pats=() args=() a variant out rc line ok p
	shift
	while (($#)) && [[ "$1" != -- ]]; do
		pats+=("$1")
		shift
	done
	shift
	ncase=$((ncase + 1))
	for variant in fresh existing; do
		out=$TMP/case$ncase-$variant.data
		rm -f "$out" "$out.old"
		[[ $variant == existing ]] && printf 'previous content\n' >"$out"
		args=()
		for a in "$@"; do
			args+=("${a//@OUT@/$out}")
		done
		run_prec "${args[@]}"
		rc=$PREC_RC
		local what="prec ${args[*]} ($variant output file)"

		if [[ $want == err ]]; then
			((rc >= 1 && rc <= 125)) || fail "$what: exit status $rc, expected 1..125"
		else
			((rc == want)) || fail "$what: exit status $rc, expected $want"
		fi

		line=$(head -n 1 "$PREC_ERR")
		[[ "$line" == prec:* ]] || fail "$what: first stderr line '$line' does not start with 'prec:'"
		(($(grep -c . "$PREC_ERR") == 1)) || fail "$what: $(grep -c . "$PREC_ERR") lines on stderr, expected one"
		ok=0
		while IFS= read -r line; do
			ok=1
			for p in "${pats[@]}"; do
				grep -Eiq -- "$p" <<<"$line" || { ok=0; break; }
			done
			((ok)) && break
		done < <(grep '^prec:' "$PREC_ERR")
		((ok)) || fail "$what: no 'prec:' line on stderr matches all of: ${pats[*]}"
		no_grep_or_fail 'Captured and wrote' "$PREC_ERR" "$what"
		no_grep_or_fail 'AddressSanitizer|Segmentation|core dumped|Aborted' "$PREC_ERR" "$what"

		# Only files under $TMP are judged; -o elsewhere is checked below.
		if [[ $variant == fresh ]]; then
			[[ -e "$out" ]] && fail "$what: left $out behind ($(stat -c %s "$out") bytes)"
		else
			[[ "$(cat "$out" 2>/dev/null)" == 'previous content' ]] ||
				fail "$what: the existing output file was replaced or changed"
		fi
		[[ -e "$out.old" ]] && fail "$what: rotated the existing output file to $out.old"
	done
	return 0
}

bad err 'nosuch' -- --nosuch -o @OUT@ -- true
bad err 'nosuch' -- record --nosuch -o @OUT@ -- true
bad 127 '/nonexistent/cmd' -- -o @OUT@ -- /nonexistent/cmd
bad 126 '/etc/passwd' -- -o @OUT@ -- /etc/passwd
bad err '-F|freq' -- -F 0 -o @OUT@ -- true
bad err 'abc' '-F|freq' -- -F abc -o @OUT@ -- true
bad err '-c|count|period' -- -c 0 -o @OUT@ -- true
bad err '-5' -- -c -5 -o @OUT@ -- true
bad err 'abc' '-m|mmap' -- -m abc -o @OUT@ -- true
bad err 'nosuch' -- -e nosuch -o @OUT@ -- true
bad err 'call-graph' 'nosuch' -- --call-graph nosuch -o @OUT@ -- true
bad err 'stack dump size' -- --call-graph dwarf,70000 -o @OUT@ -- true
bad err 'compression' '0' -- -z 0 -o @OUT@ -- true
bad err 'compression' '23' -- -z 23 -o @OUT@ -- true
bad err 'not supported yet' 'aio' -- --aio -o @OUT@ -- true
# Output management (issue 5).
bad err 'switch-output' '7q' -- --switch-output=7q -o @OUT@ -- true
bad err 'switch-output' '10x' -- --switch-output=10x -o @OUT@ -- true
bad err 'max-size' '-1' -- --max-size=-1 -o @OUT@ -- true
bad err 'max-size' '0' -- --max-size=0 -o @OUT@ -- true
bad err 'mmap-flush' 'abc' -- --mmap-flush=abc -o @OUT@ -- true
bad err 'switch-max-files' 'switch-output' -- --switch-max-files=3 -o @OUT@ -- true
bad err 'switch-max-files' 'x' -- --switch-output --switch-max-files=x -o @OUT@ -- true
bad err 'modifier' 'z' -- -e cpu-clock:zz -o @OUT@ -- true
bad err 'foo' 'software' -- -e 'software/foo=1/' -o @OUT@ -- true
bad err 'msr/tsc/' "-a" -- -e msr/tsc/ -o @OUT@ -- true
bad err '\{' -- -e '{cpu-clock,task-clock' -o @OUT@ -- true
bad err 'filter' 'nosuchfield' -- -a -e sched:sched_switch --filter 'nosuchfield == 1' -o @OUT@ -- true
bad err 'not supported yet' 'nr' -- -e 'cpu-clock/nr=5/' -o @OUT@ -- true
# Targets (issue 4): CPUs that are not there, processes and users that do not exist.
bad err 'CPU 99' 'online' -- -C 99 -o @OUT@ -- true
bad err '-C|cpu' "1-" -- -C 1- -o @OUT@ -- true
bad err '-C|cpu' -- -C '' -o @OUT@ -- true
bad err '999999' 'process' -- -p 999999 -o @OUT@
bad err 'abc' '-t|tid' -- -t abc -o @OUT@
bad err 'nosuchuser' 'user' -- -u nosuchuser -o @OUT@
bad err '-G|cgroup' '-a' -- -G x -o @OUT@ -- true
bad err 'nosuchcgroup' 'cgroup' -- -a -G nosuchcgroup -o @OUT@ -- true
bad err 'requires|argument|missing|value' "-o|output|'o'" -- -o

# Output paths that cannot be created (the second fails for root too).
for out in /nonexistent-dir/x.data /proc/x.data; do
	run_prec -o "$out" -- true
	what="prec -o $out -- true"
	((PREC_RC >= 1 && PREC_RC <= 125)) || fail "$what: exit status $PREC_RC, expected 1..125"
	grep -q "^prec:.*$out" "$PREC_ERR" || fail "$what: no 'prec:' line on stderr names $out"
	[[ "$(head -n 1 "$PREC_ERR")" == prec:* ]] || fail "$what: first stderr line does not start with 'prec:'"
	(($(grep -c . "$PREC_ERR") == 1)) || fail "$what: $(grep -c . "$PREC_ERR") lines on stderr, expected one"
	[[ -e "$out" ]] && fail "$what: $out exists afterwards"
done
if (($(id -u) != 0)); then
	mkdir ro && chmod 0555 ro
	run_prec -o ro/x.data -- true
	((PREC_RC >= 1 && PREC_RC <= 125)) || fail "prec -o ro/x.data (read-only dir): exit status $PREC_RC"
	grep -q '^prec:.*ro/x.data' "$PREC_ERR" || fail "prec -o ro/x.data: no 'prec:' line names the file"
fi

# -m that is not a power of two is rounded up, with a warning, as in perf.
run_prec -m 3 -o m3.data -- "$EXIT_WORKLOAD" 0
((PREC_RC == 0)) || fail "prec -m 3 exited $PREC_RC, expected 0"
grep -Eiq 'rounding' "$PREC_ERR" || fail "prec -m 3: no rounding warning on stderr"
require_valid m3.data

pass "$ncase cases"
