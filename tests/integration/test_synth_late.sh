#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The side-band of existing tasks synthesized beside the recording with
# --threads and with --call-graph dwarf --unwind=record, as in the plain
# file: with thousands of tasks alive the command starts before that
# side-band is ready (prec -v says when it was), and the samples of a busy
# process started before prec still resolve to its binary (--threads: its
# share as in perf record's and prec's plain file, its build-id listed) or
# unwind to the same call paths as when it is prec's own command
# (--unwind=record: its samples waited for its maps, none unwound short).
# perf report and perf script read every file without a warning.
source "${TEST_LIB:-$(dirname "$0")/lib.sh}" || exit 1

need_root "system-wide recordings (-a)"

FARM=$WORKLOAD_DIR/prec_tasks
STAMP=$WORKLOAD_DIR/prec_stamp
BUSY=$WORKLOAD_DIR/prec_busy
DEEP=$WORKLOAD_DIR/prec_deep_nofp
HOT_PATH="deep_leaf_hot deep_level4 deep_level3 deep_level2 deep_level1 deep_run main "

# 3,000 sleeping tasks, then the two busy processes (the deep one last).
coproc FARM_CO { exec "$FARM" 1000 2 300; }
track_pid "$FARM_CO_PID"
read -r ready _ <&"${FARM_CO[0]}" || true
[[ "${ready:-}" == ready ]] || fail "prec_tasks did not start"
for prog in "$BUSY 120" "$DEEP 120000"; do
	$prog >/dev/null 2>&1 &
	track_pid $!
done
deep_pid=$!
sleep 0.3

# started_early NAME ARGS...: prec -v ARGS -- prec_stamp; the command must
# have run before the side-band of the existing tasks was ready.
started_early()
{
	local name=$1 t0 delay ready
	shift
	rm -rf "$TMP/$name.data"
	t0=$EPOCHREALTIME
	prec_record_ok -v "$@" -o "$TMP/$name.data" -- "$STAMP" "$TMP/stamp"
	delay=$(awk -v a="$t0" -v b="$(cat "$TMP/stamp")" 'BEGIN { printf "%.4f", b - a }')
	ready=$(sed -nE 's/^side-band of existing tasks: [0-9]+ bytes, ready ([0-9.]+) s after.*/\1/p' "$PREC_ERR")
	[[ -n "$ready" ]] || fail "$name: prec -v did not say when the side-band was ready"
	log "$name: launch to exec ${delay}s, side-band ready ${ready}s after it started"
	awk -v d="$delay" -v r="$ready" 'BEGIN { exit !(d < r) }' ||
		fail "$name: the command started ${delay}s after launch, the side-band took ${ready}s: it waited"
	require_valid --allow-empty "$TMP/$name.data"
}
started_early threads -a --threads
started_early unwind -a -F 200 --call-graph dwarf --unwind=record

# busy_share FILE: the share of prec_busy's samples (comm) that resolve to
# its binary (dso), in percent of all its samples.
busy_share()
{
	"$PERF" report --stdio --sort comm,dso -i "$1" 2>/dev/null |
		awk '!/^#/ && $2 == "prec_busy" { all += $1; if ($3 == "prec_busy") own += $1 }
			END { printf "%.1f\n", (all > 0 ? 100 * own / all : 0) }'
}

# ---- --threads: the pre-existing process resolves, its build-id is listed --
perf_record_ok -q -a --threads -o "$TMP/perf-thr.data" -- sleep 1
want=$(busy_share "$TMP/perf-thr.data")
prec_record_ok -q -a -o "$TMP/file.data" -- sleep 1
plain=$(busy_share "$TMP/file.data")
prec_record_ok -q -a --threads -o "$TMP/thr.data" -- sleep 1
require_valid "$TMP/thr.data"
got=$(busy_share "$TMP/thr.data")
log "prec_busy's samples in its binary: prec --threads ${got}%, prec ${plain}%, perf record --threads ${want}%"
awk -v g="$got" 'BEGIN { exit !(g >= 50) }' || fail "--threads: only ${got}% of prec_busy's samples resolved"
within 25 "$got" "$want" || fail "--threads: ${got}% of prec_busy's samples resolved, perf record ${want}%"
within 25 "$got" "$plain" || fail "--threads: ${got}% of prec_busy's samples resolved, one stream ${plain}%"
run_perf script -i "$TMP/thr.data"
((PERF_RC == 0)) || fail "perf script -i thr.data exited $PERF_RC"
require_no_warning "$PERF_ERR" "perf script -i thr.data"
"$PERF" buildid-list -i "$TMP/thr.data" 2>/dev/null | has_match " $BUSY\$" ||
	fail "--threads: BUILD_ID does not list $BUSY, which the samples hit"

# ---- --unwind=record: a process that ran before prec unwinds whole --------
# The call chain of SYMBOL in perf report -g, its first FRAMES frames, of the
# samples of COMM.
chain()
{
	"$PERF" report -i "$1" --stdio --no-children --comm prec_deep_nofp \
		-g caller,0.5,callee -S "$2" 2>/dev/null | first_chain | head -n "$3" | tr '\n' ' '
}
# deep_whole FILE: the share of prec_deep_nofp's samples whose user chain
# reaches main, in percent (0 without samples).
deep_whole()
{
	"$PERF" script -F comm,ip,sym -i "$1" 2>/dev/null |
		awk 'NF == 0 { if (c == "prec_deep_nofp") { n++; w += m } c = ""; m = 0; next }
			c == "" { c = $1; next } $2 == "main" { m = 1 }
			END { if (c == "prec_deep_nofp") { n++; w += m } printf "%.1f\n", n ? 100 * w / n : 0 }'
}
# unwind_check NAME ARGS...: the pre-existing prec_deep_nofp's samples
# waited for its maps and unwound as its own command's do.
unwind_check()
{
	local name=$1 held line done partial a whole
	shift
	prec_record_ok -v "$@" --call-graph dwarf --unwind=record -o "$TMP/$name.data" -- sleep 1
	require_valid "$TMP/$name.data"
	run_perf script -i "$TMP/$name.data"
	((PERF_RC == 0)) || fail "$name: perf script exited $PERF_RC"
	require_no_warning "$PERF_ERR" "perf script -i $name.data"
	held=$(sed -nE 's/^--unwind=record: ([0-9]+) samples waited for the side-band.*/\1/p' "$PREC_ERR" |
		awk '{ n += $1 } END { print n + 0 }')
	line=$(grep -E '^\[ prec record: Unwound [0-9]+ user stacks' "$PREC_ERR") || fail "$name: no unwind count"
	read -r done partial < <(sed -E 's/.*Unwound ([0-9]+) .*, ([0-9]+) incomplete.*/\1 \2/' <<<"$line")
	a=$(chain "$TMP/$name.data" deep_leaf_hot 7)
	whole=$(deep_whole "$TMP/$name.data")
	log "$name: $held samples waited for the side-band; $partial of $done unwinds incomplete; prec_deep_nofp's reach main in ${whole}% (its own command: ${cmd_whole}%); chain '$a'"
	# With the farm alive the walk takes long enough that some must wait.
	[[ "$*" != *-a* ]] || ((held > 0)) || fail "$name: no sample waited for the side-band: the test did not test it"
	[[ "$a" == "$HOT_PATH" ]] || fail "$name: the pre-existing process's call path '$a', want '$HOT_PATH'"
	# As the command's own samples: nearly all whole (-a also unwinds
	# other programs, some with stacks deeper than the copy).
	within 5 "$whole" "$cmd_whole" || fail "$name: ${whole}% of prec_deep_nofp's samples unwound to main, ${cmd_whole}% as prec's command"
	[[ "$*" == *-a* ]] || ((partial * 20 <= done)) || fail "$name: $partial of $done unwinds incomplete"
}
# The reference: prec_deep_nofp as prec's command (its maps from the rings,
# nothing waits), as the synchronous start unwinds it.
prec_record_ok --call-graph dwarf --unwind=record -o "$TMP/cmd.data" -- "$DEEP" 500
b=$(chain "$TMP/cmd.data" deep_leaf_hot 7)
[[ "$b" == "$HOT_PATH" ]] || fail "prec_deep_nofp as the command: call path '$b'"
cmd_whole=$(deep_whole "$TMP/cmd.data")
unwind_check pid -p "$deep_pid"
unwind_check sys -a -F 200
unwind_check thr-unw --threads -p "$deep_pid"
pass
