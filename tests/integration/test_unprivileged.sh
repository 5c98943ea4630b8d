#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# prec run by a user without CAP_PERFMON (nobody, through setpriv when the
# test runs as root), judged against perf record run the same way:
#  - the default event is the one perf record makes for such a user (user
#    only from the start, named as perf names it: cpu-clock:uhppp on an AMD
#    machine without a PMU, cycles:u with one), attr for attr;
#  - an event that samples the kernel only (:k, --all-kernel) is refused
#    whenever perf record refuses it (kernel.perf_event_paranoid >= 2): one
#    line naming the fix, an exit status in 1..125, no file; the paranoid
#    fallback must not turn it into an event that samples nothing.
source "${TEST_LIB:-$(dirname "$0")/lib.sh}" || exit 1

if ((EUID == 0)); then
	need_tool setpriv "install util-linux"
	as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups)
else
	as_user=()
fi
# nobody writes its files here.
chmod 755 "$TMP"
mkdir -m 777 u

run_user()
{
	local tag=$1
	shift
	_run "$tag" "${as_user[@]}" "$@"
}

# The default event, attr for attr.
run_user prec "$PREC" -o u/prec.data -- "$WORKLOAD" 50
((LAST_RC == 0)) || fail "prec as an unprivileged user exited $LAST_RC"
run_user perf "$PERF" record -o u/perf.data -- "$WORKLOAD" 50
((LAST_RC == 0)) || fail "perf record as an unprivileged user exited $LAST_RC"
a=$("$PERF" evlist -f -v -i u/prec.data 2>/dev/null | head -n 1)
b=$("$PERF" evlist -f -v -i u/perf.data 2>/dev/null | head -n 1)
log "default event: prec '${a%%: *}', perf record '${b%%: *}'"
[[ -n "$a" && "$a" == "$b" ]] || fail "default event as nobody: prec '$a', perf record '$b'"

# Kernel only: refused exactly when perf record refuses.
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid)
for args in "-e cpu-clock:k" "--all-kernel -e cpu-clock" "-e task-clock:k"; do
	name=${args//[^a-z]/_}
	# shellcheck disable=SC2086
	run_user perf "$PERF" record $args -o "u/perf$name.data" -- "$WORKLOAD" 20
	perf_rc=$LAST_RC
	# shellcheck disable=SC2086
	run_user prec "$PREC" $args -o "u/prec$name.data" -- "$WORKLOAD" 20
	prec_rc=$LAST_RC
	log "$args (paranoid $paranoid): perf record exits $perf_rc, prec $prec_rc"
	if ((perf_rc != 0)); then
		((prec_rc >= 1 && prec_rc <= 125)) ||
			fail "$args: perf record refuses it, prec exits $prec_rc (want 1..125)"
		[[ $(wc -l <"$LAST_ERR") == 1 ]] ||
			fail "$args: want one line on stderr, got $(wc -l <"$LAST_ERR")"
		grep -q '^prec: cannot open event .*(.*sysctl -w kernel.perf_event_paranoid=1.*setcap cap_perfmon.*)$' \
			"$LAST_ERR" || fail "$args: the error does not name the fix: $(cat "$LAST_ERR")"
		[[ -e "u/prec$name.data" ]] && fail "$args: a file was left behind"
	else
		((prec_rc == 0)) || fail "$args: perf record records it, prec exits $prec_rc"
		n=$(summary_samples "$LAST_ERR")
		((n > 0)) || fail "$args: perf record records it, prec wrote no sample"
	fi
done

# Locked memory: with a small kernel.perf_event_mlock_kb the default rings
# shrink to what it allows, as perf's do (the same mmap size under -v); with
# `ulimit -l 0` the default still maps (it fits the per-user allowance) and a
# larger -m is refused by both, prec with one line naming the fix.
if ((EUID == 0)) && [[ -w /proc/sys/kernel/perf_event_mlock_kb ]]; then
	mlock_was=$(cat /proc/sys/kernel/perf_event_mlock_kb)
	trap 'echo "$mlock_was" >/proc/sys/kernel/perf_event_mlock_kb' EXIT
	echo 64 >/proc/sys/kernel/perf_event_mlock_kb
	mmap_size() { sed -n 's/^mmap size \([0-9]*\)B$/\1/p' "$LAST_ERR" | head -n 1; }
	run_user perf_small "$PERF" record -v -o u/perf_small.data -- "$WORKLOAD" 20
	want=$(mmap_size)
	for o in "" "--call-graph dwarf"; do
		# shellcheck disable=SC2086
		run_user prec_small "$PREC" -v $o -o u/prec_small.data -- "$WORKLOAD" 20
		((LAST_RC == 0)) || fail "mlock_kb 64, prec $o: exit $LAST_RC: $(cat "$LAST_ERR")"
		[[ -n "$want" && "$(mmap_size)" == "$want" ]] ||
			fail "mlock_kb 64, prec $o: mmap size $(mmap_size), perf record's $want"
		chown 0:0 u/prec_small.data # perf reads only its own user's files
		# perf record's rings of this size lose chunks too (a DWARF sample
		# is 8 KiB): a lost-chunks warning is the honest outcome here.
		require_valid --allow-lost u/prec_small.data
	done
	echo "$mlock_was" >/proc/sys/kernel/perf_event_mlock_kb
	trap - EXIT
	log "perf_event_mlock_kb 64: rings of $want bytes, as perf record's"
fi
_run lowlock "${as_user[@]}" bash -c 'ulimit -l 0 && exec "$@"' - "$PREC" -o u/low.data -- "$WORKLOAD" 20
((LAST_RC == 0)) || fail "ulimit -l 0: the default rings did not map: $(cat "$LAST_ERR")"
_run lowlock_m "${as_user[@]}" bash -c 'ulimit -l 0 && exec "$@"' - "$PREC" -m 4M -o u/low4m.data -- "$WORKLOAD" 20
((LAST_RC >= 1 && LAST_RC <= 125)) || fail "ulimit -l 0 -m 4M: exit status $LAST_RC"
(($(grep -c . "$LAST_ERR") == 1)) || fail "ulimit -l 0 -m 4M: want one line, got: $(cat "$LAST_ERR")"
grep -q '^prec: cannot map 4096 KiB ring buffers per CPU: .*perf_event_mlock_kb' "$LAST_ERR" ||
	fail "ulimit -l 0 -m 4M: $(cat "$LAST_ERR")"
[[ -e u/low4m.data ]] && fail "ulimit -l 0 -m 4M: a file was left behind"

pass
