#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Pipe mode (-o -, or no -o with stdout a FIFO): perf report, perf script and
# perf inject read prec's stream without a warning and attribute it as they
# do perf record's stream of the same workload; the stream's front matches
# perf's (attrs, features, event names); -z and tracepoints work there too;
# a reader that exits early stops the recording with one line and no
# orphaned workload; a closed stdout is one clear error.
source "${TEST_LIB:-$(dirname "$0")/lib.sh}" || exit 1

need_root "a system-wide tracepoint recording (-a -e sched:sched_switch)"

# stream_ok STREAM: perf report reads the stream from stdin, no warning.
stream_ok()
{
	"$PERF" report --stdio -i - <"$1" >"$1.report" 2>"$1.err"
	(($? == 0)) || fail "perf report -i - <$1 failed: $(head -n 3 "$1.err")"
	require_no_warning "$1.err" "perf report -i - <$(basename "$1")"
}

# pct STREAM SYMBOL: the symbol's share in perf report --sort sym.
pct()
{
	"$PERF" report --stdio --sort sym -i - <"$1" 2>/dev/null |
		awk -v s="$2" '!/^#/ && $1 ~ /%$/ && $NF == s { sum += $1 } END { printf "%.2f\n", sum }'
}

# ---- -o -: report, script, inject ------------------------------------------
"$PREC" -o - -- "$WORKLOAD" 600 >prec.pipe 2>prec.err || fail "prec -o - exited $?"
"$PERF" record -o - -- "$WORKLOAD" 600 >perf.pipe 2>perf.err || fail "perf record -o - exited $?"
[[ $(head -c 8 prec.pipe) == PERFILE2 ]] || fail "-o -: the stream does not start with perf's magic"
grep -q 'Captured and wrote .* - (' prec.err || fail "-o -: no summary naming '-': $(cat prec.err)"
stream_ok prec.pipe
a=$(pct prec.pipe hot_two_thirds)
b=$(pct perf.pipe hot_two_thirds)
log "hot_two_thirds: prec $a%, perf record $b%"
within 10 "$a" "$b" || fail "-o -: hot_two_thirds $a% vs perf record's $b%"
n=$(summary_samples prec.err)
"$PERF" script -i - <prec.pipe >script.out 2>script.err || fail "perf script -i - failed"
require_no_warning script.err "perf script -i -"
[[ $(wc -l <script.out) == "$n" ]] || fail "perf script printed $(wc -l <script.out) samples, the summary says $n"
"$PERF" inject -i - -o injected.data <prec.pipe 2>inject.err || fail "perf inject failed: $(cat inject.err)"
require_no_warning inject.err "perf inject"
require_valid injected.data
c=$(report_percent injected.data hot_two_thirds)
within 1 "$a" "$c" || fail "perf inject's file: hot_two_thirds $c%, the stream $a%"
# The build-ids come at the end of the stream; perf inject keeps them.
"$PERF" buildid-list -i injected.data 2>/dev/null | has_match "$(basename "$WORKLOAD")\$" ||
	fail "no build-id of the workload after perf inject"

# The stream's front as perf's: the same attrs (perf adds ID for one event
# in a pipe) and the same header lines.
evp=$("$PERF" evlist -v -i - <prec.pipe 2>/dev/null)
evq=$("$PERF" evlist -v -i - <perf.pipe 2>/dev/null)
[[ -n "$evp" && "$evp" == "$evq" ]] || fail "attrs differ from perf record's stream: '$evp' vs '$evq'"
# The BPF programs loaded (systemd's, another test's) are compared apart:
# perf 6.1's stream lists none (it writes the feature before it reads
# them), prec's lists them as perf's files do.
hdr_all()
{
	"$PERF" report --header-only -I -i - <"$1" 2>/dev/null
}
hdr_lines()
{
	hdr_all "$1" | grep -Ev '^# (captured on|perf version|cmdline|event|node0 meminfo|time of|sample duration|bpf_prog_info|btf info)|^#	sub_prog'
}
diff <(hdr_lines prec.pipe) <(hdr_lines perf.pipe) >hdr.diff || {
	sed 's/^/    | /' hdr.diff >&2
	fail "header features differ from perf record's stream"
}
bpf_lines()
{
	hdr_all "$1" | grep -E '^# bpf_prog_info' | sort
}
if [[ -n $(bpf_lines prec.pipe) ]]; then
	perf_record_ok -o bpf.data -- true
	"$PERF" report --header-only -I -i bpf.data 2>/dev/null | grep -E '^# bpf_prog_info' | sort >bpf.perf
	# Programs may come and go between the two: those both saw read the same.
	[[ -n $(comm -12 <(bpf_lines prec.pipe) bpf.perf) ]] ||
		fail "no BPF program of the stream as perf record's file lists it: $(bpf_lines prec.pipe | head -n 3)"
fi
# The name perf record gives the default event here (it depends on the CPU
# vendor and the PMU: cpu-clock:pppH, cpu-clock:ppp on AMD, cycles...).
ev_name()
{
	"$PERF" report --header-only -I -i - <"$1" 2>/dev/null | sed -n 's/^# event : name = \([^,]*\),.*/\1/p' | head -n 1
}
want=$(ev_name perf.pipe)
[[ -n "$want" && $(ev_name prec.pipe) == "$want" ]] ||
	fail "EVENT_DESC/EVENT_UPDATE: the event is not named '$want' (perf record's name)"

# ---- no -o and stdout a FIFO: a stream, as perf --------------------------
"$PREC" -- "$WORKLOAD" 100 2>auto.err | cat >auto.pipe
[[ $(head -c 8 auto.pipe) == PERFILE2 && ! -e perf.data ]] || fail "stdout a FIFO without -o: no stream"
stream_ok auto.pipe

# ---- -z and tracepoints in a stream ---------------------------------------
"$PREC" -z -o - -- "$WORKLOAD" 400 >z.pipe 2>z.err || fail "prec -z -o - exited $?"
grep -q 'compressed (original' z.err || fail "-z -o -: no compression in the summary"
stream_ok z.pipe
n=$(summary_samples z.err)
[[ $("$PERF" script -i - <z.pipe 2>/dev/null | wc -l) == "$n" ]] || fail "-z -o -: perf script lost samples"
"$PREC" -o - -e sched:sched_switch -a -- sleep 0.3 >tp.pipe 2>tp.err || fail "tracepoint -o - exited $?"
"$PERF" script -i - <tp.pipe >tp.out 2>tp.script.err
require_no_warning tp.script.err "perf script of a tracepoint stream"
grep -q 'prev_comm=.*next_pid=' tp.out || fail "tracepoint stream: perf script does not decode sched_switch"

# ---- output options that work on a stream too ------------------------------
for o in --overwrite --no-buffering --mmap-flush=16K --tail-synthesize -q; do
	"$PREC" $o -o - -- "$WORKLOAD" 300 >opt.pipe 2>opt.err || fail "$o -o - exited $?"
	stream_ok opt.pipe
	p=$(pct opt.pipe hot_two_thirds)
	within 10 "$p" "$b" || fail "$o -o -: hot_two_thirds $p% vs perf record's $b%"
done
[[ ! -s opt.err ]] || fail "-q -o -: prec printed '$(cat opt.err)'"
"$PREC" --switch-output -o - -- true >/dev/null 2>sw.err && fail "--switch-output -o - was accepted"
grep -q 'not with a pipe' sw.err || fail "--switch-output -o -: $(cat sw.err)"

# ---- the reader exits early -----------------------------------------------
start=$(date +%s%N)
( "$PREC" -o - -- sleep 19.713 2>epipe.err; echo $? >epipe.rc ) | head -c 64 >/dev/null
ms=$(( ($(date +%s%N) - start) / 1000000 ))
rc=$(cat epipe.rc)
log "reader gone: prec exited $rc after $ms ms"
((rc >= 1 && rc <= 125)) || fail "reader gone: exit status $rc"
((ms < 10000)) || fail "reader gone: prec waited ${ms} ms for the workload"
[[ $(grep -c . epipe.err) == 1 ]] && grep -q 'reader of the output pipe exited' epipe.err ||
	fail "reader gone: not one clear line: $(cat epipe.err)"
pgrep -x -f 'sleep 19.713' >/dev/null && fail "reader gone: the workload was left running"

# ---- a closed stdout --------------------------------------------------------
"$PREC" -o - -- true >&- 2>closed.err
rc=$?
((rc >= 1 && rc <= 125)) || fail "closed stdout: exit status $rc"
[[ $(grep -c . closed.err) == 1 ]] && grep -q 'standard output is closed' closed.err ||
	fail "closed stdout: $(cat closed.err)"
pass
