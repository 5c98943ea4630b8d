#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# --off-cpu and --off-cpu-thresh, judged by stock perf 6.1's reader:
#  - the blocked time of each way a program waits (nanosleep, poll on a
#    pipe, a mutex, waitpid on a child; prec_offcpu) within 15 % of what it
#    waited, in the function that blocked, summed at the end and, with a
#    threshold under it, as direct samples with their real times;
#  - nothing lost in silence: as many blocks, children and stacks as the
#    workload made (prec_blocks), or the loss said; -D, -p of a thread,
#    --off-cpu-thresh 0 and --max-size as perf;
#  - the command's children, -p attach, -a; pipe mode, -z, --threads and
#    --switch-output carry the direct samples;
#  - perf 6.1's own record_offcpu.sh passes with prec as `perf record`;
#  - where BPF cannot load (as nobody; the kernel's BTF hidden) one line
#    naming the fix, an exit status in 1..125 and no file.
source "${TEST_LIB:-$(dirname "$0")/lib.sh}" || exit 1
need_root "loading BPF programs needs CAP_BPF and CAP_PERFMON"

OFFCPU=$WORKLOAD_DIR/prec_offcpu
BLOCKS=$WORKLOAD_DIR/prec_blocks
[[ -x $OFFCPU && -x $BLOCKS ]] || fail "workload $OFFCPU or $BLOCKS not built"

# A prec built without its BPF programs (no clang, bpftool or libbpf) or a
# kernel without BTF cannot do any of this: skip, saying which.
run_prec --off-cpu -e dummy -o "$TMP/probe.data" -- true
if ((PREC_RC != 0)); then
	grep -q 'built with its BPF programs\|BTF type information' "$PREC_ERR" &&
		skip "$(head -n 1 "$PREC_ERR")"
	fail "--off-cpu -- true exited $PREC_RC: $(head -n 3 "$PREC_ERR")"
fi

# by_comm DATA: "comm milliseconds" of off-CPU time per command name.
by_comm()
{
	"$PERF" script -i "$1" -F comm,period 2>/dev/null |
		awk 'NF == 2 && $2 ~ /^[0-9]+$/ { s[$1] += $2 } END { for (c in s) printf "%s %.1f\n", c, s[c] / 1e6 }'
}

# expect_ms DATA COMM MS: COMM blocked MS milliseconds, within 15 %. Off-CPU
# time runs until the task is back on a CPU, so the wait for one after the
# wake-up counts too: on a busy machine, at random, tens of milliseconds
# more; and a thread that waits for another's lock, pipe or child waits
# less when the load made it start late while the other's clock ran. Both
# are retried once (fail_or_retry); a sleep shorter than itself is never
# the load.
expect_ms()
{
	local got
	got=$(by_comm "$1" | awk -v c="$2" '$1 == c { print $2 }')
	[[ -n "$got" ]] || fail "$1: no off-CPU time for $2"
	if ! awk -v g="$got" -v w="$3" 'BEGIN { exit !(g >= w * 0.85) }'; then
		[[ $2 == oc-sleep ]] && fail "$1: $2 blocked ${got} ms, expected $3 ms +-15 %"
		fail_or_retry "$1: $2 blocked ${got} ms, expected $3 ms +-15 % (reached its wait late?)"
	fi
	awk -v g="$got" -v w="$3" 'BEGIN { exit !(g <= w * 1.15) }' ||
		fail_or_retry "$1: $2 blocked ${got} ms, expected $3 ms +-15 % (late back on a CPU?)"
	log "$2: ${got} ms (expected $3)"
}

# expect_sym DATA COMM REGEX: COMM's off-CPU time is in a function matching REGEX.
expect_sym()
{
	local sym
	sym=$("$PERF" report -i "$1" -s comm,sym --no-children -g none -q --stdio 2>/dev/null |
		awk -v c="$2" '$2 == c { print $NF; exit }')
	[[ "$sym" =~ $3 ]] || fail "$1: $2 blocked in '$sym', expected /$3/"
}

# count_comm DATA COMM: COMM's off-CPU samples.
count_comm()
{
	"$PERF" script -i "$1" -F comm 2>/dev/null | awk -v c="$2" '$1 == c { n++ } END { print n + 0 }'
}

# count_blocks DATA COMM REGEX: COMM's direct samples (real times, not the
# summed ones at the end) with a frame matching REGEX: the blocks a workload
# made on purpose, not a page fault's wait that a loaded disk stretches
# past the threshold.
count_blocks()
{
	"$PERF" script -i "$1" -F comm,time,ip,sym 2>/dev/null | awk -v c="$2" -v re="$3" '
		/^[^ \t]/ || /^ +[^ \t]+ +[0-9]+\.[0-9]+:/ {
			t = $2; sub(":", "", t)
			take = $1 == c && t + 0 < 18446744069; seen = 0; next
		}
		take && !seen && $0 ~ re { n++; seen = 1 }
		END { print n + 0 }'
}

# lost WHAT: the count in the summary's line about WHAT (0 without one).
lost()
{
	grep -o "[0-9]* $1" "$PREC_ERR" | awk '{ s += $1 } END { print s + 0 }'
}

check_waits()
{
	local data=$1 ms=$2
	require_valid "$data"
	"$PERF" evlist -i "$data" 2>/dev/null | has_match -x 'offcpu-time' || fail "$data: no offcpu-time event"
	for c in oc-sleep oc-pipe oc-mutex oc-child oc-kid oc-holder oc-writer; do
		expect_ms "$data" "$c" "$ms"
	done
	expect_sym "$data" oc-sleep 'nanosleep'
	expect_sym "$data" oc-pipe 'poll'
	expect_sym "$data" oc-mutex 'lock_wait|futex'
	expect_sym "$data" oc-child 'wait'
}

# 1. Summed (each 400 ms block is under the default 500 ms threshold).
prec_record_ok --off-cpu -e dummy -o "$TMP/sum.data" -- "$OFFCPU" 400
check_waits "$TMP/sum.data" 400
grep -q 'off-CPU samples: [0-9]* summed, 0 direct' "$PREC_ERR" ||
	fail "summary: $(grep off-CPU "$PREC_ERR")"
# Written last, with perf 6.1's times after every other sample.
t=$("$PERF" script -i "$TMP/sum.data" -F time 2>/dev/null | head -n 1 | tr -d ' :')
awk -v t="$t" 'BEGIN { exit !(t >= 18446744069) }' || fail "summed samples at time $t, not last"

# 2. Direct: with a 100 ms threshold every block is a sample of its own,
# when it ends, with its real time.
prec_record_ok --off-cpu --off-cpu-thresh 100 -e dummy -o "$TMP/direct.data" -- "$OFFCPU" 300
check_waits "$TMP/direct.data" 300
n=$("$PERF" script -i "$TMP/direct.data" -F comm,time 2>/dev/null |
	awk '$1 ~ /^oc-/ { sub(":", "", $2); if ($2 + 0 < 18446744069) n++ } END { print n + 0 }')
((n >= 7)) || fail "direct samples with real times: $n, expected one per oc- thread (7)"
grep -q 'off-CPU samples: .*, [1-9][0-9]* direct' "$PREC_ERR" || fail "summary: $(grep off-CPU "$PREC_ERR")"

# -D: off-CPU time counts from the end of the delay, as perf 6.1's
# record_start hook (issue 33 row 7): of 8 blocks of 100 ms, those that begin
# after 500 ms (about 3; up to 5 when the command starts late on a busy
# machine), never all 8.
for delay in 500 300; do
	prec_record_ok -D "$delay" --off-cpu --off-cpu-thresh 1 -e dummy -o "$TMP/delay.data" -- \
		"$BLOCKS" sleeps 8 100
	n=$(count_comm "$TMP/delay.data" ob-sleep)
	max=$(((800 - delay) / 100 + 2))
	((n >= 1 && n <= max)) || fail "-D $delay: $n of 8 blocks counted, expected 1..$max"
done

# Newer perf's record_offcpu.sh, its direct case: its workload (perf test -w
# offcpu) sleeps 1 s past the delay, then 2 s to be caught as one sample.
prec_record_ok -e dummy -D 500 --off-cpu --off-cpu-thresh 1999 -o "$TMP/upstream.data" -- \
	sh -c 'sleep 1; sleep 2'
"$PERF" script -i "$TMP/upstream.data" -F time,period 2>/dev/null | sed 's/[.:]//g' |
	awk '{ if ($1 < 18446744069414584 && $2 > 1999999999) ok = 1 } END { exit !ok }' ||
	fail "newer perf's direct case: no sample of 2 s before the summed ones"

# 3. The other ways out: pipe mode, -z, --threads, --switch-output.
run_prec --off-cpu --off-cpu-thresh 100 -e dummy -o - -- "$OFFCPU" 200
((PREC_RC == 0)) || fail "pipe mode exited $PREC_RC"
cp "$PREC_OUT" "$TMP/pipe.data"
expect_ms "$TMP/pipe.data" oc-sleep 200
prec_record_ok --off-cpu --off-cpu-thresh 100 -z -e dummy -o "$TMP/z.data" -- "$OFFCPU" 200
expect_ms "$TMP/z.data" oc-pipe 200
prec_record_ok --off-cpu --off-cpu-thresh 100 --threads -e dummy -o "$TMP/dir.data" -- "$OFFCPU" 200
expect_ms "$TMP/dir.data" oc-mutex 200
prec_record_ok --off-cpu --off-cpu-thresh 100 --switch-output=1s -e dummy -o "$TMP/sw.data" -- "$OFFCPU" 200
last=$(ls "$TMP"/sw.data.* | tail -n 1)
expect_ms "$last" oc-child 200

# 4. The children of the command (a shell that forks the workload) and -a.
prec_record_ok --off-cpu -e dummy -o "$TMP/kids.data" -- sh -c "$OFFCPU 300; true"
expect_ms "$TMP/kids.data" oc-kid 300
prec_record_ok --off-cpu -a -e dummy -o "$TMP/all.data" -- "$OFFCPU" 300
expect_ms "$TMP/all.data" oc-sleep 300

# 5. -p: attach to a shell that runs the workload again and again; its
# children count (they are forked after the attach), the command's not.
sh -c "while :; do $OFFCPU 150 >/dev/null; done" &
victim=$!
track_pid "$victim"
sleep 0.2
prec_record_ok --off-cpu -e dummy -p "$victim" -o "$TMP/p.data" -- sleep 1
kill "$victim"
by_comm "$TMP/p.data" >"$TMP/p.comms"
grep -q '^oc-sleep ' "$TMP/p.comms" || fail "-p: no off-CPU time for the attached process: $(cat "$TMP/p.comms")"
grep -q '^sleep ' "$TMP/p.comms" && fail "-p: the command's own time counted: $(cat "$TMP/p.comms")"

# 6. perf 6.1's own test, prec standing in for perf record.
perf_test=/usr/lib/perf-core/tests/shell/record_offcpu.sh
if [[ -f $perf_test ]]; then
	mkdir -p "$TMP/bin"
	printf '#!/bin/bash\nif [ "$1" = record ]; then shift; exec %q record "$@"; fi\nexec %q "$@"\n' \
		"$PREC" "$(command -v "$PERF")" >"$TMP/bin/perf"
	chmod +x "$TMP/bin/perf"
	(cd "$TMP" && PATH="$TMP/bin:$PATH" timeout 300 bash "$perf_test") >"$TMP/perf_test.log" 2>&1 ||
		fail "perf's record_offcpu.sh: $(tail -n 3 "$TMP/perf_test.log")"
	grep -q 'Child task off-cpu test \[Success\]' "$TMP/perf_test.log" ||
		fail "perf's record_offcpu.sh did not run its cases: $(cat "$TMP/perf_test.log")"
fi

# 8. Nothing lost in silence (issue 33). Counts, not durations: a busy
# machine changes how long blocks take, never how many there are.
# Each block of a thread sleeping N times is a direct sample with
# --off-cpu-thresh 1, as perf 6.1's sched_switch tracepoint sees N; a lost
# one is said. (Linux 6.18 misses a switch in now and then.) A sleep whose
# timer fires while the task is still preempted, before it leaves the CPU
# (two CPU hogs make that happen to a 1 ms sleep), is no block: up to 1 %
# may be missing for that, as for the stacks below.
for run in "600 5" "300 15"; do
	set -- $run
	prec_record_ok --off-cpu --off-cpu-thresh 1 -e dummy -o "$TMP/blocks.data" -- "$BLOCKS" sleeps "$1" "$2"
	n=$(count_blocks "$TMP/blocks.data" ob-sleep nanosleep)
	l=$(lost 'off-CPU blocks lost')
	((n + l <= $1 && n + l >= $1 - $1 / 100 && n >= $1 * 9 / 10)) ||
		fail "sleeps $run: $n direct samples, $l said lost"
done
# --off-cpu-thresh 0: every block a direct sample (real times, none summed).
prec_record_ok --off-cpu --off-cpu-thresh 0 -e dummy -o "$TMP/t0.data" -- "$BLOCKS" sleeps 50 2
n=$(count_blocks "$TMP/t0.data" ob-sleep nanosleep)
((n == 50)) || fail "--off-cpu-thresh 0: $n direct samples of 50 blocks"
grep -q 'off-CPU samples: 0 summed' "$PREC_ERR" || fail "--off-cpu-thresh 0: $(grep off-CPU "$PREC_ERR")"
# Every child of a fork-heavy command, each with its block.
for kids in 2000 500; do
	prec_record_ok --off-cpu -e dummy -o "$TMP/kids.data" -- "$BLOCKS" kids "$kids" 1
	# The children by pid, not by the name perf gives them: every pid but
	# the parent's (before or after its prctl).
	"$PERF" script -i "$TMP/kids.data" -F comm,pid 2>/dev/null >"$TMP/kids.txt"
	n=$(awk '$1 == "ob-parent" || $1 == "prec_blocks" { p[$2] = 1; next }
		{ k[$2] = 1 } END { for (x in k) if (!(x in p)) n++; print n + 0 }' "$TMP/kids.txt")
	l=$(($(lost 'off-CPU blocks lost') + $(lost 'forked processes not followed')))
	((n + l >= kids - kids / 100 && n >= kids * 9 / 10)) ||
		fail "kids $kids: $n children's blocks, $l said lost; by name: $(awk '{ print $1 }' "$TMP/kids.txt" | sort | uniq -c | sort -rn | head -n 5 | tr '\n' ' ')"
done
# Distinct stacks: each a summed sample of its own, but for those whose
# hash bucket another took (said; merged into one chainless sample). A
# 1 us sleep whose timer fires before the task leaves the CPU is no block:
# up to 1 % may be missing for that.
for stacks in 3000 20000; do
	prec_record_ok --off-cpu -e dummy -o "$TMP/stacks.data" -- "$BLOCKS" stacks "$stacks"
	n=$(count_comm "$TMP/stacks.data" ob-stack)
	l=$(lost 'off-CPU blocks kept without their callchain')
	((n + l >= stacks - stacks / 100 && l <= stacks / 10)) || fail "stacks $stacks: $n samples, $l said chainless"
done
# -p of a thread that is not the leader: its process, as perf's thread map.
"$BLOCKS" thread 1000 3 >/dev/null &
victim=$!
track_pid "$victim"
sleep 0.3
tid=$(grep -l '^ob-worker$' /proc/"$victim"/task/*/comm | head -n 1 | cut -d/ -f5)
[[ -n $tid && $tid != "$victim" ]] || fail "no worker thread in $victim"
prec_record_ok --off-cpu --off-cpu-thresh 1 -e dummy -p "$tid" -o "$TMP/tid.data" -- sleep 0.5
kill "$victim"
n=$(count_comm "$TMP/tid.data" ob-worker)
((n >= 10)) || fail "-p $tid (a thread): $n off-CPU samples of its process"
# --max-size: the summed samples stop at the limit, and the rest are said.
for max in 8 16; do
	prec_record_ok --off-cpu --max-size "${max}K" -e dummy -o "$TMP/max.data" -- "$BLOCKS" stacks 1000
	# The limit is the data's: the header and the features (the BPF
	# programs' BTF among them, whose size depends on what else is loaded)
	# come on top, as perf's.
	size=$(header_field "$(header "$TMP/max.data")" 'data size')
	[[ -n $size ]] || fail "--max-size ${max}K: no data size in the header"
	((size <= max * 1024)) || fail "--max-size ${max}K: $size bytes of data"
	(($(lost 'summed off-CPU samples not written') > 0)) || fail "--max-size ${max}K: cut not said"
	"$PERF" script -i "$TMP/max.data" >/dev/null 2>&1 || fail "--max-size ${max}K: perf cannot read it"
done

# 9. Where BPF cannot load: one line naming the fix, 1..125, no file.
refused()
{
	local what=$1 pat=$2 out=$3
	((LAST_RC >= 1 && LAST_RC <= 125)) || fail "$what: exit $LAST_RC, expected 1..125"
	(($(wc -l <"$LAST_ERR") == 1)) || fail "$what: not one line: $(cat "$LAST_ERR")"
	grep -q "$pat" "$LAST_ERR" || fail "$what: '$(cat "$LAST_ERR")' does not name $pat"
	[[ ! -e $out ]] || fail "$what: left $out behind"
}
if command -v setpriv >/dev/null; then
	chmod 755 "$TMP"
	mkdir -m 777 "$TMP/u"
	_run nobody setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$PREC" --off-cpu -o "$TMP/u/x.data" -- true
	refused "as nobody" 'CAP_BPF' "$TMP/u/x.data"
fi
if unshare -m --propagation unchanged true 2>/dev/null; then
	LAST_ERR=$TMP/nobtf.err
	in_private_mounts sh -c 'mount -t tmpfs none /sys/kernel/btf && exec "$@"' sh \
		timeout 60 "$PREC" --off-cpu -o "$TMP/nobtf.data" -- true 2>"$LAST_ERR"
	LAST_RC=$?
	refused "without BTF" 'CONFIG_DEBUG_INFO_BTF' "$TMP/nobtf.data"
fi
pass
