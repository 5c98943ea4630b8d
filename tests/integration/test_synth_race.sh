#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The background side-band on a loaded machine with many tasks, where its
# /proc walk takes most of a second: a process that ran before prec and
# exits soon after it starts still has its maps in the file (the walk reads
# first the processes the samples name), and a file cut by the file size
# limit (ulimit -f) before the side-band was in still resolves the kernel's
# samples (the side-band they need is kept, samples are cut for it). Two
# CPU hogs, started here, make the machine loaded; perf record under the
# same limit is killed by SIGXFSZ and leaves no readable file (logged).
source "${TEST_LIB:-$(dirname "$0")/lib.sh}" || exit 1

need_root "system-wide recordings (-a)"

FARM=$WORKLOAD_DIR/prec_tasks
BUSY=$WORKLOAD_DIR/prec_busy
cd "$TMP" || fail "cd $TMP"

for _ in 1 2; do
	yes >/dev/null &
	track_pid $!
done
# Started first: the busy process comes after its pids in /proc's order,
# last in the walk.
coproc FARM_CO { exec "$FARM" 2000 5 300; }
track_pid "$FARM_CO_PID"
read -r ready _ <&"${FARM_CO[0]}" || true
[[ "${ready:-}" == ready ]] || fail "prec_tasks did not start (ulimit -u, pid_max?)"

# busy_share FILE: the share of prec_busy's samples (comm) in its binary.
busy_share()
{
	"$PERF" report --stdio --sort comm,dso -i "$1" 2>/dev/null |
		awk '!/^#/ && $2 == "prec_busy" { all += $1; if ($3 == "prec_busy") own += $1 }
			END { printf "%.1f\n", (all > 0 ? 100 * own / all : -1) }'
}

for run in 1 2; do
	"$BUSY" 0.5 >/dev/null 2>&1 &
	busy=$!
	track_pid "$busy"
	prec_record_ok -v -a -F 500 -o "$TMP/exit$run.data" -- sleep 1.5
	wait "$busy"
	ready=$(grep -o 'ready [0-9.]* s' "$PREC_ERR")
	require_valid "$TMP/exit$run.data"
	got=$(busy_share "$TMP/exit$run.data")
	log "run $run: side-band $ready after it started, ${got}% of prec_busy's samples resolved"
	[[ $got != -1.0 ]] || fail "run $run: no sample of prec_busy: the test did not test it"
	awk -v g="$got" 'BEGIN { exit !(g >= 50) }' ||
		fail "run $run: only ${got}% of the samples of prec_busy, gone 0.5 s into the recording, resolved: its maps were never read"
done

# kernel_share FILE: named/all, the percent of kernel samples ([k]) whose
# symbol resolves (not a hex address), and of all samples.
kernel_share()
{
	"$PERF" report --stdio --sort sym -i "$1" 2>/dev/null |
		awk '!/^#/ && /\[k\]/ { all += $1; if ($3 !~ /^0x/) named += $1 }
			END { printf "%.1f %.1f\n", named, all }'
}

_run perf_fsz bash -c 'ulimit -f 64 && exec "$@"' - "$PERF" record -a -o perf.data -- sleep 1
log "perf record at ulimit -f 64: rc $LAST_RC, $("$PERF" report --stdio -i perf.data 2>&1 | grep -c .) report lines"
for run in 1 2; do
	_run fsz bash -c 'ulimit -f 64 && exec "$@"' - "$PREC" -a -o "fsz$run.data" -- sleep 1
	((LAST_RC >= 1 && LAST_RC <= 125)) || fail "ulimit -f 64: prec exited $LAST_RC"
	grep -q 'File too large' "$LAST_ERR" || fail "ulimit -f 64: the file was not cut: $(cat "$LAST_ERR")"
	require_valid "fsz$run.data"
	read -r named all < <(kernel_share "fsz$run.data")
	log "run $run at ulimit -f 64: ${named}% of all samples in named kernel symbols, of ${all}% in the kernel"
	awk -v a="$all" 'BEGIN { exit !(a > 0) }' || fail "ulimit -f 64: no kernel sample: the test did not test it"
	awk -v n="$named" -v a="$all" 'BEGIN { exit !(n >= 0.9 * a) }' ||
		fail "ulimit -f 64: ${named}% of ${all}% kernel samples resolved: the cut file lost the kernel map"
done
pass
