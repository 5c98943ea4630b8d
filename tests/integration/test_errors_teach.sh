#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Errors that teach: each start-up failure this machine can make for real
# (the paranoid level, a tracefs the user may not read, tracefs missing or
# hidden, too few open files, an unknown PMU, a raw event without a hardware
# PMU, targets that are not there, another user's process, an output
# directory that is not there) gives one line on stderr naming one command,
# an exit status in 1..125 and no file; where perf record fails the same way
# it says it in several lines. Then the command the line names is run, as
# written, and prec records. A busy counter cannot be made without a PMU:
# tests/unit/recorder/evlist/test_open_error.c covers it.
source "${TEST_LIB:-$(dirname "$0")/lib.sh}" || exit 1

need_root "the cases need another user and sysctls (setpriv, sysctl)"
need_namespaces "tracefs is hidden and unmounted in a private mount namespace"
need_tool setpriv "install util-linux"
need_tool setcap "install libcap2-bin"
as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups)
chmod 755 "$TMP"
mkdir -m 777 u

# What the machine had, put back however the test ends.
paranoid_was=$(cat /proc/sys/kernel/perf_event_paranoid)
tracing=/sys/kernel/tracing
tracing_mode=$(stat -c %a "$tracing")
tracing_gid=$(stat -c %g "$tracing")
restore()
{
	echo "$paranoid_was" >/proc/sys/kernel/perf_event_paranoid
	mount -o "remount,gid=$tracing_gid,mode=$tracing_mode" "$tracing" 2>/dev/null
}
trap '_rc=$?; restore; (exit $_rc); _cleanup' EXIT

run_user()
{
	local tag=$1
	shift
	_run "$tag" "${as_user[@]}" "$@"
}

# taught WHAT FILE REGEX...: the last run failed with one line matching each
# REGEX, an exit status in 1..125, and left no FILE.
taught()
{
	local what=$1 file=$2 p
	shift 2
	((LAST_RC >= 1 && LAST_RC <= 125)) || fail "$what: exit status $LAST_RC, expected 1..125"
	(($(grep -c '' "$LAST_ERR") == 1)) ||
		fail "$what: $(grep -c '' "$LAST_ERR") lines on stderr, expected one"
	for p in "$@"; do
		grep -Eq -- "^prec: .*$p" "$LAST_ERR" ||
			fail "$what: the line does not name '$p': $(cat "$LAST_ERR")"
	done
	[[ -e "$file" ]] && fail "$what: $file was left behind"
	log "$what: $(cat "$LAST_ERR")"
}

# perf_says WHAT ARGS...: perf record, run as the last prec was, fails too;
# its message is logged beside prec's one line.
perf_says()
{
	local what=$1
	shift
	_run perf "$@"
	((LAST_RC != 0)) || fail "$what: perf record succeeded where prec failed"
	log "$what: perf record says it in $(grep -c '' "$LAST_ERR") lines (exit $LAST_RC)"
}

# fix PREFIX: the command the last line names that starts with PREFIX, as
# root runs it (the line's 'sudo ' dropped).
fix()
{
	local cmd
	cmd=$(grep -o "'\(sudo \)\{0,1\}$1[^']*'" "$LAST_ERR" | head -n 1)
	cmd=${cmd#\'}
	cmd=${cmd%\'}
	[[ -n "$cmd" ]] || fail "no '$1...' command in: $(cat "$LAST_ERR")"
	echo "${cmd#sudo }"
}

# recorded WHAT FILE: the last run recorded, and perf reads FILE.
recorded()
{
	((LAST_RC == 0)) || fail "$1: after the fix prec still fails: $(cat "$LAST_ERR")"
	"$PERF" report -f --stdio -i "$2" >/dev/null 2>&1 || fail "$1: perf cannot read $2"
	log "$1: the named fix works"
}

# ---- the paranoid level ----------------------------------------------------
echo 2 >/proc/sys/kernel/perf_event_paranoid
cp "$PREC" "$TMP/prec-cap" && chmod 755 "$TMP/prec-cap"
run_user a_p2 "$TMP/prec-cap" -a -o u/a.data -- true
taught "-a at paranoid 2" u/a.data "'sudo sysctl -w kernel.perf_event_paranoid=0'" \
	"'sudo setcap cap_perfmon,cap_syslog\+ep $TMP/prec-cap'"
sysctl_cmd=$(fix "sysctl -w")
setcap_cmd=$(fix "setcap")
perf_says "-a at paranoid 2" "${as_user[@]}" "$PERF" record -a -o u/perf_a.data -- true
eval "$sysctl_cmd" >/dev/null || fail "'$sysctl_cmd' failed"
run_user a_p0 "$TMP/prec-cap" -a -o u/a.data -- true
recorded "-a, after '$sysctl_cmd'" u/a.data
echo 2 >/proc/sys/kernel/perf_event_paranoid
rm -f u/a.data
# The capability instead: it also lets prec read the kernel's addresses. A
# binary with file capabilities is not dumpable: LeakSanitizer cannot stop
# its threads, so the sanitized pass checks this run without it.
eval "$setcap_cmd" || fail "'$setcap_cmd' failed"
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	run_user a_cap "$TMP/prec-cap" -a -o u/a.data -- true
recorded "-a, after '$setcap_cmd'" u/a.data
no_grep_or_fail 'kernel addresses are hidden' "$LAST_ERR" "-a with $setcap_cmd"
setcap -r "$TMP/prec-cap"

run_user k_p2 "$PREC" -e cpu-clock:k -o u/k.data -- true
taught "cpu-clock:k at paranoid 2" u/k.data "'sudo sysctl -w kernel.perf_event_paranoid=1'"
sysctl_cmd=$(fix "sysctl -w")
perf_says "cpu-clock:k at paranoid 2" "${as_user[@]}" "$PERF" record -e cpu-clock:k -o u/perf_k.data -- true
eval "$sysctl_cmd" >/dev/null || fail "'$sysctl_cmd' failed"
run_user k_p1 "$PREC" -e cpu-clock:k -o u/k.data -- true
recorded "cpu-clock:k, after '$sysctl_cmd'" u/k.data
echo 2 >/proc/sys/kernel/perf_event_paranoid

# ---- tracefs: unreadable, then the raw data's paranoid level -----------------
if [[ -d $tracing/events/sched/sched_switch ]]; then
	run_user tp_perm "$PREC" -e sched:sched_switch -o u/tp.data -- true
	taught "a tracepoint in a tracefs only root reads" u/tp.data \
		"'sudo mount -o remount,gid=65534,mode=750 $tracing'"
	mount_cmd=$(fix "mount -o")
	perf_says "a tracepoint in a tracefs only root reads" "${as_user[@]}" "$PERF" record \
		-e sched:sched_switch -o u/perf_tp.data -- true
	eval "$mount_cmd" || fail "'$mount_cmd' failed"
	run_user tp_raw "$PREC" -e sched:sched_switch -o u/tp.data -- true
	taught "a tracepoint's raw data at paranoid 2" u/tp.data \
		"'sudo sysctl -w kernel.perf_event_paranoid=-1'"
	sysctl_cmd=$(fix "sysctl -w")
	eval "$sysctl_cmd" >/dev/null || fail "'$sysctl_cmd' failed"
	run_user tp_ok "$PREC" -e sched:sched_switch -o u/tp.data -- true
	recorded "sched:sched_switch, after '$mount_cmd' and '$sysctl_cmd'" u/tp.data
	restore
fi

# tracefs not mounted (a user cannot mount it; root's prec mounts it itself),
# and tracefs hidden under another mount, in a private mount namespace.
# Every tracefs and debugfs mount goes (a chroot's too: prec would take it).
cat >tracefs.sh <<'EOF'
set -u
awk '$3 == "tracefs" || $3 == "debugfs" { print $2 }' /proc/mounts | sort -r |
	while read -r m; do umount -l "$m" 2>/dev/null; done
"$@" -e sched:sched_switch -o u/tf.data -- true
EOF
# Under _run's timeout, so in_private_mounts goes along by its text.
private()
{
	local tag=$1
	shift
	_run "$tag" bash -c "$(declare -f in_private_mounts); in_private_mounts \"\$@\"" - "$@"
}
private tf_missing bash tracefs.sh "${as_user[@]}" "$PREC"
taught "tracefs not mounted" u/tf.data "'sudo mount -t tracefs nodev /sys/kernel/tracing'"
private tf_perf bash tracefs.sh "${as_user[@]}" "$PERF" record
((LAST_RC != 0)) || fail "tracefs not mounted: perf record succeeded"
log "tracefs not mounted: perf record says it in $(grep -c '' "$LAST_ERR") lines"
cat >hidden.sh <<'EOF'
set -u
awk '($3 == "tracefs" || $3 == "debugfs") && $2 != "/sys/kernel/tracing" { print $2 }' \
	/proc/mounts | sort -r | while read -r m; do umount -l "$m" 2>/dev/null; done
mount -t tmpfs none /sys/kernel/tracing || exit 90
mount -t tmpfs none /sys/kernel/debug || exit 90
"$@" -e sched:sched_switch -o tf.data -- true >hidden.err 2>&1
echo "rc=$?" >>hidden.err
cmd=$(grep -o "'mount -t tracefs[^']*'" hidden.err | tr -d "'")
[ -n "$cmd" ] || exit 91
$cmd || exit 92
exec "$@" -e sched:sched_switch -o tf2.data -- true
EOF
private tf_hidden bash hidden.sh "$PREC"
log "tracefs hidden: $(head -n 1 hidden.err)"
(($(grep -c '' hidden.err) == 2)) || fail "tracefs hidden: want one line, got: $(cat hidden.err)"
grep -Eq "^rc=([1-9]|[1-9][0-9]|1[01][0-9]|12[0-5])$" hidden.err ||
	fail "tracefs hidden: exit status $(tail -n 1 hidden.err)"
grep -q "no events/.*'mount -t tracefs nodev /sys/kernel/tracing'" hidden.err ||
	fail "tracefs hidden: $(cat hidden.err)"
[[ -e tf.data ]] && fail "tracefs hidden: tf.data was left behind"
recorded "sched:sched_switch, tracefs hidden, after its mount" tf2.data

# sysfs hidden: no CPUs, no PMUs; its mount, as named, brings both back.
cat >nosys.sh <<'EOF2'
set -u
mount -t tmpfs none /sys || exit 90
"$@" -o nosys.data -- true >nosys.err 2>&1
echo "rc=$?" >>nosys.err
cmd=$(grep -o "'mount -t sysfs[^']*'" nosys.err | tr -d "'")
[ -n "$cmd" ] || exit 91
$cmd || exit 92
exec "$@" -o nosys2.data -- true
EOF2
private sysfs_hidden bash nosys.sh "$PREC"
log "sysfs hidden: $(head -n 1 nosys.err)"
(($(grep -c '' nosys.err) == 2)) || fail "sysfs hidden: want one line, got: $(cat nosys.err)"
grep -Eq "^rc=([1-9]|[1-9][0-9]|1[01][0-9]|12[0-5])$" nosys.err ||
	fail "sysfs hidden: exit status $(tail -n 1 nosys.err)"
[[ -e nosys.data ]] && fail "sysfs hidden: nosys.data was left behind"
recorded "sysfs hidden, after its mount" nosys2.data

# ---- too few open files ----------------------------------------------------
events=cpu-clock,task-clock,page-faults,minor-faults,major-faults,context-switches
# Under the soft limit perf 6.1 raises it to the hard one and records: so
# does prec.
_run nofile_soft bash -c 'ulimit -Sn 12 && exec "$@"' - "$PREC" -a -e "$events" -o nofile.data -- true
recorded "ulimit -Sn 12 (raised to the hard limit, as perf does)" nofile.data
# Under the hard limit: the line names the limit that fits, for the shell
# that runs prec. Root may raise a hard limit only with CAP_SYS_RESOURCE
# (some containers and VMs lack it): there the same limit is set from a
# shell that has room, which is what the command gives.
_run nofile_hard bash -c 'ulimit -n 12 && exec "$@"' - "$PREC" -a -e "$events" -o nofile2.data -- true
taught "ulimit -n 12" nofile2.data "'prlimit --nofile=[0-9]+:[0-9]+ --pid \\\$\\\$'"
prlimit_cmd=$(fix "prlimit")
perf_says "ulimit -n 12" bash -c 'ulimit -n 12 && exec "$@"' - "$PERF" record -a -e "$events" \
	-o perf_nofile.data -- true
n=$(sed -n 's/.*--nofile=\([0-9]*\):.*/\1/p' <<<"$prlimit_cmd")
if bash -c 'ulimit -n 12 && ulimit -n 13' 2>/dev/null; then
	_run nofile_hard_ok bash -c 'ulimit -n 12 && '"$prlimit_cmd"' && exec "$@"' - "$PREC" -a \
		-e "$events" -o nofile2.data -- true
else
	# shellcheck disable=SC2016 # expanded by the inner shell
	_run nofile_hard_ok bash -c 'ulimit -n "$1" && shift && exec "$@"' - "$n" "$PREC" -a \
		-e "$events" -o nofile2.data -- true
fi
recorded "ulimit -n 12, after '$prlimit_cmd'" nofile2.data

# ---- events this machine does not have -------------------------------------
_run pmu "$PREC" -e nosuchpmu/foo/ -o pmu.data -- true
taught "-e nosuchpmu/foo/" pmu.data "unknown PMU 'nosuchpmu'" "PMUs here: " "'prec --list-events'"
perf_says "-e nosuchpmu/foo/" "$PERF" record -e nosuchpmu/foo/ -o perf_pmu.data -- true
_run list "$PREC" --list-events
((LAST_RC == 0)) || fail "prec --list-events, the named command, fails"
if [[ ! -e /sys/bus/event_source/devices/cpu && ! -e /sys/bus/event_source/devices/cpu_core ]]; then
	_run raw "$PREC" -e r1234 -o raw.data -- true
	taught "-e r1234 without a hardware PMU" raw.data "no hardware PMU" "-e cpu-clock"
	perf_says "-e r1234 without a hardware PMU" "$PERF" record -e r1234 -o perf_raw.data -- true
	_run raw_ok "$PREC" -e cpu-clock -o raw.data -- true
	recorded "-e cpu-clock, the event the line names" raw.data
fi

# A tracepoint filter the kernel refuses: the event's format file lists the
# fields a filter may name.
if [[ -d $tracing/events/sched/sched_switch ]]; then
	_run filter "$PREC" -e sched:sched_switch --filter 'nosuch == 1' -o filter.data -- true
	taught "--filter 'nosuch == 1'" filter.data "'cat $tracing/events/sched/sched_switch/format'"
	cat_cmd=$(fix "cat ")
	eval "$cat_cmd" | has_match 'field:.*prev_pid' || fail "'$cat_cmd' lists no fields"
	_run filter_ok "$PREC" -e sched:sched_switch --filter 'prev_pid != 0' -a -o filter.data -- sleep 0.1
	recorded "--filter on a field '$cat_cmd' lists" filter.data
fi

# ---- targets ---------------------------------------------------------------
nopid=$(($(cat /proc/sys/kernel/pid_max) - 1))
while [[ -e /proc/$nopid ]]; do nopid=$((nopid - 1)); done
_run nopid "$PREC" -p "$nopid" -o nopid.data
taught "-p of no process" nopid.data "no such process" "'ps -eLf'"
absent=$(($(getconf _NPROCESSORS_CONF) + 7))
_run nocpu "$PREC" -C "$absent" -o nocpu.data -- true
taught "-C $absent" nocpu.data "CPU $absent" "-C [0-9]"
online=$(sed -n "s/.*record the online CPUs with -C \([0-9,-]*\).*/\1/p" "$LAST_ERR")
_run nocpu_ok "$PREC" -C "$online" -o nocpu.data -- true
recorded "-C $online, the CPUs the line names" nocpu.data
_run nouser "$PREC" -u prec-no-such-user -o nouser.data -- true
taught "-u of no user" nouser.data "'getent passwd'"
_run nocg "$PREC" -a --cgroup prec-no-such-cgroup -o nocg.data -- true
taught "--cgroup of no cgroup" nocg.data "'ls /[^']*'"

# Another user's process: the ptrace capability, granted as the line says.
sleep 30 &
victim=$!
track_pid "$victim"
run_user ptrace "$TMP/prec-cap" -p "$victim" -o u/p.data -- sleep 0.3
taught "-p of root's process as nobody" u/p.data "'sudo setcap cap_sys_ptrace\+ep $TMP/prec-cap'"
setcap_cmd=$(fix "setcap")
eval "$setcap_cmd" || fail "'$setcap_cmd' failed"
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	run_user ptrace_ok "$TMP/prec-cap" -p "$victim" -o u/p.data -- sleep 0.3
recorded "-p of root's process, after '$setcap_cmd'" u/p.data
setcap -r "$TMP/prec-cap"
kill "$victim" 2>/dev/null

# ---- the output ------------------------------------------------------------
_run nodir "$PREC" -o "$TMP/nodir/x/out.data" -- true
taught "-o into a missing directory" "$TMP/nodir/x/out.data" "'mkdir -p $TMP/nodir/x/'"
mkdir_cmd=$(fix "mkdir -p")
eval "$mkdir_cmd" || fail "'$mkdir_cmd' failed"
_run nodir_ok "$PREC" -o "$TMP/nodir/x/out.data" -- true
recorded "-o into a missing directory, after '$mkdir_cmd'" "$TMP/nodir/x/out.data"
run_user noperm "$PREC" -o "$TMP/noperm.data" -- true
taught "-o where the user may not write" "$TMP/noperm.data" "-o /tmp/perf.data"

pass
