#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# How the drain runs (issue 12): -r/--realtime, --affinity, --aio with
# --mmap-flush, on a system-wide recording and on a forked workload, judged
# by stock perf (report and script read every file, the sample counts agree
# with the summary, the attrs are those perf record makes: these options
# change how data is drained, never the events; perf record 6.1 itself is
# compared without them, since with --affinity=cpu it aborts in malloc here),
# and -r refused with one line as a user without CAP_SYS_NICE.
source "${TEST_LIB:-$(dirname "$0")/lib.sh}" || exit 1

need_root "system-wide recordings (-a), the drain at nice -10, -r as nobody"

# Every sample the summary counts is in the file, as perf script reads it.
check_file()
{
	local data=$1 what=$2 n s
	require_valid "$data"
	n=$(summary_samples "$PREC_ERR")
	s=$("$PERF" script -i "$data" -F ip 2>/dev/null | wc -l)
	((n > 0 && n == s)) || fail "$what: summary says $n samples, perf script reads $s"
}

opts_list=("-r 10" "--affinity=cpu" "--affinity=node" "--aio" "--aio=4 --mmap-flush=16K"
	"--aio=2 -z" "-r 5 --affinity=cpu --aio=3")
perf_record_ok -F 2000 -o p.data -- "$WORKLOAD" 50
b=$(evlist p.data | head -n 1)
i=0
for o in "${opts_list[@]}"; do
	i=$((i + 1))
	# shellcheck disable=SC2086
	prec_record_ok $o -F 2000 -o "w$i.data" -- "$WORKLOAD" 200
	check_file "w$i.data" "prec $o -- workload"
	# shellcheck disable=SC2086
	prec_record_ok $o -a -F 2000 -o "a$i.data" -- "$WORKLOAD" 200
	check_file "a$i.data" "prec $o -a"
	a=$(evlist "w$i.data" | head -n 1)
	for key in sample_type read_format sample_freq; do
		[[ $(evlist_field "$a" $key) == $(evlist_field "$b" $key) ]] ||
			fail "$o: $key is '$(evlist_field "$a" $key)', perf record's '$(evlist_field "$b" $key)'"
	done
	log "$o: $(summary_samples "$PREC_ERR") samples system-wide, perf reads them all"
done

# -r: the drain runs SCHED_FIFO; the command, forked before, does not.
prec_record_ok -r 7 -o rt.data -- sh -c 'chrt -p $PPID; chrt -p $$'
grep -q "SCHED_FIFO" <(sed -n 1p "$PREC_OUT") || fail "-r 7: prec is not SCHED_FIFO: $(cat "$PREC_OUT")"
grep -q "priority: 7" "$PREC_OUT" || fail "-r 7: wrong priority: $(cat "$PREC_OUT")"
grep -q "SCHED_OTHER" <(sed -n 3p "$PREC_OUT") || fail "-r 7: the command inherited it: $(cat "$PREC_OUT")"

# --affinity=cpu: after reading a ring the drain sits on that ring's CPU.
# Two-page rings reach their wake-up mark within the command's busy loop, so
# the drain has read some before taskset looks.
prec_record_ok --affinity=cpu -a -m 8K -o aff.data -- sh -c 'i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done; taskset -p $PPID'
mask=$(sed -n 's/.*current affinity mask: //p' "$PREC_OUT")
[[ $mask =~ ^(1|2|4|8|10|20|40|80)0*$ ]] || fail "--affinity=cpu: the drain's mask is $mask, not one CPU"

# -r as a user who may not: one line naming the fix, status 1..125, no file.
if ((EUID == 0)); then
	command -v setpriv >/dev/null || fail "setpriv not found (install util-linux)"
	chmod 755 "$TMP"
	mkdir -m 777 u
	_run user setpriv --reuid=65534 --regid=65534 --clear-groups "$PREC" -r 10 -o u/rt.data -- "$WORKLOAD" 20
	((LAST_RC >= 1 && LAST_RC <= 125)) || fail "-r as nobody: exit status $LAST_RC"
	(($(grep -c . "$LAST_ERR") == 1)) || fail "-r as nobody: want one line, got: $(cat "$LAST_ERR")"
	grep -q '^prec: cannot drain with SCHED_FIFO priority 10 (-r): Operation not permitted (.*CAP_SYS_NICE.*)$' \
		"$LAST_ERR" || fail "-r as nobody: $(cat "$LAST_ERR")"
	[[ -e u/rt.data ]] && fail "-r as nobody: a file was left behind"
fi

# Without -r the drain runs at nice -10, the command (forked before) at 0;
# a nice prec was started with is kept.
prec_record_ok -o nice.data -- sh -c 'ps -o ni= -p $PPID; ps -o ni= -p $$'
[[ "$(tr -d ' ' <"$PREC_OUT" | head -2 | paste -sd,)" == "-10,0" ]] ||
	fail "drain nice: want -10 for prec and 0 for the command, got: $(cat "$PREC_OUT")"
_run niced nice -n 5 "$PREC" -o nice5.data -- sh -c 'ps -o ni= -p $PPID'
((LAST_RC == 0)) && [[ "$(tr -d ' ' <"$LAST_OUT" | head -1)" == 5 ]] ||
	fail "nice -n 5 prec: the drain's nice became: $(cat "$LAST_OUT" "$LAST_ERR")"

# Rings sized for the rate (-v says so): DWARF at 10 kHz per CPU gets 4 MiB
# rings as root, perf's 512 KiB when the memory may not be locked (nobody)
# and whenever -m is given; slow events keep perf's size.
ring_bytes() { sed -n 's/^mmap size \([0-9]*\)B$/\1/p' "$LAST_ERR"; }
_run dwarf "$PREC" -v -e cpu-clock -c 100000 --call-graph dwarf -o rs.data -- true
# (Unless 1/32 of the memory shared by the CPUs' rings is less than that.)
share=$(awk -v n="$(getconf _NPROCESSORS_ONLN)" '/^MemTotal:/ { print int($2 * 1024 / 32 / n) }' /proc/meminfo)
if ((share >= 4 * 1024 * 1024)); then
	[[ "$(ring_bytes)" == $((4 * 1024 * 1024 + $(getconf PAGESIZE))) ]] || fail "dwarf 10 kHz rings: $(grep -i 'mmap size\|rings of' "$LAST_ERR")"
	grep -q "^rings of 4096 KiB: the events' expected [0-9]* KB/s per ring" "$LAST_ERR" || fail "no -v line for the ring size: $(cat "$LAST_ERR")"
fi
require_valid rs.data
_run dwarfm "$PREC" -v -m 1M -e cpu-clock -c 100000 --call-graph dwarf -o rs.data -- true
[[ "$(ring_bytes)" == $((1024 * 1024 + $(getconf PAGESIZE))) ]] || fail "-m 1M: $(grep 'mmap size' "$LAST_ERR")"
_run slow "$PREC" -v -o rs.data -- true
[[ "$(ring_bytes)" == $((512 * 1024 + $(getconf PAGESIZE))) ]] || fail "-F 4000: $(grep 'mmap size' "$LAST_ERR")"
if ((EUID == 0)); then
	_run udwarf setpriv --reuid=65534 --regid=65534 --clear-groups "$PREC" -v -e cpu-clock:u -c 100000 \
		--call-graph dwarf -o u/rs.data -- true
	((LAST_RC == 0)) || fail "dwarf as nobody: status $LAST_RC: $(cat "$LAST_ERR")"
	[[ "$(ring_bytes)" == $((512 * 1024 + $(getconf PAGESIZE))) ]] || fail "dwarf as nobody: $(grep 'mmap size' "$LAST_ERR")"
	grep -q "^drain at nice 0: Permission denied" "$LAST_ERR" || fail "nobody's drain nice: $(grep nice "$LAST_ERR")"
fi

# --aio writes at file offsets: not into a pipe.
_run pipe bash -c 'set -o pipefail; "$0" --aio -o - -- true | cat >/dev/null' "$PREC"
((LAST_RC >= 1 && LAST_RC <= 125)) || fail "--aio -o -: exit status $LAST_RC"
grep -q '^prec: --aio .*pipe' "$LAST_ERR" || fail "--aio -o -: $(cat "$LAST_ERR")"

pass
