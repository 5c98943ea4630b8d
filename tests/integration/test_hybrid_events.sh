#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# -e on a hybrid machine (core PMUs cpu_core and cpu_atom), judged by perf
# record 6.1 itself: in a private mount namespace the hybrid fixture's PMUs
# stand in for /sys/bus/event_source/devices (cpu_core on CPU 0, cpu_atom on
# CPU 1; both on CPU 0 on a one-CPU machine), and a small library preloaded
# into perf and prec alike opens a software clock wherever the event asks
# for a PMU this machine lacks, so that both record and write the attrs they
# built. For each -e string the events' names (HEADER_EVENT_DESC, what perf
# report shows) and the attr fields the string decides must be perf's; so
# must the hybrid header lines (HYBRID_TOPOLOGY, PMU_CAPS).
# The tracking dummy perf 6.1 adds on every hybrid machine is compared too,
# with every event's sample_type and read_format. Not compared: groups: perf 6.1
# keeps {cycles,instructions} one group over both PMUs, which a real hybrid
# kernel refuses; prec makes one group per core PMU (checked on its own).
source "${TEST_LIB:-$(dirname "$0")/lib.sh}" || exit 1

need_root "the fixture's PMUs are bind-mounted over sysfs"
need_namespaces "those mounts are made in a private mount namespace"
need_tool cc "apt install gcc: it builds the preloaded perf_event_open stand-in"

# The stand-in: a hardware, cache, raw or PMU event becomes a software
# cpu-clock for the kernel; the caller keeps the attr it asked for.
cat >"$TMP/soft_open.c" <<'EOF'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdarg.h>
#include <string.h>
#include <sys/syscall.h>
#include <linux/perf_event.h>

long syscall(long nr, ...)
{
	long (*real)(long, ...) = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
	struct perf_event_attr copy;
	long a[6];
	va_list ap;

	va_start(ap, nr);
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	if (nr == __NR_perf_event_open && a[0]) {
		const struct perf_event_attr *at = (const void *)a[0];
		size_t n = at->size ? at->size : PERF_ATTR_SIZE_VER0;

		if (at->type != PERF_TYPE_SOFTWARE && at->type != PERF_TYPE_TRACEPOINT &&
		    at->type != PERF_TYPE_BREAKPOINT) {
			memset(&copy, 0, sizeof(copy));
			memcpy(&copy, at, n < sizeof(copy) ? n : sizeof(copy));
			copy.size = sizeof(copy);
			copy.type = PERF_TYPE_SOFTWARE;
			copy.config = PERF_COUNT_SW_CPU_CLOCK;
			copy.precise_ip = 0;
			a[0] = (long)&copy;
		}
	}
	return real(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
}
EOF
cc -shared -fPIC -O2 -o "$TMP/soft_open.so" "$TMP/soft_open.c" -ldl 2>"$TMP/cc.err" ||
	fail "cannot build the stand-in: $(head -n 3 "$TMP/cc.err")"

devs=$TMP/devices
cp -a "$FIXTURES/sysinfo/hybrid/sys/bus/event_source/devices" "$devs" || fail "cannot copy the fixture"
second=1
(($(nproc) > 1)) || second=0
echo 0 >"$devs/cpu_core/cpus"
echo "$second" >"$devs/cpu_atom/cpus"
# ASan must come first among the libraries unless told otherwise.
asan="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"

# record ARGS...: perf record and prec with ARGS over the fixture's PMUs,
# into $TMP/perf.data and $TMP/prec.data; fails unless both record.
record()
{
	rm -f "$TMP/perf.data" "$TMP/prec.data"
	timeout --kill-after=10 "$RUN_TIMEOUT" bash -c "$(declare -f in_private_mounts); in_private_mounts \"\$@\"" - bash -c '
		mount --bind "$1" /sys/bus/event_source/devices || exit 5
		cd "$2" || exit 5
		LD_PRELOAD=$3 "$4" record -q -o perf.data "${@:7}" >perf.rec.out 2>perf.rec.err
		perf_rc=$?
		ASAN_OPTIONS=$6 LD_PRELOAD=$3 "$5" -q -o prec.data "${@:7}" >prec.rec.out 2>prec.rec.err || exit 4
		exit $((perf_rc ? 3 : 0))
	' record "$devs" "$TMP" "$TMP/soft_open.so" "$PERF" "$PREC" "$asan" "$@"
	case $? in
	0) ;;
	3) [[ -n "${PERF_MAY_FAIL:-}" ]] ||
		fail "perf record $* over the hybrid PMUs failed: $(head -n 3 "$TMP/perf.rec.err")" ;;
	4) fail "prec $* over the hybrid PMUs failed: $(head -n 3 "$TMP/prec.rec.err")" ;;
	*) fail "setting up the namespace for $* failed" ;;
	esac
}

# events FILE: each event's name and the attr fields -e decides, one line each.
events()
{
	"$PERF" evlist -v -i "$1" 2>/dev/null | cat |
		sed 's/{ sample_period, sample_freq }/period/' | awk -F', ' '
		BEGIN { keep = "^(type|config|sample_type|read_format|config1|config2|period|freq|exclude_user|exclude_kernel|exclude_hv|exclude_guest|exclude_host|exclude_idle|precise_ip|pinned|exclusive):" }
		{
			i = index($1, ": "); out = substr($1, 1, i - 1); f = substr($1, i + 2)
			if (f ~ keep) out = out " " f
			for (j = 2; j <= NF; j++) if ($j ~ keep) out = out " " $j
			print out
		}'
}

# hybrid_lines FILE: the header lines of the hybrid PMUs (HYBRID_TOPOLOGY, PMU_CAPS).
hybrid_lines()
{
	"$PERF" report --header-only -I -i "$1" 2>/dev/null | grep -E '^# (cpu_core|cpu_atom) ' || true
}

ncase=0
# same_events ARGS...: prec's events for ARGS are perf's.
same_events()
{
	record "$@"
	events "$TMP/perf.data" >"$TMP/perf.ev"
	events "$TMP/prec.data" >"$TMP/prec.ev"
	[[ -s "$TMP/perf.ev" ]] || fail "$*: no events read back from perf's file"
	if ! diff -u "$TMP/perf.ev" "$TMP/prec.ev" >"$TMP/ev.diff"; then
		sed 's/^/    | /' "$TMP/ev.diff" >&2
		fail "$*: prec's events differ from perf record's (- perf, + prec)"
	fi
	ncase=$((ncase + 1))
}

# Several -e strings to a record: one record per line.
while read -r -a evs; do
	args=()
	for ev in "${evs[@]}"; do args+=(-e "$ev"); done
	same_events "${args[@]}" -- true
done <<'EOF'
cycles cycles:u cycles:k cycles:pp instructions:ppp
cycles:P
branches cache-misses ref-cycles cpu-clock 1:0
0:0 3:0 4:0x3c 0:0x500000001
r3c r3c:u r500000003c
L1-dcache-loads L1-dcache-loads:u LLC-load-misses dTLB-loads
cycles/name=foo/ cpu_core/event=0x3c,name=foo/ cpu_core/name=x/
cpu_core/cycles/ cpu_core/cycles/u cpu_core/cycles:u/ cpu_core/cycles/pp cpu_core/cycles=1/
cpu_core/L1-dcache-loads/ cpu_core/cpu-clock/ cpu_atom/cpu-cycles/ cpu_core/instructions/
cpu_core/event=0x3c/ cpu_core/r3c/ cpu_atom/r3c/k
cycles,instructions cpu_core/cycles/,cpu_atom/instructions/
EOF
log "$ncase records of -e strings: the same events as perf record"

# The default event, and the hybrid header lines with it.
same_events -- true
hybrid_lines "$TMP/perf.data" >"$TMP/perf.hy"
hybrid_lines "$TMP/prec.data" >"$TMP/prec.hy"
grep -q 'cpu_core cpu list : 0' "$TMP/perf.hy" || fail "perf wrote no HYBRID_TOPOLOGY over the fixture"
diff -u "$TMP/perf.hy" "$TMP/prec.hy" >&2 || fail "the hybrid header lines differ (- perf, + prec)"

# -C with a CPU of one core PMU: the other PMU's events are left out, as perf.
if ((second)); then
	same_events -C 0 -e cycles,r3c -- true
fi

# Groups: prec makes one per core PMU, each its PMU's events in the order
# given. perf 6.1 makes one over both PMUs, which the kernel refuses when
# they are on different CPUs ("Invalid event (cpu_core/cycles/) in
# per-thread mode"), as on every real hybrid machine.
PERF_MAY_FAIL=1 record -e '{cycles,instructions}' -- true
"$PERF" evlist -g -i "$TMP/prec.data" 2>/dev/null | grep '{' | sort >"$TMP/groups"
printf '%s\n' '{cpu_atom/cycles/,cpu_atom/instructions/}' '{cpu_core/cycles/,cpu_core/instructions/}' |
	diff -u - "$TMP/groups" >&2 || fail "{cycles,instructions}: not one group per core PMU"
if ((second)) && [[ -s "$TMP/perf.data" ]]; then
	log "perf record recorded {cycles,instructions} over two CPUs: has its grouping changed?"
fi
PERF_MAY_FAIL=1 record --group -e cycles,cpu-clock -- true
"$PERF" evlist -g -i "$TMP/prec.data" 2>/dev/null | grep -c '^{' | grep -qx 1 ||
	fail "--group -e cycles,cpu-clock: not one group of cycles and cpu-clock plus the other PMU's cycles"
pass "$ncase cases, and the groups"
