#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# --control driven the way a harness drives perf record: a FIFO of commands
# and a FIFO of acks, the recording started disabled (-D -1) on a command
# in two parts (prec_phases: part_a, then part_b when told). Disabled
# during A, enabled for B: B's samples land, A's do not; each command is
# acked ("ack\n\0", as perf) and an unknown one is not; stop ends the
# recording with a file perf reads; enable EVENT and disable EVENT touch
# that event only; evlist -v prints what perf evlist -v prints. Also with
# --threads, into a pipe, system-wide, with an fd: channel that reaches its
# end (the recording goes on, without spinning), and snapshot with
# --overwrite (the dump is there when the ack comes) and with
# --switch-output (the rotated file is), and on a -p target. Bad --control values:
# one line, status 1..125, no file.
source "${TEST_LIB:-$(dirname "$0")/lib.sh}" || exit 1

need_root "a system-wide recording (-a)"

PHASES=$WORKLOAD_DIR/prec_phases

# wait_for FILE: until the command has made FILE (10 s at most).
wait_for()
{
	local i
	for ((i = 0; i < 200; i++)); do
		[[ -e $1 ]] && return 0
		sleep 0.05
	done
	fail "the command never reached $1"
}

# open_channel: fresh FIFOs ctl and ack, held open read-write here (as a
# harness holds them) on fds $CTL and $ACK.
open_channel()
{
	rm -f ctl ack
	mkfifo ctl ack || fail "mkfifo"
	exec {CTL}<>ctl {ACK}<>ack
}

close_channel()
{
	exec {CTL}>&- {ACK}>&-
}

# send CMD: write it, and fail unless perf's ack ("ack\n" and its NUL)
# comes within 10 s.
send()
{
	local a
	printf '%s\n' "$1" >&"$CTL"
	IFS= read -r -t 10 -d '' -u "$ACK" a || fail "no ack for '$1'"
	[[ "$a" == $'ack\n' ]] || fail "the ack of '$1' was '$a'"
}

# no_ack CMD: an unknown command is not acked (as perf).
no_ack()
{
	local a
	printf '%s\n' "$1" >&"$CTL"
	if IFS= read -r -t 0.5 -d '' -u "$ACK" a; then
		fail "'$1' was acked ('$a'): perf acks only the commands it knows"
	fi
}

# count FILE EVENT SYM: samples of EVENT in SYM (perf script).
count()
{
	"$PERF" script -i "$1" -F event,ip,sym 2>/dev/null |
		awk -v ev="$2:" -v sym="$3" '$1 == ev && $NF == sym { n++ } END { print n + 0 }'
}

# start TAG DIR PREC-ARGS...: prec on prec_phases DIR in the background,
# stderr in TAG.err; PID in $PID.
start()
{
	local tag=$1 dir=$2
	shift 2
	rm -rf "$dir"
	mkdir -p "$dir"
	"$PREC" "$@" -- "$PHASES" "$dir" 2>"$tag.err" &
	PID=$!
	track_pid "$PID"
	wait_for "$dir/in_a"
}

# finish TAG: wait for prec after stop; perf record dies of the SIGTERM it
# sends the command, prec exits with it (128 + 15).
finish()
{
	local rc
	wait "$PID"
	rc=$?
	((rc == 143)) || { cat "$1.err" >&2; fail "$1: prec exited $rc after stop, expected 143 (the command's SIGTERM)"; }
	grep -q '^Events disabled$' "$1.err" || fail "$1: no 'Events disabled' (perf's -D -1 message)"
}

# to_b DIR: the command leaves part_a and enters part_b.
to_b()
{
	touch "$1/go_b"
	wait_for "$1/in_b"
}

# -- 1. One drain, a file: disable during A, enable for B, two events. ------
open_channel
start c1 g1 -D -1 --control fifo:ctl,ack -e cpu-clock -e task-clock -o c1.data
send disable
sleep 0.3
to_b g1
send enable
sleep 0.6
no_ack bogus
send ping
send 'evlist -v'
send 'evlist -F'
send snapshot
send stop
finish c1
close_channel
require_valid c1.data
grep -q '^Events enabled$' c1.err || fail "c1: no 'Events enabled' after enable"
for ev in cpu-clock task-clock; do
	a=$(count c1.data $ev part_a)
	b=$(count c1.data $ev part_b)
	((a == 0)) || fail "c1: $a $ev samples in part_a, which ran disabled"
	((b >= 20)) || fail "c1: only $b $ev samples in part_b, which ran enabled for 0.6 s"
done
# evlist -v: what perf evlist -v reads from the file, line for line.
for ev in cpu-clock task-clock dummy:HG; do
	want=$("$PERF" evlist -v -i c1.data 2>/dev/null | grep "^$ev: type")
	got=$(grep "^$ev: type" c1.err)
	[[ -n "$want" && "$got" == "$want" ]] || fail "c1: evlist -v for $ev: '$got', perf evlist -v: '$want'"
done
grep -qx 'cpu-clock: sample_freq=4000' c1.err || fail "c1: evlist -F did not print perf's 'cpu-clock: sample_freq=4000'"

# -- 2. --threads: enable EVENT and disable EVENT touch that event only. ----
open_channel
start c2 g2 -D -1 --threads --control fifo:ctl,ack -e cpu-clock -e task-clock -o c2.data
send 'disable task-clock'
to_b g2
send 'enable cpu-clock'
sleep 0.6
send 'enable nosuch'
send 'enablex'
send stop
finish c2
close_channel
require_valid c2.data
grep -q '^Event cpu-clock enabled$' c2.err || fail "c2: no 'Event cpu-clock enabled'"
grep -q "^failed: can't find 'nosuch' event$" c2.err || fail "c2: no perf message for an unknown event"
grep -q '^failed: wrong command$' c2.err || fail "c2: no perf message for a malformed command"
a=$(count c2.data cpu-clock part_a)
b=$(count c2.data cpu-clock part_b)
t=$(count c2.data task-clock part_b)
((a == 0 && b >= 20)) || fail "c2 (--threads): cpu-clock part_a $a (want 0), part_b $b (want >= 20)"
((t == 0)) || fail "c2 (--threads): $t task-clock samples, but only cpu-clock was enabled"

# -- 3. Into a pipe, read by perf report as it comes. ------------------------
open_channel
rm -rf g3
mkdir g3
("$PREC" -D -1 --control fifo:ctl,ack -e cpu-clock -o - -- "$PHASES" g3 2>c3.err |
	"$PERF" report -i - --stdio --sort sym >c3.report 2>c3.report.err) &
PID=$!
track_pid "$PID"
wait_for g3/in_a
to_b g3
send enable
sleep 0.6
send stop
wait "$PID"
close_channel
grep -q 'part_b' c3.report || fail "c3 (pipe): part_b not in perf report's view of the stream"
! grep -q 'part_a' c3.report || fail "c3 (pipe): part_a in the stream, which ran disabled"
require_no_warning c3.report.err "perf report -i - of the stream"

# -- 4. System-wide, stop with no command: status 0. --------------------------
open_channel
"$PREC" -a -D -1 --control fifo:ctl,ack -e cpu-clock -o c4.data 2>c4.err &
PID=$!
track_pid "$PID"
sleep 0.3
send enable
sleep 0.3
send stop
wait "$PID" || fail "c4 (-a): prec exited $? after stop, expected 0"
close_channel
require_valid --allow-empty c4.data

# -- 5. fd: channel that ends (EOF): the recording goes on, not spinning. ----
TIMEFORMAT='%U %S'
{ time "$PREC" --control fd:5 -e cpu-clock -o c5.data -- sleep 1.5 5< <(printf 'ping\n') 2>c5.err; } 2>c5.time
rc=$?
((rc == 0)) || { cat c5.err >&2; fail "c5: prec exited $rc with an fd: channel at its end"; }
cpu=$(awk '{ print $1 + $2 }' c5.time)
within 0.5 "$cpu" 0 || fail "c5: prec used ${cpu}s of CPU in 1.5 s: it spins on a channel at its end"
require_valid --allow-empty c5.data

# -- 6. snapshot with --overwrite: the flight recorder is dumped by the ack. --
open_channel
start c6 g6 --overwrite --control fifo:ctl,ack -e cpu-clock -o c6.data
sleep 0.5
send snapshot
dump=$(ls c6.data.* 2>/dev/null | head -n 1)
[[ -n "$dump" ]] || fail "c6: no dump file when the snapshot was acked"
touch g6/go_b g6/end
wait "$PID" || fail "c6: prec exited $?"
close_channel
require_valid "$dump"

# -- 7. snapshot with --switch-output: the file is rotated by the ack. ------
open_channel
start c7 g7 --switch-output --control fifo:ctl,ack -e cpu-clock -o c7.data
sleep 0.3
send snapshot
rotated=$(ls c7.data.* 2>/dev/null | head -n 1)
[[ -n "$rotated" ]] || fail "c7: no rotated file when the snapshot was acked"
require_valid "$rotated"
send stop
wait "$PID"
close_channel

# -- 8. -p: a process already running, enabled for B only. --------------------
open_channel
rm -rf g8
mkdir g8
"$PHASES" g8 &
TARGET=$!
track_pid "$TARGET"
wait_for g8/in_a
"$PREC" -p "$TARGET" -D -1 --control fifo:ctl,ack -e cpu-clock -o c8.data 2>c8.err &
PID=$!
track_pid "$PID"
send ping # answered once the recording polls its channel
to_b g8
send enable
sleep 0.6
send stop
wait "$PID" || fail "c8 (-p): prec exited $? after stop, expected 0"
touch g8/end
wait "$TARGET"
close_channel
a=$(count c8.data cpu-clock part_a)
b=$(count c8.data cpu-clock part_b)
((a == 0 && b >= 20)) || fail "c8 (-p): part_a $a samples (want 0), part_b $b (want >= 20)"

# -- 9. Bad values: one line naming the fix, 1..125, no file. -----------------
: >regular
for arg in foo fd:abc fd: fifo: fd:77 fd:0,77 fifo:nosuch.fifo fifo:regular fifo:ctl,nosuch/ack; do
	rm -f bad.data
	mkfifo ctl 2>/dev/null
	run_prec --control "$arg" -o bad.data -- true
	((PREC_RC >= 1 && PREC_RC <= 125)) || fail "--control $arg: exit status $PREC_RC, expected 1..125"
	[[ ! -e bad.data ]] || fail "--control $arg left bad.data behind"
	n=$(grep -c . "$PREC_ERR")
	((n == 1)) || fail "--control $arg: $n lines on stderr, expected one"
	grep -q '^prec: .*--control' "$PREC_ERR" || fail "--control $arg: the line does not name --control: $(cat "$PREC_ERR")"
done

pass
