#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# `perf report --header-only -I` on prec's file and on perf record's file of
# the same command: the system description must be identical, the event must
# have the same name, type, sample_type and read_format, the cmdline must be
# prec's, and none of the features prec covers may be missing.
source "${TEST_LIB:-$(dirname "$0")/lib.sh}" || exit 1

prec_record_ok -o prec.data -- "$WORKLOAD" 200
prec_args="-o prec.data -- $WORKLOAD 200"
perf_record_ok -o perf.data -- "$WORKLOAD" 200

hp=$(header prec.data)
hq=$(header perf.data)
require_no_warning "$hp.err" "perf report --header-only on prec's file"

for f in hostname "os release" arch "nrcpus online" "nrcpus avail" cpudesc cpuid "total memory"; do
	a=$(header_field "$hp" "$f")
	b=$(header_field "$hq" "$f")
	[[ -n "$a" ]] || fail "prec's header has no '$f' line"
	[[ "$a" == "$b" ]] || fail "header '$f': prec has '$a', perf record has '$b'"
done

# "# event : name = cpu-clock:pppH, , id = { 1, 2 }, type = 1, size = 128, ..."
event_attr()
{
	local line=$1 key=$2
	line=${line#*"$key = "}
	echo "${line%%, *}"
}
ep=$(grep -E '^# event : ' "$hp")
eq=$(grep -E '^# event : ' "$hq")
[[ -n "$ep" ]] || fail "prec's header has no '# event :' line"
[[ $(wc -l <<<"$ep") == $(wc -l <<<"$eq") ]] || fail "prec's header has $(wc -l <<<"$ep") events, perf record's $(wc -l <<<"$eq")"
for k in name type sample_type read_format; do
	a=$(event_attr "$ep" "$k")
	b=$(event_attr "$eq" "$k")
	[[ "$a" == "$b" ]] || fail "event $k: prec has '$a', perf record has '$b'"
done

# The cmdline is the prec command that made the file.
cmdline=$(header_field "$hp" cmdline)
[[ "$cmdline" == *"$(basename "$PREC")"* ]] || fail "cmdline '$cmdline' does not name the prec binary"
[[ "$cmdline" == *"$prec_args"* ]] || fail "cmdline '$cmdline' does not hold the arguments '$prec_args'"

# No feature of this issue may be missing.
missing=$(sed -n 's/^# missing features: //p' "$hp")
for feat in HOSTNAME OSRELEASE VERSION ARCH NRCPUS CPUDESC CPUID TOTAL_MEM CMDLINE EVENT_DESC SAMPLE_TIME; do
	[[ " $missing " == *" $feat "* ]] && fail "prec's file lacks feature $feat (missing features: $missing)"
done
grep_or_fail '^# time of first sample : [0-9]' "$hp" "SAMPLE_TIME"
grep_or_fail '^# time of last sample : [0-9]' "$hp" "SAMPLE_TIME"
grep_or_fail '^# perf version : ' "$hp" "VERSION"

pass
