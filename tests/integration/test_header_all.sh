#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Every header feature, line for line: `perf report --header-only -I` on
# prec's file and on perf record's file of the same command agree except for
# what differs between any two recordings (capture time, cmdline, version,
# offsets and sizes, sample times, event ids, free memory), with and without
# -k. prec's "missing features" list is no longer than perf's, and perf
# inject keeps every feature of prec's file.
source "${TEST_LIB:-$(dirname "$0")/lib.sh}" || exit 1

# The lines that legitimately differ between two recordings, blanked.
normalize()
{
	sed -E \
		-e '/^# (captured on|cmdline|perf version|data offset|data size|feat offset) *:/d' \
		-e '/^# (time of first sample|time of last sample|sample duration) *:/d' \
		-e '/^# (reference time|clockid frequency) *:/d' \
		-e 's/id = \{[ 0-9,]*\}/id = {}/' \
		-e 's/(meminfo *: total = )[0-9]+ kB, free = [0-9]+ kB/\1N kB, free = N kB/' \
		"$1"
}

missing_list()
{
	sed -n 's/^# missing features: //p' "$1" | tr ' ' '\n' | grep -v -e '^$' | sort
}

compare()
{
	local tag=$1
	shift
	prec_record_ok "$@" -o "prec$tag.data" -- "$WORKLOAD" 200
	perf_record_ok "$@" -o "perf$tag.data" -- "$WORKLOAD" 200
	local hp hq
	hp=$(header "prec$tag.data")
	hq=$(header "perf$tag.data")
	require_no_warning "$hp.err" "perf report --header-only on prec's file ($tag)"
	normalize "$hp" >"prec$tag.norm"
	normalize "$hq" >"perf$tag.norm"
	# The missing-features lists are compared as sets below.
	grep -v '^# missing features:' "prec$tag.norm" >"prec$tag.cmp"
	grep -v '^# missing features:' "perf$tag.norm" >"perf$tag.cmp"
	if ! diff -u "perf$tag.cmp" "prec$tag.cmp" >"diff$tag.txt"; then
		sed 's/^/    | /' "diff$tag.txt" | head -n 40 >&2
		fail "header of prec's file differs from perf record's ($tag; - perf, + prec)"
	fi
	missing_list "$hp" >"prec$tag.missing"
	missing_list "$hq" >"perf$tag.missing"
	local extra
	extra=$(comm -23 "prec$tag.missing" "perf$tag.missing" | tr '\n' ' ')
	[[ -z "$extra" ]] || fail "prec's file lacks features perf record writes ($tag): $extra"
}

compare plain
compare clock -k monotonic_raw
hk=$(header precclock.data)
grep_or_fail '^# clockid: monotonic_raw' "$hk" "CLOCK_DATA of prec -k monotonic_raw"

# perf inject rewrites the file through perf's own writer: every feature of
# prec's file must survive it.
run_perf inject -i precplain.data -o injected.data
((PERF_RC == 0)) || fail "perf inject -i prec's file exited $PERF_RC"
hi=$(header injected.data)
normalize "$hi" | grep -v '^# missing features:' >injected.cmp
if ! diff -u precplain.cmp injected.cmp >diffinject.txt; then
	sed 's/^/    | /' diffinject.txt | head -n 40 >&2
	fail "perf inject changed the header of prec's file"
fi
missing_list "$hi" >injected.missing
diff -q precplain.missing injected.missing >/dev/null ||
	fail "perf inject dropped features: $(comm -13 precplain.missing injected.missing | tr '\n' ' ')"

pass
