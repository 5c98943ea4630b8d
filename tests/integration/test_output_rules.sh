#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Where the output goes, against perf record 6.1 and its failures:
# - a perf.data directory (--threads, --kcore) moves to perf.data.old when
#   the next recording is a file, and a file when it is a directory, as
#   perf's check_backup does; a user's own directory is refused, and kept;
# - two prec given the same -o: the second is refused in one line naming
#   the first's pid, and the first's recording is never touched or moved;
# - the file size limit (ulimit -f) and a setup that fails leave no file
#   or directory that passes for an empty recording (what holds samples is
#   kept, as from a full disk);
# - -o on proc or sysfs, and a deleted current directory, are named as such.
source "${TEST_LIB:-$(dirname "$0")/lib.sh}" || exit 1

cd "$TMP" || exit 1

# 1. A directory recording, then a file: the directory becomes .old.
prec_record_ok -q --threads -o rec.data -- "$WORKLOAD" 50
[[ -d rec.data ]] || fail "--threads made no directory"
prec_record_ok -q -o rec.data -- "$WORKLOAD" 50
[[ -f rec.data && -d rec.data.old ]] || fail "a file recording over a directory one: rec.data.old is not the directory"
require_valid rec.data
require_valid rec.data.old
# A file, then a directory: the file becomes .old, the old directory goes.
prec_record_ok -q --threads -o rec.data -- "$WORKLOAD" 50
[[ -d rec.data && -f rec.data.old ]] || fail "a directory recording over a file one: rec.data.old is not the file"
require_valid rec.data.old
# perf record does the same with prec's directory.
perf_record_ok -q -o rec.data -- "$WORKLOAD" 50
[[ -f rec.data && -d rec.data.old ]] || fail "perf record did not move prec's directory to .old"

# A user's own directory: refused, and the hint does not point inside it.
mkdir mine && echo keep >mine/notes
for t in "" --threads; do
	run_prec $t -o mine -- true
	((PREC_RC >= 1 && PREC_RC <= 125)) || fail "-o mine $t (a user's directory): exit $PREC_RC"
	grep -q "holds no recording" "$PREC_ERR" || fail "-o mine $t: $(cat "$PREC_ERR")"
	[[ -f mine/notes && ! -e mine.old ]] || fail "-o mine $t: the user's directory was moved or changed"
done

# 2. Two writers: while one records, another on the same -o is refused.
for t in "" --threads; do
	rm -rf two.data two.data.old
	"$PREC" -q $t -o two.data -- sleep 2 &
	first=$!
	track_pid "$first"
	for _ in $(seq 50); do [[ -e two.data ]] && break; sleep 0.1; done
	sleep 0.3
	for u in "" --threads; do
		run_prec $u -o two.data -- true
		((PREC_RC >= 1 && PREC_RC <= 125)) || fail "a second writer ($t, then $u): exit $PREC_RC"
		[[ $(wc -l <"$PREC_ERR") == 1 ]] || fail "a second writer: not one line: $(cat "$PREC_ERR")"
		grep -q "process $first is recording into it" "$PREC_ERR" ||
			fail "a second writer: the first's pid is not named: $(cat "$PREC_ERR")"
		[[ ! -e two.data.old ]] || fail "a second writer moved the first's recording to .old"
	done
	wait "$first" || fail "the first writer ($t) failed once a second was refused"
	require_valid two.data
done

# Four started at once on one -o: one records, three are refused, and the
# file left reads.
rm -rf four.data four.data.old
pids=()
for i in 1 2 3 4; do
	"$PREC" -q -o four.data -- sleep 1 2>"four.$i.err" &
	pids+=($!)
done
ok=0
for p in "${pids[@]}"; do wait "$p" && ok=$((ok + 1)); done
((ok == 1)) || fail "four writers on one -o: $ok recorded ($(cat four.*.err | tr '\n' ' '))"
[[ ! -e four.data.old ]] || fail "four writers on one -o: one moved another's recording"
require_valid four.data

# 3. The file size limit: one line with its fix, nothing left.
for t in "" --threads; do
	rm -rf big.data
	(
		ulimit -f 1
		exec "$PREC" $t -o big.data -- "$WORKLOAD" 100
	) 2>big.err
	rc=$?
	((rc >= 1 && rc <= 125)) || fail "ulimit -f 1 $t: exit $rc"
	grep -q "ulimit -f unlimited" big.err || fail "ulimit -f 1 $t: no fix named: $(cat big.err)"
	# What the limit let in is kept, as from a full disk, only when it
	# holds samples: never a file that reads as an empty recording.
	if [[ -e big.data ]]; then
		n=$("$PERF" report --stats -i big.data 2>/dev/null | awk '/SAMPLE events:/ { print $3; exit }')
		((${n:-0} > 0)) || fail "ulimit -f 1 $t: left big.data with no samples, an empty recording to perf"
	fi
done

# 4. Places that hold no recordings, named as such.
run_prec -o /proc/version -- true
grep -q "on proc, a filesystem of the kernel's" "$PREC_ERR" || fail "-o /proc/version: $(cat "$PREC_ERR")"
run_prec -o /sys/kernel/prec-test.data -- true
grep -q "on sysfs" "$PREC_ERR" || fail "-o on sysfs: $(cat "$PREC_ERR")"
mkdir gone && cd gone && rmdir "$TMP/gone" || fail "cannot make a deleted directory"
run_prec -- true
grep -q "the current directory was deleted" "$PREC_ERR" || fail "a deleted current directory: $(cat "$PREC_ERR")"
((PREC_RC >= 1 && PREC_RC <= 125)) || fail "a deleted current directory: exit $PREC_RC"
cd "$TMP" || exit 1
pass
