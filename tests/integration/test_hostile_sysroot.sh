#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Hostile /proc and /sys trees: missing files, garbage values, a 4096-CPU
# present list with a handful of CPUs described, empty cache directories, a
# directory where a caps file should be. prec must record normally, leave
# the unreadable features out (saying so under -v), and stock perf must read
# the file without an error.
source "${TEST_LIB:-$(dirname "$0")/lib.sh}" || exit 1

hostile=$TMP/hostile
mkdir -p "$hostile/proc/sys/kernel" "$hostile/sys/devices/system/cpu" \
	"$hostile/sys/devices/system/node/node0" "$hostile/sys/bus/event_source/devices/cpu/caps/max_precise" \
	"$hostile/sys/bus/event_source/devices/weird"
echo hostile >"$hostile/proc/sys/kernel/hostname"
printf '9.9.9\n' >"$hostile/proc/sys/kernel/osrelease"
echo x86_64 >"$hostile/proc/sys/kernel/arch"
printf 'MemTotal: 99999999999999999999999 kB\n' >"$hostile/proc/meminfo"
printf 'processor : 0\nvendor_id : \nmodel name :\n' >"$hostile/proc/cpuinfo"
echo 0-4095 >"$hostile/sys/devices/system/cpu/present"
echo 0-4095 >"$hostile/sys/devices/system/cpu/online"
for c in 0 1 2; do
	d=$hostile/sys/devices/system/cpu/cpu$c
	mkdir -p "$d/topology" "$d/cache/index0" "$d/cache/index1"
	echo "zz" >"$d/topology/core_id"
	echo "0-" >"$d/topology/core_siblings_list"
	echo "$c" >"$d/topology/thread_siblings_list"
	echo 99999999999999999999 >"$d/topology/physical_package_id"
	echo abc >"$d/cache/index0/level"
	echo Data >"$d/cache/index0/type"
done
echo 0 >"$hostile/sys/devices/system/node/online"
echo "garbage" >"$hostile/sys/devices/system/node/node0/meminfo"
echo "1-" >"$hostile/sys/devices/system/node/node0/cpulist"
echo 4 >"$hostile/sys/bus/event_source/devices/cpu/type"
echo notanumber >"$hostile/sys/bus/event_source/devices/weird/type"

for tree in "$FIXTURES/sysinfo/broken" "$FIXTURES/sysinfo/broken-arm64" "$hostile"; do
	name=$(basename "$tree")
	PREC_SYSROOT=$tree run_prec -v -o "$name.data" -- "$WORKLOAD" 20
	((PREC_RC == 0)) || fail "$name: prec exited $PREC_RC on a hostile tree"
	no_grep_or_fail 'AddressSanitizer|Segmentation|core dumped' "$PREC_ERR" "$name"
	grep -q 'prec: warning: feature .* left out' "$PREC_ERR" ||
		fail "$name: prec -v said nothing about the features it left out"
	h=$(header "$name.data")
	require_no_warning "$h.err" "perf report --header-only on the $name tree's file"
	grep_or_fail '^# hostname : ' "$h" "$name: HOSTNAME is always written"
	require_valid "$name.data"
done
# A garbled part must not spoil the parts perf reads after it: the one good
# PMU of the hostile tree is still listed (a NUMA cpu list perf cannot parse
# would make it skip every later feature).
h=$(header hostile.data)
grep_or_fail '^# pmu mappings: cpu = 4$' "$h" "hostile tree: PMU_MAPPINGS after a garbled NUMA node"
pass
