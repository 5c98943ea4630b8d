#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Where the output goes, against perf record 6.1 and its failures:
# - a perf.data directory (--threads, --kcore) moves to perf.data.old when
#   the next recording is a file, and a file when it is a directory, as
#   perf's check_backup does; a user's own directory is refused, and kept;
# - two prec given the same -o: the second is refused in one line naming
#   the first's pid, and the first's recording is never touched or moved,
#   also while --switch-output renames it (perf 6.1 lets both write);
# - another program's flock on the output's directory (`flock DIR cmd`), or
#   a --threads recording writing that directory, costs no wait (perf
#   records at once; prec waited 2 s without a word, issue 33 row 12);
# - the file size limit (ulimit -f) and a setup that fails leave no file
#   or directory that passes for an empty recording (what holds samples is
#   kept, as from a full disk);
# - -o on proc, sysfs and the other kernel filesystems mounted, and a
#   deleted current directory, are named as such.
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

# perf record 6.1 moves any directory to .old, a user's own too (the
# difference DIAGNOSTICS states).
mkdir theirs && echo keep >theirs/notes
perf_record_ok -q -o theirs -- true
[[ -f theirs.old/notes && -f theirs ]] || fail "perf record no longer moves a user's directory to .old: update the manual"

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

# Four started at once over an earlier recording, files and directories,
# three rounds: one records, three are refused in one line each, only the
# earlier recording becomes .old, and every file left reads.
for round in 1 2 3; do
	rm -rf four.data four.data.old four.*.err
	prec_record_ok -q -o four.data -- true
	ino=$(stat -c %i four.data)
	pids=()
	for i in 1 2 3 4; do
		t=""
		((i % 2)) || t=--threads
		"$PREC" -q $t -o four.data -- sleep 1 2>"four.$i.err" &
		pids+=($!)
	done
	ok=0
	for p in "${pids[@]}"; do wait "$p" && ok=$((ok + 1)); done
	((ok == 1)) || fail "four writers on one -o (round $round): $ok recorded ($(cat four.*.err | tr '\n' ' '))"
	[[ $(stat -c %i four.data.old) == "$ino" ]] ||
		fail "four writers on one -o (round $round): four.data.old is not the earlier recording"
	for i in 1 2 3 4; do
		[[ -s four.$i.err ]] || continue
		if [[ $(wc -l <"four.$i.err") != 1 ]] ||
			! grep -q "process [0-9]* is recording into it.*choose another path with -o" "four.$i.err"; then
			fail "four writers (round $round): a refusal is not one line naming the pid: $(cat "four.$i.err")"
		fi
	done
	require_valid four.data
	require_valid four.data.old
done

# --switch-output: while the first prec's file rotates every 50 ms, a second
# on the same -o is refused at every moment: it never finds the name free
# between a rotated file and the next, nor has its file renamed.
rm -rf sw.data* sw.done
"$PREC" -q --switch-output -o sw.data -- sh -c 'sleep 3; touch sw.done' 2>sw.err &
first=$!
track_pid "$first"
for _ in $(seq 50); do [[ -e sw.data ]] && break; sleep 0.1; done
(while kill -USR2 "$first" 2>/dev/null; do sleep 0.05; done) &
track_pid $!
tries=0
while [[ ! -e sw.done ]]; do
	run_prec -q -o sw.data -- true
	[[ -e sw.done ]] && break # the first may be ending: the name is free then
	((PREC_RC >= 1 && PREC_RC <= 125)) ||
		fail "a second prec recorded into sw.data while the first rotated it (exit $PREC_RC)"
	tries=$((tries + 1))
done
wait "$first" || fail "the rotating prec failed: $(cat sw.err)"
((tries >= 5)) || fail "only $tries tries while the first prec rotated"
[[ ! -e sw.data.old ]] || fail "a second prec moved a rotating prec's file to .old"
n=0
for f in sw.data.*; do
	require_valid --allow-empty "$f"
	n=$((n + 1))
done
((n >= 5)) || fail "--switch-output with SIGUSR2 every 50 ms made $n files"

# A lock on the output's directory held by someone else: prec records at
# once, as perf does (prec used to wait 2 s for it, without a word). Then
# -o inside the directory a --threads prec is recording, which that prec
# holds locked (flock) until it ends.
mkdir -p held
flock held sleep 5 &
holder=$!
track_pid "$holder"
for _ in $(seq 50); do flock -n held true || break; sleep 0.1; done
flock -n held true && fail "flock held sleep 5 holds no lock on held/"
rm -rf held.out
mkdir held.out
"$PREC" -q --threads -o held.out/rec.data -- sleep 5 &
first=$!
track_pid "$first"
for _ in $(seq 50); do [[ -e held.out/rec.data ]] && break; sleep 0.1; done
for out in held/perf.data held.out/rec.data/perf.data; do
	start=$(date +%s%N)
	prec_record_ok -o "$out" -- "$WORKLOAD" 50
	ms=$((($(date +%s%N) - start) / 1000000))
	((ms < 1000)) || fail "-o $out, its directory locked by another process: $ms ms (perf records at once)"
	! grep -q "warning\|waiting" "$PREC_ERR" || fail "-o $out, its directory locked: $(cat "$PREC_ERR")"
	require_valid "$out"
done
kill "$first" "$holder" 2>/dev/null
wait "$first" "$holder" 2>/dev/null

# 3. The file size limit: one line with its fix, nothing left.
for t in "" --threads; do
	rm -rf big.data
	(
		ulimit -f 1
		exec "$PREC" $t -o big.data -- "$WORKLOAD" 100
	) 2>big.err
	rc=$?
	((rc >= 1 && rc <= 125)) || fail "ulimit -f 1 $t: exit $rc"
	grep -q "^prec: cannot write 'big.data': File too large (the file size limit was reached: raise it with 'ulimit -f unlimited'" big.err ||
		fail "ulimit -f 1 $t: the limit and its fix are not named: $(cat big.err)"
	[[ $(wc -l <big.err) == 1 ]] || fail "ulimit -f 1 $t: not one line: $(cat big.err)"
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
# The other kernel filesystems mounted here, found in /proc/mounts.
for fs in tracefs debugfs cgroup cgroup2; do
	m=$(awk -v t="$fs" '$3 == t && $2 !~ /\\/ { print $2; exit }' /proc/mounts)
	[[ -n $m ]] || continue
	run_prec -o "$m/prec-test.data" -- true
	((PREC_RC >= 1 && PREC_RC <= 125)) || fail "-o on $fs ($m): exit $PREC_RC"
	grep -q "is on $fs, a filesystem of the kernel's" "$PREC_ERR" || fail "-o on $fs ($m): $(cat "$PREC_ERR")"
done
mkdir gone && cd gone && rmdir "$TMP/gone" || fail "cannot make a deleted directory"
for t in "" --threads; do
	run_prec $t -- true
	grep -q "the current directory was deleted: cd to a directory that exists, or give -o an absolute path" "$PREC_ERR" ||
		fail "a deleted current directory $t: $(cat "$PREC_ERR")"
	((PREC_RC >= 1 && PREC_RC <= 125)) || fail "a deleted current directory $t: exit $PREC_RC"
done
cd "$TMP" || exit 1

# 5. An earlier recording pinned by chattr (+i on X.old, which is removed
# first, or on X, which is moved): perf 6.1 names X.old ("Can't remove old
# data"); prec names the pinned file and the chattr that frees it, not a
# place this user may not write (issue 33 row 11). Root, where the
# filesystem takes chattr; the flag is cleared before anything can fail.
if ((EUID == 0)) && command -v chattr >/dev/null; then
	for pin in pin.data.old pin.data; do
		rm -f pin.data pin.data.old
		prec_record_ok -q -o pin.data -- true
		prec_record_ok -q -o pin.data -- true
		chattr +i "$pin" 2>/dev/null || continue
		run_prec -o pin.data -- true
		run_perf record -q -o pin.data -- true
		chattr -i "$pin"
		((PREC_RC >= 1 && PREC_RC <= 125)) || fail "$pin immutable: exit $PREC_RC"
		((PERF_RC != 0)) || fail "$pin immutable: perf record took it (the reference changed?)"
		grep -q "'$pin' cannot be .* it is immutable .*'chattr -i $pin'" "$PREC_ERR" ||
			fail "$pin immutable: the file and its fix are not named: $(cat "$PREC_ERR")"
		[[ $(wc -l <"$PREC_ERR") == 1 ]] || fail "$pin immutable: not one line: $(cat "$PREC_ERR")"
	done
fi
pass
