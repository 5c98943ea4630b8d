#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# `perf script` gives one line per sample of prec's file (as many as prec's
# summary line counts), and `perf report -D` walks every record without
# complaint and finds the records perf record writes.
source "${TEST_LIB:-$(dirname "$0")/lib.sh}" || exit 1

need_root "the kernel's MMAP record (a user's recording has none)"

prec_record_ok -o prec.data -- "$WORKLOAD" 300

# The summary lines, exactly as perf record prints them (prec for perf).
grep_or_fail '^\[ prec record: Woken up [0-9]+ times to write data \]$' "$PREC_ERR" "summary"
grep_or_fail '^\[ prec record: Captured and wrote [0-9]+\.[0-9]{3} MB prec\.data \([0-9]+ samples\) \]$' "$PREC_ERR" "summary"
n=$(summary_samples "$PREC_ERR")
((n > 0)) || fail "no samples in 300 ms of CPU time"

"$PERF" script -i prec.data >script.out 2>script.err
rc=$?
((rc == 0)) || fail "perf script exited $rc: $(head -n 3 script.err)"
require_no_warning script.err "perf script"
lines=$(grep -c . script.out)
((lines == n)) || fail "perf script printed $lines lines, prec's summary says $n samples"
grep -q hot_two_thirds script.out || fail "perf script shows no sample in hot_two_thirds"

"$PERF" report -D -i prec.data >dump.out 2>dump.err
rc=$?
((rc == 0)) || fail "perf report -D exited $rc: $(head -n 3 dump.err)"
cat dump.out dump.err >dump.all
no_grep_or_fail 'unprocessable|FAILED' dump.all "perf report -D"
require_no_warning dump.err "perf report -D"
for rec in PERF_RECORD_FINISHED_ROUND PERF_RECORD_COMM PERF_RECORD_FINISHED_INIT PERF_RECORD_SAMPLE; do
	grep_or_fail "$rec" dump.out "perf report -D"
done
grep_or_fail 'PERF_RECORD_MMAP .*\[kernel\.kallsyms\]' dump.out "kernel MMAP record"
grep_or_fail "PERF_RECORD_COMM.*: $(basename "$WORKLOAD"):" dump.out "COMM of the workload"
# The dump's own count of samples agrees too.
s=$(awk '/^ *SAMPLE events:/ { print $3; exit }' dump.out)
[[ "$s" == "$n" ]] || fail "perf report -D counts '$s' SAMPLE events, prec's summary $n"

pass
