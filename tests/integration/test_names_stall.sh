#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The names path never hangs prec (issue 37): a traced JIT process's /tmp is
# a FUSE filesystem (tests/fixtures/fuse/prec_stallfs.c) that stops
# answering while prec reads the process's perf map there, as a container
# that can mount FUSE, or a hung NFS /tmp, can make it. The filesystem reads
# every later request and never answers it: a task whose request it read
# waits uninterruptibly, SIGKILL included. perf record ends there in its
# normal time; prec must too:
#  (a) the command (the fake JIT, prec_fakejit, for 2 s; the stall starts
#      at 0.7 s) ends by itself: prec ends within 2 s of it (plus slack for
#      a loaded machine, STALL_SLACK, 8 s by default), exit 0, and perf
#      report reads its file without a warning; prec may say one warning
#      line that names the map;
#  (b) the command keeps running during the stall: SIGINT ends prec within
#      the same time;
#  (c) as (b), SIGKILL: prec is gone (reaped, no thread of it left stuck in
#      the filesystem) within the same time;
#  (d) a library mapped executable from the filesystem before it stalls,
#      with --buildid-all (its build-id is read through the mapping):
#      prec ends within the same time after the command, with at most one
#      warning, naming the library.
# In (a), the JIT functions read before the stall stay named.
# The test never hangs itself: each wait has a deadline, and at the end (or
# on any exit) the stalled daemons are killed, which aborts what they hold
# and frees whatever waits on them.
# shellcheck source=/dev/null # lib.sh, found at run time
source "${TEST_LIB:-$(dirname "$0")/lib.sh}" || exit 1

need_root "mounting a FUSE filesystem, reading another process's root"
need_namespaces "the traced process's private /tmp"
need_tool unshare "install util-linux"
STALLFS=$WORKLOAD_DIR/prec_stallfs
FAKEJIT=$WORKLOAD_DIR/prec_fakejit
[[ -x $STALLFS ]] || skip "prec_stallfs not built: install libfuse3-dev (scripts/bootstrap --test) and rebuild"
[[ -c /dev/fuse ]] || skip "no /dev/fuse (modprobe fuse)"
[[ -x $FAKEJIT ]] || fail "prec_fakejit not built"
"$FAKEJIT" --no-map 1 || skip "prec_fakejit cannot JIT here (x86_64 and aarch64 only)"

# The JIT ELFs prec writes go to this test's build-id cache.
export HOME=$TMP/home
mkdir -p "$HOME"
SLACK=${STALL_SLACK:-8}
LIMIT=$((2 + SLACK)) # seconds prec may take after its command ended, or after SIGINT/SIGKILL

# The wrapper's files live outside /tmp, which it mounts over.
HOST=$(mktemp -d /var/tmp/prec-stall.XXXXXX) || fail "mktemp /var/tmp"

# stall_cleanup: kill every stalled daemon (the kernel then aborts what it
# holds: whatever waits on it ends) and every wrapper still there.
stall_cleanup()
{
	local f
	for f in "$HOST"/*/stallfs.pid "$HOST"/*/wrap.pid; do
		[[ -s $f ]] && kill -KILL "$(cat "$f")" 2>/dev/null
	done
	return 0
}
on_exit()
{
	local rc=$?
	stall_cleanup
	[[ -n ${KEEP_TMP:-} ]] || rm -rf "$HOST"
	(exit "$rc")
	_cleanup
}
trap on_exit EXIT

# The traced command: stall-wrap DIR MODE, in a private mount namespace
# (privmnt). It mounts prec_stallfs over /tmp, runs the fake JIT there for
# 2 s (its map written at its start, then closed: the JIT itself never
# touches /tmp again), stalls the filesystem at 0.7 s (DIR/stalled says
# when), waits for the JIT, and then exits (MODE exit: DIR/cmd_end says
# when) or sleeps 60 s (MODE hold).
cat >"$HOST/stall-wrap" <<EOF
#!/usr/bin/env bash
d=\$1 mode=\$2
echo \$\$ >"\$d/wrap.pid"
"$STALLFS" --pidfile "\$d/stallfs.pid" -f /tmp >/dev/null 2>"\$d/stallfs.err" &
for ((i = 0; i < 200; i++)); do
	[[ -s \$d/stallfs.pid ]] && break
	sleep 0.05
done
[[ -s \$d/stallfs.pid ]] || { echo "stall-wrap: prec_stallfs did not mount" >&2; exit 97; }
cd / || exit 97
"$FAKEJIT" --close-map --prefix stalljit 2000 &
jit=\$!
sleep 0.7
kill -USR1 "\$(cat "\$d/stallfs.pid")"
date +%s.%N >"\$d/stalled"
wait "\$jit"
rc=\$?
[[ \$mode == hold ]] && exec sleep 60 # the same pid: wrap.pid ends it
date +%s.%N >"\$d/cmd_end"
exit \$rc
EOF
chmod +x "$HOST/stall-wrap"
{
	echo '#!/usr/bin/env bash'
	declare -f in_private_mounts
	echo 'in_private_mounts "$@"'
} >"$TMP/privmnt"
chmod +x "$TMP/privmnt"

# gone PID: the process is reaped (this shell reaps its children as they
# end), so no thread of it is left.
gone()
{
	! kill -0 "$1" 2>/dev/null
}

# evidence PID: where each thread of PID waits, for the failure message.
evidence()
{
	local t
	for t in /proc/"$1"/task/*; do
		[[ -e $t/stat ]] || continue
		echo "    thread $(basename "$t") ($(cat "$t/comm" 2>/dev/null)): state $(awk '{ print $3 }' "$t/stat" 2>/dev/null), wchan $(cat "$t/wchan" 2>/dev/null)"
	done
}

# wait_gone PID DEADLINE (epoch seconds): 0 once PID is gone, 1 at DEADLINE.
wait_gone()
{
	while ! gone "$1"; do
		awk -v n="$EPOCHREALTIME" -v d="$2" 'BEGIN { exit !(n >= d) }' && return 1
		sleep 0.1
	done
	return 0
}

# wait_file FILE SECONDS: 0 once FILE exists.
wait_file()
{
	local i
	for ((i = 0; i < $2 * 10; i++)); do
		[[ -s $1 ]] && return 0
		sleep 0.1
	done
	return 1
}

# start CASE MODE: prec records stall-wrap in the background; PID in PREC_PID.
start()
{
	mkdir -p "$HOST/$1"
	"$PREC" record -e cpu-clock -o "$TMP/$1.data" -- "$TMP/privmnt" "$HOST/stall-wrap" "$HOST/$1" "$2" \
		>"$TMP/$1.out" 2>"$TMP/$1.err" &
	PREC_PID=$!
	track_pid "$PREC_PID"
}

# finish CASE: free a prec that hung (the daemon killed: what it holds
# fails), reap it; its exit status in CASE_RC.
finish()
{
	stall_cleanup
	if ! wait_gone "$PREC_PID" "$(awk -v n="$EPOCHREALTIME" 'BEGIN { printf "%.3f", n + 30 }')" 2>/dev/null; then
		kill -KILL "$PREC_PID" 2>/dev/null
	fi
	wait "$PREC_PID" 2>/dev/null # no job notice for a prec killed on purpose
	CASE_RC=$?
}

failures=()
bad()
{
	log "FAILED: $*"
	failures+=("$*")
}

# prec's lines: at most one warning, and it names the map (or RE).
warnings_ok()
{
	local what=$1 err=$2 re=${3:-'perf-[0-9]+\.map'} n
	n=$(grep -ci 'warning' "$err")
	if ((n > 1)) || { ((n == 1)) && ! grep -i 'warning' "$err" | grep -Eq "$re"; }; then
		bad "$what: prec's warnings are not one line naming $re: $(grep -i warning "$err" | head -n 3)"
	fi
	grep -i 'warning' "$err" | sed "s/^/$TEST_NAME: $what: prec said: /" >&2
}

# ---- (a) the command ends by itself during the stall ----
start a exit
if ! wait_file "$HOST/a/stalled" 30; then
	finish a
	fail "(a): the stall never started: $(cat "$HOST/a/stallfs.err" "$TMP/a.err" 2>/dev/null | head -n 5)"
fi
# The command ends at about 2 s; its end plus LIMIT is prec's deadline.
deadline=$(awk -v n="$EPOCHREALTIME" -v l="$LIMIT" 'BEGIN { printf "%.3f", n + 10 + l }')
while ! gone "$PREC_PID" && [[ ! -s $HOST/a/cmd_end ]] &&
	awk -v n="$EPOCHREALTIME" -v d="$deadline" 'BEGIN { exit !(n < d) }'; do
	sleep 0.1
done
[[ -s $HOST/a/cmd_end ]] && deadline=$(awk -v e="$(cat "$HOST/a/cmd_end")" -v l="$LIMIT" 'BEGIN { printf "%.3f", e + l }')
if wait_gone "$PREC_PID" "$deadline"; then
	wait "$PREC_PID" 2>/dev/null # no job notice for a prec killed on purpose
	CASE_RC=$?
	took=$(awk -v n="$EPOCHREALTIME" -v e="$(cat "$HOST/a/cmd_end" 2>/dev/null || echo 0)" 'BEGIN { printf "%.1f", n - e }')
	log "(a): prec ended ${took} s after its command, exit $CASE_RC"
	stall_cleanup
	if ((CASE_RC != 0)); then
		bad "(a): prec exited $CASE_RC: $(head -n 5 "$TMP/a.err")"
	else
		warnings_ok "(a)" "$TMP/a.err"
		# perf report reads the file without a warning (prec's run is over).
		(require_valid "$TMP/a.data") || bad "(a): perf report does not read prec's file cleanly"
		# What was read before the stall names the JIT's samples.
		named=$("$PERF" report --stdio --sort sym -i "$TMP/a.data" 2>/dev/null |
			awk '!/^#/ && $1 ~ /%$/ && /stalljit::/ { s += $1 } END { printf "%d\n", s }')
		log "(a): $named % of the samples named stalljit::*"
		((named >= 50)) || bad "(a): the JIT's names read before the stall were lost: $named % named"
	fi
else
	bad "(a): prec still runs ${LIMIT} s after its command ended (the stalled /tmp hangs it):
$(evidence "$PREC_PID")"
	finish a
fi

# ---- (b) SIGINT during the stall ----
start b hold
if wait_file "$HOST/b/stalled" 30; then
	sleep 1 # prec's reads are waiting on the filesystem by now
	kill -INT "$PREC_PID"
	sent=$EPOCHREALTIME
	if wait_gone "$PREC_PID" "$(awk -v n="$sent" -v l="$LIMIT" 'BEGIN { printf "%.3f", n + l }')"; then
		wait "$PREC_PID" 2>/dev/null # no job notice for a prec killed on purpose
		CASE_RC=$?
		log "(b): prec ended $(awk -v n="$EPOCHREALTIME" -v s="$sent" 'BEGIN { printf "%.1f", n - s }') s after SIGINT, exit $CASE_RC"
		stall_cleanup
		warnings_ok "(b)" "$TMP/b.err"
		(require_valid "$TMP/b.data") || bad "(b): perf report does not read prec's file cleanly"
	else
		bad "(b): prec still runs ${LIMIT} s after SIGINT during the stall:
$(evidence "$PREC_PID")"
		finish b
	fi
else
	bad "(b): the stall never started: $(head -n 3 "$HOST/b/stallfs.err" "$TMP/b.err" 2>/dev/null)"
	finish b
fi

# ---- (c) SIGKILL during the stall ----
start c hold
if wait_file "$HOST/c/stalled" 30; then
	sleep 1
	# Quiet: no job notice for a prec killed on purpose.
	{
		kill -KILL "$PREC_PID"
		sent=$EPOCHREALTIME
		wait_gone "$PREC_PID" "$(awk -v n="$sent" -v l="$LIMIT" 'BEGIN { printf "%.3f", n + l }')"
		killed=$?
		took=$(awk -v n="$EPOCHREALTIME" -v s="$sent" 'BEGIN { printf "%.1f", n - s }')
		((killed)) || wait "$PREC_PID"
	} 2>/dev/null
	if ((killed == 0)); then
		log "(c): prec gone $took s after SIGKILL"
	else
		bad "(c): prec not gone ${LIMIT} s after SIGKILL: a thread of it waits on the stalled filesystem:
$(evidence "$PREC_PID")"
	fi
	finish c
else
	bad "(c): the stall never started: $(head -n 3 "$HOST/c/stallfs.err" "$TMP/c.err" 2>/dev/null)"
	finish c
fi

# ---- (d) a library mapped from the filesystem, then the stall ----
# The command maps a copy of libm executable from the filesystem (its
# descriptor closed, so nothing of the command touches it again), stalls
# it and spins 1 s; --buildid-all asks the build-id of every mapped file.
cat >"$HOST/bin-wrap" <<EOF
#!/usr/bin/env bash
d=\$1
"$STALLFS" --pidfile "\$d/stallfs.pid" -f "\$d/mnt" >/dev/null 2>"\$d/stallfs.err" &
for ((i = 0; i < 200; i++)); do
	[[ -s \$d/stallfs.pid ]] && break
	sleep 0.05
done
[[ -s \$d/stallfs.pid ]] || { echo "bin-wrap: prec_stallfs did not mount" >&2; exit 97; }
cp "\$(find /usr/lib /lib -name 'libm.so.6' 2>/dev/null | head -n 1)" "\$d/mnt/libstall.so" || exit 97
exec python3 "$HOST/bin-map.py" "\$d"
EOF
cat >"$HOST/bin-map.py" <<'EOF'
import ctypes, os, signal, sys, time
d = sys.argv[1]
libc = ctypes.CDLL(None, use_errno=True)
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int,
                      ctypes.c_int, ctypes.c_long]
fd = os.open(d + "/mnt/libstall.so", os.O_RDONLY)
libc.mmap(None, 65536, 5, 2, fd, 0)  # PROT_READ|PROT_EXEC, MAP_PRIVATE
os.close(fd)
os.kill(int(open(d + "/stallfs.pid").read()), signal.SIGUSR1)
open(d + "/stalled", "w").write("1")
t = time.time()
while time.time() - t < 1.0:
    pass
open(d + "/cmd_end", "w").write("%.6f" % time.time())
EOF
chmod +x "$HOST/bin-wrap"
if command -v python3 >/dev/null; then
	mkdir -p "$HOST/d/mnt"
	"$PREC" record -e cpu-clock --buildid-all -o "$TMP/d.data" -- "$TMP/privmnt" "$HOST/bin-wrap" "$HOST/d" \
		>"$TMP/d.out" 2>"$TMP/d.err" &
	PREC_PID=$!
	track_pid "$PREC_PID"
	if wait_file "$HOST/d/stalled" 30 && wait_file "$HOST/d/cmd_end" 30; then
		if wait_gone "$PREC_PID" "$(awk -v e="$(cat "$HOST/d/cmd_end")" -v l="$LIMIT" 'BEGIN { printf "%.3f", e + l }')"; then
			wait "$PREC_PID" 2>/dev/null # no job notice
			CASE_RC=$?
			log "(d): prec ended $(awk -v n="$EPOCHREALTIME" -v e="$(cat "$HOST/d/cmd_end")" 'BEGIN { printf "%.1f", n - e }') s after its command, exit $CASE_RC"
			stall_cleanup
			((CASE_RC == 0)) || bad "(d): prec exited $CASE_RC: $(head -n 5 "$TMP/d.err")"
			warnings_ok "(d)" "$TMP/d.err" 'libstall\.so'
		else
			bad "(d): prec still runs ${LIMIT} s after its command ended (a stalled library hangs it):
$(evidence "$PREC_PID")"
			finish d
		fi
	else
		bad "(d): the stall never started: $(head -n 3 "$HOST/d/stallfs.err" "$TMP/d.err" 2>/dev/null)"
		finish d
	fi
else
	log "(d): no python3, case left out"
fi

if ((${#failures[@]})); then
	fail "${#failures[@]} of 4 cases: $(printf '%s; ' "${failures[@]}")"
fi
pass "a stalled /tmp or library delays prec by at most ${LIMIT} s: at the command's end, SIGINT, SIGKILL"

