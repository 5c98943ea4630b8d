# SPDX-License-Identifier: GPL-2.0-only
# Helpers for the integration tests; each test starts with
#   source "$TEST_LIB"
# ctest sets PREC (the prec binary), WORKLOAD_DIR (the built workloads),
# FIXTURES (tests/fixtures) and TEST_LIB (this file). Run by hand, a test
# falls back to the build/ tree of the checkout it lives in.
#
# Stock perf (/usr/bin/perf) is the reader that judges prec's output, and
# `perf record` is run beside prec in the same test wherever the two can be
# compared. Tests pass (exit 0) or fail (exit 1); a test that cannot apply
# here (not root, no mount namespace, a tool missing, a build it does not
# judge) skips: one line saying why, exit 77, which ctest reports as not run,
# never as a pass. A test that needs root or a mount namespace says so at its
# top (need_root, need_namespaces); tests/CMakeLists.txt reads those lines
# for its labels (root, namespaces).

set -uo pipefail

_lib_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
_repo_root=$(cd "$_lib_dir/../.." && pwd)
: "${PREC:=$_repo_root/build/prec}"
: "${WORKLOAD_DIR:=$_repo_root/build/tests/fixtures}"
: "${FIXTURES:=$_repo_root/tests/fixtures}"
: "${PERF:=perf}"
export PREC WORKLOAD_DIR FIXTURES PERF
export PAGER=cat PERF_PAGER=cat LC_ALL=C

TEST_NAME=$(basename "${BASH_SOURCE[1]:-$0}" .sh)
# The test itself, for fail_or_retry's second run.
_test_script=$(realpath "${BASH_SOURCE[1]:-$0}")
WORKLOAD=$WORKLOAD_DIR/prec_workload
EXIT_WORKLOAD=$WORKLOAD_DIR/prec_exit

# Longest any single prec/perf run may take before it counts as a hang.
RUN_TIMEOUT=${RUN_TIMEOUT:-120}

# ---- temp dir, cleanup, messages -------------------------------------------

TMP=$(mktemp -d "${TMPDIR:-/tmp}/prec-$TEST_NAME.XXXXXX") || exit 1
_bg_pids=()

# The sanitized pass (scripts/test runs the suite again against build-asan/,
# where ctest sets PREC_SANITIZED=1): every prec the test runs, however it is
# run (through _run or by hand, as another user), writes its ASan, LSan or
# UBSan report into one world-writable directory instead of its stderr,
# which the tests judge line by line; any report there fails the test at
# its end, printed. Leaks count; undefined behaviour halts.
_san_dir=
# As they came, for fail_or_retry's second run (which adds its own log_path).
_asan_options_in=${ASAN_OPTIONS:-} _ubsan_options_in=${UBSAN_OPTIONS:-}
if [[ "${PREC_SANITIZED:-0}" == 1 ]]; then
	_san_dir=$(mktemp -d "${TMPDIR:-/tmp}/prec-san-$TEST_NAME.XXXXXX") || exit 1
	chmod 1777 "$_san_dir"
	export ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:log_path=$_san_dir/asan${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
	export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:log_path=$_san_dir/ubsan${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
fi

# A sanitizer report from any run fails the test, whatever it said so far.
_sanitizer_reports()
{
	local f found=0
	[[ -n "$_san_dir" ]] || return 0
	for f in "$_san_dir"/*; do
		[[ -s "$f" ]] || continue
		found=1
		echo "FAIL: $TEST_NAME: sanitizer report $(basename "$f"):" >&2
		head -n 60 "$f" | sed 's/^/    | /' >&2
	done
	rm -rf "$_san_dir"
	return $found
}

_cleanup()
{
	local pid rc=$?
	for pid in "${_bg_pids[@]}"; do
		kill -KILL "$pid" 2>/dev/null
	done
	_sanitizer_reports || rc=1
	# Keep the evidence of a failed run when asked to.
	if [[ -n "${KEEP_TMP:-}" ]]; then
		echo "$TEST_NAME: temp dir kept: $TMP" >&2
	else
		rm -rf "$TMP"
	fi
	exit "$rc"
}
trap _cleanup EXIT
cd "$TMP" || exit 1

# Remember a background process so it is killed if the test dies.
track_pid()
{
	_bg_pids+=("$1")
}

log()
{
	echo "$TEST_NAME: $*" >&2
}

# fail MESSAGE...: print why, with the last prec run's stderr, and exit 1.
fail()
{
	echo "FAIL: $TEST_NAME: $*" >&2
	if [[ -n "${LAST_CMD:-}" ]]; then
		echo "  last command: $LAST_CMD (rc=$LAST_RC)" >&2
		if [[ -s "$LAST_ERR" ]]; then
			echo "  its stderr (first 20 lines):" >&2
			head -n 20 "$LAST_ERR" | sed 's/^/    | /' >&2
		fi
	fi
	exit 1
}

# fail_or_retry MESSAGE...: a check that a busy machine can break at random
# failed (a thread woken late because every CPU was taken, ...): the first
# time, say why and run the whole test once more from its start, in a new
# temp dir; the second time, fail. Only for a check whose result the load
# decides at random, never for one a broken feature fails: that one calls
# fail.
fail_or_retry()
{
	local pid
	if [[ -n "${PREC_TEST_RETRIED:-}" ]] || ! _sanitizer_reports; then
		fail "$* (on the retry too)"
	fi
	echo "RETRY: $TEST_NAME: $* (a timing a busy machine can break: the test runs once more)" >&2
	for pid in "${_bg_pids[@]}"; do
		kill -KILL "$pid" 2>/dev/null
	done
	if [[ -n "${KEEP_TMP:-}" ]]; then
		echo "$TEST_NAME: temp dir kept: $TMP" >&2
	else
		rm -rf "$TMP"
	fi
	trap - EXIT
	cd / || exit 1
	export PREC_TEST_RETRIED=1 ASAN_OPTIONS=$_asan_options_in UBSAN_OPTIONS=$_ubsan_options_in
	exec bash "$_test_script"
}

pass()
{
	_sanitizer_reports || exit 1
	echo "PASS: $TEST_NAME${1:+: $*}" >&2
	exit 0
}

# skip REASON...: this test cannot apply here; say why and exit 77 (ctest's
# SKIP_RETURN_CODE: "Not Run", neither a pass nor a failure).
skip()
{
	echo "SKIP: $TEST_NAME: $*" >&2
	exit 77
}

# need_root WHAT: skip unless root, saying what needs it. A line of its own at
# the test's top: it gives the test the ctest label "root".
need_root()
{
	((EUID == 0)) || skip "not root (uid $EUID): $*"
}

# need_namespaces WHAT: skip unless this process may make a mount namespace
# (unshare -m, as in_private_mounts makes it). A line of its own at the
# test's top: it gives the test the ctest label "namespaces".
need_namespaces()
{
	unshare -m --propagation unchanged true 2>/dev/null ||
		skip "no mount namespace here (unshare -m failed): $*"
}

# need_tool NAME HOW: skip unless the command NAME is installed (HOW: how to
# install it).
need_tool()
{
	command -v "$1" >/dev/null || skip "$1 not found ($2)"
}

# ---- running prec and perf -------------------------------------------------

# _run TAG CMD...: run CMD with stdout/stderr in $TMP/TAG.out/.err, under a
# timeout; set LAST_RC, LAST_OUT, LAST_ERR, LAST_CMD. A command killed by a
# signal gives 128+sig, as in the shell.
_run()
{
	local tag=$1
	shift
	LAST_CMD="$*"
	LAST_OUT=$TMP/$tag.out
	LAST_ERR=$TMP/$tag.err
	# The subshell keeps bash's "Killed"/"Segmentation fault" job notices
	# (for commands that die of a signal on purpose) out of the test log.
	(
		timeout --kill-after=10 "$RUN_TIMEOUT" "$@" >"$LAST_OUT" 2>"$LAST_ERR"
		exit $?
	) 2>/dev/null
	LAST_RC=$?
	if ((LAST_RC == 124)); then
		echo "$TEST_NAME: timed out after ${RUN_TIMEOUT}s: $*" >&2
	fi
	return 0
}

# run_prec ARGS...: run prec; results in PREC_RC, PREC_OUT, PREC_ERR (files).
run_prec()
{
	_run prec "$PREC" "$@"
	PREC_RC=$LAST_RC PREC_OUT=$LAST_OUT PREC_ERR=$LAST_ERR
}

# run_perf ARGS...: run stock perf; results in PERF_RC, PERF_OUT, PERF_ERR.
run_perf()
{
	_run perf "$PERF" "$@"
	PERF_RC=$LAST_RC PERF_OUT=$LAST_OUT PERF_ERR=$LAST_ERR
}

# prec_record_ok ARGS...: run prec and fail unless it exits 0.
prec_record_ok()
{
	run_prec "$@"
	((PREC_RC == 0)) || fail "prec $* exited $PREC_RC, expected 0"
}

# perf_record_ok ARGS...: run `perf record` and fail unless it exits 0.
perf_record_ok()
{
	run_perf record "$@"
	((PERF_RC == 0)) || fail "perf record $* exited $PERF_RC, expected 0"
}

# in_private_mounts CMD...: run CMD in a private mount namespace, so what it
# mounts or unmounts never reaches this one. Works in a chroot too (a fresh
# machine's CI), where / is not a mount point and unshare cannot make it
# private: there every mount point it can see is made private one by one.
in_private_mounts()
{
	unshare -m --propagation unchanged bash -c '
		if ! mount --make-rprivate / 2>/dev/null; then
			while read -r _ _ _ _ mnt _; do
				mount --make-private "$mnt" 2>/dev/null
			done </proc/self/mountinfo
			# Nothing may stay shared with the outer namespace.
			if grep -q " shared:" /proc/self/mountinfo; then
				echo "in_private_mounts: a mount stayed shared" >&2
				exit 97
			fi
		fi
		exec "$@"' in_private_mounts "$@"
}

# ---- judging output --------------------------------------------------------

# The words in perf's stderr that mean it did not like a file.
WARNING_RE='WARNING|Warning|unprocessable|failed|Error'

# require_no_warning FILE [WHAT]: FILE (perf's stderr) has none of WARNING_RE.
require_no_warning()
{
	local file=$1 what=${2:-$1}
	if grep -Eq "$WARNING_RE" "$file"; then
		echo "  offending lines:" >&2
		grep -E "$WARNING_RE" "$file" | head -n 10 | sed 's/^/    | /' >&2
		fail "perf complained about $what"
	fi
}

# require_valid [--allow-empty] [--allow-lost] DATAFILE: `perf report --stdio`
# reads it with exit 0 and no warning. With --allow-empty a recording without
# samples (perf's "Error: The FILE data has no samples!") is accepted too, for
# commands such as `sleep` that may not run long enough on a CPU to be
# sampled; with --allow-lost the lost-chunks warning is, for rings shrunk on
# purpose. The report is left in $TMP/report.out (stderr: report.err).
require_valid()
{
	local allow_empty=0 allow_lost=0 data
	while [[ "$1" == --allow-* ]]; do
		case $1 in
		--allow-empty) allow_empty=1 ;;
		--allow-lost) allow_lost=1 ;;
		esac
		shift
	done
	data=$1
	[[ -s "$data" ]] || fail "$data is missing or empty"
	_run report "$PERF" report --stdio -i "$data"
	((LAST_RC == 0)) || fail "perf report -i $data exited $LAST_RC"
	if [[ -n "$_san_dir" ]] || ((allow_lost)); then
		# An ASan prec drains a few times slower: on a busy machine a fast
		# DWARF recording can lose a chunk that the plain pass, which
		# judges losses, does not. Rings the caller shrank on purpose
		# (--allow-lost) may lose too. Only that warning is let through.
		awk '/^Warning:$/ { getline nx; if (nx ~ /^Processed [0-9]+ (events and lost [0-9]+ chunks|samples and lost [0-9.]+%)!$/) next; print; print nx; next }
			/^Check IO\/CPU overload!$/ { next } { print }' "$LAST_ERR" >"$LAST_ERR.san"
		mv "$LAST_ERR.san" "$LAST_ERR"
	fi
	if ((allow_empty)); then
		awk '/^Error:$/ { getline nx; if (nx ~ /data has no samples!$/) next; print; print nx; next } { print }' \
			"$LAST_ERR" >"$LAST_ERR.filtered"
		require_no_warning "$LAST_ERR.filtered" "perf report -i $data"
	else
		require_no_warning "$LAST_ERR" "perf report -i $data"
	fi
}

# report_percent DATAFILE SYMBOL [EVENT]: the Overhead of SYMBOL (summed over
# its rows) in `perf report --stdio --sort sym`, for EVENT (default: the
# first event in the report). Prints 0 when the symbol has no samples.
report_percent()
{
	local data=$1 sym=$2 event=${3:-}
	"$PERF" report --stdio --sort sym -i "$data" 2>/dev/null |
		awk -v sym="$sym" -v want="$event" '
			/^# Samples: .* of event / {
				ev = $0
				sub(/^[^\047]*\047/, "", ev)
				sub(/\047.*$/, "", ev)
				if (want == "")
					want = ev
				next
			}
			/^#/ || NF < 3 { next }
			ev == want && $1 ~ /%$/ && $NF == sym { sum += $1 + 0 }
			END { printf "%.2f\n", sum }'
}

# user_percent [--comm COMM] DATAFILE SYMBOL...: the share (percent) of the user-space
# samples of DATAFILE's first event (the [.] rows of `perf report --sort
# dso,sym`) that are in the SYMBOLs. Unlike report_percent it does not move
# with the kernel's share, which grows with every preemption on a busy
# machine; a sample that did not resolve is a user-space row ("[unknown]",
# a hex address) outside the SYMBOLs, so it still counts against them.
# Prints 0 when there is no user-space sample. With --comm COMM first,
# only COMM's samples count.
user_percent()
{
	local comm=()
	if [[ $1 == --comm ]]; then
		comm=(--comm "$2")
		shift 2
	fi
	local data=$1
	shift
	"$PERF" report --stdio "${comm[@]}" --sort dso,sym -i "$data" 2>/dev/null |
		awk -v syms=" $* " '
			/^# Samples: .* of event / { nev++; next }
			/^#/ || nev > 1 || $1 !~ /%$/ { next }
			{
				for (i = 2; i < NF; i++)
					if ($i == "[.]")
						break
				if (i == NF)
					next
				user += $1
				if (index(syms, " " $NF " "))
					in_syms += $1
			}
			END { printf "%.2f\n", (user > 0) ? 100 * in_syms / user : 0 }'
}

# report_rows DATAFILE: "pct comm dso symbol" per row of
# `perf report --stdio --sort comm,dso,sym`.
report_rows()
{
	"$PERF" report --stdio --sort comm,dso,sym -i "$1" 2>/dev/null |
		awk '!/^#/ && $1 ~ /%$/ && NF >= 5 { print $1, $2, $3, $NF }'
}

# within POINTS A B: |A - B| <= POINTS.
within()
{
	awk -v d="$1" -v a="$2" -v b="$3" 'BEGIN { x = a - b; if (x < 0) x = -x; exit !(x <= d) }'
}

# summary_samples STDERRFILE: N from "[ prec record: Captured and wrote X MB
# FILE (N samples) ]"; 0 when the line has no sample count; fails when there
# is no summary line at all.
summary_samples()
{
	local line
	line=$(grep -E '^\[ (prec|perf) record: Captured and wrote ' "$1" | tail -n 1)
	[[ -n "$line" ]] || fail "no 'Captured and wrote' summary line in $1"
	if [[ "$line" =~ \(([0-9]+)\ samples\) ]]; then
		echo "${BASH_REMATCH[1]}"
	else
		echo 0
	fi
}

# header DATAFILE: `perf report --header-only -I` into $TMP/<basename>.hdr,
# failing on a perf error; prints the file name.
header()
{
	local data=$1 out
	out=$TMP/$(basename "$data").hdr
	"$PERF" report --header-only -I -i "$data" >"$out" 2>"$out.err" ||
		fail "perf report --header-only -I -i $data failed: $(head -n 3 "$out.err")"
	echo "$out"
}

# header_field HDRFILE NAME: the value of "# NAME : value" in a header dump.
header_field()
{
	sed -n "s/^# $2 *: //p" "$1" | head -n 1
}

# evlist DATAFILE: `perf evlist -v -i DATAFILE`, one line per event.
evlist()
{
	"$PERF" evlist -v -i "$1" 2>/dev/null
}

# evlist_field LINE KEY: the value of "KEY: value" in one `perf evlist -v`
# line (e.g. evlist_field "$line" sample_type).
evlist_field()
{
	local line=$1 key=$2
	line=${line#*" $key: "}
	[[ "$line" == "$1" ]] && return 0
	echo "${line%%, *}"
}

# grep_or_fail PATTERN FILE WHAT: FILE must contain the extended regex.
grep_or_fail()
{
	grep -Eq -- "$1" "$2" || fail "$3: no line matching /$1/ in $(basename "$2")"
}

# no_grep_or_fail PATTERN FILE WHAT: FILE must not contain the extended regex.
no_grep_or_fail()
{
	if grep -Eq -- "$1" "$2"; then
		grep -E -- "$1" "$2" | head -n 5 | sed 's/^/    | /' >&2
		fail "$3: unexpected line matching /$1/ in $(basename "$2")"
	fi
}

# wait_exec PID NAME: wait (60 s at most) until a child of PID (prec) runs
# NAME. prec starts its command once its signal handlers are in place and
# its events are on, so a signal sent from then reaches a recording however
# long a busy machine made the start take; a fixed sleep instead may signal
# a prec still starting (SIGUSR2's default action kills it).
wait_exec()
{
	local i
	for ((i = 0; i < 600; i++)); do
		pgrep -P "$1" -x "$2" >/dev/null && return 0
		kill -0 "$1" 2>/dev/null || fail "$1 exited before it ran $2"
		sleep 0.1
	done
	fail "$2 did not start under $1 within 60 s"
}

# perf report --stdio -g ... | first_chain: the frames of the first call
# chain under the first entry, one a line. perf draws a chain that holds
# all of its entry as "---frame", but once the entry's samples split over
# several chains (a -a recording of a busy machine, where some stacks differ
# below main), each branch as "|--N%--frame": both are read, the largest
# branch first.
first_chain()
{
	awk '/^#/ || (/^$/ && !go) { next }
		!go { if ($1 ~ /%$/) go = 1; next }
		{
			f = $0
			sub(/^[ |]*/, "", f)
			sub(/^-*[0-9.]+%--/, "", f)
			sub(/^---/, "", f)
			if (f == "") { if (n) exit; next }
			print f
			n++
		}'
}

# ... | has_match [GREP-OPTIONS] PATTERN: true when a line of the input
# matches. It reads the input to its end, where `grep -q` leaves at the first
# match: a writer still writing would then die of SIGPIPE and pipefail would
# fail the whole pipeline, a false failure (or, before `&& fail`, a false
# pass). Use it, not grep -q, at the end of any pipe.
has_match()
{
	local n
	n=$(grep -c "$@")
	((n > 0))
}

# Sanity: the things every test needs are there.
[[ -x "$PREC" ]] || fail "prec binary not found at $PREC (build first: scripts/build)"
[[ -x "$WORKLOAD" ]] || fail "workload not found at $WORKLOAD"
need_tool "$PERF" "scripts/bootstrap --test installs linux-perf"
