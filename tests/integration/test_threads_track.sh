#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# --threads: each stream follows the build-ids and unwinds as it drains.
# A program with a shared library of its own is started on the last CPU
# (its exec and library maps land in that CPU's stream) and then samples
# on the first CPU and, in a forked child, on the last: the first stream's
# samples need the maps another stream drained.
#  - perf buildid-list of --threads, plain and -z, is the single-stream
#    file's list and the hit set perf's reader finds in the samples (-H),
#    and perf record --threads's list (ld.so/libc, hit or not at start-up,
#    aside);
#  - --call-graph dwarf --unwind=record --threads: perf report gives the
#    single-stream file's call chains, every sample unwound, in both
#    processes;
#  - --max-size with --threads: the data files together stay within the
#    limit (plus the features), one line says so, perf reads the directory.
source "${TEST_LIB:-$(dirname "$0")/lib.sh}" || exit 1

need_root "a system-wide recording (--threads -a --max-size)"
need_tool cc "install gcc"
ncpu=$(getconf _NPROCESSORS_ONLN)
((ncpu >= 2)) || skip "one CPU: one stream, nothing crosses streams"
last=$((ncpu - 1))

cat >trklib.c <<'EOF2'
volatile unsigned long trk_sink;
__attribute__((noinline)) void trk_lib_hot(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		trk_sink += i;
}
EOF2
cat >trkprog.c <<'EOF2'
#define _GNU_SOURCE
#include <sched.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
void trk_lib_hot(unsigned long n);
static double cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}
static volatile unsigned long sink;
/* Half the time here, half in the library: both DSOs are hit in every run. */
__attribute__((noinline)) void trk_caller(double ms)
{
	double t0 = cpu_ms();

	while (cpu_ms() - t0 < ms) {
		trk_lib_hot(100000);
		for (unsigned long i = 0; i < 100000; i++)
			sink += i ^ (i >> 3);
	}
}
static void pin(int cpu)
{
	cpu_set_t s;

	CPU_ZERO(&s);
	CPU_SET(cpu, &s);
	sched_setaffinity(0, sizeof(s), &s);
}
/* Started on the last CPU: the parent moves to CPU 0, the child stays. */
int main(int argc, char **argv)
{
	double ms = argc > 1 ? atof(argv[1]) : 300;
	int last = argc > 2 ? atoi(argv[2]) : 1;
	pid_t c = fork();

	pin(c == 0 ? last : 0);
	trk_caller(ms);
	if (c > 0)
		waitpid(c, NULL, 0);
	return 0;
}
EOF2
mkdir -p bin
cc -O1 -g -fno-omit-frame-pointer -shared -fPIC -Wl,--build-id -o bin/libtrk.so trklib.c &&
	cc -O1 -g -Wl,--build-id -o bin/trkprog trkprog.c -L bin -ltrk -Wl,-rpath,"$TMP/bin" ||
	fail "cannot compile the test program"
PROG=(taskset -c "$last" "$TMP/bin/trkprog")

# ids FILE [ARGS]: "id name" lines of perf buildid-list, sorted, without
# the loader, the system libraries and taskset before its exec (each hit
# by a sample or two, or not, as the timing falls).
ids()
{
	local f=$1
	shift
	"$PERF" buildid-list "$@" -i "$f" 2>"$TMP/bid.err" | grep -Ev ' /(usr/)?lib(64)?/| /usr/bin/taskset$' | sort
	require_no_warning "$TMP/bid.err" "perf buildid-list -i $f"
}

# ---- build-ids: one stream, --threads, --threads -z, perf --threads -------

prec_record_ok -o one.data -- "${PROG[@]}" 300
prec_record_ok --threads --sample-cpu -o thr.data -- "${PROG[@]}" 300
prec_record_ok --threads -z --sample-cpu -o thrz.data -- "${PROG[@]}" 300
perf_record_ok --threads -o perf.data -- "${PROG[@]}" 300
ids one.data >one.ids
grep -q ' .*/libtrk\.so$' one.ids || fail "one stream: libtrk.so is not listed: $(cat one.ids)"
grep -q ' .*/trkprog$' one.ids || fail "one stream: trkprog is not listed: $(cat one.ids)"
for f in thr.data thrz.data perf.data; do
	ids "$f" >"$f.ids"
	diff one.ids "$f.ids" >/dev/null ||
		fail "$f lists other DSOs than the single-stream file: $(diff one.ids "$f.ids" | tr '\n' ' ')"
done
# What perf's reader finds hit in the samples is what the header lists
# ([vdso] is listed whenever mapped, as perf record does).
for f in thr.data thrz.data; do
	require_valid "$f"
	ids "$f" | grep -v ' \[vdso\]$' >a.ids
	ids "$f" -H | grep -v ' \[vdso\]$' >b.ids
	diff a.ids b.ids >/dev/null ||
		fail "$f: HEADER_BUILD_ID is not the hit set perf finds: $(diff a.ids b.ids | tr '\n' ' ')"
	# Both processes sampled the library, on both streams' CPUs.
	n=$("$PERF" script -i "$f" -F pid,cpu,ip,sym 2>/dev/null | awk '$NF == "trk_lib_hot" { print $1, $2 }' |
		sort -u | wc -l)
	((n >= 2)) || fail "$f: trk_lib_hot sampled in $n (pid, cpu) pairs, want both processes"
done
# Nothing is read back at the end any more: the -z note is gone.
run_prec --threads -z -v -o thrz2.data -- "${PROG[@]}" 100
((PREC_RC == 0)) || fail "--threads -z -v exited $PREC_RC"
no_grep_or_fail 'are not collected' "$PREC_ERR" "--threads -z -v"

# ---- --unwind=record --threads ---------------------------------------------

# chain DATA: trk_lib_hot's main caller chain in perf report -g, 4 frames
# (a branch's share, the samples whose unwind stopped early, left out).
chain()
{
	"$PERF" report -i "$1" --stdio --no-children -g caller,0.5,callee -S trk_lib_hot 2>/dev/null |
		awk '/---/ { go = 1 } go && NF == 0 { exit }
			go { gsub(/[|]/, ""); sub(/^ *---/, ""); gsub(/--[0-9.]+%--/, ""); if (NF == 1) print $1 }' |
		head -n 4 | tr '\n' ' '
}
prec_record_ok --call-graph dwarf --unwind=record -o u1.data -- "${PROG[@]}" 300
prec_record_ok --threads --sample-cpu --call-graph dwarf --unwind=record -o ut.data -- "${PROG[@]}" 300
cp "$PREC_ERR" ut.err
prec_record_ok --threads -z --sample-cpu --call-graph dwarf --unwind=record -o utz.data -- "${PROG[@]}" 300
want=$(chain u1.data)
[[ $want == "trk_lib_hot trk_caller main "* ]] || fail "one stream: call chain '$want'"
for f in ut.data utz.data; do
	require_valid "$f"
	a=$(chain "$f")
	log "$f: '$a', one stream '$want'"
	[[ $a == "$want" ]] || fail "$f: call chain '$a', the single-stream file's '$want'"
	# Both processes' samples reach main, in both streams.
	n=$("$PERF" script -i "$f" -F pid,cpu,ip,sym 2>/dev/null |
		awk '/^ *[0-9]+ +\[[0-9]+\]/ { key = $1 " " $2 } $NF == "main" && key { print key; key = "" }' |
		sort -u | wc -l)
	((n >= 2)) || fail "$f: unwound to main in $n (pid, cpu) pairs, want both processes"
done
line=$(grep -E '^\[ prec record: Unwound [0-9]+ user stacks' ut.err) || fail "--threads: no unwind count"
read -r done partial < <(sed -E 's/.*Unwound ([0-9]+) .*, ([0-9]+) incomplete.*/\1 \2/' <<<"$line")
samples=$(summary_samples ut.err)
log "--threads: unwound $done of $samples samples, $partial incomplete"
((done == samples && done > 100)) || fail "--threads: unwound $done of $samples samples"
# A sample drained before another stream has passed on its process's exec
# maps stops early: how many depends on when the streams run (0.1 % on a
# quiet machine, 5-10 % under load or in the sanitized build). Most must
# unwind whole, and the chains above must be the single stream's.
((partial * 4 <= done)) || fail "--threads: $partial of $done unwinds incomplete"

# ---- --max-size --threads ---------------------------------------------------

for z in "" -z; do
	rm -rf max.data
	# shellcheck disable=SC2086
	prec_record_ok --threads $z -a --max-size=400K -o max.data -- sleep 5
	n=$(grep -c 'size limit reached' "$PREC_ERR")
	((n == 1)) || fail "--threads $z --max-size: $n limit lines, want 1"
	require_valid max.data
	# The features (build-ids, topology...) come on top, as one stream.
	sb=$(header_field "$(header max.data)" "data size" | awk '{ print $1 }')
	feat=$(($(stat -c %s max.data/data) - sb))
	total=$(cat max.data/data* | wc -c)
	streams=$((total - sb - feat))
	log "--threads $z --max-size=400K: $total bytes in all ($sb of side-band, $streams of streams, $feat after them)"
	# The streams together stay within the limit.
	((streams <= 400 * 1024)) || fail "--threads $z --max-size=400K: the streams wrote $streams bytes"
	# The data file's data is the side-band of every task, read in the
	# background and counted once it is in: on a quiet machine before the
	# streams spent the budget (the whole within the limit), with thousands
	# of tasks after (the side-band comes on top, and alone may pass it).
	((total <= 400 * 1024 + sb + feat)) || fail "--threads $z --max-size=400K: $total bytes"
	if ((sb < 100 * 1024)); then
		((total <= 400 * 1024 + feat)) || fail "--threads $z --max-size=400K: $total bytes with $sb of side-band"
	fi
	# The limit line says the size reached, the side-band past the limit included.
	said=$(sed -n 's/.*size limit reached (\([0-9]*\) KB).*/\1/p' "$PREC_ERR")
	(((said + 64) * 1024 >= (total - feat) * 9 / 10)) ||
		fail "--threads $z --max-size=400K: the limit line says ${said} KB of $((total - feat)) bytes"
	ls max.data/data.* >/dev/null || fail "no stream files"
	run_perf report --stdio -i max.data
	require_no_warning "$PERF_ERR" "perf report -i max.data ($z)"
done
pass
