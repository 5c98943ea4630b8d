#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# --running-time, --transaction, --group, --timestamp-boundary, --strict-freq,
# --dry-run and --switch-output-event against perf record 6.1 on the same
# commands: the same attrs (perf evlist -v; TRANSACTION, which evlist does not
# print, by the sample size in perf report -D), the same groups, SAMPLE_TIME
# in every mode, one rotation per record of the side-band event, and the
# bad-input cases: one line naming the fix, status 1..125, no file left.
source "${TEST_LIB:-$(dirname "$0")/lib.sh}" || exit 1

need_root "a system-wide recording (--threads -a) and tracepoints"

# attr_of FILE EVENT KEY: KEY of EVENT's line in perf evlist -v.
attr_of()
{
	evlist "$1" | while IFS= read -r line; do
		[[ ${line%%:*} == "$2" ]] && { evlist_field "$line" "$3"; break; }
	done
}

# --running-time: perf's read_format on every event, :S groups included.
for ev in cpu-clock '{cpu-clock,task-clock}:S'; do
	prec_record_ok -q -o "$TMP/rt.prec" --running-time -e "$ev" -- true
	perf_record_ok -q -o "$TMP/rt.perf" --running-time -e "$ev" -- true
	for e in cpu-clock task-clock; do
		p=$(attr_of "$TMP/rt.prec" $e read_format) q=$(attr_of "$TMP/rt.perf" $e read_format)
		[[ "$p" == "$q" ]] || fail "--running-time -e $ev: $e read_format '$p', perf record's '$q'"
	done
	[[ $(attr_of "$TMP/rt.prec" cpu-clock read_format) == *TOTAL_TIME_ENABLED*TOTAL_TIME_RUNNING* ]] ||
		fail "--running-time: no TOTAL_TIME_ENABLED|TOTAL_TIME_RUNNING"
	require_valid --allow-empty "$TMP/rt.prec"
done

# --transaction: 8 more bytes per sample, as perf record's.
sample_size()
{
	"$PERF" report -D -i "$1" 2>/dev/null | sed -n 's/.*\[\(0x[0-9a-f]*\)\]: PERF_RECORD_SAMPLE.*/\1/p' | head -n 1
}
prec_record_ok -q -o "$TMP/tx.prec" --transaction -e cpu-clock -- "$WORKLOAD" 50
perf_record_ok -q -o "$TMP/tx.perf" --transaction -e cpu-clock -- "$WORKLOAD" 50
prec_record_ok -q -o "$TMP/notx.prec" -e cpu-clock -- "$WORKLOAD" 50
a=$(sample_size "$TMP/tx.prec") b=$(sample_size "$TMP/tx.perf") c=$(sample_size "$TMP/notx.prec")
[[ -n "$a" && "$a" == "$b" ]] || fail "--transaction: sample size $a, perf record's $b"
((a == c + 8)) || fail "--transaction: sample size $a, without it $c (TRANSACTION is 8 bytes)"
require_valid "$TMP/tx.prec"
"$PERF" script -i "$TMP/tx.prec" >/dev/null 2>"$TMP/tx.script" || fail "perf script on --transaction"
require_no_warning "$TMP/tx.script" "perf script on --transaction"

# --group: one group of everything, explicit groups merged, as perf.
for evs in "-e cpu-clock -e task-clock" "-e {cpu-clock,task-clock} -e page-faults"; do
	# shellcheck disable=SC2086
	prec_record_ok -q -o "$TMP/g.prec" --group $evs -- true
	# shellcheck disable=SC2086
	perf_record_ok -q -o "$TMP/g.perf" --group $evs -- true
	p=$(grep '^# group:' "$(header "$TMP/g.prec")") q=$(grep '^# group:' "$(header "$TMP/g.perf")")
	[[ -n "$p" && "$p" == "$q" ]] || fail "--group $evs: '$p', perf record's '$q'"
	for e in task-clock page-faults; do
		for k in disabled enable_on_exec mmap; do
			p=$(attr_of "$TMP/g.prec" $e $k) q=$(attr_of "$TMP/g.perf" $e $k)
			[[ "$p" == "$q" ]] || fail "--group $evs: $e $k '$p', perf record's '$q'"
		done
	done
	require_valid --allow-empty "$TMP/g.prec"
done

# --timestamp-boundary: the first and last sample times in the header, in
# the modes where perf writes zeros (-B, -z) too, per stream (--threads) and
# per file (--switch-output); perf script agrees.
check_boundary()
{
	local h first last times
	h=$(header "$1")
	first=$(header_field "$h" "time of first sample") last=$(header_field "$h" "time of last sample")
	times=$("$PERF" script -F time -i "$1" 2>/dev/null | tr -d ' :' | sort -n | sed -n '1p;$p' | paste -sd' ')
	[[ -n "$times" && "$first $last" == "$times" ]] ||
		fail "--timestamp-boundary $2: $1 header says '$first $last', the samples '$times'"
	require_valid "$1"
}
for mode in "" "-B" "-z" "--buildid-all" "--threads -a"; do
	# shellcheck disable=SC2086
	prec_record_ok -q -o "$TMP/tb.prec" --timestamp-boundary $mode -e cpu-clock -- "$WORKLOAD" 100
	check_boundary "$TMP/tb.prec" "$mode"
done
mkdir -p "$TMP/tbs"
prec_record_ok -q -o "$TMP/tbs/s.data" --timestamp-boundary --switch-output=1s -e cpu-clock -- "$WORKLOAD" 2500
files=("$TMP"/tbs/s.data.*)
((${#files[@]} >= 2)) || fail "--switch-output=1s for 2.5 s of CPU: ${#files[@]} file(s)"
for f in "${files[@]}"; do
	check_boundary "$f" --switch-output=1s
done

# --strict-freq: refused above the kernel's limit, accepted at it.
max=$(cat /proc/sys/kernel/perf_event_max_sample_rate)
prec_record_ok -q -o "$TMP/sf.prec" --strict-freq -F "$max" -e cpu-clock -- true
[[ $(attr_of "$TMP/sf.prec" cpu-clock '{ sample_period, sample_freq }') == "$max" ]] ||
	fail "--strict-freq -F $max: the frequency was changed"

# --dry-run: exit 0, the command not run, no file.
prec_record_ok -o "$TMP/dry.data" --dry-run -- touch "$TMP/ran"
[[ -e "$TMP/dry.data" || -e "$TMP/ran" ]] && fail "--dry-run wrote a file or ran the command"
printf 'previous content\n' >"$TMP/dry.data"
prec_record_ok -o "$TMP/dry.data" --dry-run -e cpu-clock -- true
[[ "$(cat "$TMP/dry.data")" == 'previous content' && ! -e "$TMP/dry.data.old" ]] ||
	fail "--dry-run touched an existing output file"

# --switch-output-event: each getsid the command makes (3, 0.3 s apart)
# rotates, as perf record does: 4 files, each read without a warning.
case $(uname -m) in
x86_64) nr_getsid=124 ;;
aarch64) nr_getsid=156 ;;
*) nr_getsid= ;;
esac
if [[ -n "$nr_getsid" ]]; then
	mkdir -p "$TMP/sw"
	prec_record_ok -q -o "$TMP/sw/s.data" --switch-output-event=syscalls:sys_enter_getsid \
		-e cpu-clock -- perl -e "for (1..3) { select(undef, undef, undef, 0.3); syscall($nr_getsid, 0) }
			select(undef, undef, undef, 0.3)"
	files=("$TMP"/sw/s.data.*)
	((${#files[@]} == 4)) || fail "--switch-output-event: ${#files[@]} files (${files[*]##*/}), expected 4"
	for f in "${files[@]}"; do
		require_valid --allow-empty "$f"
		evlist "$f" | has_match getsid && fail "$f: the side-band event is in the file's attrs"
	done
fi

# Bad input: one "prec:" line naming the fix, 1..125, no file.
bad()
{
	local pat=$1
	shift
	rm -f "$TMP/bad.data"*
	run_prec -o "$TMP/bad.data" "$@"
	((PREC_RC >= 1 && PREC_RC <= 125)) || fail "prec $*: exit status $PREC_RC"
	(($(grep -c . "$PREC_ERR") == 1)) || fail "prec $*: $(grep -c . "$PREC_ERR") lines on stderr"
	grep -Eq "^prec: .*$pat" "$PREC_ERR" || fail "prec $*: '$(head -n 1 "$PREC_ERR")' lacks /$pat/"
	compgen -G "$TMP/bad.data*" >/dev/null && fail "prec $*: left a file"
	return 0
}
bad 'nosuch.*list-events' --switch-output-event=nosuch -- true
bad 'empty --switch-output-event' --switch-output-event= -- true
bad 'not with --threads' --switch-output-event=cs --threads -- true
bad 'exceeded.*-F [0-9]+ or lower' --strict-freq -F $((max + 1)) -- true
bad 'takes no value' --dry-run=yes -- true
bad 'takes no value' --group=1 -- true
bad 'nosuch' --dry-run -e nosuch -- true
pass
