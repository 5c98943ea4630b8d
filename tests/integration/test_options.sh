#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The options of this issue, judged by what `perf evlist -v` and
# `perf report` read back from prec's file (and by perf record's own file
# where perf record is the reference).
source "${TEST_LIB:-$(dirname "$0")/lib.sh}" || exit 1

need_root "the events as perf names them with kernel samples (a user gets :u)"

max_rate=$(cat /proc/sys/kernel/perf_event_max_sample_rate)

# evline DATAFILE [N]: the Nth (default 1st) line of `perf evlist -v`.
evline()
{
	evlist "$1" | sed -n "${2:-1}p"
}

# -F N: frequency mode, PERIOD sampled.
prec_record_ok -F 1000 -o f1000.data -- "$WORKLOAD" 100
l=$(evline f1000.data)
[[ "$l" == *"freq: 1"* ]] || fail "-F 1000: no 'freq: 1' in: $l"
[[ "$(evlist_field "$l" '{ sample_period, sample_freq }')" == 1000 ]] || fail "-F 1000: sample_freq is not 1000 in: $l"
[[ "$(evlist_field "$l" sample_type)" == *PERIOD* ]] || fail "-F 1000: no PERIOD in sample_type: $l"
require_valid f1000.data

# -c N: a fixed period, no freq flag, no PERIOD in sample_type.
prec_record_ok -c 100000 -o c.data -- "$WORKLOAD" 100
l=$(evline c.data)
[[ "$l" == *"freq: 1"* ]] && fail "-c 100000: 'freq: 1' set in: $l"
[[ "$(evlist_field "$l" '{ sample_period, sample_freq }')" == 100000 ]] || fail "-c 100000: period is not 100000 in: $l"
[[ "$(evlist_field "$l" sample_type)" == *PERIOD* ]] && fail "-c 100000: PERIOD in sample_type: $l"
require_valid c.data

# -F max: the kernel's limit; any case, as perf 6.1 (strcasecmp).
for m in max MAX Max; do
	prec_record_ok -F $m -o fmax.data -- "$WORKLOAD" 100
	l=$(evline fmax.data)
	[[ "$(evlist_field "$l" '{ sample_period, sample_freq }')" == "$max_rate" ]] ||
		fail "-F $m: sample_freq is not perf_event_max_sample_rate ($max_rate) in: $l"
done

# -F above the limit: perf's warning, and the limit is used.
over=$((max_rate * 2))
prec_record_ok -F "$over" -o fover.data -- "$WORKLOAD" 100
grep -q 'Maximum frequency rate' "$PREC_ERR" || fail "-F $over: no 'Maximum frequency rate' warning"
grep -q "$max_rate" "$PREC_ERR" || fail "-F $over: the warning does not give the limit $max_rate"
l=$(evline fover.data)
[[ "$(evlist_field "$l" '{ sample_period, sample_freq }')" == "$max_rate" ]] ||
	fail "-F $over: sample_freq is not lowered to $max_rate in: $l"

# Two events: both in the file, each sample identifiable.
prec_record_ok -e cpu-clock,task-clock -o two.data -- "$WORKLOAD" 200
evlist two.data >two.evlist
[[ $(wc -l <two.evlist) == 2 ]] || fail "-e cpu-clock,task-clock: $(wc -l <two.evlist) events in the file"
i=0
for ev in cpu-clock task-clock; do
	i=$((i + 1))
	l=$(sed -n "${i}p" two.evlist)
	[[ "$l" == "$ev: "* ]] || fail "event $i is not $ev: $l"
	st=$(evlist_field "$l" sample_type)
	# Same sample types: ID, as perf record 6.1 samples it (test_perf_attrs).
	[[ "$st" == *"|ID|"* && "$st" != *IDENTIFIER* ]] ||
		fail "$ev: sample_type '$st': want ID, not IDENTIFIER (the events' sample types agree)"
done
require_valid two.data
grep -q "of event 'cpu-clock'" report.out || fail "perf report shows no cpu-clock samples"
grep -q "of event 'task-clock'" report.out || fail "perf report shows no task-clock samples"
for ev in cpu-clock task-clock; do
	p=$(report_percent two.data hot_two_thirds "$ev")
	awk -v p="$p" 'BEGIN { exit !(p > 40) }' || fail "$ev: hot_two_thirds has only $p% of its samples"
done

# A software event sampled on every occurrence.
prec_record_ok -e page-faults -c 1 -o pf.data -- "$WORKLOAD" 100
l=$(evline pf.data)
[[ "$l" == "page-faults: "* ]] || fail "-e page-faults: event is: $l"
[[ "$(evlist_field "$l" '{ sample_period, sample_freq }')" == 1 ]] || fail "-e page-faults -c 1: period is not 1 in: $l"
n=$(summary_samples "$PREC_ERR")
((n > 0)) || fail "-e page-faults -c 1: no samples"
require_valid pf.data

# Every software event name, and the cycles fallback, as perf record names them.
for ev in cpu-clock task-clock page-faults faults minor-faults major-faults context-switches cs \
	cpu-migrations migrations alignment-faults emulation-faults dummy cycles; do
	prec_record_ok -q -e "$ev" -o ev.data -- true
	perf_record_ok -q -e "$ev" -o ev-perf.data -- true
	a=$(evline ev.data)
	b=$(evline ev-perf.data)
	[[ "${a%%: *}" == "${b%%: *}" ]] || fail "-e $ev: prec's event is named '${a%%: *}', perf record's '${b%%: *}'"
	for k in type config '{ sample_period, sample_freq }' sample_type; do
		[[ "$(evlist_field "$a" "$k")" == "$(evlist_field "$b" "$k")" ]] ||
			fail "-e $ev: $k is '$(evlist_field "$a" "$k")' in prec's file, '$(evlist_field "$b" "$k")' in perf record's"
	done
done

# --version and -h.
run_prec --version
((PREC_RC == 0)) || fail "--version exited $PREC_RC"
grep -Eq 'prec.*[0-9]+\.[0-9]+' "$PREC_OUT" || fail "--version printed '$(head -n 1 "$PREC_OUT")', expected 'prec ... X.Y'"
for h in -h --help; do
	run_prec "$h"
	((PREC_RC == 0 || PREC_RC == 129)) || fail "$h exited $PREC_RC"
	cat "$PREC_OUT" "$PREC_ERR" >help.txt
	grep -qi 'usage' help.txt || fail "$h: no usage text"
	for o in --output --event --freq --count --mmap-pages; do
		grep -q -- "$o" help.txt || fail "$h: the help does not mention $o"
	done
done

# The leading word "record", as in `perf record`.
prec_record_ok record -o rec.data -- "$WORKLOAD" 50
require_valid rec.data

# -q: no summary; without it, the summary.
prec_record_ok -q -o q.data -- "$WORKLOAD" 50
[[ -s "$PREC_ERR" ]] && fail "-q: stderr is not empty: $(head -n 2 "$PREC_ERR")"
prec_record_ok -o nq.data -- "$WORKLOAD" 50
grep -q '^\[ prec record: Captured and wrote' "$PREC_ERR" || fail "no summary line without -q"

# -v: the cycles fallback is reported as perf reports it (when perf record
# falls back here: no hardware PMU); the default event is named as perf
# record names it on this machine (cpu-clock:pppH, cpu-clock:ppp on AMD,
# cycles with a PMU...).
prec_record_ok -v -o v.data -- "$WORKLOAD" 50
perf_record_ok -v -o v-perf.data -- "$WORKLOAD" 50
if grep -q 'The cycles event is not supported, trying to fall back to cpu-clock-ticks' "$PERF_ERR"; then
	grep -q 'The cycles event is not supported, trying to fall back to cpu-clock-ticks' "$PREC_ERR" ||
		fail "-v: no 'The cycles event is not supported, trying to fall back to cpu-clock-ticks'"
fi
want=$(evline v-perf.data)
want=${want%%: *}
l=$(evline v.data)
[[ -n "$want" && "$l" == "$want: "* ]] || fail "default event is not $want (perf record's): $l"
l=$(evline nq.data)
[[ "$l" == "$want: "* ]] || fail "default event (no -v) is not $want: $l"

# -m: a power of two is taken as is.
prec_record_ok -m 16 -o m16.data -- "$WORKLOAD" 50
grep -qi rounding "$PREC_ERR" && fail "-m 16: rounding warning for a power of two"
require_valid m16.data

# Accepted as perf record accepts them, with the same attrs: the nr= term
# (read only by perf trace) and the clang options (they only shape -e FILE.c,
# which is refused with its own line, test_bad_input.sh).
for o in "-e cpu-clock/nr=5/" "--clang-opt=-O2 --clang-path=/usr/bin/clang"; do
	# shellcheck disable=SC2086
	prec_record_ok $o -o acc.data -- "$WORKLOAD" 50
	# shellcheck disable=SC2086
	perf_record_ok $o -o acc-perf.data -- "$WORKLOAD" 50
	[[ "$(evline acc.data)" == "$(evline acc-perf.data)" ]] ||
		fail "$o: attrs differ from perf record's: $(evline acc.data) vs $(evline acc-perf.data)"
	require_valid acc.data
done

pass
