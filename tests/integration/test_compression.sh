#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# -z in file mode: stock perf reads every sample back, HEADER_COMPRESSED is
# there, the ratio is within 10% of perf record -z's on the same workload,
# build-ids are kept (perf drops them with -z), and a loaded system-wide
# recording shrinks at least 3x.
source "${TEST_LIB:-$(dirname "$0")/lib.sh}" || exit 1

need_root "system-wide recordings (-a)"

ratio()
{
	sed -n 's/.*ratio is \([0-9.]*\).*/\1/p' "$1" | tail -n 1
}

prec_record_ok -z -o z.data -- "$WORKLOAD" 500
n=$(summary_samples "$PREC_ERR")
a=$(ratio "$PREC_ERR")
require_valid z.data
[[ $("$PERF" script -i z.data 2>/dev/null | wc -l) == "$n" ]] || fail "-z: perf script does not print the $n samples"
grep_or_fail '^# compressed : Zstd, level = 1, ratio = [0-9]+' "$(header z.data)" "HEADER_COMPRESSED"
"$PERF" buildid-list -i z.data 2>/dev/null | has_match "$(basename "$WORKLOAD")" || fail "-z: the workload's build-id is missing"
perf_record_ok -z -o z-perf.data -- "$WORKLOAD" 500
b=$(ratio "$PERF_ERR")
# A 77 KB recording's ratio moves with the samples it got: on a miss, one
# longer pair decides.
if ! awk -v a="$a" -v b="$b" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 0.1 * b) }'; then
	log "ratio: prec $a, perf record $b on 0.5 s; again on 2 s"
	prec_record_ok -z -o z2.data -- "$WORKLOAD" 2000
	a=$(ratio "$PREC_ERR")
	perf_record_ok -z -o z2-perf.data -- "$WORKLOAD" 2000
	b=$(ratio "$PERF_ERR")
fi
log "ratio: prec $a, perf record $b"
awk -v a="$a" -v b="$b" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 0.1 * b) }' ||
	fail "-z: ratio $a, perf record's $b (more than 10% apart)"

prec_record_ok -z5 -o z5.data -- "$WORKLOAD" 100
grep_or_fail '^# compressed : Zstd, level = 5,' "$(header z5.data)" "-z5"
prec_record_ok --compression-level=3 -o z3.data -- "$WORKLOAD" 100
grep_or_fail '^# compressed : Zstd, level = 3,' "$(header z3.data)" "--compression-level=3"

# System-wide under load: at least 3x smaller than without -z.
"$WORKLOAD" 10000 >/dev/null 2>&1 &
load=$!
disown "$load"
track_pid "$load"
# The side-band of the tasks alive (their COMM and MMAP records, synthesized
# from /proc) is in both files whole and, as perf writes it, uncompressed:
# with thousands of tasks it is megabytes, as much as the samples. So the
# sizes are compared without it: a recording of `true` holds little else,
# taken before and after (the smaller: the tasks come and go).
data_size() { header_field "$(header "$1")" "data size" | awk '{ print $1 }'; }
prec_record_ok -a -o sb1.data -- true
prec_record_ok -a -F 10000 -o plain.data -- sleep 2
prec_record_ok -a -F 10000 -z -o small.data -- sleep 2
require_valid small.data
prec_record_ok -a -o sb2.data -- true
sb=$(data_size sb1.data)
b=$(data_size sb2.data)
((b < sb)) && sb=$b
p=$(($(data_size plain.data) - sb))
q=$(($(data_size small.data) - sb))
log "-a 2 s under load: $p bytes, with -z $q bytes (beyond a side-band of $sb bytes)"
((p > 0 && q * 3 <= p)) || fail "-a -z: $q bytes is not 3x smaller than $p (beyond a side-band of $sb bytes)"
pass
