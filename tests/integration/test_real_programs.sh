#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Workloads that behave like real programs (tests/fixtures/workload/prec_real.c:
# they print to stdout and stderr, read stdin, fork and exec, spawn threads,
# die by a signal, call exit from a thread), each recorded in file mode, pipe
# mode and with -z, beside perf record on the same command. Both must give
# the same exit status and pass stdin and stderr through alike; in file mode
# the command's stdout is its own, in pipe mode it goes to stderr (as perf
# does), and the stream stays readable however much the command prints.
# Every output must read without a warning and attribute real_burn.
source "${TEST_LIB:-$(dirname "$0")/lib.sh}" || exit 1

REAL=$WORKLOAD_DIR/prec_real
[[ -x "$REAL" ]] || fail "workload not found at $REAL"
printf 'one\ntwo\nthree\n' >input.txt

# record TOOL OUTMODE TAG ARGS...: run prec or perf record on prec_real ARGS
# with stdin from input.txt; OUTMODE file|pipe|z. Sets RC; stdout in
# TAG.stdout (the stream in pipe mode), stderr in TAG.stderr, file TAG.data.
record()
{
	local tool=$1 mode=$2 tag=$3
	shift 3
	local -a rec opt=()
	if [[ $tool == prec ]]; then rec=("$PREC"); else rec=("$PERF" record); fi
	case $mode in
	file) opt=(-o "$tag.data") ;;
	z) opt=(-z -o "$tag.data") ;;
	pipe) opt=(-o -) ;;
	esac
	(timeout --kill-after=10 "$RUN_TIMEOUT" "${rec[@]}" "${opt[@]}" -- "$REAL" "$@" \
		<input.txt >"$tag.stdout" 2>"$tag.stderr"; exit $?) 2>/dev/null
	RC=$?
	((RC != 124)) || fail "$tool $mode prec_real $*: timed out"
}

# readable TAG MODE: perf report reads the output without a warning; the
# report goes to TAG.report.
readable()
{
	local tag=$1 mode=$2
	if [[ $mode == pipe ]]; then
		"$PERF" report --stdio --sort comm,sym -i - <"$tag.stdout" >"$tag.report" 2>"$tag.rerr"
	else
		"$PERF" report --stdio --sort comm,sym -i "$tag.data" >"$tag.report" 2>"$tag.rerr"
	fi
	(($? == 0)) || fail "$tag: perf report failed: $(head -n 3 "$tag.rerr")"
	require_no_warning "$tag.rerr" "perf report of $tag"
}

# The command's own lines, without the recorders' messages.
own_lines()
{
	grep -Ev '^\[ (prec|perf) record:|^prec: |^(info|Warning|WARNING):|^Lowering default|^$' "$1" | sort
}

modes=("print 40" "stdin" "fork-exec" "threads 3" "signal 11" "signal 15" "thread-exit")
for m in "${modes[@]}"; do
	read -r -a args <<<"$m"
	for out in file pipe z; do
		tag=${m// /_}-$out
		record perf "$out" "perf-$tag" "${args[@]}"
		perf_rc=$RC
		record prec "$out" "prec-$tag" "${args[@]}"
		prec_rc=$RC
		log "$m ($out): exit prec $prec_rc, perf record $perf_rc"
		((prec_rc == perf_rc)) || fail "$m ($out): prec exited $prec_rc, perf record $perf_rc"
		readable "prec-$tag" "$out"
		grep -q 'real_burn' "prec-$tag.report" || fail "$m ($out): real_burn is not in prec's report"

		# What the command printed lands where perf record lets it land.
		if [[ $out == pipe ]]; then
			[[ $(head -c 8 "prec-$tag.stdout") == PERFILE2 ]] ||
				fail "$m (pipe): the stream does not start with perf's magic"
			diff <(own_lines "perf-$tag.stderr") <(own_lines "prec-$tag.stderr") >d.diff ||
				{ sed 's/^/    | /' d.diff >&2; fail "$m (pipe): the command's output on stderr differs from perf record's"; }
		else
			cmp -s "prec-$tag.stdout" "perf-$tag.stdout" ||
				fail "$m ($out): the command's stdout differs from perf record's"
			diff <(own_lines "perf-$tag.stderr") <(own_lines "prec-$tag.stderr") >d.diff ||
				{ sed 's/^/    | /' d.diff >&2; fail "$m ($out): the command's stderr differs from perf record's"; }
		fi
	done
done

# What each kind of program must show besides: stdin read through, the
# exec'd child and every thread seen.
grep -q '^THREE$' prec-stdin-file.stdout || fail "stdin: the command did not read prec's stdin"
grep -q 'THREE' prec-stdin-pipe.stderr || fail "stdin (pipe): the command's output is not on stderr"
n=$("$PERF" script -F tid -i prec-threads_3-file.data 2>/dev/null | sort -u | wc -l)
((n >= 4)) || fail "threads 3: $n distinct tids sampled, expected the main thread and 3 more"
execs()
{
	"$PERF" script --show-task-events -i "$1" 2>/dev/null | grep -c 'PERF_RECORD_COMM exec:'
}
a=$(execs prec-fork-exec-file.data)
b=$(execs perf-fork-exec-file.data)
((a >= 2 && a == b)) || fail "fork-exec: $a COMM exec records (the command and its child), perf record has $b"
pass
