#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# How a recording ends: the events are disabled before the last drain, so no
# sample is later than the disable (system-wide recordings no longer sample
# prec's own draining forever); SIGINT during -D's wait gives a readable
# file, not a crash; a second SIGINT ends at once even when the command
# ignores SIGTERM; tracefs that is not mounted is mounted as perf does, and
# when it cannot be, the error names the command.
source "${TEST_LIB:-$(dirname "$0")/lib.sh}" || exit 1

need_root "system-wide recordings (-a) and tracefs unmounted and mounted"
need_namespaces "tracefs is unmounted in a private mount namespace"

REAL=$WORKLOAD_DIR/prec_real

# ---- no sample after the disable ---------------------------------------------
# Both CPUs busy, system-wide, a high rate: the drain has a backlog when the
# command ends. -k monotonic lets the -v line's time be compared with the
# samples' times.
for extra in "-c 20000" "-c 20000 -z" "-c 50000 --call-graph dwarf"; do
	# shellcheck disable=SC2086
	run_prec -v -a -k monotonic -e cpu-clock $extra -o order.data -- \
		sh -c "'$REAL' burn 600 & '$REAL' burn 600; wait"
	((PREC_RC == 0)) || fail "-a $extra: prec exited $PREC_RC"
	t_off=$(sed -n 's/^events disabled at \([0-9.]*\) (-k clock)$/\1/p' "$PREC_ERR")
	[[ -n "$t_off" ]] || fail "-a $extra: no 'events disabled at' line under -v"
	grep -Eq '^the tail after the disable took [0-9]+ pass' "$PREC_ERR" ||
		fail "-a $extra: no tail line under -v"
	# (A rate this high loses samples, and perf report says so: only the
	# order is judged here.)
	"$PERF" script -F time -i order.data >times.out 2>times.err ||
		fail "-a $extra: perf script failed: $(head -n 3 times.err)"
	last=$(tr -d ' :' <times.out | sort -g | tail -n 1)
	[[ -n "$last" ]] || fail "-a $extra: no sample times"
	log "-a $extra: last sample at $last, events disabled at $t_off"
	awk -v a="$last" -v b="$t_off" 'BEGIN { exit !(a <= b) }' ||
		fail "-a $extra: a sample at $last, after the events were disabled at $t_off"
done

# ---- SIGINT while -D waits -------------------------------------------------------
for extra in "" "-a" "-z"; do
	# shellcheck disable=SC2086
	"$PREC" -D 3000 $extra -o delay.data -- sleep 4 >delay.out 2>delay.err &
	pid=$!
	track_pid "$pid"
	sleep 0.5
	kill -INT "$pid"
	wait "$pid"
	rc=$?
	((rc == 130)) || fail "-D 3000 $extra, SIGINT at 0.5 s: exit $rc (expected 130, as for any SIGINT); $(head -n 3 delay.err)"
	require_valid --allow-empty delay.data
done

# ---- a second SIGINT ends at once ------------------------------------------------
# The command ignores SIGTERM: prec would wait for it (perf record waits
# forever); the second SIGINT makes prec kill it and finish the file.
"$PREC" -o twice.data -- sh -c "trap '' TERM; exec '$REAL' burn 100000" >twice.out 2>twice.err &
pid=$!
track_pid "$pid"
sleep 1
kill -INT "$pid"
sleep 0.3
kill -INT "$pid"
for ((i = 0; i < 100; i++)); do
	kill -0 "$pid" 2>/dev/null || break
	sleep 0.05
done
kill -0 "$pid" 2>/dev/null && fail "a second SIGINT did not end prec (a command that ignores SIGTERM)"
wait "$pid"
require_valid twice.data
pgrep -f "prec_real burn 100000" >/dev/null && fail "the command was left running after the second SIGINT"

# ---- tracefs not mounted ------------------------------------------------------------
# In a private mount namespace where tracefs is not mounted: perf record
# mounts it and goes on, and so does prec (said under -v).
unmount_tracing='for m in $(awk '\''$3 == "tracefs" || $3 == "debugfs" { print $2 }'\'' /proc/mounts | sort -r); do umount -l "$m" || exit 9; done'
in_private_mounts bash -c "$unmount_tracing; '$PERF' record -q -a -e sched:sched_switch -o tp-perf.data -- sleep 0.2" \
	>tp-perf.out 2>tp-perf.err || fail "perf record without tracefs mounted failed: $(head -n 3 tp-perf.err)"
in_private_mounts bash -c "$unmount_tracing; '$PREC' -v -a -e sched:sched_switch -o tp-prec.data -- sleep 0.2" \
	>tp-prec.out 2>tp-prec.err || fail "prec without tracefs mounted failed: $(head -n 3 tp-prec.err)"
grep -q 'tracefs was not mounted: mounted it on' tp-prec.err || fail "prec did not say under -v that it mounted tracefs"
require_valid tp-prec.data
"$PERF" script -i tp-prec.data >tp-prec.script 2>/dev/null
grep -q 'sched:sched_switch' tp-prec.script || fail "no sched_switch sample after mounting tracefs"
# Without the right to mount: one line that names the command to run.
if command -v setpriv >/dev/null; then
	in_private_mounts bash -c "$unmount_tracing; exec setpriv --inh-caps=-sys_admin --bounding-set=-sys_admin '$PREC' -a -e sched:sched_switch -o tp-no.data -- true" \
		>tp-no.out 2>tp-no.err
	rc=$?
	((rc >= 1 && rc <= 125)) || fail "no tracefs and no right to mount it: exit $rc"
	[[ $(grep -c '^prec:' tp-no.err) == 1 ]] || fail "no tracefs: expected one prec: line, got: $(cat tp-no.err)"
	grep -q 'mount -t tracefs' tp-no.err || fail "no tracefs: the error does not name the mount command: $(cat tp-no.err)"
	[[ -e tp-no.data ]] && fail "no tracefs: an output file was left behind"
fi
pass
