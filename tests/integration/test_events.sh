#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The -e grammar end to end, each case recorded by prec and by perf record
# and read back by stock perf: a leader-sampling group, a write watchpoint on
# a program's variable, a tracepoint with --filter, perf's attrs for the
# grammar's kinds of events, the cpu= term, and --list-events against perf list.
source "${TEST_LIB:-$(dirname "$0")/lib.sh}" || exit 1

need_root "a system-wide tracepoint recording (-a -e sched:sched_switch)"

attrs()
{
	evlist "$1" | sed -E 's/, (id|ids): [^,]*//g; s/\|IDENTIFIER//'
}

# A group with leader sampling: both events reported, the group in the header.
prec_record_ok -e '{cpu-clock,task-clock}:S' -o g.data -- "$WORKLOAD" 300
require_valid g.data
h=$(header g.data)
grep_or_fail '^# group: \{cpu-clock,task-clock\}' "$h" "GROUP_DESC of {cpu-clock,task-clock}:S"
"$PERF" report --stdio --group -i g.data >g.txt 2>g.err || fail "perf report --group failed"
require_no_warning g.err "perf report --group"
grep -q "of events 'anon group { cpu-clock, task-clock }'" g.txt || grep -q 'cpu-clock, task-clock' g.txt ||
	fail "perf report --group does not show the group"
perf_record_ok -e '{cpu-clock,task-clock}:S' -o g-perf.data -- "$EXIT_WORKLOAD" 0
prec_record_ok -e '{cpu-clock,task-clock}:S' -o g2.data -- "$EXIT_WORKLOAD" 0
diff <(attrs g-perf.data) <(attrs g2.data) >&2 || fail "{cpu-clock,task-clock}:S: attrs differ from perf record's"

# Leader sampling on a multi-threaded command: perf 6.1's no inherit by
# default (its reader misreads per-thread counts); the leader's inherit term
# asks for perf 6.13's inherited group, which perf report still reads.
busy=$WORKLOAD_DIR/prec_busy
prec_record_ok -e '{cpu-clock,task-clock}:S' -o gs.data -- "$busy" 0.3
evlist gs.data >gs.ev
no_grep_or_fail 'inherit: 1' gs.ev "{cpu-clock,task-clock}:S: inherit set"
prec_record_ok -e '{cpu-clock/inherit/,task-clock}:S' -o gi.data -- "$busy" 0.3
n=$(evlist gi.data | grep -E 'sample_type: [A-Z|]*TID[A-Z|]*READ' | grep -c 'inherit: 1')
((n == 2)) || fail "{cpu-clock/inherit/,task-clock}:S: $n of 2 events inherit with TID and READ"
"$PERF" report --stdio -i gi.data >gi.txt 2>gi.err || fail "perf report of the inherited group failed"
require_no_warning gi.err "perf report of {cpu-clock/inherit/,task-clock}:S"

# A write watchpoint on a variable: one sample per write, in the writer.
watch=$WORKLOAD_DIR/prec_watch
addr=$(nm "$watch" | awk '$3 == "prec_watched" { print $1 }')
[[ -n "$addr" ]] || fail "no prec_watched symbol in $watch"
prec_record_ok -e "mem:0x$addr:w" -o w.data -- "$watch" 500
perf_record_ok -e "mem:0x$addr:w" -o w-perf.data -- "$watch" 500
require_valid w.data
a=$(summary_samples "$PREC_ERR")
b=$(summary_samples "$PERF_ERR")
n=$("$PERF" script -i w.data -F ip,sym 2>/dev/null | grep -c 'write_watched')
((n == 500)) || fail "mem:0x$addr:w: $n samples in write_watched, expected 500 (one per write)"
((a == b)) || fail "mem:0x$addr:w: prec $a samples, perf record $b"

# A tracepoint with --filter: only matching samples, as perf record.
prec_record_ok -a -e sched:sched_switch --filter 'prev_state == 1' -o f.data -- sleep 0.3
require_valid f.data
"$PERF" script -i f.data >f.txt 2>/dev/null
total=$(grep -c 'sched:sched_switch' f.txt)
good=$(grep -c 'prev_state=S ' f.txt)
((total > 0 && total == good)) || fail "--filter 'prev_state == 1': $good of $total samples have prev_state=S"

# Attrs for the grammar's kinds of events, as perf record sets them.
for e in 'cpu-clock/period=1000/' 'cpu-clock/freq=99/' 'cpu-clock/no-inherit/' 'cpu-clock:u' \
	'task-clock:ku' '{cpu-clock,faults}' 'sched:sched_switch' 'sched:sched_wakeup,sched:sched_switch'; do
	prec_record_ok -q -e "$e" -o e.data -- "$EXIT_WORKLOAD" 0
	perf_record_ok -q -e "$e" -o e-perf.data -- "$EXIT_WORKLOAD" 0
	diff <(attrs e-perf.data) <(attrs e.data) >&2 || fail "-e '$e': attrs differ from perf record's (- perf, + prec)"
done

# An overwrite event keeps its newest samples in a backward ring, read at
# the end: with a one-page ring, the last sample is from the end of the run.
prec_record_ok -e cpu-clock/overwrite/ -o ow.data -- "$WORKLOAD" 300
perf_record_ok -e cpu-clock/overwrite/ -o ow-perf.data -- "$WORKLOAD" 300
require_valid ow.data
a=$(summary_samples "$PREC_ERR")
((a > 600)) || fail "cpu-clock/overwrite/: $a samples for a 300 ms run at 4 kHz"
diff <(attrs ow-perf.data) <(attrs ow.data) >&2 || fail "cpu-clock/overwrite/: attrs differ from perf record's"
# On one CPU: each CPU's ring keeps its own newest, and a workload that
# left a CPU early (a busy machine moves it) leaves old samples there.
# The page holds about 25 ms of the workload's CPU time; the run, 300 ms.
# In wall time both stretch with the load (the workload shares CPU 0), so
# the span is judged against the run's own wall time, not a fixed bound: a
# ring that kept everything would span nearly all of it.
t0=$(date +%s%N)
_run ow1 taskset -c 0 "$PREC" -m 1 -e cpu-clock/overwrite/ -o ow1.data -- "$WORKLOAD" 300
wall=$((($(date +%s%N) - t0) / 1000000))
((LAST_RC == 0)) || fail "-m 1 cpu-clock/overwrite/: prec exited $LAST_RC: $(tail -2 "$LAST_ERR")"
require_valid ow1.data
h=$(header ow1.data)
dur=$(sed -n 's/^# sample duration : *\([0-9.]*\) ms/\1/p' "$h")
awk -v d="$dur" -v w="$wall" 'BEGIN { exit !(d > 0 && d < w / 2) }' ||
	fail "-m 1 cpu-clock/overwrite/: samples span $dur ms of a $wall ms run; a one-page flight recorder keeps only the newest"

# The cpu= term (perf 6.16): that event samples on CPU 0 only, the plain one
# everywhere; the attrs are the plain event's. A CPU not online, or one -C
# leaves out, is refused in one line.
prec_record_ok -a -e 'cpu-clock/cpu=0/' -e cpu-clock -o c.data -- "$WORKLOAD_DIR/prec_busy" 0.3
require_valid c.data
"$PERF" script -i c.data -F cpu,event >c.txt 2>/dev/null
n0=$(grep -c 'cpu-clock/cpu=0/:' c.txt)
off0=$(grep 'cpu-clock/cpu=0/:' c.txt | grep -vc '^ *\[000\]')
((n0 > 0 && off0 == 0)) || fail "cpu-clock/cpu=0/: $off0 of $n0 samples are not on CPU 0"
if (($(nproc) > 1)); then
	# (grep -c, not -q: an early exit would break the pipe under pipefail)
	(($(grep ' cpu-clock:' c.txt | grep -vc '^ *\[000\]') > 0)) ||
		fail "-a cpu-clock: no sample outside CPU 0"
fi
e=$(attrs c.data)
[[ $(grep '^cpu-clock/cpu=0/:' <<<"$e" | cut -d: -f2-) == $(grep '^cpu-clock:' <<<"$e" | cut -d: -f2-) ]] ||
	fail "cpu-clock/cpu=0/: attrs differ from cpu-clock's: $e"
online=$(cat /sys/devices/system/cpu/online)
run_prec -e 'cpu-clock/cpu=65535/' -o bad.data -- true
((PREC_RC == 1)) && [[ $(wc -l <"$PREC_ERR") == 1 ]] &&
	grep -qF "CPU 65535 of its cpu term is not online (online CPUs: $online)" "$PREC_ERR" ||
	fail "cpu=65535: exit $PREC_RC, expected 1 and one line naming the online CPUs: $(cat "$PREC_ERR")"
if (($(nproc) > 1)); then
	run_prec -C 1 -e 'cpu-clock/cpu=0/' -o bad.data -- true
	((PREC_RC == 1)) && [[ $(wc -l <"$PREC_ERR") == 1 ]] || fail "-C 1 with cpu=0: exit $PREC_RC, $(cat "$PREC_ERR")"
fi

# --list-events lists what perf list lists here (software, tracepoints).
run_prec --list-events
((PREC_RC == 0)) || fail "prec --list-events exited $PREC_RC"
for ev in cpu-clock task-clock page-faults sched:sched_switch 'mem:<addr>'; do
	grep -qF -- "$ev" "$PREC_OUT" || fail "prec --list-events does not list $ev"
done
a=$(grep -c 'Tracepoint event' "$PREC_OUT")
b=$("$PERF" list tracepoint 2>/dev/null | grep -c 'Tracepoint event')
((a == b)) || fail "prec --list-events lists $a tracepoints, perf list $b"
pass
