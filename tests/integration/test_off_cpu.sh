#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# --off-cpu and --off-cpu-thresh, judged by stock perf 6.1's reader:
#  - the blocked time of each way a program waits (nanosleep, poll on a
#    pipe, a mutex, waitpid on a child; prec_offcpu) within 15 % of what it
#    waited, in the function that blocked, summed at the end and, with a
#    threshold under it, as direct samples with their real times;
#  - the command's children, -p attach, -a; pipe mode, -z, --threads and
#    --switch-output carry the direct samples;
#  - perf 6.1's own record_offcpu.sh passes with prec as `perf record`;
#  - where BPF cannot load (as nobody; the kernel's BTF hidden) one line
#    naming the fix, an exit status in 1..125 and no file.
source "${TEST_LIB:-$(dirname "$0")/lib.sh}" || exit 1
need_root "loading BPF programs needs CAP_BPF and CAP_PERFMON"

OFFCPU=$WORKLOAD_DIR/prec_offcpu
[[ -x $OFFCPU ]] || fail "workload $OFFCPU not built"

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

# expect_ms DATA COMM MS: COMM blocked MS milliseconds, within 15 %.
expect_ms()
{
	local got
	got=$(by_comm "$1" | awk -v c="$2" '$1 == c { print $2 }')
	[[ -n "$got" ]] || fail "$1: no off-CPU time for $2"
	awk -v g="$got" -v w="$3" 'BEGIN { exit !(g >= w * 0.85 && g <= w * 1.15) }' ||
		fail "$1: $2 blocked ${got} ms, expected $3 ms +-15 %"
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

check_waits()
{
	local data=$1 ms=$2
	require_valid "$data"
	"$PERF" evlist -i "$data" 2>/dev/null | grep -qx 'offcpu-time' || fail "$data: no offcpu-time event"
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

# -D: off-CPU time counts from the start, as perf's (newer perf's own test
# records its direct sample so): blocks that began during the delay count.
prec_record_ok -D 200 --off-cpu -e dummy -o "$TMP/delay.data" -- "$OFFCPU" 600
n=$("$PERF" script -i "$TMP/delay.data" -F comm,time,period 2>/dev/null |
	awk '$1 == "oc-sleep" { sub(":", "", $2); if ($2 + 0 < 18446744069 && $3 > 550000000) n++ } END { print n + 0 }')
((n == 1)) || fail "-D 200: oc-sleep's 600 ms block is not a direct sample ($n)"

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

# 7. Where BPF cannot load: one line naming the fix, 1..125, no file.
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
