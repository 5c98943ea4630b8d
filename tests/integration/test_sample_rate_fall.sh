#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The kernel lowers kernel.perf_event_max_sample_rate when samples take too
# long, silently, and from then on throttles every event above it: perf says
# nothing. prec's summary says from what to what, and how to put it back.
# The test lowers the sysctl itself half-way through a recording (as the
# kernel would), restores it however the test ends, and checks that a
# recording during which it did not move says nothing.
source "${TEST_LIB:-$(dirname "$0")/lib.sh}" || exit 1
need_root "lowers the sysctl kernel.perf_event_max_sample_rate during a recording"

SYSCTL=/proc/sys/kernel/perf_event_max_sample_rate
rate_was=$(cat "$SYSCTL")
((rate_was >= 2000)) || skip "kernel.perf_event_max_sample_rate is $rate_was: too low to halve"
restore()
{
	echo "$rate_was" >"$SYSCTL"
}
trap '_rc=$?; restore; (exit $_rc); _cleanup' EXIT

# The lowered value stays above the -F of the recordings other tests make
# (4000 by default), so a test running beside this one is not refused.
low=$((rate_was / 2))
((low > 4000)) || low=$((rate_was - 1))

"$PREC" -F 1000 -e cpu-clock -o fall.data -- "$WORKLOAD" 1500 >fall.out 2>fall.err &
pid=$!
track_pid "$pid"
sleep 0.5
echo "$low" >"$SYSCTL" || fail "cannot write $low to $SYSCTL"
wait "$pid"
rc=$?
restore
((rc == 0)) || fail "prec exited $rc: $(head -n 3 fall.err)"
want="prec: warning: kernel.perf_event_max_sample_rate fell from $rate_was to $low Hz during the recording"
grep -qF "$want" fall.err || fail "no line '$want' on stderr: $(cat fall.err)"
grep_or_fail "use -F $low or lower, or raise it back with 'sysctl -w kernel.perf_event_max_sample_rate=$rate_was'" \
	fall.err "the line names the fixes"
"$PERF" report --stats -i fall.data >/dev/null 2>&1 || fail "perf cannot read the recording"
log "lowered from $rate_was to $low during the recording: said"

# Unchanged: nothing said.
run_prec -F 1000 -e cpu-clock -o kept.data -- "$WORKLOAD" 100
((PREC_RC == 0)) || fail "kept: prec exited $PREC_RC"
no_grep_or_fail 'perf_event_max_sample_rate' "$PREC_ERR" "a recording with the rate unchanged speaks of it"
pass
