#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# No hidden channels between prec's threads: the background side-band's
# coordinator and --switch-output-event's thread wake the main loop through
# its eventfd, never by a signal prec sends itself. Under strace -f, no
# kill, tkill or tgkill of SIGUSR1/SIGUSR2 comes from prec, while what the
# wake-ups are for still happens: the side-band of the running tasks reaches
# the file (-a, said under -v, the samples of a task started before prec
# resolve), and each --switch-output-event record rotates the file, one
# stream and --threads alike.
source "${TEST_LIB:-$(dirname "$0")/lib.sh}" || exit 1

need_root "a system-wide recording (-a) and a tracepoint"
need_tool strace "to see the signals prec sends"

cd "$TMP" || fail "cd $TMP"

# LeakSanitizer cannot run under ptrace (the sanitized pass): leaks are the
# other tests' to find; here the sanitizer's other checks stay on.
traced=(env "ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" strace -f -qq)

# self_signals LOG: the SIGUSR1/SIGUSR2 sends strace logged.
self_signals()
{
	grep -E '(kill|tkill|tgkill)\([^)]*SIGUSR[12]' "$1" || true
}

# A task running before prec starts: its maps come from the side-band
# synthesized beside the recording. It must outlive both recordings, which
# take seconds each under strace on a loaded machine: it is killed at the
# end (test_synth_race covers one that exits during the recording).
"$WORKLOAD_DIR/prec_busy" 60 >/dev/null 2>&1 &
busy=$!
track_pid "$busy"
sleep 0.2

for mode in one threads; do
	args=(-v -a -F 500 -o "$TMP/$mode.data")
	[[ $mode == threads ]] && args+=(--threads)
	_run "strace_$mode" "${traced[@]}" -o "$TMP/$mode.strace" -e trace=kill,tkill,tgkill \
		-e signal=none "$PREC" "${args[@]}" -- sleep 1
	((LAST_RC == 0)) || fail "$mode: prec -a exited $LAST_RC: $(tail -3 "$LAST_ERR")"
	grep -q '^side-band of existing tasks: ' "$LAST_ERR" ||
		fail "$mode: no background side-band was said under -v: the test did not test it"
	sent=$(self_signals "$TMP/$mode.strace")
	[[ -z $sent ]] || fail "$mode: prec sent itself a signal to wake its main loop: $sent"
	require_valid "$TMP/$mode.data"
	_run "script_$mode" "$PERF" script -F comm,ip,dso -i "$TMP/$mode.data"
	grep -qE '^ *prec_busy +[0-9a-f]+ \(.*/prec_busy\)' "$LAST_OUT" ||
		fail "$mode: prec_busy's samples did not resolve to prec_busy: the side-band never came"
	log "$mode: the side-band came without a signal"
done

# --switch-output-event: each nanosleep of the command (and of anything
# else) asks for a rotation from the event's thread.
rm -f "$TMP"/rot.data*
_run strace_rot "${traced[@]}" -o "$TMP/rot.strace" -e trace=kill,tkill,tgkill -e signal=none \
	"$PREC" --switch-output-event syscalls:sys_enter_clock_nanosleep -o "$TMP/rot.data" \
	-- sh -c 'sleep 0.3; sleep 0.3; sleep 0.3'
((LAST_RC == 0)) || fail "--switch-output-event: prec exited $LAST_RC: $(tail -3 "$LAST_ERR")"
sent=$(self_signals "$TMP/rot.strace")
[[ -z $sent ]] || fail "--switch-output-event: prec sent itself a signal: $sent"
dumps=$(grep -c '^\[ prec record: Dump ' "$LAST_ERR")
((dumps >= 3)) || fail "--switch-output-event: $dumps files dumped for 3 sleeps"
for f in "$TMP"/rot.data.*; do
	_run dump "$PERF" report --stdio -i "$f"
	((LAST_RC == 0)) || fail "perf report -i $f exited $LAST_RC"
done
log "--switch-output-event: $dumps rotations, none asked by a signal"
pass
