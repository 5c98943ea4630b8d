#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Hostile /proc and /sys trees: missing files, garbage values, a 4096-CPU
# present list with a handful of CPUs described, empty cache directories, a
# directory where a caps file should be, files where directories should be.
# prec must record normally, leave out exactly the features perf 6.1 would
# leave out (saying so under -v), and stock perf must read the file without
# an error.
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

# A second tree of wrong kinds where directories should be: caps/ a file
# (perf's opendir fails: no CPU_PMU_CAPS), node0 a file beside a block size
# (memory_node__read fails: no MEM_TOPOLOGY), cache/ directories with no
# index (CACHE with 0 entries), an empty event_source/devices... but for cpu.
kinds=$TMP/kinds
mkdir -p "$kinds/proc/sys/kernel" "$kinds/sys/devices/system/node" "$kinds/sys/devices/system/memory" \
	"$kinds/sys/bus/event_source/devices/cpu" "$kinds/sys/devices/system/cpu/cpu0/cache" \
	"$kinds/sys/devices/system/cpu/cpu0/topology"
echo kinds >"$kinds/proc/sys/kernel/hostname"
echo x86_64 >"$kinds/proc/sys/kernel/arch"
echo 0 >"$kinds/sys/devices/system/cpu/present"
echo 0 >"$kinds/sys/devices/system/cpu/online"
echo 0 >"$kinds/sys/devices/system/cpu/possible"
echo 0 >"$kinds/sys/devices/system/cpu/cpu0/topology/core_cpus_list"
echo 8000000 >"$kinds/sys/devices/system/memory/block_size_bytes"
: >"$kinds/sys/devices/system/node/node0"
echo 4 >"$kinds/sys/bus/event_source/devices/cpu/type"
echo "branches" >"$kinds/sys/bus/event_source/devices/cpu/caps"

for tree in "$FIXTURES/sysinfo/broken" "$FIXTURES/sysinfo/broken-arm64" "$hostile" "$kinds"; do
	name=$(basename "$tree")
	PREC_TEST_SYSROOT=$tree run_prec -v -o "$name.data" -- "$WORKLOAD" 20
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

# Which features perf 6.1 would write from these trees (write empty, or leave
# out), and so must prec: missing_is DATAFILE FEATURE... lists exactly the
# sysfs features in "missing features".
missing_is()
{
	local data=$1 got want f
	shift
	got=$(sed -n 's/^# missing features: //p' "$(header "$data")" | tr ' ' '\n' |
		grep -xE 'CPU_TOPOLOGY|NUMA_TOPOLOGY|PMU_MAPPINGS|CACHE|MEM_TOPOLOGY|CPU_PMU_CAPS|HYBRID_TOPOLOGY|PMU_CAPS' | sort | tr '\n' ' ')
	want=$(for f in "$@"; do echo "$f"; done | sort | tr '\n' ' ')
	[[ "$got" == "$want" ]] || fail "$data: sysfs features missing: '$got', perf 6.1 would leave out '$want'"
}
# hostile: CPU 3 of 4096 online has no sibling list, node0's meminfo is
# garbage, cache/index0 lacks its size files, no memory/ directory. Its cpu
# PMU's caps/ holds only a directory: listed, no caps, "not available".
missing_is hostile.data CPU_TOPOLOGY NUMA_TOPOLOGY CACHE MEM_TOPOLOGY HYBRID_TOPOLOGY
grep_or_fail '^# cpu pmu capabilities: not available$' "$h" "hostile tree: a caps/ without files"
# kinds: caps/ is a file, node0 is a file, no node/online; cache/ is empty.
missing_is kinds.data NUMA_TOPOLOGY MEM_TOPOLOGY CPU_PMU_CAPS HYBRID_TOPOLOGY
h=$(header kinds.data)
grep_or_fail '^# CPU cache info:$' "$h" "kinds tree: CACHE with no entries"
grep_or_fail '^# sibling threads : 0$' "$h" "kinds tree: CPU_TOPOLOGY from the core list alone"
pass
