#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Record the same workload with prec and with `perf record`; stock perf must
# read prec's file without a warning, attribute the samples to the workload's
# comm and binary, and see the same 2:1 split of hot_two_thirds/cold_one_third
# as in perf record's own file (within 10 points).
source "${TEST_LIB:-$(dirname "$0")/lib.sh}" || exit 1

MS=1000

prec_record_ok -o prec.data -- "$WORKLOAD" "$MS"
n=$(summary_samples "$PREC_ERR")
((n > 0)) || fail "prec reported no samples for a ${MS} ms CPU-bound workload"
perf_record_ok -o perf.data -- "$WORKLOAD" "$MS"

require_valid prec.data

# Samples land in the workload's comm and DSO, and name its functions.
report_rows prec.data >rows.prec
wl=$(basename "$WORKLOAD")
for fn in hot_two_thirds cold_one_third; do
	row=$(awk -v f="$fn" '$4 == f' rows.prec | head -n 1)
	[[ -n "$row" ]] || fail "no samples in $fn in prec's file (report rows: $(head -c 300 rows.prec))"
	read -r _ comm dso _ <<<"$row"
	[[ "$comm" == "$wl" ]] || fail "$fn attributed to comm '$comm', expected '$wl'"
	[[ "$dso" == "$wl" ]] || fail "$fn attributed to DSO '$dso', expected '$wl'"
done

# The workload's binary carries most of the samples.
in_wl=$(awk -v w="$wl" '$2 == w && $3 == w { s += $1 } END { printf "%.2f", s }' rows.prec)
awk -v s="$in_wl" 'BEGIN { exit !(s >= 80) }' ||
	fail "only $in_wl% of prec's samples are in $wl's own code (expected >= 80%)"

for fn in hot_two_thirds cold_one_third; do
	p=$(report_percent prec.data "$fn")
	q=$(report_percent perf.data "$fn")
	log "$fn: prec $p%, perf record $q%"
	within 10 "$p" "$q" || fail "$fn: prec's file gives $p%, perf record's $q% (more than 10 points apart)"
done

pass
