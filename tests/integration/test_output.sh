#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Output management: --switch-output (signal, size, time) with
# --switch-max-files and --timestamp-filename, where every rotated file is
# valid and resolves its own samples; --max-size stops at the size with
# perf's message (file and pipe); --overwrite snapshots on SIGUSR2 and
# --tail-synthesize; --no-buffering and --overwrite set perf's attrs;
# --mmap-flush; .old rotation; -q.
source "${TEST_LIB:-$(dirname "$0")/lib.sh}" || exit 1

need_root "a system-wide recording (--tail-synthesize -a)"

perf_record_ok -o ref.data -- "$WORKLOAD" 800
# hot_two_thirds' share of the user-space samples: the kernel's share grows
# with the preemptions of a busy machine, the workload's split does not.
ref=$(user_percent ref.data hot_two_thirds)

# each_file_ok PATTERN MIN: at least MIN files match, each valid on its own,
# with the workload's samples resolved to its symbols as in perf record's file.
each_file_ok()
{
	local pat=$1 min=$2 f n=0 p q ns
	for f in $pat; do
		[[ -e $f ]] || continue
		n=$((n + 1))
		require_valid --allow-empty "$f"
		ns=$("$PERF" script -i "$f" 2>/dev/null | wc -l)
		((ns >= 20)) || continue
		# Resolved: the workload's two functions hold its user-space
		# samples (a sample left unresolved is a hex address there).
		# Kernel samples are not counted: on a busy CPU each preemption
		# and return adds some, up to a fifth of a file.
		q=$(user_percent "$f" hot_two_thirds cold_one_third)
		if ! awk -v a="$q" 'BEGIN { exit !(a >= 90) }'; then
			report_rows "$f" | head -n 8 | sed 's/^/    | /' >&2
			fail "$f ($ns samples): hot_two_thirds + cold_one_third hold $q% of the user-space samples: samples not resolved"
		fi
		p=$(user_percent "$f" hot_two_thirds)
		((ns < 300)) || within 15 "$p" "$ref" ||
			fail "$f: hot_two_thirds $p%, perf record $ref%"
	done
	((n >= min)) || fail "$pat: $n files, expected at least $min"
}

# ---- --switch-output (signal) ---------------------------------------------
"$PREC" --switch-output -o sig.data -- "$WORKLOAD" 1500 2>sig.err &
pid=$!
track_pid $pid
wait_exec $pid prec_workload
sleep 0.3
kill -USR2 $pid
sleep 0.5
kill -USR2 $pid
wait $pid || fail "--switch-output exited $?"
[[ ! -e sig.data ]] || fail "--switch-output: the last file kept the plain name"
[[ $(grep -c '^\[ prec record: Dump sig.data.[0-9]\{16\}' sig.err) == 3 ]] ||
	fail "--switch-output: expected 3 'Dump' lines: $(cat sig.err)"
each_file_ok 'sig.data.*' 3
# The samples add up: none lost or counted twice at a switch.
total=0
for f in sig.data.*; do
	total=$((total + $("$PERF" script -i "$f" 2>/dev/null | wc -l)))
done
log "--switch-output: $total samples in 3 files"
((total > 5000)) || fail "--switch-output: only $total samples in the rotated files for 1.5 s at 4 kHz"

# ---- size and time, --switch-max-files -------------------------------------
prec_record_ok --switch-output=40K --switch-max-files=2 -o size.data -- "$WORKLOAD" 1500
n=$(grep -c 'Dump size.data' "$PREC_ERR")
((n >= 3)) || fail "--switch-output=40K: $n rotations for ~100 KB of samples"
[[ $(ls size.data.* | wc -l) == 2 ]] || fail "--switch-max-files=2: $(ls size.data.* | wc -l) files kept"
each_file_ok 'size.data.*' 2
t0=$(date +%s%N)
prec_record_ok --switch-output=1s -o time.data -- "$WORKLOAD" 2500
secs=$(( ($(date +%s%N) - t0) / 1000000000 ))
n=$(ls time.data.* | wc -l)
# One file per whole second, and the last part (a busy machine stretches the run).
((n >= 2 && n >= secs && n <= secs + 1)) || fail "--switch-output=1s over $secs s: $n files"
each_file_ok 'time.data.*' 2

# ---- --timestamp-filename ------------------------------------------------------
prec_record_ok --timestamp-filename -o ts.data -- "$WORKLOAD" 200
f=$(ls ts.data.* 2>/dev/null)
[[ -n $f && ! -e ts.data ]] || fail "--timestamp-filename: no ts.data.<timestamp>"
[[ $f =~ ^ts\.data\.[0-9]{16}$ ]] || fail "--timestamp-filename: '$f' is not perf's name.YYYYmmddHHMMSScc"
grep -q "Captured and wrote .* $f " "$PREC_ERR" || fail "--timestamp-filename: the summary does not name $f"
require_valid "$f"

# ---- --max-size ------------------------------------------------------------------
prec_record_ok --max-size=40K -o max.data -- "$WORKLOAD" 3000
grep -q '^\[ prec record: perf size limit reached ([0-9]* KB), stopping session \]' "$PREC_ERR" ||
	fail "--max-size: no size-limit message: $(cat "$PREC_ERR")"
require_valid max.data
sz=$(stat -c %s max.data)
h=$(header max.data)
off=$(header_field "$h" "data offset")
dsz=$(header_field "$h" "data size")
# The data stops at the limit; the feature sections follow it, as large as
# the machine makes them: the BPF programs loaded on it (anyone's) and their
# BTF are recorded as perf records them, kilobytes each, so the file's size
# is no measure of the limit.
((dsz <= 40 * 1024)) || fail "--max-size=40K: $dsz bytes of data (file $sz)"
((dsz >= 30 * 1024)) || fail "--max-size=40K: stopped early at $dsz bytes of data"
feat=$((sz - off - dsz))
p=$(user_percent max.data hot_two_thirds)
within 15 "$p" "$ref" || fail "--max-size: hot_two_thirds $p% vs $ref%"
# -a: the walk over /proc's tasks is written after the rings began; they
# leave it room as it is made, so the data still stop at the limit (but for
# the rounds' 8-byte markers, not budgeted). Where the side-band alone
# nears the limit (thousands of tasks) the limit line's size is checked.
prec_record_ok -a --max-size=300K -F 10000 -o maxa.data -- "$WORKLOAD" 2000
require_valid maxa.data
h=$(header maxa.data)
off=$(header_field "$h" "data offset")
dsz=$(header_field "$h" "data size")
sb=$("$PERF" report -D -i maxa.data 2>/dev/null |
	awk 'function hex(x, i, n) {
		for (i = 3; i <= length(x); i++) n = n * 16 + index("0123456789abcdef", substr(x, i, 1)) - 1
		return n
	}
	/^0x[0-9a-f]+@.* \[0x[0-9a-f]+\]: event: / {
		size = $2; gsub(/[^0-9a-fx]/, "", size)
		if ($NF != 9) s += hex(size)
	} END { print s + 0 }')
said=$(sed -n 's/.*size limit reached (\([0-9]*\) KB).*/\1/p' "$PREC_ERR")
((off + dsz <= 300 * 1024 + 4096 || off + sb > 150 * 1024)) ||
	fail "-a --max-size=300K: $((off + dsz)) bytes to the data's end, $sb of them side-band"
((said * 1024 + 4096 >= off + dsz)) || fail "-a --max-size=300K: the line said $said KB of $((off + dsz)) bytes"
"$PREC" --max-size=60K -o - -- "$WORKLOAD" 3000 2>maxp.err >max.pipe
grep -q 'size limit reached' maxp.err || fail "--max-size with -o -: no message"
sz=$(stat -c %s max.pipe)
# The stream carries the same features as records, and its attrs: its data
# stop at the limit too.
((sz <= 60 * 1024 + feat + 16 * 1024)) || fail "--max-size=60K -o -: $sz bytes (a file's features: $feat)"
"$PERF" report --stdio -i - <max.pipe >/dev/null 2>maxp.report.err || fail "--max-size -o -: perf report failed"
require_no_warning maxp.report.err "perf report of a --max-size stream"

# ---- --overwrite: SIGUSR2 snapshots, and at the end --------------------------
"$PREC" --overwrite -m 8 -o ow.data -- "$WORKLOAD" 1500 2>ow.err &
pid=$!
track_pid $pid
wait_exec $pid prec_workload
sleep 0.5
kill -USR2 $pid
sleep 0.5
kill -USR2 $pid
wait $pid || fail "--overwrite exited $?"
n=$(ls ow.data.* 2>/dev/null | wc -l)
((n == 2)) || fail "--overwrite: $n snapshot files for 2 SIGUSR2"
each_file_ok 'ow.data.*' 2
require_valid ow.data
evlist ow.data | has_match 'write_backward: 1' || fail "--overwrite: events are not write_backward"
# A flight recorder keeps the newest records: no more than the ring holds.
for f in ow.data.*; do
	n=$("$PERF" script -i "$f" 2>/dev/null | wc -l)
	((n > 100 && n < 2500)) || fail "--overwrite: $f has $n samples for an 8-page ring"
done

# ---- --tail-synthesize: the side-band after the data ---------------------------
prec_record_ok --tail-synthesize -a -o tail.data -- "$WORKLOAD" 300
require_valid tail.data
# perf report -D prints in time order; the file offset (0x... [size]) says
# where each record is: some MMAP2 must sit after the first sample.
"$PERF" report -D -i tail.data 2>/dev/null |
	awk 'function hex(h,  i, v) { v = 0; h = tolower(substr(h, 3))
		for (i = 1; i <= length(h); i++) v = v * 16 + index("0123456789abcdef", substr(h, i, 1)) - 1
		return v }
	match($0, /0x[0-9a-f]+ \[0x[0-9a-f]+\]: PERF_RECORD_(SAMPLE|MMAP2)/) {
		split(substr($0, RSTART), a, " "); off = hex(a[1])
		if ($0 ~ /PERF_RECORD_SAMPLE/) { if (!fs || off < fs) fs = off } else if (off > lm) lm = off }
	END { exit !(fs && lm > fs) }' ||
	fail "--tail-synthesize: no MMAP2 after the samples in the file"
# Resolved: among the workload's own user-space samples (-a also samples
# whatever else runs on a busy machine, and its preemptions add kernel
# samples to the workload), its hot function holds its share.
p=$(user_percent --comm "$(basename "$WORKLOAD")" tail.data hot_two_thirds)
within 15 "$p" "$ref" || fail "--tail-synthesize: hot_two_thirds $p% of the workload's user samples, perf record's $ref%"

# ---- attrs as perf: --no-buffering, --overwrite ----------------------------------
for o in --no-buffering --overwrite; do
	prec_record_ok $o -o a.data -- true
	perf_record_ok $o -o b.data -- true
	[[ "$(evlist a.data)" == "$(evlist b.data)" ]] || fail "$o: attrs differ: $(evlist a.data) vs $(evlist b.data)"
done

# ---- --mmap-flush ---------------------------------------------------------------
prec_record_ok -v --mmap-flush=16K -o flush.data -- "$WORKLOAD" 300
grep -q '^mmap flush: 16384' "$PREC_ERR" || fail "--mmap-flush: no 'mmap flush: 16384' under -v"
require_valid flush.data
n=$(summary_samples "$PREC_ERR")
[[ $("$PERF" script -i flush.data 2>/dev/null | wc -l) == "$n" ]] || fail "--mmap-flush: samples left in the rings"
prec_record_ok -v --mmap-flush=1G -o flush2.data -- true
grep -q '^mmap flush: 131072' "$PREC_ERR" || fail "--mmap-flush above a quarter of the ring: not capped as perf"

# ---- .old for any name, -q --------------------------------------------------------
prec_record_ok -q -o any.name -- true
[[ ! -s "$PREC_ERR" ]] || fail "-q: prec printed '$(cat "$PREC_ERR")'"
prec_record_ok -q -o any.name -- true
[[ -s any.name.old && -s any.name ]] || fail "a second recording to any.name did not keep any.name.old"
pass
