#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The attrs prec opens are the ones perf record 6.1 opens for the same
# command on the same machine: every command line of perf's own attr tests
# (tests/attr/test-record-* beside stock perf, when installed) and a table of
# prec's own: which events fall back when the machine lacks a PMU (only
# cycles), when IDENTIFIER is sampled (only when the events' sample types
# differ), what -j's privilege levels become (ANY alone), what the system-wide
# dummy event takes from -c/-F and --all-user. Both record or both refuse;
# when both record, `perf evlist -v` (ids aside) is the same line for line.
# A refusal is one line, a status in 1..125 and no file.
source "${TEST_LIB:-$(dirname "$0")/lib.sh}" || exit 1

need_root "system-wide recordings (-a, -C 0)"

# attrs FILE: perf evlist -v of FILE without the ids, which differ per run.
attrs()
{
	evlist "$1" | sed 's/, id = {[^}]*}//'
}

n=0
# same_as_perf ARGS...: record `true` with ARGS under both and compare.
same_as_perf()
{
	rm -rf "$TMP/a.perf" "$TMP/a.prec"
	run_perf record -q -o "$TMP/a.perf" "$@" -- true
	run_prec -q -o "$TMP/a.prec" "$@" -- true
	n=$((n + 1))
	if ((PERF_RC != 0)); then
		((PREC_RC != 0)) || fail "$*: perf record refuses ($(head -n 2 "$PERF_ERR" | tr '\n' ' ')), prec recorded"
		((PREC_RC <= 125)) || fail "$*: prec exited $PREC_RC"
		[[ $(wc -l <"$PREC_ERR") -eq 1 ]] || fail "$*: prec's refusal is not one line: $(head -c 400 "$PREC_ERR")"
		[[ ! -e "$TMP/a.prec" ]] || fail "$*: prec refused but left its output"
		return 0
	fi
	((PREC_RC == 0)) || fail "$*: perf record records, prec exited $PREC_RC: $(head -n 1 "$PREC_ERR")"
	diff <(attrs "$TMP/a.perf" | tr ',' '\n') <(attrs "$TMP/a.prec" | tr ',' '\n') >"$TMP/attr.diff" ||
		fail "$*: attrs differ from perf record's (< perf, > prec): $(head -c 600 "$TMP/attr.diff")"
}

# prec's own cases, on any machine (with a PMU, both record the hardware
# events; without one, both refuse all but cycles).
cases=(
	"-e instructions:u" "-e cache-misses" "-e L1-dcache-loads" "-e branches"
	"-e cycles:u" "-e cycles" "-e {cycles,instructions}" "--group -e cycles,instructions"
	"-e cpu-clock,task-clock" "-e cpu-clock,task-clock -c 1000000" "-a -e cpu-clock -c 20000"
	"-a" "-a -F 1000" "-a -c 200000" "-D 10 -c 500000" "-a --all-user" "-a --all-kernel"
	"-e cpu-clock -e sched:sched_switch" "-g -e cpu-clock,task-clock"
	"--sample-identifier -e cpu-clock,task-clock" "--sample-identifier -e cpu-clock"
	"-e {cpu-clock,task-clock}:S" "--call-graph dwarf -e cpu-clock,task-clock"
	"-e cpu-clock,task-clock -d" "-a -P" "-j u" "-j k" "-j hv" "-j any,u" "-j stack"
)
for c in "${cases[@]}"; do
	read -ra args <<<"$c"
	same_as_perf "${args[@]}"
done

# perf's attr tests: their command lines, `kill` (which fails at once) made
# `true`. The SPE and libpfm ones need hardware or a build option both lack
# or have alike.
attr_dir=$(dirname "$(readlink -f "$PERF")")/../lib/perf-core/tests/attr
[[ -d "$attr_dir" ]] || attr_dir=/usr/lib/perf-core/tests/attr
if [[ -d "$attr_dir" ]]; then
	for t in "$attr_dir"/test-record-*; do
		grep -q '^command *= *record' "$t" || continue
		a=$(sed -n 's/^args *= *//p' "$t")
		a=${a%% kill*}
		a=${a%% -- }
		a=${a% --}
		eval "args=($a)"
		same_as_perf "${args[@]}"
	done
else
	log "perf's attr tests are not installed: only prec's own cases ran"
fi
log "$n command lines compared"
pass
