#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# --call-graph dwarf --unwind=record: prec unwinds the user stacks while
# recording and writes user callchains instead of stack copies. On the deep
# workload built without frame pointers, perf report -g shows the same call
# paths as on perf record --call-graph dwarf's file (which perf unwinds at
# report time), the file is at least 10x smaller, perf script and perf report
# -D read it without a complaint, the attrs say what the samples hold, and
# the summary counts the unwinds. Also: two events (samples told apart by
# their id), -z, --threads, --unwind=report, and the usage error.
source "${TEST_LIB:-$(dirname "$0")/lib.sh}" || exit 1

need_root "the events as perf names them with kernel samples (a user gets :u)"

DEEP=$WORKLOAD_DIR/prec_deep_nofp
HOT_PATH="deep_leaf_hot deep_level4 deep_level3 deep_level2 deep_level1 deep_run main "
COLD_PATH="deep_leaf_cold deep_side1 deep_run main "

# The caller chain of SYMBOL in perf report -g, its first FRAMES frames.
chain()
{
	"$PERF" report -i "$1" --stdio --no-children -g caller,0.5,callee -S "$2" 2>/dev/null |
		awk '/---/ { go = 1 } go && NF == 1 { print $1 } go && NF == 0 { exit }' |
		sed 's/^---//' | head -n "$3" | tr '\n' ' '
}

prec_record_ok --call-graph dwarf --unwind=record -o prec.data -- "$DEEP" 600
cp "$PREC_ERR" prec-summary.err
perf_record_ok --call-graph dwarf -o perf.data -- "$DEEP" 600
require_valid prec.data

# The same call paths, the full known tree, the same shares.
for sym in deep_leaf_hot deep_leaf_cold; do
	n=7
	want=$HOT_PATH
	if [[ $sym == deep_leaf_cold ]]; then
		n=4
		want=$COLD_PATH
	fi
	a=$(chain prec.data "$sym" "$n")
	b=$(chain perf.data "$sym" "$n")
	log "$sym: prec '$a', perf record '$b'"
	[[ "$a" == "$b" ]] || fail "$sym: call path '$a', perf record's '$b'"
	[[ "$a" == "$want" ]] || fail "$sym: call path '$a', want '$want'"
	p=$(report_percent prec.data "$sym")
	q=$(report_percent perf.data "$sym")
	within 10 "$p" "$q" || fail "$sym: $p% vs perf record's $q%"
done

# At least 10x smaller.
ps=$(stat -c %s prec.data)
qs=$(stat -c %s perf.data)
log "sizes: prec $ps bytes, perf record $qs bytes"
((ps * 10 <= qs)) || fail "prec's file is $ps bytes, perf record's $qs: not 10x smaller"

# perf script and perf report -D read every sample, with no complaint.
run_perf script -i prec.data
((PERF_RC == 0)) || fail "perf script exited $PERF_RC"
require_no_warning "$PERF_ERR" "perf script -i prec.data"
grep -q deep_level4 "$PERF_OUT" || fail "perf script shows no deep_level4 frame"
run_perf report -D -i prec.data
((PERF_RC == 0)) || fail "perf report -D exited $PERF_RC"
require_no_warning "$PERF_ERR" "perf report -D -i prec.data"
grep -q '^\.\.\. FP chain: nr:' "$PERF_OUT" || fail "perf report -D shows no callchains"
no_grep_or_fail '^\.\.\. (user regs|ustack):' "$PERF_OUT" "perf report -D (stack copies left)"

# The attrs: a plain callchain, no registers or stack copy.
line=$(evlist prec.data | head -n 1)
st=$(evlist_field "$line" sample_type)
[[ "$st" == *CALLCHAIN* ]] || fail "sample_type '$st' has no CALLCHAIN"
[[ "$st" != *REGS_USER* && "$st" != *STACK_USER* ]] || fail "sample_type '$st' still has the stack copy"
[[ "$line" != *exclude_callchain_user* ]] || fail "exclude_callchain_user left set: $line"

# The summary counts the unwinds; nearly all reach main.
line=$(grep -E '^\[ prec record: Unwound [0-9]+ user stacks at record time, [0-9]+ incomplete' prec-summary.err) ||
	fail "no unwind count in the summary"
read -r done partial < <(sed -E 's/.*Unwound ([0-9]+) .*, ([0-9]+) incomplete.*/\1 \2/' <<<"$line")
samples=$(summary_samples prec-summary.err)
log "unwound $done of $samples samples, $partial incomplete"
((done == samples && done > 100)) || fail "unwound $done of $samples samples"
((partial * 20 <= done)) || fail "$partial of $done unwinds incomplete"

# Two events: samples found by their id; both unwound.
prec_record_ok --call-graph dwarf --unwind=record -e cpu-clock -e task-clock -o two.data -- "$DEEP" 300
require_valid two.data
for ev in cpu-clock task-clock; do
	a=$("$PERF" report -i two.data --stdio --no-children -g caller,0.5,callee -S deep_leaf_hot \
		2>/dev/null |
		awk -v want="$ev" '/^# Samples: .* of event / { ev = $0; sub(/^[^\047]*\047/, "", ev);
				sub(/\047.*$/, "", ev); go = 0; done = 0; next }
			ev == want && !done && /---/ { go = 1 }
			go && NF == 1 { print $1 } go && NF == 0 { go = 0; done = 1 }' |
		sed 's/^---//' | head -n 7 | tr '\n' ' ')
	[[ "$a" == "$HOT_PATH" ]] || fail "-e cpu-clock -e task-clock: $ev call path '$a'"
done

# -z: the rewritten samples go into the zstd stream.
prec_record_ok --call-graph dwarf --unwind=record -z -o z.data -- "$DEEP" 300
require_valid z.data
a=$(chain z.data deep_leaf_hot 7)
[[ "$a" == "$HOT_PATH" ]] || fail "-z: call path '$a'"

# --threads: each stream unwinds its own samples, over its own tracker; the
# same call paths as the single-stream file, every sample unwound.
prec_record_ok --threads --call-graph dwarf --unwind=record -o thr.data -- "$DEEP" 300
require_valid thr.data
for sym in deep_leaf_hot deep_leaf_cold; do
	n=7
	[[ $sym == deep_leaf_cold ]] && n=4
	a=$(chain thr.data "$sym" "$n")
	b=$(chain prec.data "$sym" "$n")
	[[ "$a" == "$b" ]] || fail "--threads: $sym: call path '$a', one stream's '$b'"
done
grep -qE "^\[ prec record: Unwound $(summary_samples "$PREC_ERR") user stacks" "$PREC_ERR" ||
	fail "--threads: not every sample unwound: $(grep Unwound "$PREC_ERR")"

# --unwind=report is perf's way: the stack copies stay.
prec_record_ok --call-graph dwarf --unwind=report -o report.data -- "$DEEP" 200
st=$(evlist_field "$(evlist report.data | head -n 1)" sample_type)
[[ "$st" == *STACK_USER* ]] || fail "--unwind=report: sample_type '$st' has no STACK_USER"

# Without DWARF call graphs it is a usage error, with the fix, and no file.
for args in "--unwind=record" "-g --unwind=record" "--call-graph fp --unwind record"; do
	# shellcheck disable=SC2086
	run_prec $args -o bad.data -- "$DEEP" 10
	((PREC_RC == 2)) || fail "prec $args exited $PREC_RC, want 2"
	grep -q -- '^prec: --unwind=record needs DWARF call graphs (add --call-graph dwarf)$' "$PREC_ERR" ||
		fail "prec $args: no usage line: $(head -n 2 "$PREC_ERR")"
	(($(wc -l <"$PREC_ERR") == 1)) || fail "prec $args: more than one line on stderr"
	[[ ! -e bad.data ]] || fail "prec $args left bad.data"
done
run_prec --call-graph dwarf --unwind=later -o bad.data -- "$DEEP" 10
((PREC_RC == 2)) || fail "--unwind=later exited $PREC_RC, want 2"
grep -q "unknown --unwind value 'later' (use record or report)" "$PREC_ERR" ||
	fail "--unwind=later: $(head -n 1 "$PREC_ERR")"
pass
