#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Errors that teach, locked memory: rings past what a user may lock
# (kernel.perf_event_mlock_kb x CPUs, then RLIMIT_MEMLOCK) are refused with
# one line naming the limit computed for the rings asked ('ulimit -l N' when
# the hard limit has room, else 'sysctl -w kernel.perf_event_mlock_kb=N')
# and the largest -m that fits; each named command, run as written, lets
# prec record. perf record fails the same way, in several lines.
source "${TEST_LIB:-$(dirname "$0")/lib.sh}" || exit 1

need_root "the cases need another user and a sysctl"
need_tool setpriv "install util-linux"
as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups)
chmod 755 "$TMP"
mkdir -m 777 u

mlock_was=$(cat /proc/sys/kernel/perf_event_mlock_kb)
trap '_rc=$?; echo "$mlock_was" >/proc/sys/kernel/perf_event_mlock_kb; (exit $_rc); _cleanup' EXIT
echo 516 >/proc/sys/kernel/perf_event_mlock_kb

# user TAG LIMITS ARGS...: prec (or perf) as nobody in a shell that set LIMITS.
user()
{
	local tag=$1 limits=$2
	shift 2
	_run "$tag" "${as_user[@]}" bash -c "$limits && exec \"\$@\"" - "$@"
}

# named PREFIX: the command the last line names that starts with PREFIX,
# 'sudo ' dropped.
named()
{
	local cmd
	cmd=$(grep -o "'\(sudo \)\{0,1\}$1[^']*'" "$LAST_ERR" | head -n 1)
	cmd=${cmd#\'}
	cmd=${cmd%\'}
	echo "${cmd#sudo }"
}

# one_line WHAT FILE: the last run failed with one line, 1..125, no FILE.
one_line()
{
	((LAST_RC >= 1 && LAST_RC <= 125)) || fail "$1: exit status $LAST_RC, expected 1..125"
	(($(grep -c '' "$LAST_ERR") == 1)) || fail "$1: $(grep -c '' "$LAST_ERR") lines on stderr"
	grep -q "^prec: cannot map 4096 KiB ring buffers per CPU: .*perf_event_mlock_kb" "$LAST_ERR" ||
		fail "$1: $(cat "$LAST_ERR")"
	[[ -e "$2" ]] && fail "$1: $2 was left behind"
	log "$1: $(cat "$LAST_ERR")"
}

recorded()
{
	((LAST_RC == 0)) || fail "$1: after the fix prec still fails: $(cat "$LAST_ERR")"
	"$PERF" report -f --stdio -i "$2" >/dev/null 2>&1 || fail "$1: perf cannot read $2"
	log "$1: the named fix works"
	rm -f "$2"
}

# No locked memory of one's own (hard limit 0): only root can help.
user none 'ulimit -l 0' "$PREC" -m 4M -o u/m.data -- true
one_line "ulimit -l 0, -m 4M" u/m.data
sysctl_cmd=$(named "sysctl -w kernel.perf_event_mlock_kb=")
m_opt=$(grep -o -- "-m [0-9]*K" "$LAST_ERR")
[[ -n "$sysctl_cmd" && -n "$m_opt" ]] || fail "ulimit -l 0: no sysctl or -m named: $(cat "$LAST_ERR")"
user none_perf 'ulimit -l 0' "$PERF" record -m 4M -o u/perf.data -- true
((LAST_RC != 0)) || fail "ulimit -l 0, -m 4M: perf record succeeded where prec failed"
log "ulimit -l 0, -m 4M: perf record says it in $(grep -c '' "$LAST_ERR") lines"
# shellcheck disable=SC2086 # "-m NK": two words
user none_m 'ulimit -l 0' "$PREC" $m_opt -o u/m.data -- true
recorded "ulimit -l 0, with the named $m_opt" u/m.data
eval "$sysctl_cmd" >/dev/null || fail "'$sysctl_cmd' failed"
user none_ok 'ulimit -l 0' "$PREC" -m 4M -o u/m.data -- true
recorded "ulimit -l 0, -m 4M, after '$sysctl_cmd'" u/m.data
echo 516 >/proc/sys/kernel/perf_event_mlock_kb

# A soft limit of 0 under a hard one: the user's own 'ulimit -l N' where the
# hard limit has room for what the rings need past perf_event_mlock_kb.
user soft 'ulimit -Sl 0' "$PREC" -m 4M -o u/s.data -- true
one_line "ulimit -Sl 0, -m 4M" u/s.data
fix=$(named "ulimit -l ")
[[ -n "$fix" ]] || fix=$(named "sysctl -w kernel.perf_event_mlock_kb=")
[[ -n "$fix" ]] || fail "ulimit -Sl 0: no command named: $(cat "$LAST_ERR")"
if [[ $fix == ulimit* ]]; then
	user soft_ok "ulimit -Sl 0 && $fix" "$PREC" -m 4M -o u/s.data -- true
else
	eval "$fix" >/dev/null || fail "'$fix' failed"
	user soft_ok 'ulimit -Sl 0' "$PREC" -m 4M -o u/s.data -- true
fi
recorded "ulimit -Sl 0, -m 4M, after '$fix'" u/s.data

pass
