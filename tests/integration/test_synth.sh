#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The side-band synthesized beside the recording: with thousands of tasks
# alive, `prec -a -- CMD` starts CMD at once (a loose sanity bound; the
# figures live in scripts/bench-start), and samples of a process that ran
# before prec still resolve to its binary, as in perf record's file, in file,
# -z, pipe and --threads modes. --synth's values write the records perf
# record writes (-p on a fixed process, exact counts); --no-bpf-event turns
# attr.bpf_event off as perf; bad values are refused with one line.
source "${TEST_LIB:-$(dirname "$0")/lib.sh}" || exit 1

need_root "system-wide recordings (-a)"

FARM=$WORKLOAD_DIR/prec_tasks
STAMP=$WORKLOAD_DIR/prec_stamp
BUSY=$WORKLOAD_DIR/prec_busy

coproc FARM_CO { exec "$FARM" 1000 2 300; }
track_pid "$FARM_CO_PID"
read -r ready farm_pid <&"${FARM_CO[0]}" || true
[[ "${ready:-}" == ready ]] || fail "prec_tasks did not start"
"$BUSY" 60 >/dev/null 2>&1 &
busy_pid=$!
track_pid "$busy_pid"
sleep 0.3

# The command starts long before the walk over 3,000 tasks could end.
t0=$EPOCHREALTIME
prec_record_ok -q -a -o "$TMP/start.data" -- "$STAMP" "$TMP/stamp"
delay=$(awk -v a="$t0" -v b="$(cat "$TMP/stamp")" 'BEGIN { printf "%.4f", b - a }')
log "launch to exec with $(ls -d /proc/[0-9]*/task/[0-9]* 2>/dev/null | wc -l) tasks alive: ${delay}s"
awk -v d="$delay" 'BEGIN { exit !(d < 0.5) }' || fail "the command started ${delay}s after launch (want well under 0.5 s)"
require_valid --allow-empty "$TMP/start.data"

# busy_share FILE|-: the share of prec_busy's samples (comm) that resolve to
# its binary (dso), in percent of all its samples.
busy_share()
{
	"$PERF" report --stdio --sort comm,dso -i "$1" 2>/dev/null |
		awk '!/^#/ && $2 == "prec_busy" { all += $1; if ($3 == "prec_busy") own += $1 }
			END { printf "%.1f\n", (all > 0 ? 100 * own / all : 0) }'
}

perf_record_ok -q -a -o "$TMP/perf.data" -- sleep 1
want=$(busy_share "$TMP/perf.data")
log "perf record: ${want}% of prec_busy's samples in its binary"
for mode in file z threads; do
	args=()
	case $mode in
	z) args=(-z) ;;
	threads) args=(--threads) ;;
	esac
	rm -rf "$TMP/$mode.data"
	prec_record_ok -q -a "${args[@]}" -o "$TMP/$mode.data" -- sleep 1
	[[ $mode == threads ]] || require_valid "$TMP/$mode.data"
	got=$(busy_share "$TMP/$mode.data")
	log "prec ($mode): ${got}%"
	awk -v g="$got" 'BEGIN { exit !(g >= 50) }' || fail "$mode: only ${got}% of prec_busy's samples resolved (perf: ${want}%)"
	within 25 "$got" "$want" || fail "$mode: ${got}% of prec_busy's samples resolved, perf record ${want}%"
done
# Pipe mode: perf report reads the stream as it comes.
"$PREC" -q -a -o - -- sleep 1 2>"$TMP/pipe.err" >"$TMP/pipe.stream" || fail "prec -o - failed: $(head -3 "$TMP/pipe.err")"
"$PERF" report --stdio --sort comm,dso -i - <"$TMP/pipe.stream" >"$TMP/pipe.report" 2>"$TMP/pipe.rerr" ||
	fail "perf report could not read the stream"
require_no_warning "$TMP/pipe.rerr" "perf report -i - (pipe)"
got=$(awk '!/^#/ && $2 == "prec_busy" { all += $1; if ($3 == "prec_busy") own += $1 }
	END { printf "%.1f\n", (all > 0 ? 100 * own / all : 0) }' "$TMP/pipe.report")
log "prec (pipe): ${got}%"
awk -v g="$got" 'BEGIN { exit !(g >= 50) }' || fail "pipe: only ${got}% of prec_busy's samples resolved"

# --synth on one fixed process: the synthesized (time 0) records per type.
synth_counts()
{
	"$PERF" report -D -i "$1" 2>/dev/null |
		awk '/\]: PERF_RECORD_(FORK|COMM|MMAP2)[: ]/ && (($1 == 0 && $2 ~ /^0x/) || ($2 == 0 && $3 ~ /^0x/)) {
			match($0, /PERF_RECORD_[A-Z0-9_]+/); n[substr($0, RSTART, RLENGTH)]++ } END { printf "FORK=%d COMM=%d MMAP2=%d\n", n["PERF_RECORD_FORK"], n["PERF_RECORD_COMM"], n["PERF_RECORD_MMAP2"] }'
}
for v in all no task mmap cgroup task,mmap; do
	perf_record_ok -q --synth="$v" -p "$farm_pid" -o "$TMP/perf-$v.data" -- sleep 0.2
	prec_record_ok -q --synth="$v" -p "$farm_pid" -o "$TMP/prec-$v.data" -- sleep 0.2
	require_valid --allow-empty "$TMP/prec-$v.data"
	p=$(synth_counts "$TMP/perf-$v.data")
	q=$(synth_counts "$TMP/prec-$v.data")
	log "--synth=$v: perf $p, prec $q"
	[[ "$p" == "$q" ]] || fail "--synth=$v: perf record wrote $p, prec $q"
done

# --no-bpf-event: attr.bpf_event as perf sets it, on and off.
for flag in "" --no-bpf-event; do
	perf_record_ok -q $flag -o "$TMP/pb.data" -- true
	prec_record_ok -q $flag -o "$TMP/qb.data" -- true
	p=$("$PERF" evlist -v -i "$TMP/pb.data" 2>/dev/null | grep -c 'bpf_event: 1')
	q=$("$PERF" evlist -v -i "$TMP/qb.data" 2>/dev/null | grep -c 'bpf_event: 1')
	[[ "$p" == "$q" ]] || fail "${flag:-default}: perf has $p attr(s) with bpf_event, prec $q"
done

# Bad values: one line naming the fix, no file.
for a in --synth=bad --synth= --num-thread-synthesize=0 --num-thread-synthesize=x --proc-map-timeout=0; do
	rm -f "$TMP/bad.data"
	run_prec "$a" -o "$TMP/bad.data" -- true
	((PREC_RC >= 1 && PREC_RC <= 125)) || fail "$a: exit status $PREC_RC, expected 1..125"
	[[ $(grep -c . "$PREC_ERR") == 1 ]] && grep -q "^prec: .*(.*)" "$PREC_ERR" || fail "$a: not one line naming the fix: $(cat "$PREC_ERR")"
	[[ ! -e "$TMP/bad.data" ]] || fail "$a left a file behind"
done
# Every worker count gives the same records.
prec_record_ok -q --num-thread-synthesize=3 --proc-map-timeout=2000 -a -o "$TMP/n3.data" -- sleep 0.2
require_valid --allow-empty "$TMP/n3.data"
pass
