#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Call graphs: with --call-graph fp and dwarf, perf report -g on prec's file
# shows the same call path into the workload's hot function as on perf
# record's file of the same workload, and the same share for it: on
# prec_workload, and on prec_deep's known tree (seven frames from the leaf to
# main) built with frame pointers and without (prec_deep_nofp, where fp sees
# no callers and only DWARF unwinding finds them).
source "${TEST_LIB:-$(dirname "$0")/lib.sh}" || exit 1

# The caller chain of SYMBOL, one frame per line (the first FRAMES of them,
# default 4): the chain most of the samples whose leaf is SYMBOL have, from
# perf script. Not perf report's call graph: that branches whenever a few
# samples have another chain (a sample in a function's prologue has lost its
# caller with frame pointers), and which branches pass its 0.5% cut varies
# from run to run on any machine.
chain()
{
	"$PERF" script -i "$1" -F ip,sym 2>/dev/null |
		awk -v sym="$2" -v n="${3:-4}" '
			function done_sample() { if (c != "") cnt[c]++; c = ""; k = 0; first = 1 }
			BEGIN { first = 1 }
			NF == 0 { done_sample(); next }
			{
				if (first) { first = 0; ok = ($2 == sym) }
				if (ok && k < n) { c = c $2 "\n"; k++ }
			}
			END {
				done_sample()
				for (x in cnt) if (cnt[x] > best) { best = cnt[x]; top = x }
				printf "%s", top
			}'
}

DEEP_PATH="deep_leaf_hot deep_level4 deep_level3 deep_level2 deep_level1 deep_run main "

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

for wl in prec_deep prec_deep_nofp; do
	for mode in fp dwarf; do
		prec_record_ok --call-graph "$mode" -o "prec-$wl-$mode.data" -- "$WORKLOAD_DIR/$wl" 500
		perf_record_ok --call-graph "$mode" -o "perf-$wl-$mode.data" -- "$WORKLOAD_DIR/$wl" 500
		require_valid "prec-$wl-$mode.data"
		a=$(chain "prec-$wl-$mode.data" deep_leaf_hot 7 | tr '\n' ' ')
		b=$(chain "perf-$wl-$mode.data" deep_leaf_hot 7 | tr '\n' ' ')
		log "$wl $mode: prec '$a', perf record '$b'"
		[[ -n "$a" && "$a" == "$b" ]] ||
			fail "$wl --call-graph $mode: call path '$a', perf record's '$b'"
		# The whole tree where the unwinder can see it.
		if [[ $mode == dwarf || $wl == prec_deep ]]; then
			[[ "$a" == "$DEEP_PATH" ]] ||
				fail "$wl --call-graph $mode: call path '$a', want '$DEEP_PATH'"
		fi
		p=$(report_percent "prec-$wl-$mode.data" deep_leaf_hot)
		q=$(report_percent "perf-$wl-$mode.data" deep_leaf_hot)
		within 10 "$p" "$q" ||
			fail "$wl --call-graph $mode: deep_leaf_hot $p% vs perf record's $q%"
	done
done
pass
