#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Machines we do not have, judged by the real reader: prec records a tiny
# command with its sysinfo read from each fixture tree (PREC_TEST_SYSROOT), and
# `perf report --header-only -I` must print that machine's topology, NUMA,
# memory, cache and PMU lines, and list in "missing features" exactly the
# features perf 6.1 would leave out there. The expected lines are derived
# here from the fixture's own files by perf 6.1's rules (util/header.c,
# util/cputopo.c, util/pmu.c), independently of prec's readers; the fixtures
# without caches, nodes, memory blocks, die ids or caps show what perf writes
# when those facts are absent (test_hidden_sysfs.sh checks the same trees
# against perf record itself).
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

# unit_number BYTES: perf's unit_number__scnprintf ("24G", "1024M": it
# divides while the quotient stays above 1).
unit_number()
{
	local n=$1 i=0 units=BKMG
	while ((n / 1024 > 1 && i < 3)); do
		n=$((n / 1024))
		i=$((i + 1))
	done
	echo "$n${units:i:1}"
}

# dir_order DIR: the entries of DIR in readdir order (perf's and prec's order).
dir_order()
{
	ls -f "$1" 2>/dev/null | grep -vxE '\.|\.\.'
}

# caps_line PMUDIR LABEL: "# LABEL pmu capabilities: k=v, ..." with the caps
# in readdir order, or "...: not available" when the PMU has none.
caps_line()
{
	local dev=$1 label=$2 f out=""
	for f in $(dir_order "$dev/caps"); do
		[[ -f "$dev/caps/$f" && -s "$dev/caps/$f" ]] || continue
		out+="${out:+, }$f=$(readv "$dev/caps/$f")"
	done
	echo "# $label pmu capabilities: ${out:-not available}"
}

# has_caps PMUDIR: caps/ holds a file perf reads a line from.
has_caps()
{
	local f
	for f in "$1"/caps/*; do
		[[ -f "$f" && -s "$f" ]] && return 0
	done
	return 1
}

# is_hybrid PMUDIR: perf 6.1's cpu_* PMU whose cpus file scans as "%u".
is_hybrid()
{
	[[ "$(basename "$1")" == cpu_* ]] && [[ "$(readv "$1/cpus")" =~ ^[[:space:]]*[+-]?[0-9] ]]
}

# expect_feature HDR NAME yes|no: NAME is written (not in "missing features") or not.
expect_feature()
{
	local missing
	missing=" $(sed -n 's/^# missing features: //p' "$1") "
	if [[ "$3" == yes && "$missing" == *" $2 "* ]]; then
		fail "$fixture_name: $2 is in missing features; perf 6.1 writes it for this tree"
	elif [[ "$3" == no && "$missing" != *" $2 "* ]]; then
		fail "$fixture_name: $2 is written; perf 6.1 leaves it out for this tree"
	fi
}

check_fixture()
{
	local name=$1 root=$FIXTURES/sysinfo/$1
	local sysd=$root/sys/devices/system devs=$root/sys/bus/event_source/devices
	fixture_name=$name
	[[ -d "$root" ]] || fail "fixture $name is missing"

	PREC_TEST_SYSROOT=$root run_prec -q -o "$name.data" -- "$WORKLOAD" 20
	((PREC_RC == 0)) || fail "prec with PREC_TEST_SYSROOT=$name exited $PREC_RC"
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

	# NUMA_TOPOLOGY: every online node with its memory and cpu list; none
	# without node/online, or when an online node lacks meminfo or cpulist.
	local node total free list numa=yes
	[[ -n "$(readv "$sysd/node/online")" ]] || numa=no
	for node in $(cpus_of "$(readv "$sysd/node/online")"); do
		[[ -f "$sysd/node/node$node/meminfo" && -f "$sysd/node/node$node/cpulist" ]] || numa=no
	done
	expect_feature "$h" NUMA_TOPOLOGY $numa
	[[ $numa == yes ]] || ! grep -q '^# node[0-9]* ' "$h" || fail "$name: NUMA lines without NUMA_TOPOLOGY"
	for node in $(cpus_of "$(readv "$sysd/node/online")"); do
		[[ $numa == yes ]] || break
		total=$(awk '/MemTotal:/ { print $4 }' "$sysd/node/node$node/meminfo")
		free=$(awk '/MemFree:/ { print $4 }' "$sysd/node/node$node/meminfo")
		list=$(readv "$sysd/node/node$node/cpulist")
		# perf prints a CPU-less node's empty list as -1.
		[[ -n "$list" ]] || list=-1
		grep -qxF "# node$node meminfo  : total = $total kB, free = $free kB" "$h" ||
			fail "$name: no node$node meminfo line with total $total, free $free"
		grep -qxF "# node$node cpu list : $list" "$h" || fail "$name: no '# node$node cpu list : $list'"
	done

	# MEM_TOPOLOGY: written when block_size_bytes reads and node/ lists,
	# also with no nodeN in it (nr 0); then the number of nodes, the block
	# size, and each node's size (blocks x block size) and block list.
	if [[ -s "$sysd/memory/block_size_bytes" && -d "$sysd/node" ]]; then
		local bs nodes nd blocks size
		expect_feature "$h" MEM_TOPOLOGY yes
		bs=$(readv "$sysd/memory/block_size_bytes")
		nodes=$(find "$sysd/node" -mindepth 1 -maxdepth 1 -name 'node[0-9]*' | wc -l)
		grep -qxF "# memory nodes (nr $nodes, block size 0x$bs):" "$h" ||
			fail "$name: no '# memory nodes (nr $nodes, block size 0x$bs):' line"
		for nd in "$sysd/node"/node[0-9]*; do
			[[ -d "$nd" ]] || continue
			node=${nd##*/node}
			blocks=$(find "$nd" -mindepth 1 -maxdepth 1 -name 'memory[0-9]*' | wc -l)
			if ((blocks == 0)); then
				# An empty bitmap: perf prints its size, 0B, and then
				# whatever its map buffer held.
				grep -qE "^# +$node \[0B\]: " "$h" || fail "$name: no '#  $node [0B]: ' line"
			else
				size=$(unit_number $((blocks * 16#$bs)))
				grep -qE "^# +$node \[$size\]: [0-9]" "$h" ||
					fail "$name: no memory line for node $node with $size"
			fi
		done
	else
		expect_feature "$h" MEM_TOPOLOGY no
		! grep -q '^# memory nodes' "$h" || fail "$name: memory nodes printed without MEM_TOPOLOGY"
	fi

	# PMU_MAPPINGS: every event source with its type (order is readdir's).
	local pmu want got
	want=$(for pmu in "$root"/sys/bus/event_source/devices/*; do
		[[ -f "$pmu/type" ]] && echo "$(basename "$pmu") = $(readv "$pmu/type")"
	done | sort)
	got=$(sed -n 's/^# pmu mappings: //p' "$h" | sed 's/, /\n/g' | sort)
	[[ "$want" == "$got" ]] || fail "$name: pmu mappings '$got', expected '$want'"

	# CACHE: written on every one of these trees (none has an index that
	# cannot be read), with no entry where no CPU has cache/index0; every
	# distinct cache of the online CPUs appears.
	local idx lvl typ size map line
	expect_feature "$h" CACHE yes
	grep -qxF '# CPU cache info:' "$h" || fail "$name: no '# CPU cache info:' line"
	if ! compgen -G "$sysd/cpu/cpu*/cache/index0" >/dev/null; then
		! grep -q '^#  L[0-9]' "$h" || fail "$name: cache lines without any cache directory"
	fi
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

	# CPU_PMU_CAPS: only with a "cpu" PMU, its caps in readdir order or "not
	# available" without caps/.
	if [[ -f "$devs/cpu/type" ]]; then
		expect_feature "$h" CPU_PMU_CAPS yes
		line=$(caps_line "$devs/cpu" cpu)
		grep -qxF -- "$line" "$h" || fail "$name: no line '$line'"
	else
		expect_feature "$h" CPU_PMU_CAPS no
	fi

	# PMU_CAPS, perf 6.1's layout: it counts the PMUs other than "cpu" that
	# have caps, then writes every hybrid PMU (caps or not) before the
	# others with caps; perf report prints the first <count> of them.
	local dev pname count=0 entries=() want_caps got_caps
	for dev in $(dir_order "$devs"); do
		[[ "$dev" != cpu && -f "$devs/$dev/type" ]] && has_caps "$devs/$dev" && count=$((count + 1))
	done
	for dev in $(dir_order "$devs"); do
		is_hybrid "$devs/$dev" && entries+=("$dev")
	done
	for dev in $(dir_order "$devs"); do
		[[ "$dev" != cpu && -f "$devs/$dev/type" ]] && ! is_hybrid "$devs/$dev" &&
			has_caps "$devs/$dev" && entries+=("$dev")
	done
	expect_feature "$h" PMU_CAPS yes
	want_caps=$(for ((i = 0; i < count; i++)); do caps_line "$devs/${entries[i]}" "${entries[i]}"; done)
	got_caps=$(grep -E '^# .* pmu capabilities: ' "$h" | grep -v '^# cpu pmu capabilities: ')
	[[ "$want_caps" == "$got_caps" ]] ||
		fail "$name: PMU_CAPS lines '$got_caps', expected '$want_caps'"

	# HYBRID_TOPOLOGY: each hybrid PMU's cpu list.
	local hybrid=no
	for dev in $(dir_order "$devs"); do
		is_hybrid "$devs/$dev" || continue
		hybrid=yes
		grep -qxF "# $dev cpu list : $(readv "$devs/$dev/cpus")" "$h" ||
			fail "$name: no hybrid topology line '# $dev cpu list : $(readv "$devs/$dev/cpus")'"
	done
	expect_feature "$h" HYBRID_TOPOLOGY $hybrid
	expect_feature "$h" PMU_MAPPINGS yes
	expect_feature "$h" CPU_TOPOLOGY yes
	log "$name: header checked"
}

for fixture in vm numa2s multidie hybrid arm64 absent-cache absent-node empty-node absent-memory \
	no-blocks old-topology no-die-id offline-cpu no-caps hybrid-no-caps; do
	check_fixture "$fixture"
done
pass
