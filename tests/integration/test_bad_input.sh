#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Bad command lines: for each, prec prints one clear line on stderr that
# starts with "prec:" and names the problem, exits 1..125 (126: command not
# executable, 127: command not found) without crashing, and leaves no file
# that claims to be a recording: a new -o file is not created, an existing
# one keeps its content and is not rotated to .old.
source "${TEST_LIB:-$(dirname "$0")/lib.sh}" || exit 1

need_root "cases as another user (setpriv) and system-wide ones (-a)"

# bad RC PATTERN... -- PREC-ARGS...
#   RC: "err" (1..125), or an exact status. Every PATTERN (extended regex,
#   case-insensitive) must match one and the same "prec:" line. @OUT@ in the
#   arguments is the output file; each case runs twice: with no such file,
#   and with an existing file holding other content.
ncase=0
bad()
{
	local want=$1 pats=() args=() a variant out rc line ok p
	shift
	while (($#)) && [[ "$1" != -- ]]; do
		pats+=("$1")
		shift
	done
	shift
	ncase=$((ncase + 1))
	for variant in fresh existing; do
		out=$TMP/case$ncase-$variant.data
		rm -f "$out" "$out.old"
		[[ $variant == existing ]] && printf 'previous content\n' >"$out"
		args=()
		for a in "$@"; do
			args+=("${a//@OUT@/$out}")
		done
		run_prec "${args[@]}"
		rc=$PREC_RC
		local what="prec ${args[*]} ($variant output file)"

		if [[ $want == err ]]; then
			((rc >= 1 && rc <= 125)) || fail "$what: exit status $rc, expected 1..125"
		else
			((rc == want)) || fail "$what: exit status $rc, expected $want"
		fi

		line=$(head -n 1 "$PREC_ERR")
		[[ "$line" == prec:* ]] || fail "$what: first stderr line '$line' does not start with 'prec:'"
		(($(grep -c . "$PREC_ERR") == 1)) || fail "$what: $(grep -c . "$PREC_ERR") lines on stderr, expected one"
		ok=0
		while IFS= read -r line; do
			ok=1
			for p in "${pats[@]}"; do
				grep -Eiq -- "$p" <<<"$line" || { ok=0; break; }
			done
			((ok)) && break
		done < <(grep '^prec:' "$PREC_ERR")
		((ok)) || fail "$what: no 'prec:' line on stderr matches all of: ${pats[*]}"
		no_grep_or_fail 'Captured and wrote' "$PREC_ERR" "$what"
		# Text only: an uninitialised buffer shows up as stray bytes.
		LC_ALL=C grep -q '[^[:print:][:space:]]' "$PREC_ERR" &&
			fail "$what: non-printable bytes on stderr: $(od -c "$PREC_ERR" | head -n 4)"
		no_grep_or_fail 'AddressSanitizer|Segmentation|core dumped|Aborted' "$PREC_ERR" "$what"

		# Only files under $TMP are judged; -o elsewhere is checked below.
		if [[ $variant == fresh ]]; then
			[[ -e "$out" ]] && fail "$what: left $out behind ($(stat -c %s "$out") bytes)"
		else
			[[ "$(cat "$out" 2>/dev/null)" == 'previous content' ]] ||
				fail "$what: the existing output file was replaced or changed"
		fi
		[[ -e "$out.old" ]] && fail "$what: rotated the existing output file to $out.old"
	done
	return 0
}

bad err 'nosuch' -- --nosuch -o @OUT@ -- true
bad err 'nosuch' -- record --nosuch -o @OUT@ -- true
bad 127 '/nonexistent/cmd' -- -o @OUT@ -- /nonexistent/cmd
bad 126 '/etc/passwd' -- -o @OUT@ -- /etc/passwd
bad err '-F|freq' -- -F 0 -o @OUT@ -- true
bad err 'abc' '-F|freq' -- -F abc -o @OUT@ -- true
bad err '-c|count|period' -- -c 0 -o @OUT@ -- true
bad err '-5' -- -c -5 -o @OUT@ -- true
bad err 'abc' '-m|mmap' -- -m abc -o @OUT@ -- true
bad err 'nosuch' -- -e nosuch -o @OUT@ -- true
bad err 'call-graph' 'nosuch' -- --call-graph nosuch -o @OUT@ -- true
bad err 'stack dump size' -- --call-graph dwarf,70000 -o @OUT@ -- true
bad err 'compression' '0' -- -z 0 -o @OUT@ -- true
bad err 'compression' '23' -- -z 23 -o @OUT@ -- true
bad err 'aio' '5' -- --aio=5 -o @OUT@ -- true
bad err 'aio' '0' -- --aio=0 -o @OUT@ -- true
bad err 'aio' 'abc' -- --aio=abc -o @OUT@ -- true
bad err 'affinity' 'node or cpu' -- --affinity=x -o @OUT@ -- true
bad err 'realtime' '100' -- -r 100 -o @OUT@ -- true
# Output management (issue 5).
bad err 'switch-output' '7q' -- --switch-output=7q -o @OUT@ -- true
bad err 'switch-output' '10x' -- --switch-output=10x -o @OUT@ -- true
bad err 'max-size' '-1' -- --max-size=-1 -o @OUT@ -- true
bad err 'max-size' '0' -- --max-size=0 -o @OUT@ -- true
bad err 'mmap-flush' 'abc' -- --mmap-flush=abc -o @OUT@ -- true
bad err 'names-cache-max' 'abc' -- --names-cache-max=abc -o @OUT@ -- true
bad err 'names-cache-max' '-1' -- --names-cache-max=-1 -o @OUT@ -- true
bad err 'switch-max-files' 'switch-output' -- --switch-max-files=3 -o @OUT@ -- true
bad err 'switch-max-files' 'x' -- --switch-output --switch-max-files=x -o @OUT@ -- true
bad err 'modifier' 'z' -- -e cpu-clock:zz -o @OUT@ -- true
bad err 'foo' 'software' -- -e 'software/foo=1/' -o @OUT@ -- true
bad err 'msr/tsc/' "-a" -- -e msr/tsc/ -o @OUT@ -- true
bad err '\{' -- -e '{cpu-clock,task-clock' -o @OUT@ -- true
bad err 'filter' 'nosuchfield' -- -a -e sched:sched_switch --filter 'nosuchfield == 1' -o @OUT@ -- true
# What needs an AUX area PMU or BPF (none on a machine without one): perf's
# words and the fix, never ignored.
bad err 'No AUX area tracing to snapshot' 'intel_pt' -- -S -o @OUT@ -- true
bad err 'No AUX area tracing to snapshot' -- --snapshot=e -o @OUT@ -- true
bad err 'No AUX area event to sample' -- --aux-sample -o @OUT@ -- true
bad err 'aux-output' 'AUX area event' -- -e 'cpu-clock/aux-output/' -o @OUT@ -- true
bad err 'off-cpu-thresh' 'add --off-cpu' -- --off-cpu-thresh 10 -o @OUT@ -- true
# perf's other commands: what the user meant, in the one line.
bad 127 "cannot run 'report'" "perf report" -- -o @OUT@ report
bad 127 "cannot run 'help'" 'prec --help' -- -o @OUT@ help
bad 127 "cannot run 'version'" 'prec --version' -- -o @OUT@ version
bad err 'frequency and period' -- -F 100 -c 1000 -o @OUT@ -- true
bad err 'off-cpu-thresh' 'milliseconds' -- --off-cpu --off-cpu-thresh 1.5 -o @OUT@ -- true
printf 'int x;\n' >"$TMP/scriptlet.c"
bad err 'BPF scriptlet' 'bpftool' -- -e "$TMP/scriptlet.c" -o @OUT@ -- true
# Targets (issue 4): CPUs that are not there, processes and users that do not exist.
bad err 'CPU 99' 'online' -- -C 99 -o @OUT@ -- true
bad err '-C|cpu' "1-" -- -C 1- -o @OUT@ -- true
bad err '-C|cpu' -- -C '' -o @OUT@ -- true
bad err '999999' 'process' -- -p 999999 -o @OUT@
bad err 'abc' '-t|tid' -- -t abc -o @OUT@
bad err 'nosuchuser' 'user' -- -u nosuchuser -o @OUT@
bad err '-G|cgroup' '-a' -- -G x -o @OUT@ -- true
bad err 'nosuchcgroup' 'cgroup' -- -a -G nosuchcgroup -o @OUT@ -- true
bad err 'requires|argument|missing|value' "-o|output|'o'" -- -o
# Empty lists: perf 6.1 says 'unknown branch filter ,' and 'Unknown register ""'.
bad err "unknown branch filter ''" -- -j '' -o @OUT@ -- true
bad err "unknown register ''" -- --user-regs= -o @OUT@ -- true
bad err "unknown register ''" -- --intr-regs= -o @OUT@ -- true
# An empty -G (an unset variable) must not widen -G to every cgroup.
bad err 'empty' '-G|cgroup' -- -a -G '' -o @OUT@ -- true
# A process prec may not trace (perf 6.1 exits 255 without a word, leaving a
# torn file): nobody may not read pid 1's maps (root may not either here).
printf '#!/bin/sh\nexec setpriv --reuid=65534 --regid=65534 --clear-groups "%s" "$@"\n' "$PREC" >as-nobody
chmod 755 as-nobody
PREC=$TMP/as-nobody bad err '/proc/1/maps' 'ptrace' -- -p 1 -o @OUT@ -- true
# --switch-output/--timestamp-filename rename the output at its end: never a
# device (a copy of /dev/null here, so a regression renames only the copy).
mknod null c 1 3 || fail "cannot mknod (the tests run as root)"
for o in --timestamp-filename --switch-output; do
	run_prec "$o" -o null -- true
	what="prec $o -o null (a copy of /dev/null)"
	((PREC_RC >= 1 && PREC_RC <= 125)) || fail "$what: exit status $PREC_RC, expected 1..125"
	grep -q "^prec: .*'null' is not a regular file" "$PREC_ERR" || fail "$what: no line says null is not a regular file"
	[[ -c null ]] || fail "$what: the device node was renamed or removed"
	[[ -z "$(ls null?* 2>/dev/null)" ]] || fail "$what: left $(ls null?*)"
done
# A character device that can seek takes the recording, as with perf.
prec_record_ok -o null -- true
[[ -c null ]] || fail "prec -o null (a copy of /dev/null): the node is gone"

# The empty values under valgrind: the message was built from an
# uninitialised name (valgrind: conditional jump on uninitialised value).
command -v valgrind >/dev/null || fail "valgrind not found (scripts/bootstrap --test installs it)"
for a in -j= --user-regs= --intr-regs=; do
	args=("$a")
	[[ $a == -j= ]] && args=(-j '')
	_run vg valgrind --error-exitcode=99 --leak-check=no "$PREC" "${args[@]}" -o vg.data -- true
	((LAST_RC >= 1 && LAST_RC <= 125 && LAST_RC != 99)) || {
		grep -E '==[0-9]+== ' "$LAST_ERR" | head -n 20 | sed 's/^/    | /' >&2
		fail "prec ${args[*]} under valgrind: exit $LAST_RC (99: valgrind errors)"
	}
	[[ -e vg.data ]] && fail "prec ${args[*]}: left vg.data"
done

# -o paths that are not files to create. one_line_err WHAT PATTERN...: the
# last prec run failed with one 'prec:' line matching every PATTERN.
one_line_err()
{
	local what=$1 p
	shift
	((PREC_RC >= 1 && PREC_RC <= 125)) || fail "$what: exit status $PREC_RC, expected 1..125"
	(($(grep -c . "$PREC_ERR") == 1)) || fail "$what: $(grep -c . "$PREC_ERR") lines on stderr, expected one"
	for p in "$@"; do
		grep -Eq -- "^prec: .*$p" "$PREC_ERR" || fail "$what: the line does not match '$p': $(cat "$PREC_ERR")"
	done
}

# A FIFO: perf 6.1 writes a file-format header into it and then cannot patch
# it (the reader gets garbage). prec refuses before opening it, names the
# stream (-o -), and leaves the FIFO (it used to unlink it).
mkfifo fifo
cat fifo >fifo.got &
reader=$!
track_pid "$reader"
RUN_TIMEOUT=30 run_prec -o fifo -- true
one_line_err "prec -o fifo (a reader waiting)" "'fifo'" 'FIFO' '-o -'
[[ -p fifo ]] || fail "prec -o fifo: the FIFO was removed"
kill "$reader" 2>/dev/null
wait "$reader" 2>/dev/null
[[ -s fifo.got ]] && fail "prec -o fifo: wrote $(stat -c %s fifo.got) bytes into the FIFO before failing"
RUN_TIMEOUT=30 run_prec -o fifo -- true
one_line_err "prec -o fifo (no reader)" 'FIFO'
[[ -p fifo ]] || fail "prec -o fifo (no reader): the FIFO was removed"

# A block device nobody has (a major /proc/devices does not list): refused
# before any open.
major=$(awk '/^Block devices:/ { b = 1; next } b { print $1 }' /proc/devices | sort -n |
	awk 'BEGIN { m = 254 } { used[$1] = 1 } END { while (m >= 240 && used[m]) m--; print m }')
mknod blk b "$major" 0 || fail "cannot mknod a block device"
run_prec -o blk -- true
one_line_err "prec -o blk (a block device)" 'block device'
[[ -b blk ]] || fail "prec -o blk: the node was removed"

# X.old in the way: named as X.old, and neither name changes.
printf 'previous\n' >X.data
mkdir X.data.old
run_prec -o X.data -- true
one_line_err "prec -o X.data (X.data.old a directory)" "'X.data.old'" 'directory'
[[ "$(cat X.data)" == previous && -d X.data.old ]] || fail "prec -o X.data: X.data or X.data.old changed"
printf 'previous\n' >Y.data
mkfifo Y.data.old
run_prec -o Y.data -- true
one_line_err "prec -o Y.data (Y.data.old a FIFO)" "'Y.data.old'"
[[ "$(cat Y.data)" == previous && -p Y.data.old ]] || fail "prec -o Y.data: Y.data.old was replaced"

# A directory as -o, and a symlink into a directory that does not exist.
mkdir D
run_prec -o D -- true
one_line_err "prec -o D (a directory)" 'directory' 'D/perf.data'
ln -s "$TMP/nodir/x.data" dangling
run_prec -o dangling -- true
one_line_err "prec -o dangling (a symlink into a missing directory)" 'symbolic link' 'nodir'
[[ -L dangling && ! -e nodir ]] || fail "prec -o dangling: the symlink or its target changed"

# Few open files, at every limit from 4 up: each failure says it is the file
# limit (not a kptr_restrict problem, not a full disk, not a bad path), and a
# failed run leaves no file. The lowest limits leave the loader no fd for the
# libraries: that is not prec speaking.
prec_record_ok -o nofile-base.data -- true
kptr_base=$(grep -c kptr_restrict "$PREC_ERR")
for n in $(seq 4 24); do
	what="prec at ulimit -n $n"
	_run nofile bash -c 'ulimit -n "$1" && exec "$2" -o "$3" -- true' - "$n" "$PREC" "nofile$n.data"
	((LAST_RC == 127)) && grep -q 'error while loading shared libraries' "$LAST_ERR" && continue
	((LAST_RC >= 0 && LAST_RC <= 125)) || fail "$what: exit status $LAST_RC"
	if ((LAST_RC)); then
		(($(grep -c . "$LAST_ERR") == 1)) || fail "$what: $(grep -c . "$LAST_ERR") lines on stderr, expected one"
		[[ -e nofile$n.data ]] && fail "$what: failed and left nofile$n.data"
	fi
	grep -q 'Too many open files' "$LAST_ERR" && ! grep -q 'Too many open files.*ulimit -n' "$LAST_ERR" &&
		fail "$what: 'Too many open files' without the ulimit -n fix: $(cat "$LAST_ERR")"
	((kptr_base)) || no_grep_or_fail 'kptr_restrict' "$LAST_ERR" "$what"
	no_grep_or_fail 'free space|choose another path' "$LAST_ERR" "$what"
done

# Output paths that cannot be created (the second fails for root too).
for out in /nonexistent-dir/x.data /proc/x.data; do
	run_prec -o "$out" -- true
	what="prec -o $out -- true"
	((PREC_RC >= 1 && PREC_RC <= 125)) || fail "$what: exit status $PREC_RC, expected 1..125"
	grep -q "^prec:.*$out" "$PREC_ERR" || fail "$what: no 'prec:' line on stderr names $out"
	[[ "$(head -n 1 "$PREC_ERR")" == prec:* ]] || fail "$what: first stderr line does not start with 'prec:'"
	(($(grep -c . "$PREC_ERR") == 1)) || fail "$what: $(grep -c . "$PREC_ERR") lines on stderr, expected one"
	[[ -e "$out" ]] && fail "$what: $out exists afterwards"
done
if (($(id -u) != 0)); then
	mkdir ro && chmod 0555 ro
	run_prec -o ro/x.data -- true
	((PREC_RC >= 1 && PREC_RC <= 125)) || fail "prec -o ro/x.data (read-only dir): exit status $PREC_RC"
	grep -q '^prec:.*ro/x.data' "$PREC_ERR" || fail "prec -o ro/x.data: no 'prec:' line names the file"
fi

# -m that is not a power of two is rounded up, with a warning, as in perf.
run_prec -m 3 -o m3.data -- "$EXIT_WORKLOAD" 0
((PREC_RC == 0)) || fail "prec -m 3 exited $PREC_RC, expected 0"
grep -Eiq 'rounding' "$PREC_ERR" || fail "prec -m 3: no rounding warning on stderr"
require_valid m3.data

pass "$ncase cases"
