#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Call graphs: with --call-graph fp and dwarf, perf report -g on prec's file
# shows the same call path into the workload's hot function as on perf
# record's file of the same workload, and the same share for it.
source "${TEST_LIB:-$(dirname "$0")/lib.sh}" || exit 1

# The caller chain of SYMBOL as perf report prints it, one frame per line.
chain()
{
	"$PERF" report -i "$1" --stdio --no-children -g caller,0.5,callee -S "$2" 2>/dev/null |
		awk '/---/ { go = 1 } go && NF == 1 { print $1 } go && NF == 0 { exit }' |
		sed 's/^---//' | head -n 4
}

for mode in fp dwarf; do
	prec_record_ok --call-graph "$mode" -o "prec-$mode.data" -- "$WORKLOAD" 600
	perf_record_ok --call-graph "$mode" -o "perf-$mode.data" -- "$WORKLOAD" 600
	require_valid "prec-$mode.data"
	a=$(chain "prec-$mode.data" hot_two_thirds | tr '\n' ' ')
	b=$(chain "perf-$mode.data" hot_two_thirds | tr '\n' ' ')
	log "$mode: prec '$a', perf record '$b'"
	[[ -n "$a" && "$a" == "$b" ]] || fail "--call-graph $mode: call path '$a', perf record's '$b'"
	p=$(report_percent "prec-$mode.data" hot_two_thirds)
	q=$(report_percent "perf-$mode.data" hot_two_thirds)
	within 10 "$p" "$q" || fail "--call-graph $mode: hot_two_thirds $p% vs perf record's $q%"
done
pass
