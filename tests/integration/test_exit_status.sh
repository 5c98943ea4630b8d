#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# prec exits with its command's status (128+sig when the command is killed),
# and the file it wrote is valid in every case, SIGINT to prec included.
# The output file is created with mode 0600, and an existing non-empty file
# is kept as FILE.old, as perf record does.
source "${TEST_LIB:-$(dirname "$0")/lib.sh}" || exit 1

# exit status of the command passes through; the file is still complete.
for st in 0 3 42; do
	run_prec -o exit$st.data -- "$EXIT_WORKLOAD" "$st"
	((PREC_RC == st)) || fail "command exited $st, prec exited $PREC_RC"
	require_valid exit$st.data
done

for sig in 9 11 15; do
	run_prec -o sig$sig.data -- "$EXIT_WORKLOAD" -s "$sig"
	((PREC_RC == 128 + sig)) || fail "command killed by signal $sig, prec exited $PREC_RC (expected $((128 + sig)))"
	require_valid sig$sig.data
done

# SIGINT to the recorder while the command still runs. perf record stops,
# ends its command and finishes the file; prec must too, and die or exit as
# perf does (perf 6.1 dies of the SIGTERM it sent to the command) or 130.
# SIGINT is set to its default action first: a non-interactive shell starts
# background jobs with it ignored.
sigint_run()
{
	local tag=$1
	shift
	local start pid rc
	start=$(date +%s.%N)
	env --default-signal=INT "$@" >"$tag.out" 2>"$tag.err" &
	pid=$!
	track_pid "$pid"
	sleep 1
	kill -INT "$pid"
	{ wait "$pid"; } 2>/dev/null
	rc=$?
	SIGINT_RC=$rc
	SIGINT_SECS=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.2f", e - s }')
}

sigint_run perf "$PERF" record -o int-perf.data -- sleep 10.101
perf_rc=$SIGINT_RC
sigint_run prec "$PREC" -o int-prec.data -- sleep 10.102
LAST_CMD="prec -o int-prec.data -- sleep 10.102 (SIGINT after 1 s)" LAST_RC=$SIGINT_RC LAST_ERR=prec.err
log "SIGINT: perf record rc=$perf_rc, prec rc=$SIGINT_RC after ${SIGINT_SECS}s"
((SIGINT_RC == 130 || SIGINT_RC == perf_rc)) ||
	fail "after SIGINT prec exited $SIGINT_RC, expected 130 or perf record's $perf_rc"
awk -v s="$SIGINT_SECS" 'BEGIN { exit !(s < 5) }' || fail "prec took ${SIGINT_SECS}s to stop after SIGINT"
if pgrep -f 'sleep 10.102' >/dev/null; then
	fail "the command (sleep 10.102) still runs after prec stopped"
fi
grep_or_fail '^\[ prec record: Captured and wrote .* int-prec\.data' prec.err "summary after SIGINT"
require_valid --allow-empty int-prec.data

# Mode 0600 whatever the umask.
for mask in 022 000; do
	(umask $mask && "$PREC" -q -o mode$mask.data -- true) || fail "prec -q -o mode$mask.data -- true failed"
	mode=$(stat -c %a mode$mask.data)
	[[ "$mode" == 600 ]] || fail "output created with mode $mode under umask $mask, expected 600"
done

# A non-empty existing file becomes FILE.old; an empty one is just replaced.
prec_record_ok -q -o rot.data -- "$EXIT_WORKLOAD" 0
cp rot.data first.data
echo stale >rot.data.old
prec_record_ok -q -o rot.data -- "$EXIT_WORKLOAD" 0
[[ -f rot.data.old ]] || fail "existing rot.data was not renamed to rot.data.old"
cmp -s rot.data.old first.data || fail "rot.data.old is not the previous rot.data"
require_valid rot.data
require_valid rot.data.old

: >empty.data
prec_record_ok -q -o empty.data -- "$EXIT_WORKLOAD" 0
[[ -e empty.data.old ]] && fail "an empty existing file was rotated to empty.data.old (perf record only keeps non-empty ones)"
require_valid empty.data

pass
