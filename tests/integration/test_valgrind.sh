#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# A whole recording under valgrind: no invalid access, no use of
# uninitialised memory, no leak.
source "${TEST_LIB:-$(dirname "$0")/lib.sh}" || exit 1

# The sanitized pass: valgrind cannot run an ASan binary (both own the
# process's memory map), and ASan + LSan check the same things there.
[[ "${PREC_SANITIZED:-0}" == 1 ]] && skip "not under ASan (the sanitized build checks memory itself)"

need_tool valgrind "scripts/bootstrap --test installs it"

_run valgrind valgrind --error-exitcode=1 --leak-check=full \
	"$PREC" -q -o "$TMP/x.data" -- true
((LAST_RC == 0)) || {
	grep -E '==[0-9]+== ' "$LAST_ERR" | head -n 40 | sed 's/^/    | /' >&2
	fail "valgrind reports errors (exit $LAST_RC)"
}
[[ -s "$TMP/x.data" ]] || fail "no output file under valgrind"
"$PERF" report --stdio -i "$TMP/x.data" >/dev/null 2>report.err || fail "perf report cannot read the file written under valgrind"

# The same with a real workload and two events: more of the drain path runs.
_run valgrind2 valgrind --error-exitcode=1 --leak-check=full \
	"$PREC" -q -e cpu-clock,task-clock -o "$TMP/y.data" -- "$WORKLOAD" 200
((LAST_RC == 0)) || {
	grep -E '==[0-9]+== ' "$LAST_ERR" | head -n 40 | sed 's/^/    | /' >&2
	fail "valgrind reports errors with two events on the workload (exit $LAST_RC)"
}
require_valid "$TMP/y.data"

pass
