#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Nothing drained is ever lost. A recording killed with SIGKILL mid-way, one
# whose disk fills up, one that reaches the file size limit: each leaves a
# file stock perf reads without a warning, holding the samples drained
# before the end; a full disk or the limit ends prec with one line and a
# status in 1..125.
source "${TEST_LIB:-$(dirname "$0")/lib.sh}" || exit 1

need_root "system-wide recordings (-a) and tmpfs mounts to fill"
need_namespaces "the tmpfs a recording fills is mounted where the host does not see it"

# perf_reads FILE WHAT: perf report and perf script read FILE without a
# warning and find samples in it.
perf_reads()
{
	local f=$1 what=$2 n
	require_valid "$f"
	grep -q '^# Samples: [1-9]' "$TMP/report.out" || fail "$what: perf report finds no samples in $f"
	"$PERF" script -i "$f" >"$TMP/script.out" 2>"$TMP/script.err"
	require_no_warning "$TMP/script.err" "perf script -i $f ($what)"
	n=$(grep -c '' "$TMP/script.out")
	((n > 0)) || fail "$what: perf script prints no sample from $f"
}

# one_line WHAT: the run said why it stopped in exactly one prec: line and
# exited in 1..125.
one_line()
{
	((LAST_RC >= 1 && LAST_RC <= 125)) || fail "$1: exit status $LAST_RC, expected 1..125"
	[[ $(grep -c '^prec:' "$LAST_ERR") == 1 ]] ||
		fail "$1: expected one prec: line on stderr, got: $(cat "$LAST_ERR")"
}

# ---- kill -9 mid-recording ---------------------------------------------------
# killed ARGS...: prec records the busy workload, is killed with SIGKILL after
# 1.5 s (the header follows the data at least every second); the workload
# goes with it.
killed()
{
	rm -rf k.data k.data.*
	"$PREC" "$@" -o k.data -- "$WORKLOAD" 8000 >/dev/null 2>kill.err &
	local pid=$!
	track_pid "$pid"
	sleep 1.5
	kill -KILL "$pid"
	wait "$pid" 2>/dev/null
	pkill -KILL -f "$WORKLOAD 8000"
	return 0
}

for mode in "" "-z" "-g" "-a" "-a -z" "--aio" "--aio -z" "-a -g"; do
	# shellcheck disable=SC2086
	killed $mode
	perf_reads k.data "kill -9 of prec $mode"
done

# --threads: the data file carries its features from the start (DIR_FORMAT:
# perf reads no directory without it); its streams are records only.
for mode in "--threads" "--threads -z"; do
	# shellcheck disable=SC2086
	killed $mode
	[[ -d k.data ]] || fail "kill -9 of prec $mode: no k.data directory"
	require_valid --allow-empty k.data
	"$PERF" script -i k.data >/dev/null 2>script.err
	require_no_warning script.err "perf script -i k.data (kill -9 of prec $mode)"
done

# --switch-output: every file already rotated is whole.
killed -a --switch-output=200K
ls k.data.* >/dev/null 2>&1 || fail "kill -9 with --switch-output=200K: no file was rotated in 1.5 s"
for f in k.data.*; do
	perf_reads "$f" "kill -9 with --switch-output, $f"
done

# ---- a full disk -------------------------------------------------------------
# small ARGS...: prec -a -F 20000 ARGS into a 400 KB tmpfs (SMALL_KB=N: N KB)
# in a private mount namespace (nothing reaches this one); what it left is
# copied to kept/.
cat >small.sh <<'EOF'
mount -t tmpfs -o size=${SMALL_KB:-400}k tmpfs small || exit 99
"$@"
rc=$?
cp -a small/. kept/
exit $rc
EOF
small()
{
	rm -rf kept && mkdir kept && mkdir -p small
	# Under _run's timeout, so in_private_mounts goes along by its text.
	_run small bash -c "$(declare -f in_private_mounts); in_private_mounts bash small.sh \"\$@\"" - "$@"
	((LAST_RC != 99)) || fail "cannot mount a ${SMALL_KB:-400} KB tmpfs (the tests run as root)"
}

for mode in "" "-z" "-g"; do
	# shellcheck disable=SC2086
	small "$PREC" -a -F 20000 $mode -o small/x.data -- "$WORKLOAD" 20000
	one_line "ENOSPC, prec $mode"
	grep -q 'No space left on device' "$LAST_ERR" || fail "ENOSPC $mode: the line does not say so: $(cat "$LAST_ERR")"
	[[ -e kept/x.data ]] || fail "ENOSPC $mode: the recording was deleted"
	perf_reads kept/x.data "ENOSPC, prec $mode"
done

# --switch-output (a size above the -a side-band at each file's front): the
# files already rotated stay whole; the last one holds
# what fit (maybe only its front).
# The side-band is as large as the machine's tasks make it (0.9 MB with
# 6,000 threads alive): the switch size and the disk follow it, measured by
# an -a recording of true, so a file rotates before the disk fills.
prec_record_ok -a -o sb.data -- true
sb_kb=$(($(header_field "$(header sb.data)" "data size" | awk '{ print $1 }') / 1024))
sw_kb=$((sb_kb + 96 > 160 ? sb_kb + 96 : 160))
log "ENOSPC with --switch-output: a side-band of $sb_kb KB, files of $sw_kb KB"
SMALL_KB=$((2 * sw_kb + 80 > 400 ? 2 * sw_kb + 80 : 400)) \
	small "$PREC" -a -F 20000 --switch-output="${sw_kb}K" -o small/x.data -- "$WORKLOAD" 20000
one_line "ENOSPC with --switch-output"
ls kept/x.data.* >/dev/null 2>&1 || fail "ENOSPC with --switch-output: no rotated file"
for f in kept/x.data.*; do
	perf_reads "$f" "ENOSPC with --switch-output, $f"
done
[[ -e kept/x.data ]] || fail "ENOSPC with --switch-output: the last file was deleted"
require_valid --allow-empty kept/x.data

# Pipe mode into a file on a full disk: whole records only. A stream cut
# inside the tasks' side-band may lack the kernel's map (perf then warns
# that kernel samples cannot resolve): the disk holds the side-band and
# 240 KB more (400 KB at least), so the cut falls among the samples.
pipe_kb=$((sb_kb + 240 > 400 ? sb_kb + 240 : 400))
SMALL_KB=$pipe_kb small bash -c '"$1" -a -F 20000 -o - -- "$2" 20000 >small/x.pipe' - "$PREC" "$WORKLOAD"
one_line "ENOSPC, prec -o - > file"
perf_reads kept/x.pipe "ENOSPC, prec -o - > file"

# ---- the file size limit (EFBIG; prec ignores SIGXFSZ) -----------------------
for mode in "" "-z"; do
	_run efbig bash -c 'ulimit -f 300 && exec "$@"' - \
		"$PREC" -a -F 20000 $mode -o fsz.data -- "$WORKLOAD" 20000
	one_line "ulimit -f 300, prec $mode"
	grep -q 'File too large.*ulimit -f' "$LAST_ERR" || fail "EFBIG $mode: the line does not name the limit: $(cat "$LAST_ERR")"
	(($(stat -c %s fsz.data) <= 300 * 1024)) || fail "EFBIG $mode: the file is larger than the limit"
	perf_reads fsz.data "ulimit -f 300, prec $mode"
done
_run efbig bash -c 'ulimit -f "$0" && exec "$@" >fsz.pipe' "$((pipe_kb - 100))" \
	"$PREC" -a -F 20000 -o - -- "$WORKLOAD" 20000
one_line "ulimit -f $((pipe_kb - 100)), prec -o - > file"
perf_reads fsz.pipe "ulimit -f $((pipe_kb - 100)), prec -o - > file"

pass
