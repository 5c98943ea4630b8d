#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The output fills up mid-recording (a full filesystem, a full device, the
# file size limit): prec must say which in one line, exit in 1..125 without
# waiting for the workload to finish, keep what it recorded as a file perf
# reads (cut at the last whole record: never a torn one), remove nothing it
# did not create, and leave no workload behind. test_crash.sh fills larger
# disks in every mode.
source "${TEST_LIB:-$(dirname "$0")/lib.sh}" || exit 1

need_root "it mounts the small tmpfs it fills"

mkdir small || fail "cannot create a mount point"
mount -t tmpfs -o size=64k tmpfs small || fail "cannot mount a 64 KiB tmpfs (the tests run as root)"
trap 'umount "$TMP/small" 2>/dev/null; _cleanup' EXIT

# A workload far longer than the test may take: prec waiting for it to end
# would show up as a timeout (rc 124), not as a pass.
RUN_TIMEOUT=30
run_prec -F 20000 -o small/x.data -- "$WORKLOAD" 120000

((PREC_RC >= 1 && PREC_RC <= 125)) || fail "prec exited $PREC_RC on a full disk, expected 1..125"
[[ $(grep -c '' "$PREC_ERR") == 1 ]] || fail "expected exactly one line on stderr, got: $(cat "$PREC_ERR")"
grep -q '^prec: .*No space left on device' "$PREC_ERR" || fail "stderr does not name the full disk: $(cat "$PREC_ERR")"
# 64 KiB may not even hold the side-band: the file keeps what fit.
require_valid --allow-empty small/x.data
pgrep -f "$WORKLOAD 120000" >/dev/null && fail "the workload was left running"

# A device that is always full (a copy of /dev/full: a regression may only
# remove the copy). The error names the device, and the node stays: prec
# used to unlink whatever -o named when a write failed.
mknod full c 1 7 || fail "cannot mknod (the tests run as root)"
run_prec -o full -- true
((PREC_RC >= 1 && PREC_RC <= 125)) || fail "prec -o full exited $PREC_RC, expected 1..125"
[[ $(grep -c '' "$PREC_ERR") == 1 ]] || fail "prec -o full: expected one line on stderr, got: $(cat "$PREC_ERR")"
grep -q "^prec: .*'full'.*No space left on device.*device" "$PREC_ERR" ||
	fail "prec -o full: the line does not say the device is full: $(cat "$PREC_ERR")"
[[ -c full ]] || fail "prec -o full: the device node was removed"

# The file size limit: prec ignores SIGXFSZ (perf 6.1 dies of it, status
# 153), so the write fails with EFBIG and gets its own fix, not 'check free
# space'; the file keeps what fit under the limit, the workload ended.
efbig() # OUTPUT
{
	_run efbig bash -c 'ulimit -f 16 && exec "$@"' - \
		"$PREC" -F 20000 -o "$1" -- "$WORKLOAD" 120001
	((LAST_RC >= 1 && LAST_RC <= 125)) || fail "prec at ulimit -f 16 exited $LAST_RC, expected 1..125"
	[[ $(grep -c '' "$LAST_ERR") == 1 ]] || fail "ulimit -f: expected one line on stderr, got: $(cat "$LAST_ERR")"
	grep -q '^prec: .*File too large.*ulimit -f' "$LAST_ERR" ||
		fail "ulimit -f: the line does not name the file size limit: $(cat "$LAST_ERR")"
	no_grep_or_fail 'free space' "$LAST_ERR" "ulimit -f"
	pgrep -f "$WORKLOAD 120001" >/dev/null && fail "ulimit -f: the workload was left running"
	return 0
}
efbig fsz.data
require_valid --allow-empty fsz.data
(($(stat -c %s fsz.data) <= 16 * 1024)) || fail "ulimit -f: fsz.data is larger than the limit"
# Through a symlink: the recording is kept in its target, the symlink stays.
ln -s "$TMP/real.data" link.data
efbig link.data
[[ -L link.data ]] || fail "ulimit -f: the -o symlink was removed"
require_valid --allow-empty real.data

pass
