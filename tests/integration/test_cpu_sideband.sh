#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# -C keeps the side-band of every CPU (perf 6.7 and later): a command that
# starts on CPU 1, where its exec and mmaps happen, and is then moved to
# CPU 0 is sampled on CPU 0 with its symbols, because its MMAP records from
# CPU 1 are in the file. With only CPU 0's side-band (perf 6.1) its samples
# are unnamed. With --all-kernel no event samples user space, and only the
# -C CPUs' side-band is kept, as in perf.
source "${TEST_LIB:-$(dirname "$0")/lib.sh}" || exit 1
need_root "CPU-wide recordings (-C)"

[[ -e /sys/devices/system/cpu/cpu1/online || -e /sys/devices/system/cpu/cpu1 ]] ||
	skip "needs CPU 0 and CPU 1"
grep -q '^1$' /sys/devices/system/cpu/cpu1/online 2>/dev/null ||
	[[ ! -e /sys/devices/system/cpu/cpu1/online ]] || skip "CPU 1 is offline"

# The command: started on CPU 1, moved to CPU 0 once it runs.
"$PREC" -C 0 -e cpu-clock -c 100000 -o moved.data -- \
	taskset -c 1 "$WORKLOAD" 1200 >moved.out 2>moved.err &
rec=$!
track_pid "$rec"
wl=
for _ in $(seq 50); do
	wl=$(pgrep -n -f "^$WORKLOAD 1200") && break
	sleep 0.05
done
[[ -n "$wl" ]] || fail "the workload did not start: $(cat moved.err)"
sleep 0.2
taskset -p -c 0 "$wl" >/dev/null || fail "cannot move $wl to CPU 0"
wait "$rec" || fail "prec -C 0 exited $?: $(head -n 3 moved.err)"

"$PERF" script -i moved.data --show-mmap-events -C 1 >cpu1.txt 2>/dev/null
grep -q "MMAP.*prec_workload" cpu1.txt || fail "no MMAP of the workload from CPU 1 in the file"
"$PERF" report -i moved.data --stdio --sort sym --comm prec_workload 2>/dev/null >report.txt
grep -q 'hot_two_thirds' report.txt ||
	fail "the samples on CPU 0 are not named: $(grep -v '^#' report.txt | head -n 5)"
log "the command's mmaps on CPU 1 name its samples on CPU 0"

# --all-kernel: no user samples, no side-band from the other CPUs.
prec_record_ok -C 0 --all-kernel -e cpu-clock -c 100000 -o kernel.data -- taskset -c 1 true
n=$("$PERF" script -i kernel.data --show-mmap-events -C 1 2>/dev/null | grep -c MMAP)
((n == 0)) || fail "--all-kernel: $n MMAP records from CPU 1, perf keeps none"
pass
