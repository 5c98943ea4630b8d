#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The output filesystem fills up mid-recording: prec must say so in one
# line, exit in 1..125 without waiting for the workload to finish, leave no
# torn file that claims to be a recording, and leave no workload behind.
source "${TEST_LIB:-$(dirname "$0")/lib.sh}" || exit 1

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
[[ -e small/x.data ]] && fail "a torn small/x.data was left behind"
pgrep -f "$WORKLOAD 120000" >/dev/null && fail "the workload was left running"

pass
