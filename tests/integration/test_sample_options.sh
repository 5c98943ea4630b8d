#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Sample options and targets as perf record sets them: for each command line,
# `perf evlist -v` on prec's file and on perf record's file of the same
# command prints the same attrs (ids aside), event for event.
source "${TEST_LIB:-$(dirname "$0")/lib.sh}" || exit 1

need_root "system-wide recordings (-a) and kernel samples"

# Ids differ between any two recordings. (The one known attr difference,
# prec's IDENTIFIER beside ID for several events of one layout, does not
# arise in these command lines.)
attrs()
{
	evlist "$1" | sed -E 's/, (id|ids): [^,]*//g'
}

same_attrs()
{
	local label=$1
	shift
	run_prec -q "$@" -o prec.data -- "$EXIT_WORKLOAD" 0
	((PREC_RC == 0)) || fail "prec $* exited $PREC_RC: $(head -n 2 "$PREC_ERR")"
	run_perf record -q "$@" -o perf.data -- "$EXIT_WORKLOAD" 0
	((PERF_RC == 0)) || fail "perf record $* exited $PERF_RC"
	attrs prec.data >prec.attrs
	attrs perf.data >perf.attrs
	if ! diff -u perf.attrs prec.attrs >attrs.diff; then
		sed 's/^/    | /' attrs.diff >&2
		fail "$label: prec's attrs differ from perf record's (- perf, + prec)"
	fi
}

for opt in -T "-P -c 1000" -d --sample-cpu -R -W --phys-data --data-page-size \
	--code-page-size -s -n --switch-events --sample-identifier --user-regs=ax,bx \
	--user-regs -I --namespaces --all-cgroups "-k monotonic" "-c 50000" "-F 1000" \
	"-e cpu-clock:u" "-e faults:k" "-e cycles:pp" -i -g "--call-graph fp" "--call-graph dwarf" \
	"--call-graph dwarf,4096" "-g --user-callchains" "-g --kernel-callchains" \
	"-e cpu-clock/call-graph=dwarf,stack-size=1024/" "-e cpu-clock/max-stack=10/" \
	"--all-user" "--all-kernel"; do
	# shellcheck disable=SC2086
	same_attrs "$opt" $opt
done

# System-wide and per-CPU targets: perf's tracking dummy and CPU samples.
same_attrs "-a" -a
same_attrs "-C 0" -C 0
same_attrs "-a -e cpu-clock,task-clock" -a -e cpu-clock,task-clock

# Options newer than perf 6.1 (no perf here has them: perf's source is the
# reference). sample_of FILE: the first event's sample_type.
sample_of()
{
	evlist_field "$(evlist "$1" | head -n 1)" sample_type
}
# --sample-mem-info (6.16): DATA_SRC without -d's ADDR and data mappings.
run_prec -q --sample-mem-info -o mi.data -- "$EXIT_WORKLOAD" 0
((PREC_RC == 0)) || fail "prec --sample-mem-info exited $PREC_RC: $(head -n 2 "$PREC_ERR")"
st=$(sample_of mi.data)
[[ $st == *DATA_SRC* && $st != *ADDR* ]] || fail "--sample-mem-info: sample_type $st"
evlist mi.data | has_match 'mmap_data: 1' && fail "--sample-mem-info: mmap_data set"

# --data-mmap (7.0): the data mappings of -d apart from its addresses.
data_maps()
{
	"$PERF" script --show-mmap-events -i "$1" 2>/dev/null | grep -c 'PERF_RECORD_MMAP2.*: [r-][w-]-p '
}
run_prec -q --data-mmap -o dm.data -- "$EXIT_WORKLOAD" 0
((PREC_RC == 0)) || fail "prec --data-mmap exited $PREC_RC: $(head -n 2 "$PREC_ERR")"
[[ $(sample_of dm.data) != *ADDR* ]] || fail "--data-mmap: ADDR sampled"
evlist dm.data | has_match 'mmap_data: 1' || fail "--data-mmap: no mmap_data"
(($(data_maps dm.data) > 0)) || fail "--data-mmap: no MMAP2 of a data mapping"
run_prec -q -d --no-data-mmap -o ndm.data -- "$EXIT_WORKLOAD" 0
((PREC_RC == 0)) || fail "prec -d --no-data-mmap exited $PREC_RC: $(head -n 2 "$PREC_ERR")"
st=$(sample_of ndm.data)
[[ $st == *ADDR* && $st == *DATA_SRC* ]] || fail "-d --no-data-mmap: sample_type $st"
evlist ndm.data | has_match 'mmap_data: 1' && fail "-d --no-data-mmap: mmap_data set"
(($(data_maps ndm.data) == 0)) || fail "-d --no-data-mmap: MMAP2s of data mappings"

# --latency (6.15) is --switch-events for the workload's events (perf's
# record_switch_events): perf record --switch-events' attrs; refused with -a.
run_prec -q --latency -o lat.data -- "$EXIT_WORKLOAD" 0
((PREC_RC == 0)) || fail "prec --latency exited $PREC_RC: $(head -n 2 "$PREC_ERR")"
run_perf record -q --switch-events -o perf.data -- "$EXIT_WORKLOAD" 0
attrs lat.data >prec.attrs
attrs perf.data >perf.attrs
diff -u perf.attrs prec.attrs >&2 || fail "--latency: attrs differ from perf record --switch-events'"
run_prec -q --latency -a -o lat.data -- true
((PREC_RC >= 1 && PREC_RC <= 125)) || fail "prec --latency -a exited $PREC_RC"
(($(wc -l <"$PREC_ERR") == 1)) && grep -q '^prec: --latency .*system-wide.*give a command' "$PREC_ERR" ||
	fail "prec --latency -a: not one line naming the fix: $(cat "$PREC_ERR")"

# A branch stack on a PMU without one: one clear line, as perf refuses too.
run_prec -b -o b.data -- true
((PREC_RC >= 1 && PREC_RC <= 125)) || fail "prec -b on a software event exited $PREC_RC"
grep -q '^prec: .*branch stack' "$PREC_ERR" || fail "prec -b: no line about branch stacks: $(cat "$PREC_ERR")"
# The newer -j names: known words, refused at open on a PMU without branch
# stacks in one line naming the event, as perf refuses -j any there.
for j in counter ind_jmp call_stack no_flags no_cycles hw_index; do
	run_prec -e cpu-clock -j "any,$j" -o b.data -- true
	((PREC_RC >= 1 && PREC_RC <= 125)) || fail "prec -j any,$j exited $PREC_RC"
	(($(wc -l <"$PREC_ERR") == 1)) && grep -q "^prec: .*'cpu-clock'.*branch stack" "$PREC_ERR" ||
		fail "prec -j any,$j: not one line about branch stacks: $(cat "$PREC_ERR")"
done
pass
