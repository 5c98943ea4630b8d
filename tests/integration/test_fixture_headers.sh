#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Machines we do not have, judged by the real reader: prec records a tiny
# command with its sysinfo read from each fixture tree (PREC_SYSROOT), and
# `perf report --header-only -I` must print that machine's topology, NUMA,
# memory, cache and PMU lines. The expected lines are derived here from the
# fixture's own files, independently of prec's readers.
source "${TEST_LIB:-$(dirname "$0")/lib.sh}" || exit 1

cpus_of()
{
	# Expand a kernel cpu list ("0-3,8") into one number per line.
	tr ',' '\n' <<<"$1" | awk -F- 'NF { if (NF == 1) print $1; else for (i = $1; i <= $2; i++) print i }'
}

readv()
{
	[[ -r "$1" && -f "$1" ]] && head -n 1 "$1"
}

check_fixture()
{
	local name=$1 root=$FIXTURES/sysinfo/$1
	local sysd=$root/sys/devices/system
	[[ -d "$root" ]] || fail "fixture $name is missing"

	PREC_SYSROOT=$root run_prec -q -o "$name.data" -- "$WORKLOAD" 20
	((PREC_RC == 0)) || fail "prec with PREC_SYSROOT=$name exited $PREC_RC"
	local h
	h=$(header "$name.data")
	require_no_warning "$h.err" "perf report --header-only on the $name fixture's file"

	# NRCPUS: highest present CPU + 1, and the online count.
	local present online avail nonline
	present=$(readv "$sysd/cpu/present")
	online=$(readv "$sysd/cpu/online")
	avail=$(($(cpus_of "$present" | sort -n | tail -n 1) + 1))
	nonline=$(cpus_of "$online" | wc -l)
	[[ $(header_field "$h" "nrcpus avail") == "$avail" ]] || fail "$name: nrcpus avail is not $avail"
	[[ $(header_field "$h" "nrcpus online") == "$nonline" ]] || fail "$name: nrcpus online is not $nonline"

	# CPU_TOPOLOGY: distinct sibling lists of the online CPUs, first seen first.
	local kind files f cpu
	for kind in sockets dies threads; do
		case $kind in
		sockets) files="package_cpus_list core_siblings_list" ;;
		dies) files="die_cpus_list" ;;
		threads) files="core_cpus_list thread_siblings_list" ;;
		esac
		: >"$name.$kind.want"
		for cpu in $(cpus_of "$online"); do
			for f in $files; do
				if [[ -f "$sysd/cpu/cpu$cpu/topology/$f" ]]; then
					readv "$sysd/cpu/cpu$cpu/topology/$f" >>"$name.$kind.want"
					break
				fi
			done
		done
		# perf pads the labels ("sibling dies    :"); compare without padding.
		awk '!seen[$0]++ { print "# sibling '"$kind"' : " $0 }' "$name.$kind.want" >"$name.$kind.exp"
		grep -E "^# sibling $kind +:" "$h" | sed -E 's/ +: / : /' >"$name.$kind.got"
		diff -u "$name.$kind.exp" "$name.$kind.got" >&2 || fail "$name: sibling $kind lines differ (- expected, + perf's reading of prec's file)"
	done

	# Per-CPU ids for every available CPU; -1 where the CPU has no topology.
	local core sock die hasdie=0
	[[ -s "$name.dies.want" ]] && hasdie=1
	for ((cpu = 0; cpu < avail; cpu++)); do
		core=$(readv "$sysd/cpu/cpu$cpu/topology/core_id") || core=-1
		sock=$(readv "$sysd/cpu/cpu$cpu/topology/physical_package_id") || sock=-1
		[[ -n "$core" ]] || core=-1
		[[ -n "$sock" ]] || sock=-1
		if ((hasdie)); then
			die=$(readv "$sysd/cpu/cpu$cpu/topology/die_id") || die=-1
			[[ -n "$die" ]] || die=-1
			grep -qxF "# CPU $cpu: Core ID $core, Die ID $die, Socket ID $sock" "$h" ||
				fail "$name: no line '# CPU $cpu: Core ID $core, Die ID $die, Socket ID $sock'"
		else
			grep -qxF "# CPU $cpu: Core ID $core, Socket ID $sock" "$h" ||
				fail "$name: no line '# CPU $cpu: Core ID $core, Socket ID $sock'"
		fi
	done

	# NUMA_TOPOLOGY: every online node with its memory and cpu list.
	local node total free list
	for node in $(cpus_of "$(readv "$sysd/node/online")"); do
		total=$(awk '/MemTotal:/ { print $4 }' "$sysd/node/node$node/meminfo")
		free=$(awk '/MemFree:/ { print $4 }' "$sysd/node/node$node/meminfo")
		list=$(readv "$sysd/node/node$node/cpulist")
		# perf prints a CPU-less node's empty list as -1.
		[[ -n "$list" ]] || list=-1
		grep -qxF "# node$node meminfo  : total = $total kB, free = $free kB" "$h" ||
			fail "$name: no node$node meminfo line with total $total, free $free"
		grep -qxF "# node$node cpu list : $list" "$h" || fail "$name: no '# node$node cpu list : $list'"
	done

	# MEM_TOPOLOGY: the number of nodes and the block size.
	if [[ -f "$sysd/memory/block_size_bytes" ]]; then
		local bs nodes
		bs=$(readv "$sysd/memory/block_size_bytes")
		nodes=$(find "$sysd/node" -maxdepth 1 -name 'node[0-9]*' | wc -l)
		grep -qxF "# memory nodes (nr $nodes, block size 0x$bs):" "$h" ||
			fail "$name: no '# memory nodes (nr $nodes, block size 0x$bs):' line"
	fi

	# PMU_MAPPINGS: every event source with its type (order is readdir's).
	local pmu want got
	want=$(for pmu in "$root"/sys/bus/event_source/devices/*; do
		[[ -f "$pmu/type" ]] && echo "$(basename "$pmu") = $(readv "$pmu/type")"
	done | sort)
	got=$(sed -n 's/^# pmu mappings: //p' "$h" | sed 's/, /\n/g' | sort)
	[[ "$want" == "$got" ]] || fail "$name: pmu mappings '$got', expected '$want'"

	# CACHE: every distinct cache of the online CPUs appears.
	local idx lvl typ size map line
	for cpu in $(cpus_of "$online"); do
		for idx in "$sysd/cpu/cpu$cpu/cache"/index*; do
			[[ -d "$idx" ]] || continue
			lvl=$(readv "$idx/level")
			typ=$(readv "$idx/type")
			size=$(readv "$idx/size")
			map=$(readv "$idx/shared_cpu_list")
			line=$(printf '#  L%d %-15s %8s [%s]' "$lvl" "$typ" "$size" "$map")
			grep -qxF -- "$line" "$h" || fail "$name: no cache line '$line'"
		done
	done

	# PMU caps: the cpu PMU's (CPU_PMU_CAPS), every PMU's with caps (PMU_CAPS),
	# and the hybrid topology when cpu_core/cpu_atom exist.
	local dev pname
	for dev in "$root"/sys/bus/event_source/devices/*; do
		pname=$(basename "$dev")
		[[ -d "$dev/caps" ]] || continue
		grep -Eq "^# ($pname|cpu) pmu capabilities: " "$h" || fail "$name: no capability line for PMU $pname"
		for f in "$dev"/caps/*; do
			grep -E "^# ($pname|cpu) pmu capabilities: " "$h" | grep -qF "$(basename "$f")=$(readv "$f")" ||
				fail "$name: PMU $pname capability $(basename "$f")=$(readv "$f") not printed"
		done
		if [[ "$pname" == cpu_core || "$pname" == cpu_atom ]]; then
			grep -qxF "# $pname cpu list : $(readv "$dev/cpus")" "$h" ||
				fail "$name: no hybrid topology line '# $pname cpu list : $(readv "$dev/cpus")'"
		fi
	done
	log "$name: header checked"
}

for fixture in vm numa2s multidie hybrid arm64; do
	check_fixture "$fixture"
done
pass
