#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# perf's configuration files, judged against perf record under the same
# files: for each key perf record 6.1 reads (call-graph.record-mode and
# dump-size, record.call-graph, record.build-id, record.aio, buildid.dir),
# through $PERF_CONFIG and through $HOME/.perfconfig, the attrs `perf evlist
# -v` shows and the header features are perf's; the command line wins; a
# line perf cannot read is one warning and what came before it stands; a
# value perf refuses is refused, in one line, before any file is made. And
# where perf is worse: $PERF_CONFIG naming a FIFO is refused at once (perf
# waits on it, and prec used to block at its end), a configuration changed
# into a FIFO while recording is never read again, and a configured
# record.aio does not hang a stream (perf 6.1 spins on it; not run here).
source "${TEST_LIB:-$(dirname "$0")/lib.sh}" || exit 1

export HOME=$TMP/home
mkdir -p "$HOME"
unset PERF_CONFIG PERF_CONFIG_NOSYSTEM PERF_CONFIG_NOGLOBAL PERF_BUILDID_DIR

# The attr fields a configuration changes, of the first event.
attrs()
{
	local l f
	l=$(evlist "$1" | head -n 1)
	[[ -n "$l" ]] || fail "perf evlist -v -i $1 shows no event"
	for f in sample_type sample_regs_user sample_stack_user sample_max_stack mmap_data \
		exclude_callchain_user build_id; do
		printf '%s=%s ' "$f" "$(evlist_field "$l" "$f")"
	done
	echo
}

# same_attrs TAG ARGS...: prec and perf record with ARGS under the current
# environment; their attrs must match. Leaves TAG.prec and TAG.perf.
same_attrs()
{
	local tag=$1 a b
	shift
	prec_record_ok -q -o "$tag.prec" "$@" -- "$WORKLOAD" 50
	perf_record_ok -q -o "$tag.perf" "$@" -- "$WORKLOAD" 50
	a=$(attrs "$tag.prec") b=$(attrs "$tag.perf")
	[[ "$a" == "$b" ]] || fail "$tag: prec's attrs differ from perf record's under the same configuration:
  prec: $a
  perf: $b"
	echo "$a"
}

cfg=$TMP/perfconfig
export PERF_CONFIG=$cfg

# call-graph.record-mode and dump-size: what -g records (dwarf, without the
# data addresses --call-graph dwarf adds); nothing without -g.
printf '[call-graph]\n\trecord-mode = dwarf\n\tdump-size = 4096\n' >"$cfg"
a=$(same_attrs dwarf -g)
[[ "$a" == *STACK_USER* && "$a" == *"sample_stack_user=4096 "* && "$a" != *ADDR* ]] ||
	fail "-g under record-mode = dwarf: $a"
a=$(same_attrs nog)
[[ "$a" != *CALLCHAIN* ]] || fail "record-mode = dwarf without -g: $a"
# the command line wins
a=$(same_attrs cmdfp --call-graph fp)
[[ "$a" == *CALLCHAIN* && "$a" != *STACK_USER* ]] || fail "--call-graph fp under record-mode = dwarf: $a"
a=$(same_attrs cmddwarf --call-graph dwarf)
[[ "$a" == *"sample_stack_user=8192 "* && "$a" == *ADDR* ]] || fail "--call-graph dwarf: $a"
# the set's order: dwarf's default size after dump-size; record.call-graph
# read after call-graph.*; a section seen twice adds to its first place
printf '[call-graph]\ndump-size = 1024\nrecord-mode = dwarf\n' >"$cfg"
a=$(same_attrs order1 -g)
[[ "$a" == *"sample_stack_user=8192 "* ]] || fail "dump-size before record-mode: $a"
printf '[record]\ncall-graph = dwarf,2048\n[call-graph]\nrecord-mode = fp\n' >"$cfg"
a=$(same_attrs oldkey -g)
[[ "$a" == *"sample_stack_user=2048 "* ]] || fail "record.call-graph = dwarf,2048: $a"
printf '[call-graph]\nrecord-mode = dwarf\n[record]\nbuild-id = cache\n[call-graph]\ndump-size = 512\n' >"$cfg"
a=$(same_attrs merged -g)
[[ "$a" == *"sample_stack_user=512 "* ]] || fail "a section seen twice: $a"
# fp,N: the depth of every callchain -g or --call-graph records, as perf
# (issue 33 row 9: prec refused every recording); a later mode keeps it;
# --call-graph fp,N on the command line wins.
printf '[call-graph]\nrecord-mode = fp,32\n' >"$cfg"
a=$(same_attrs depth -g)
[[ "$a" == *"sample_max_stack=32 "* && "$a" == *CALLCHAIN* ]] || fail "-g under record-mode = fp,32: $a"
a=$(same_attrs depthnog)
[[ "$a" != *CALLCHAIN* && "$a" != *"sample_max_stack=3"* ]] || fail "record-mode = fp,32 without -g: $a"
a=$(same_attrs depthdwarf --call-graph dwarf)
[[ "$a" == *"sample_max_stack=32 "* && "$a" == *STACK_USER* ]] || fail "--call-graph dwarf under fp,32: $a"
a=$(same_attrs depthcmd --call-graph fp,8)
[[ "$a" == *"sample_max_stack=8 "* ]] || fail "--call-graph fp,8 under fp,32: $a"
printf '[call-graph]\nrecord-mode = fp,32\n[record]\ncall-graph = dwarf,4096\n' >"$cfg"
a=$(same_attrs depthkept -g)
[[ "$a" == *"sample_max_stack=32 "* && "$a" == *"sample_stack_user=4096 "* ]] ||
	fail "record.call-graph = dwarf,4096 after fp,32: $a"
# past kernel.perf_event_max_stack perf drops the depth without a word;
# prec drops it too, and says so
if (($(cat /proc/sys/kernel/perf_event_max_stack) < 65535)); then
	printf '[call-graph]\nrecord-mode = fp,65535\n' >"$cfg"
	a=$(same_attrs deep -g)
	[[ "$a" == *CALLCHAIN* && "$a" != *sample_max_stack=6* ]] || fail "fp,65535: $a"
	prec_record_ok -o deep2.prec -g -- "$WORKLOAD" 50
	grep -q "call-graph depth 65535 is above kernel.perf_event_max_stack" "$PREC_ERR" ||
		fail "fp,65535: no warning naming the sysctl in: $(cat "$PREC_ERR")"
fi

# Any number of keys and any size, as perf reads them (issue 33 row 10: 1,025
# keys or 16 MiB were refused): 2,000 keys, then 17 MiB of comments, and the
# key read after them all.
{
	printf '[call-graph]\n'
	for ((i = 0; i < 2000; i++)); do printf 'k%d = %d\n' "$i" "$i"; done
	head -c $((17 << 20)) /dev/zero | tr '\0' '#' | fold -w 63
	printf '\n[call-graph]\nrecord-mode = dwarf,1024\n'
} >"$cfg"
a=$(same_attrs bigfile -g)
[[ "$a" == *"sample_stack_user=1024 "* ]] || fail "a file of 2,000 keys and 17 MiB: $a"

# record.build-id: skip (no BUILD_ID feature), mmap (attr build_id), no-cache
# (no ~/.debug), cache; and buildid.dir, where the cache goes.
features()
{
	header_field "$(header "$1")" "missing features" | tr ' ' '\n' | grep -c '^BUILD_ID$'
}
printf '[record]\n\tbuild-id = skip\n' >"$cfg"
same_attrs skip >/dev/null
[[ "$(features skip.prec)" == 1 && "$(features skip.perf)" == 1 ]] ||
	fail "build-id = skip: BUILD_ID is not missing from both files"
printf '[record]\nbuild-id = mmap\n' >"$cfg"
a=$(same_attrs mmap)
[[ "$a" == *"build_id=1 "* ]] || fail "build-id = mmap: no attr build_id: $a"
rm -rf "$HOME/.debug"
printf '[record]\nbuild-id = no-cache\n' >"$cfg"
same_attrs nocache >/dev/null
[[ "$(features nocache.prec)" == 0 ]] || fail "build-id = no-cache: BUILD_ID missing"
[[ -e "$HOME/.debug" ]] && fail "build-id = no-cache: ~/.debug was filled"
for who in prec perf; do
	printf '[record]\nbuild-id = cache\n[buildid]\n\tdir = %s\n' "$TMP/cache-$who" >"$cfg"
	if [[ $who == prec ]]; then prec_record_ok -q -o bd.prec -- "$WORKLOAD" 50; else perf_record_ok -q -o bd.perf -- "$WORKLOAD" 50; fi
	[[ -d "$TMP/cache-$who/.build-id" ]] || fail "buildid.dir: $who did not fill $TMP/cache-$who"
done
[[ -e "$HOME/.debug" ]] && fail "buildid.dir: ~/.debug was filled too"
[[ -n "$(find "$TMP/cache-prec" -name elf -path "*prec_workload*")" ]] ||
	fail "buildid.dir: the workload is not in prec's cache"

# record.aio: a file as with --aio; a stream records without it (perf 6.1
# spins forever on a pipe with record.aio, so perf is not run for that).
printf '[record]\naio = 2\n' >"$cfg"
prec_record_ok -q -o aio.prec -- "$WORKLOAD" 50
require_valid aio.prec
_run pipe bash -c "'$PREC' -q -o - -- '$WORKLOAD' 50 >aio.pipe"
((LAST_RC == 0)) || fail "a stream under record.aio = 2 exited $LAST_RC: $(head -n 3 "$LAST_ERR")"
require_valid aio.pipe

# $HOME/.perfconfig, without PERF_CONFIG; PERF_CONFIG_NOGLOBAL turns it off.
unset PERF_CONFIG
printf '[call-graph]\nrecord-mode = dwarf\n' >"$HOME/.perfconfig"
a=$(same_attrs home -g)
[[ "$a" == *STACK_USER* ]] || fail "\$HOME/.perfconfig's record-mode = dwarf: $a"
a=$(PERF_CONFIG_NOGLOBAL=1 same_attrs noglobal -g)
[[ "$a" != *STACK_USER* ]] || fail "PERF_CONFIG_NOGLOBAL=1 still read ~/.perfconfig: $a"
# PERF_CONFIG wins over it, alone; /dev/null reads nothing
printf '[record]\nbuild-id = mmap\n' >"$cfg"
a=$(PERF_CONFIG=$cfg same_attrs exclusive -g)
[[ "$a" == *"build_id=1 "* && "$a" != *STACK_USER* ]] || fail "PERF_CONFIG alone: $a"
a=$(PERF_CONFIG=/dev/null same_attrs devnull -g)
[[ "$a" != *STACK_USER* && "$a" != *"build_id=1 "* ]] || fail "PERF_CONFIG=/dev/null: $a"
rm -f "$HOME/.perfconfig"
export PERF_CONFIG=$cfg

# A line perf cannot read: one warning naming it; what came before stands.
printf '[call-graph]\nrecord-mode = dwarf\n[record\nbuild-id = mmap\n' >"$cfg"
a=$(same_attrs badline -g)
[[ "$a" == *STACK_USER* && "$a" != *"build_id=1 "* ]] || fail "a bad line: $a"
prec_record_ok -o badline2.prec -g -- "$WORKLOAD" 50
[[ $(grep -c "line 3: not a setting perf reads" "$PREC_ERR") == 1 ]] ||
	fail "a bad line: no one warning naming line 3 in: $(cat "$PREC_ERR")"

# A value perf record refuses: refused, one line, no file; perf refuses it too.
printf '[record]\n\tbuild-id = bogus\n' >"$cfg"
run_prec -o badvalue.prec -- "$WORKLOAD" 50
((PREC_RC >= 1 && PREC_RC <= 125)) || fail "record.build-id = bogus: prec exited $PREC_RC"
if [[ $(wc -l <"$PREC_ERR") != 1 ]] || ! grep -q "$cfg, line 2: record.build-id = 'bogus'" "$PREC_ERR"; then
	fail "record.build-id = bogus: not one line naming the file, line and key: $(cat "$PREC_ERR")"
fi
[[ -e badvalue.prec ]] && fail "record.build-id = bogus: a file was made"
run_perf record -q -o badvalue.perf -- "$WORKLOAD" 50
((PERF_RC != 0)) || fail "perf record took record.build-id = bogus (the reference changed?)"
# -h and --version answer whatever the file holds
run_prec --version
((PREC_RC == 0)) || fail "--version under a bad configuration exited $PREC_RC"

# PERF_CONFIG naming a FIFO: refused at once, before anything is recorded.
mkfifo fifo || fail "mkfifo failed"
PERF_CONFIG=$TMP/fifo RUN_TIMEOUT=20 run_prec -o fifo.prec -- "$WORKLOAD" 50
((PREC_RC >= 1 && PREC_RC <= 125)) || fail "PERF_CONFIG=FIFO: prec exited $PREC_RC (124: it blocked)"
grep -q "PERF_CONFIG=$TMP/fifo is a FIFO, not a file.*PERF_CONFIG=/dev/null" "$PREC_ERR" ||
	fail "PERF_CONFIG=FIFO: no line naming PERF_CONFIG and the fix: $(cat "$PREC_ERR")"
[[ -e fifo.prec ]] && fail "PERF_CONFIG=FIFO: a file was made"
# ~/.perfconfig a FIFO: skipped (perf skips it too: it has no size)
unset PERF_CONFIG
mv fifo "$HOME/.perfconfig"
RUN_TIMEOUT=20 prec_record_ok -q -o homefifo.prec -- "$WORKLOAD" 50
rm -f "$HOME/.perfconfig"
# The configuration is read once, at start-up: made a FIFO while recording,
# it is not read again at the end (the build-id cache still goes where
# buildid.dir said when prec started).
export PERF_CONFIG=$cfg
printf '[buildid]\ndir = %s\n' "$TMP/cache-late" >"$cfg"
RUN_TIMEOUT=30 _run late "$PREC" -q -o late.prec -- bash -c "rm -f '$cfg' && mkfifo '$cfg' && '$WORKLOAD' 100"
((LAST_RC == 0)) || fail "a configuration made a FIFO while recording: prec exited $LAST_RC (124: it blocked)"
[[ -p "$cfg" ]] || fail "the configuration was not a FIFO by the end"
[[ -d "$TMP/cache-late/.build-id" ]] || fail "buildid.dir read at start-up was not used at the end"
unset PERF_CONFIG # perf itself would wait on that FIFO
require_valid late.prec

pass
