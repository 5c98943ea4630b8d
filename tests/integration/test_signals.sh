#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Signals to prec: SIGHUP, SIGQUIT, SIGALRM, SIGPIPE (file output), SIGINT
# and SIGTERM each end the recording: the command is stopped (SIGTERM, as
# perf stops it), the file is finished and perf reads its samples without a
# warning, and prec dies of the signal it got (status 128+N), so the shell
# sees it. Plain, -a, -z and --threads. SIGUSR1 does not end a recording
# (perf survives it too); nohup's ignored SIGHUP stays ignored, and so does
# SIGPIPE in pipe mode (a reader gone is a write error there). A second stop
# signal ends at once even when the command ignores SIGTERM. perf record is
# run beside prec on SIGINT, SIGTERM and SIGHUP: it finishes the first two
# (prec must hold as many samples, give or take the machine's noise) and
# dies of SIGHUP with a file it cannot read, which prec fixes.
source "${TEST_LIB:-$(dirname "$0")/lib.sh}" || exit 1

need_root "a system-wide recording (-a)"

BUSY=$WORKLOAD_DIR/prec_busy
[[ -x "$BUSY" ]] || fail "workload not found at $BUSY"

# Each run gives the command its own time limit, so its processes can be told
# apart from those of any other run (and a failed run ends by itself).
limit=40

# next_cmd: a fresh time limit; sets limit and CMD (the command line of the
# workload, to look for afterwards).
next_cmd()
{
	limit=$((limit + 1))
	CMD="$BUSY $limit"
}

# spawn TAG CMD...: CMD (a recorder of $CMD) in the background, its output
# in TAG.out and TAG.err; sets PID; returns once $CMD runs (the recording
# is under way: an ASan prec on a busy machine takes a while to get there)
# and had most of a second (samples in the rings, several passes drained).
spawn()
{
	local tag=$1
	shift
	"$@" >"$tag.out" 2>"$tag.err" &
	PID=$!
	track_pid "$PID"
	for ((i = 0; i < 200; i++)); do
		pgrep -f "^$CMD\$" >/dev/null && break
		sleep 0.05
	done
	sleep 0.8
}

# start TAG PREC_ARGS...: prec recording prec_busy into TAG.data.
start()
{
	local tag=$1
	shift
	next_cmd
	spawn "$tag" "$PREC" "$@" -o "$tag.data" -- "$BUSY" "$limit"
}

# survives SIG WHAT: prec and the command still run half a second after SIG.
survives()
{
	kill -"$1" "$PID"
	sleep 0.5
	kill -0 "$PID" 2>/dev/null || fail "$2: SIG$1 ended prec"
	pgrep -f "^$CMD\$" >/dev/null || fail "$2: SIG$1 ended the command"
}

# ends SIG WANT WHAT: SIG ends prec with status WANT.
ends()
{
	kill -"$1" "$PID"
	finish "$3"
	((RC == $2)) || fail "$3: prec exited $RC, expected $2; $(head -n 3 "$PREC_TAG.err")"
}

# finish WHAT: waits at most 15 s for prec to end; sets RC.
finish()
{
	for ((i = 0; i < 300; i++)); do
		kill -0 "$PID" 2>/dev/null || break
		sleep 0.05
	done
	kill -0 "$PID" 2>/dev/null && fail "$1: prec still runs 15 s after the signal"
	wait "$PID" 2>/dev/null
	RC=$?
}

# command_gone WHAT: no process of the command is left (zombies waiting for
# init aside) within 2 s: prec stopped it, its child died with it.
command_gone()
{
	local pids p left
	for ((i = 0; i < 40; i++)); do
		left=
		pids=$(pgrep -f "^$CMD\$")
		for p in $pids; do
			[[ $(ps -o stat= -p "$p" 2>/dev/null) == Z* ]] || left+=" $p"
		done
		[[ -z "$left" ]] && return 0
		sleep 0.05
	done
	fail "$1: the command was left running (pids$left)"
}

# readable TAG WHAT: perf reads TAG.data without a warning, with samples.
readable()
{
	local n
	require_valid "$1.data"
	n=$("$PERF" script -i "$1.data" 2>/dev/null | grep -c busy_burn)
	((n > 0)) || fail "$2: no busy_burn sample in $1.data"
	echo "$n"
}

# ---- each stop signal, each mode --------------------------------------------------
for mode in "" "-a" "-z"; do
	for sig in HUP QUIT ALRM PIPE INT TERM; do
		what="SIG$sig${mode:+ with $mode}"
		# shellcheck disable=SC2086
		start "s$sig" $mode
		PREC_TAG=s$sig ends "$sig" $((128 + $(kill -l "$sig"))) "$what"
		grep -q '^\[ prec record: Captured and wrote ' "s$sig.err" ||
			fail "$what: no summary line: $(head -n 3 "s$sig.err")"
		no_grep_or_fail '^prec:' "s$sig.err" "$what"
		command_gone "$what"
		n=$(readable "s$sig" "$what")
		log "$what: exit $RC, $n samples"
	done
done
ls ./core* >/dev/null 2>&1 && fail "SIGQUIT left a core file: the recording ended in order"

# --threads: the streams stop too, the directory is finished.
start thr --threads
PREC_TAG=thr ends HUP 129 "SIGHUP with --threads"
command_gone "SIGHUP with --threads"
readable thr "SIGHUP with --threads" >/dev/null

# ---- beside perf record ------------------------------------------------------------
for sig in INT TERM HUP; do
	next_cmd
	spawn "perf$sig" "$PERF" record -o "perf$sig.data" -- "$BUSY" "$limit"
	kill -"$sig" "$PID"
	finish "perf record, SIG$sig"
	if [[ $sig == HUP ]]; then
		log "perf record, SIGHUP: exit $RC; perf report says: $("$PERF" report --stdio -i perfHUP.data 2>&1 | grep -m1 -E "$WARNING_RE")"
		continue
	fi
	n_perf=$(readable "perf$sig" "perf record, SIG$sig")
	n_prec=$(readable "s$sig" "SIG$sig")
	log "SIG$sig: perf record exit $RC, $n_perf samples; prec $n_prec"
	# The same ~1.8 s of three busy threads; a loaded VM moves both.
	((n_prec * 3 >= n_perf)) || fail "SIG$sig: prec has $n_prec samples, perf record $n_perf"
done

# ---- signals that do not end a recording --------------------------------------------
# SIGUSR1: perf record survives it; prec goes on recording until SIGINT.
# (-k realtime: the samples' times compare with date's.)
start usr1 -k realtime
t_usr1=$(date +%s.%N)
survives USR1 "SIGUSR1"
sleep 0.5
PREC_TAG=usr1 ends INT 130 "SIGUSR1 then SIGINT"
readable usr1 "SIGUSR1" >/dev/null
last=$("$PERF" script -F time -i usr1.data 2>/dev/null | tr -d ' :' | sort -g | tail -n 1)
awk -v l="$last" -v u="$t_usr1" 'BEGIN { exit !(l > u + 0.5) }' ||
	fail "SIGUSR1: the last sample is at $last, SIGUSR1 came at $t_usr1 and SIGINT 1 s later: the recording stopped at SIGUSR1"
command_gone "SIGUSR1 then SIGINT"

# nohup: SIGHUP ignored by the caller stays ignored, for prec and the command.
next_cmd
spawn nohup env --ignore-signal=HUP "$PREC" -o nohup.data -- "$BUSY" "$limit"
pkill -HUP -f "^$CMD\$"
survives HUP "under nohup"
PREC_TAG="nohup" ends TERM 143 "nohup, then SIGTERM"
readable nohup "nohup" >/dev/null
command_gone "nohup, then SIGTERM"

# Pipe mode: SIGPIPE is not a stop (the reader's end shows as EPIPE).
next_cmd
spawn pipe "$PREC" -o - -- "$BUSY" "$limit"
survives PIPE "-o - (in pipe mode only a write to a closed pipe stops prec)"
PREC_TAG=pipe ends INT 130 "-o -, SIGPIPE then SIGINT"
"$PERF" report --stdio -i - <pipe.out >pipe.report 2>pipe.rerr || fail "perf report cannot read the pipe stream"
require_no_warning pipe.rerr "perf report of the pipe stream"
command_gone "-o -"

# ---- a second stop signal ends at once ----------------------------------------------
# The command ignores SIGTERM: after SIGHUP prec waits for it, up to 5 s;
# SIGALRM on top makes prec kill it and finish now, dying of the first one.
next_cmd
spawn twice "$PREC" -o twice.data -- sh -c "trap '' TERM; exec '$BUSY' $limit"
kill -HUP "$PID"
sleep 0.3
t0=$SECONDS
PREC_TAG=twice ends ALRM 129 "SIGHUP then SIGALRM (the first signal counts)"
((SECONDS - t0 <= 3)) || fail "SIGHUP then SIGALRM: prec took $((SECONDS - t0)) s to end"
readable twice "SIGHUP then SIGALRM" >/dev/null
command_gone "SIGHUP then SIGALRM"

pass
