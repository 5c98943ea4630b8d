#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Targets and side-band (issue 4), each judged by stock perf and, where the
# two can be compared, against perf record on the same target:
#   -a with processes that existed before the recording (synthesis),
#   tracepoints decoded by perf script, -p/-t on a running process, -C, -u,
#   a software event with -c 1.
source "${TEST_LIB:-$(dirname "$0")/lib.sh}" || exit 1

need_root "system-wide recordings (-a), -C and -u nobody"

wl=$(basename "$WORKLOAD")

# A process that exists before prec starts (long enough for every case).
"$WORKLOAD" 60000 >/dev/null 2>&1 &
spin=$!
disown "$spin"
track_pid "$spin"
sleep 0.3

# share DATAFILE COMM DSO: the percentage of samples in that comm and dso.
share()
{
	"$PERF" report --stdio --sort comm,dso -i "$1" 2>/dev/null |
		awk -v c="$2" -v d="$3" '!/^#/ && $1 ~ /%$/ && $2 == c && $3 == d { s += $1 } END { printf "%.2f\n", s }'
}
unknown()
{
	"$PERF" report --stdio --sort dso -i "$1" 2>/dev/null |
		awk '!/^#/ && $1 ~ /%$/ && $2 == "[unknown]" { s += $1 } END { printf "%.2f\n", s }'
}

# -a: the running process is attributed to its comm and binary, which only
# /proc synthesis can tell; no more unknown DSOs than perf record's file.
prec_record_ok -a -o a.data -- sleep 1
perf_record_ok -a -o a-perf.data -- sleep 1
require_valid a.data
p=$(share a.data "$wl" "$wl")
awk -v p="$p" 'BEGIN { exit !(p > 10) }' || fail "-a: only $p% of samples in $wl/$wl (the process that was already running)"
u=$(unknown a.data)
q=$(unknown a-perf.data)
log "-a: $wl/$wl $p%; unknown DSO prec $u%, perf record $q%"
awk -v u="$u" -v q="$q" 'BEGIN { exit !(u <= q + 0.5) }' || fail "-a: $u% unknown DSO, perf record's file $q%"

# -p PID with a command setting the duration, and -t TID.
for t in "-p $spin" "-t $spin"; do
	# shellcheck disable=SC2086
	prec_record_ok $t -o t.data -- sleep 0.5
	require_valid t.data
	p=$(share t.data "$wl" "$wl")
	awk -v p="$p" 'BEGIN { exit !(p > 90) }' || fail "$t: only $p% of samples in $wl/$wl"
	"$PERF" script -i t.data -F pid 2>/dev/null | sort -u | awk -v s="$spin" '$1 != s { bad = 1 } END { exit bad }' ||
		fail "$t: samples from threads other than $spin"
done

# --per-thread: one ring per thread, perf's attrs (no inherit, no time).
prec_record_ok --per-thread -p "$spin" -o pt.data -- sleep 0.3
perf_record_ok --per-thread -p "$spin" -o pt-perf.data -- sleep 0.3
require_valid pt.data
p=$(share pt.data "$wl" "$wl")
awk -v p="$p" 'BEGIN { exit !(p > 90) }' || fail "--per-thread -p: only $p% of samples in $wl/$wl"
diff <(evlist pt-perf.data | sed -E 's/, (id|ids): [^,]*//g') <(evlist pt.data | sed -E 's/, (id|ids): [^,]*//g') >&2 ||
	fail "--per-thread -p: attrs differ from perf record's"

# -D: nothing is sampled before the delay is over: the first sample comes
# at least the delay after the command's exec.
prec_record_ok -D 300 -o delay.data -- "$WORKLOAD" 600
require_valid delay.data
gap=$("$PERF" script -i delay.data --show-task-events -F time,event 2>/dev/null |
	awk '/PERF_RECORD_COMM exec/ { e = $1 + 0 } /cpu-clock/ && e { printf "%d", ($1 - e) * 1000; exit }')
((gap >= 280)) || fail "-D 300: the first sample came ${gap:-?} ms after the exec"

# -G: a cgroup, on the cgroup2 mount (the root cgroup holds everything).
if grep -q ' cgroup2 ' /proc/mounts; then
	prec_record_ok -a -G / -o cg.data -- sleep 0.3
	require_valid cg.data
	p=$(share cg.data "$wl" "$wl")
	awk -v p="$p" 'BEGIN { exit !(p > 10) }' || fail "-a -G /: only $p% of samples in $wl/$wl"
else
	run_prec -a -G / -o cg.data -- true
	((PREC_RC >= 1 && PREC_RC <= 125)) && grep -q '^prec: cannot open cgroup' "$PREC_ERR" ||
		fail "-G without a cgroup2 mount: expected one clear error, got rc $PREC_RC: $(cat "$PREC_ERR")"
fi

# -p alone ends when the target exits.
"$WORKLOAD" 300 >/dev/null 2>&1 &
short=$!
disown "$short"
prec_record_ok -p "$short" -o short.data
require_valid short.data

# -C 1: only CPU 1's samples; a process pinned there is seen.
if [[ $(cat /sys/devices/system/cpu/online) != 0 ]]; then
	taskset -c 1 "$WORKLOAD" 2000 >/dev/null 2>&1 &
	pinned=$!
disown "$pinned"
	track_pid "$pinned"
	sleep 0.2
	prec_record_ok -C 1 -o c.data -- sleep 0.5
	require_valid c.data
	cpus=$("$PERF" script -i c.data -F cpu 2>/dev/null | tr -d ' []' | sed 's/^0*\([0-9]\)/\1/' | sort -u | tr '\n' ' ')
	[[ "$cpus" == "1 " ]] || fail "-C 1: samples on CPUs '$cpus'"
	kill "$pinned" 2>/dev/null
fi

# -u USER: a process of another user.
if command -v setpriv >/dev/null && id nobody >/dev/null 2>&1; then
	setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups "$WORKLOAD" 3000 >/dev/null 2>&1 &
	theirs=$!
disown "$theirs"
	track_pid "$theirs"
	sleep 0.3
	prec_record_ok -u nobody -o u.data -- sleep 0.5
	require_valid u.data
	p=$(share u.data "$wl" "$wl")
	awk -v p="$p" 'BEGIN { exit !(p > 90) }' || fail "-u nobody: only $p% of samples in $wl/$wl"
	kill "$theirs" 2>/dev/null
fi

# A process of 3,000 threads (issue 33 row 1): THREAD_MAP's size is a u16, so
# one record holds at most 2,729 threads; perf 6.1 wraps the size (a record of
# garbage, or none at 2,730). prec splits the map: -p, -t of its ids and -u
# root record, and the records name every thread once, in perf's reading.
coproc TASKS_CO { exec "$WORKLOAD_DIR/prec_tasks" 1 2999 60; }
track_pid "$TASKS_CO_PID"
read -r ready tasks_pid <&"${TASKS_CO[0]}" || true
[[ "${ready:-}" == ready ]] || fail "prec_tasks did not start"
many=$(pgrep -P "$tasks_pid")
for t in /proc/"$many"/task/*; do echo "${t##*/}"; done | sort >many.want
(($(wc -l <many.want) == 3000)) || fail "prec_tasks made $(wc -l <many.want) threads, not 3000"
# map_tids FILE: the threads its THREAD_MAP records name, one a line, as read.
map_tids()
{
	"$PERF" script -D -i "$1" 2>/dev/null |
		awk '/PERF_RECORD_THREAD_MAP nr:/ { sub(/.*threads: /, ""); n = split($0, t, /, /); for (i = 1; i <= n; i++) print t[i] }'
}
for t in "-p $many" "-t $(paste -sd, many.want)" "-u root"; do
	what=${t%% *}
	# shellcheck disable=SC2086
	prec_record_ok $t -o many.data -- sleep 0.2
	require_valid --allow-empty many.data
	map_tids many.data >many.got
	if [[ $what == -u ]]; then
		sort -u many.got | comm -13 - many.want >many.miss
		[[ ! -s many.miss ]] || fail "-u root: $(wc -l <many.miss) of the 3000 threads missing from THREAD_MAP"
	else
		sort many.got | cmp -s - many.want || fail "$what: THREAD_MAP names $(wc -l <many.got) threads, not the 3000 of $many"
	fi
	(($(sort many.got | uniq -d | wc -l) == 0)) || fail "$what: a thread twice in THREAD_MAP"
	log "$what with 3000 threads: $(wc -l <many.got) in $("$PERF" script -D -i many.data 2>/dev/null | grep -c 'PERF_RECORD_THREAD_MAP nr:') THREAD_MAP records"
done
kill "$TASKS_CO_PID" 2>/dev/null

# A tracepoint, system-wide: every sample decoded with its fields.
prec_record_ok -a -e sched:sched_switch -o tp.data -- sh -c 'for i in 1 2 3 4 5 6 7 8; do sleep 0.01; done'
n=$(summary_samples "$PREC_ERR")
((n > 0)) || fail "sched:sched_switch: no samples for a command that sleeps 8 times"
"$PERF" script -i tp.data >tp.txt 2>tp.err || fail "perf script on the tracepoint file failed"
require_no_warning tp.err "perf script on the tracepoint file"
lines=$(grep -c 'sched:sched_switch:' tp.txt)
fields=$(grep -c 'prev_comm=.*prev_pid=.*next_comm=' tp.txt)
((lines == n && fields == n)) || fail "sched:sched_switch: $n samples, $lines printed, $fields with prev_comm/prev_pid/next_comm"

# page-faults -c 1: a sample per fault, in the workload, about as many as perf.
prec_record_ok -e page-faults -c 1 -o pf.data -- "$WORKLOAD" 50
perf_record_ok -e page-faults -c 1 -o pf-perf.data -- "$WORKLOAD" 50
a=$(summary_samples "$PREC_ERR")
b=$(summary_samples "$PERF_ERR")
log "page-faults -c 1: prec $a samples, perf record $b"
((a > 0)) || fail "page-faults -c 1: no samples"
awk -v a="$a" -v b="$b" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 0.2 * b + 20) }' ||
	fail "page-faults -c 1: prec $a samples, perf record $b"

pass
