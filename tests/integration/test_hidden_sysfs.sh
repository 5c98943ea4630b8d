#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Machines whose sysfs lacks some facts, judged by `perf record` itself: in a
# private mount namespace (the host is untouched) a part of /sys is hidden or
# replaced, prec and perf record the same command there, and the two
# `perf report --header-only -I` outputs must be the same, feature lines and
# "missing features" list alike. Two kinds of cases:
#  - hidden: a live directory (cpu*/cache, node/, memory/, PMU caps/,
#    event_source/devices, cpu*/topology) under an empty tmpfs;
#  - fixture: a fixture tree's sys/devices/system and event_source/devices
#    bound over the live ones (a directory the fixture lacks is absent there
#    too), recorded per thread with task-clock so that no CPU the fixture
#    names must exist; prec also records with PREC_TEST_SYSROOT=fixture outside
#    the namespace, which must give the same lines.
# Lines that describe the host rather than sysfs (uname, /proc/cpuinfo,
# /proc/meminfo, the command line, times, sizes, the BPF programs loaded at
# the time) are not compared, nor the
# event lines (their attrs are test_header_all's business). A memory node
# without blocks prints whatever perf report's buffer held (bitmap_scnprintf
# writes nothing for an empty map): that text is not compared either.
source "${TEST_LIB:-$(dirname "$0")/lib.sh}" || exit 1

need_root "sysfs is hidden from perf by mounts"
need_namespaces "those mounts are made in a private mount namespace"
# A namespace whose mounts cannot be made private would hide sysfs from the
# host too: that is a failure.
in_private_mounts true || fail "no private mount namespace here: nothing can be hidden from perf"

# The header lines a comparison looks at, from a perf report --header-only -I dump.
# perf 6.1 prints a memory node of 0 bytes from a buffer it never filled:
# whatever that holds, a newline included, is its, not the file's; so are
# the lines that newline starts (every line of a header dump starts with #).
norm()
{
	grep -av -E '^# (captured on|header version|data offset|data size|feat offset|hostname|os release|perf version|arch|cpudesc|cpuid|total memory|cmdline|event|time of|sample duration|bpf_prog_info|btf info|	sub_prog|========)' "$1" |
		grep -a '^#' | grep -av -E '^#?$' |
		sed -E 's/total = [0-9]+ kB, free = [0-9]+ kB/total = N kB, free = N kB/;
			s/^(# +[0-9]+ \[0B\]: ).*/\1(empty)/'
}

# norm, for a PREC_TEST_SYSROOT file against perf's: what PREC_TEST_SYSROOT
# takes from the fixture's /proc and perf from the machine it runs on is left
# out of the comparison: the PMU order (intel_pt first on an Intel CPU only) is
# sorted, and CPUDESC/CPUID/TOTAL_MEM/OSRELEASE/ARCH are dropped from "missing
# features".
norm_sysroot()
{
	norm "$1" | sed -E '/^# missing features:/ { s/ (CPUDESC|CPUID|TOTAL_MEM|OSRELEASE|ARCH) / /g; s/ (CPUDESC|CPUID|TOTAL_MEM|OSRELEASE|ARCH) / /g; }' | awk '
		/^# pmu mappings: / {
			s = substr($0, 17); n = split(s, a, ", ")
			for (i = 1; i <= n; i++)
				for (j = i + 1; j <= n; j++)
					if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
			s = a[1]; for (i = 2; i <= n; i++) s = s ", " a[i]
			print "# pmu mappings: " s; next
		}
		{ print }'
}

# same WHAT PERFHDR PRECHDR [NORM]: the two dumps agree, else print the diff and return 1.
same()
{
	local what=$1 a=$2 b=$3 fn=${4:-norm}
	if ! diff -u <($fn "$a") <($fn "$b") >"$TMP/diff.out"; then
		echo "$TEST_NAME: $what: headers differ (- perf record, + prec):" >&2
		sed 's/^/    | /' "$TMP/diff.out" >&2
		return 1
	fi
	return 0
}

# in_ns SETUP RECORD-ARGS...: in a fresh private mount namespace, run SETUP
# (bash code that hides or replaces parts of /sys), then perf record and
# prec with RECORD-ARGS into $TMP/perf.data and $TMP/prec.data.
in_ns()
{
	local setup=$1
	shift
	rm -f "$TMP/perf.data" "$TMP/prec.data"
	timeout --kill-after=10 "$RUN_TIMEOUT" bash -c "$(declare -f in_private_mounts); in_private_mounts \"\$@\"" - bash -c '
		set -e
		eval "$1"
		set +e
		cd "$2"
		"$3" record -q -o perf.data "${@:5}" >perf.rec.out 2>perf.rec.err || exit 3
		"$4" -q -o prec.data "${@:5}" >prec.rec.out 2>prec.rec.err || exit 4
	' in_ns "$setup" "$TMP" "$PERF" "$PREC" "$@"
	case $? in
	0) ;;
	3) fail "perf record $* in the namespace failed: $(head -n 3 "$TMP/perf.rec.err")" ;;
	4) fail "prec $* in the namespace failed: $(head -n 3 "$TMP/prec.rec.err")" ;;
	*) fail "setting up the namespace failed: $setup" ;;
	esac
}

# ---- hidden live directories -----------------------------------------------

ncase=0
# hide_case NAME GLOB...: every directory matching a GLOB under an empty tmpfs.
hide_case()
{
	local name=$1 setup="" g d found=0 try
	shift
	for g in "$@"; do
		setup+="for d in $g; do if [ -d \"\$d\" ]; then mount -t tmpfs none \"\$d\"; fi; done; "
		for d in $g; do [[ -d "$d" ]] && found=1; done
	done
	((found)) || log "$name: nothing matches $* on this machine; compared unhidden"
	# The memory of this kind of VM can grow or shrink between two runs (a
	# balloon, hotplugged blocks): one retry before a difference counts.
	for try in 1 2; do
		in_ns "$setup" -- true
		if same "$name (try $try)" "$(header "$TMP/perf.data")" "$(header "$TMP/prec.data")"; then
			ncase=$((ncase + 1))
			log "$name: same header as perf record"
			return 0
		fi
	done
	fail "$name: prec's header differs from perf record's with $* hidden"
}

hide_case "no cache directories" '/sys/devices/system/cpu/cpu*/cache'
hide_case "empty node/" /sys/devices/system/node
hide_case "no memory blocks" /sys/devices/system/memory
hide_case "no PMU caps/" '/sys/bus/event_source/devices/*/caps'
hide_case "no event sources" /sys/bus/event_source/devices
hide_case "no topology/" '/sys/devices/system/cpu/cpu*/topology'
hide_case "all of them" '/sys/devices/system/cpu/cpu*/cache' /sys/devices/system/node \
	/sys/devices/system/memory '/sys/bus/event_source/devices/*/caps'

# ---- fixture trees over /sys -----------------------------------------------

# fixture_case NAME: NAME's sys/devices/system and event_source/devices stand
# in for the live ones (an empty tmpfs where the fixture has none).
fixture_case()
{
	local name=$1 root=$FIXTURES/sysinfo/$1 setup try
	[[ -d "$root/sys/devices/system" ]] || fail "fixture $name has no sys/devices/system"
	setup="mount --bind '$root/sys/devices/system' /sys/devices/system; "
	if [[ -d "$root/sys/bus/event_source/devices" ]]; then
		setup+="mount --bind '$root/sys/bus/event_source/devices' /sys/bus/event_source/devices; "
	else
		setup+="mount -t tmpfs none /sys/bus/event_source/devices; "
	fi
	in_ns "$setup" --per-thread -e task-clock -- true
	local perf_h prec_h
	perf_h=$(header "$TMP/perf.data")
	mv "$perf_h" "$TMP/$name.perf.hdr"
	prec_h=$(header "$TMP/prec.data")
	mv "$prec_h" "$TMP/$name.prec.hdr"
	same "$name (prec live over the fixture)" "$TMP/$name.perf.hdr" "$TMP/$name.prec.hdr" ||
		fail "$name: prec's header differs from perf record's over the fixture"

	# The same tree through PREC_TEST_SYSROOT, without any namespace.
	PREC_TEST_SYSROOT=$root run_prec -q --per-thread -e task-clock -o "$name.sysroot.data" -- true
	((PREC_RC == 0)) || fail "prec with PREC_TEST_SYSROOT=$name exited $PREC_RC"
	same "$name (PREC_TEST_SYSROOT)" "$TMP/$name.perf.hdr" "$(header "$name.sysroot.data")" norm_sysroot ||
		fail "$name: prec's header with PREC_TEST_SYSROOT differs from perf record's over the fixture"
	ncase=$((ncase + 1))
	log "$name: same header as perf record, live and through PREC_TEST_SYSROOT"
}

for fixture in vm numa2s multidie hybrid arm64 absent-cache absent-node empty-node \
	absent-memory no-blocks old-topology no-die-id offline-cpu no-caps hybrid-no-caps; do
	fixture_case "$fixture"
done
pass "$ncase cases"
