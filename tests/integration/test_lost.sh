#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Lost samples are said, counted as the file counts them, with what to try:
# a one-page ring cannot hold a DWARF sample (8 KiB of stack), so every
# sample of this recording is lost, whatever the machine's speed. The counts
# on stderr must be the ones perf reads back from the file; a recording that
# keeps everything says nothing about losses.
source "${TEST_LIB:-$(dirname "$0")/lib.sh}" || exit 1

WL=$WORKLOAD_DIR/prec_workload

for extra in "" "-z" "--threads"; do
	# shellcheck disable=SC2086
	run_prec -m 1 -e cpu-clock -c 100000 --call-graph dwarf $extra -o lost.data -- "$WL" 200
	((PREC_RC == 0)) || fail "$extra: prec exited $PREC_RC: $(head -n 3 "$PREC_ERR")"
	"$PERF" report --stats -i lost.data >stats.out 2>stats.err ||
		fail "$extra: perf report --stats failed: $(head -n 3 stats.err)"
	# The per-event rows have a share in parentheses; the total has none.
	want=$(awk '/LOST_SAMPLES events:/ && !/\(/ { n += $3 } END { print n + 0 }' stats.out)
	((want > 0)) || fail "$extra: a one-page ring kept every DWARF sample? (perf: $(grep -i lost stats.out))"
	got=$(sed -n 's/^prec: warning: \([0-9]*\) samples lost: .*/\1/p' "$PREC_ERR")
	[[ "$got" == "$want" ]] ||
		fail "$extra: stderr says '${got:-nothing}' samples lost, the file holds $want"
	grep_or_fail 'samples lost: .*try a larger -m, -r 10 to drain with SCHED_FIFO, --threads, or fewer samples' \
		"$PREC_ERR" "$extra: the loss line names what to try"
	log "$extra: $got samples lost, said and counted as perf counts them"
done

# Nothing lost, nothing said.
run_prec -e cpu-clock -c 1000000 -o kept.data -- "$WL" 50
((PREC_RC == 0)) || fail "kept: prec exited $PREC_RC"
no_grep_or_fail 'lost' "$PREC_ERR" "a recording that lost nothing speaks of losses"
pass
