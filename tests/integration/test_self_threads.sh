#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# prec's own threads are prec's, never the user's workload:
#  - `-u root` lists root's processes for its per-thread events, and prec
#    runs as root: prec's own process is left out, so no sample (of its
#    drain, its side-band threads, or threads it starts later that the
#    events' inherit would follow) carries prec's pid;
#  - -p/-t naming prec itself is refused in one line, no file left;
#  - system-wide (-a), samples of prec are legitimate, as in perf, but its
#    threads are named (prec-drain-N, prec-synth...): perf report --sort
#    comm and perf script show those names, never a bare :TID for prec's pid.
# A busy load beside the recordings gives prec's drain real work.
source "${TEST_LIB:-$(dirname "$0")/lib.sh}" || exit 1

need_root "-u root and -a record other processes"

BUSY=$WORKLOAD_DIR/prec_busy
"$BUSY" 20 >/dev/null 2>&1 &
busy=$!
track_pid "$busy"

# run_self TAG ARGS...: prec ARGS with its pid in $TMP/TAG.pid (exec keeps it).
run_self()
{
	local tag=$1
	shift
	# shellcheck disable=SC2016 # $$ and $@ are the inner shell's
	_run "$tag" bash -c 'echo $$ >"$0"; exec "$@"' "$TMP/$tag.pid" "$PREC" "$@"
	PREC_RC=$LAST_RC
	SELF=$(cat "$TMP/$tag.pid")
}

# ---- -u root: nothing of prec's own process ----
run_self u -u root -F 2000 -o "$TMP/u.data" -- sleep 1
((PREC_RC == 0)) || fail "prec -u root exited $PREC_RC"
run_perf script -i "$TMP/u.data" -F pid,tid,comm
((PERF_RC == 0)) || fail "perf script -i u.data exited $PERF_RC"
(($(wc -l <"$PERF_OUT") >= 10)) ||
	fail "-u root recorded almost nothing ($(wc -l <"$PERF_OUT") samples): the test proves nothing"
grep -Eq " $busy/" "$PERF_OUT" || fail "-u root has no sample of root's busy process $busy"
if grep -Eq " $SELF/" "$PERF_OUT"; then
	grep -E " $SELF/" "$PERF_OUT" | sort | uniq -c | sort -rn | head -n 5 >&2
	fail "-u root recorded prec's own process $SELF"
fi

# ---- -p/-t naming prec itself: refused ----
for opt in -p -t; do
	# shellcheck disable=SC2016 # $$ is the inner shell's, then prec's
	_run self bash -c 'exec "$1" '"$opt"' $$ -o "$2" -- true' _ "$PREC" "$TMP/self.data"
	((LAST_RC >= 1 && LAST_RC <= 125)) || fail "prec $opt <its own pid> exited $LAST_RC"
	grep -q 'this prec' "$LAST_ERR" || fail "prec $opt <its own pid>: no line saying why"
	(($(wc -l <"$LAST_ERR") == 1)) || fail "prec $opt <its own pid>: more than one line"
	[[ -e $TMP/self.data ]] && fail "prec $opt <its own pid> left a file"
done

# ---- -a --threads: prec's threads under their names ----
run_self a -a --threads -F 2000 -o "$TMP/a.data" -- sleep 0.5
((PREC_RC == 0)) || fail "prec -a --threads exited $PREC_RC"
run_perf script -i "$TMP/a.data" --show-task-events -F comm,pid,tid,event
((PERF_RC == 0)) || fail "perf script --show-task-events exited $PERF_RC"
# Each stream's thread named itself: one COMM record per drain thread.
# Stream 0 is prec's main thread (perf's thread_data[0]); streams 1..N-1,
# one per CPU here, have threads of their own.
if (($(getconf _NPROCESSORS_ONLN) > 1)); then
	grep -Eq "PERF_RECORD_COMM: prec-drain-1:$SELF/[0-9]+" "$PERF_OUT" ||
		fail "no COMM record names prec's drain thread prec-drain-1"
fi
grep -Eq "PERF_RECORD_COMM: prec-drain-0:" "$PERF_OUT" &&
	fail "a thread is named prec-drain-0: stream 0 runs on prec's main thread"
grep -Eq "PERF_RECORD_COMM: prec-synth:$SELF/[0-9]+" "$PERF_OUT" ||
	fail "no COMM record names prec's side-band thread prec-synth"
# Every thread prec forked got a name of prec's.
tids=$(grep -oE "PERF_RECORD_FORK\($SELF:[0-9]+\):\($SELF:" "$PERF_OUT" |
	sed -E 's/.*FORK\([0-9]+:([0-9]+)\).*/\1/' | sort -u)
[[ -n "$tids" ]] || fail "no FORK record of prec's threads in the -a --threads recording"
for tid in $tids; do
	grep -Eq "PERF_RECORD_COMM: prec-[a-z-]+[0-9]*:$SELF/$tid\$" "$PERF_OUT" ||
		fail "prec's thread $tid was never named"
done
# Samples of prec's pid carry a name of prec's, never a bare :TID. (The
# kernel gives a thread sampled while it is being reaped tid -1, which perf
# shows as ":-1": prec's side-band threads end during the recording.)
run_perf script -i "$TMP/a.data" -F comm,pid,tid
awk -v s="$SELF" '$2 ~ "^" s "/[0-9]+$" && $1 !~ /^prec(-[a-z0-9-]+)?$/ { print; f = 1 } END { exit f }' \
	"$PERF_OUT" || fail "samples of prec ($SELF) without a name of prec's"
run_perf report -i "$TMP/a.data" --stdio --sort comm
((PERF_RC == 0)) || fail "perf report --sort comm exited $PERF_RC"
for tid in $SELF $tids; do
	grep -Eq "^ +[0-9.]+% +:$tid\b" "$PERF_OUT" && fail "perf report shows prec's thread as :$tid"
done

kill "$busy" 2>/dev/null
wait "$busy" 2>/dev/null
pass
