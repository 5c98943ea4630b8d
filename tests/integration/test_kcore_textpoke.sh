#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# --kcore's text_poke event: perf record 6.1 adds a system-wide dummy:u with
# text_poke and ksymbol (which then leave the tracking event), TIME sampled,
# enabled at once, opened on every online CPU for any thread whatever the
# target, its fds writing into the ring of their CPU (or one of their own on
# a CPU the target does not record). Judged against perf record itself: this
# VM has no /proc/kcore, so perf runs in a private mount namespace whose
# /proc is the real one (a second mount) seen through links, plus the fake
# kcore, kallsyms and modules prec gets through PREC_TEST_SYSROOT. The events
# (perf evlist -v) and the ID_INDEX layout (ring index, CPU, tid of every id)
# must be perf's for a workload, -a, -C, --per-thread and --threads; perf
# report and script read the files without a warning; a BPF program's
# KSYMBOL arrives through the dummy; a TEXT_POKE, where the kernel can be made
# to patch its text, shows in perf script --show-text-poke-events.
source "${TEST_LIB:-$(dirname "$0")/lib.sh}" || exit 1

need_root "system-wide recordings (-a) and perf's /proc made by mounts"
need_namespaces "perf reads the fake kcore through a private mount namespace"

# The fake kernel files, shared by prec's sysroot and perf's /proc.
FILES=$TMP/files
mkdir -p "$FILES"
stext=$(awk '$3 == "_stext" { print $1; exit }' /proc/kallsyms)
etext=$(awk '$3 == "_etext" { print $1; exit }' /proc/kallsyms)
[[ -n "$stext" && "$stext" != 0000000000000000 ]] ||
	fail "/proc/kallsyms shows no _stext address (run as root, kernel.kptr_restrict=0)"
cp /proc/kallsyms "$FILES/kallsyms"
: >"$FILES/modules"
"$WORKLOAD_DIR/prec_fake_kcore" "$stext" "$etext" ffffffffc0000000 10000 "$FILES/kcore" ||
	fail "prec_fake_kcore failed"
# links DIR PROC: DIR/proc holds a link to every entry of PROC but the three.
links()
{
	mkdir -p "$1/proc"
	for f in "$2"/*; do
		case ${f##*/} in
		kcore | kallsyms | modules) ;;
		*) ln -s "$f" "$1/proc/${f##*/}" ;;
		esac
	done
	cp "$FILES/kcore" "$FILES/kallsyms" "$FILES/modules" "$1/proc/"
}
ROOT=$TMP/root
links "$ROOT" /proc
ln -s /sys "$ROOT/sys"

# perf_kcore ARGS...: perf record --kcore ARGS with the fake /proc.
cat >"$TMP/perf_kcore.sh" <<'EOF'
set -e
mkdir -p "$TMP/realproc"
mount -t proc proc "$TMP/realproc"
source "$TMP/links.sh"
links "$TMP/pproc" "$TMP/realproc"
mount --bind "$TMP/pproc/proc" /proc
exec "$PERF" record --kcore "$@"
EOF
declare -f links >"$TMP/links.sh"
echo "FILES=$FILES" >>"$TMP/links.sh"
perf_kcore()
{
	rm -rf "$TMP/pproc"
	_run perf env TMP="$TMP" PERF="$PERF" bash -c 'exec unshare -m --propagation private bash "$TMP/perf_kcore.sh" "$@"' perf_kcore "$@"
	PERF_RC=$LAST_RC PERF_ERR=$LAST_ERR
	# perf 6.1 in that namespace ends by raising a SIGTERM after writing
	# the whole file (status 143): the file is what is judged.
	((PERF_RC == 143)) && PERF_RC=0
	return 0
}
perf_kcore -q -o "$TMP/probe.data" -- true
HAVE_PERF=1
if ((PERF_RC != 0)) || ! "$PERF" evlist -i "$TMP/probe.data" 2>/dev/null | has_match "^dummy:u$"; then
	HAVE_PERF=0
	log "perf record --kcore cannot run in a private mount namespace here ($(head -n 1 "$PERF_ERR")): checking prec's events against perf 6.1's rules only"
fi

# The ID_INDEX entries as "idx cpu tid", a workload's tid as T.
id_layout()
{
	"$PERF" report -D -i "$1" 2>/dev/null |
		awk '/PERF_RECORD_ID_INDEX/ { on = 1; next } on && /\.\.\. id:/ { print $5, $7, ($9 == "-1" ? "-1" : "T") } on && !/\.\.\. id:/ { on = 0 }'
}

# The text_poke dummy as perf 6.1 prints it (the CPU bit with -a/-C, inherit
# where the target inherits).
DUMMY_U='^dummy:u: type: 1, size: 128, config: 0x9, \{ sample_period, sample_freq \}: 1, sample_type: IP\|TID\|TIME(\|CPU)?\|IDENTIFIER, read_format: ID\|LOST, (inherit: 1, )?exclude_kernel: 1, exclude_hv: 1, sample_id_all: 1, exclude_guest: 1, ksymbol: 1, text_poke: 1$'

check()
{
	local name=$1
	shift
	PREC_TEST_SYSROOT=$ROOT prec_record_ok --kcore -q -o "$TMP/$name.prec" "$@"
	evlist "$TMP/$name.prec" >"$TMP/$name.prec.ev"
	# -c and --call-graph dwarf (-d) change the dummy too: perf judges those.
	[[ " $* " == *" -c "* || " $* " == *" dwarf "* ]] ||
		grep -Eq "$DUMMY_U" "$TMP/$name.prec.ev" || {
		cat "$TMP/$name.prec.ev" >&2
		fail "$name: no dummy:u with perf's text_poke attr"
	}
	# ksymbol only on the dummy, as perf moves it there.
	(($(grep -c 'ksymbol: 1' "$TMP/$name.prec.ev") == 1)) || fail "$name: ksymbol on another event than the dummy"
	require_valid "$TMP/$name.prec"
	id_layout "$TMP/$name.prec" >"$TMP/$name.prec.ids"
	# Every id of every attr is in ID_INDEX.
	n_attr=$("$PERF" report --header-only -I -i "$TMP/$name.prec" 2>/dev/null |
		sed -n 's/^# event : .*, id = { \([^}]*\) }.*/\1/p' | tr ',' '\n' | grep -c '[0-9]')
	(($(wc -l <"$TMP/$name.prec.ids") == n_attr)) ||
		fail "$name: ID_INDEX lists $(wc -l <"$TMP/$name.prec.ids") ids, the attrs $n_attr"
	((HAVE_PERF)) || return 0
	perf_kcore -q -o "$TMP/$name.perf" "$@"
	((PERF_RC == 0)) || fail "$name: perf record --kcore $* exited $PERF_RC: $(head -n 2 "$PERF_ERR")"
	evlist "$TMP/$name.perf" >"$TMP/$name.perf.ev"
	# prec samples IDENTIFIER beside ID when the layouts agree (-c), for
	# readers such as samply (DESIGN.md); perf writes ID alone there.
	sed 's/|ID|IDENTIFIER/|ID/' "$TMP/$name.prec.ev" | diff "$TMP/$name.perf.ev" - >&2 ||
		fail "$name: perf evlist -v differs from perf record's"
	id_layout "$TMP/$name.perf" >"$TMP/$name.perf.ids"
	# -C: the tracking dummy is on every CPU, as perf 6.7 keeps the
	# side-band of all (man prec, DIFFERENCES); perf 6.1 opens it on -C's.
	if [[ $name == cpu0 ]]; then
		sort "$TMP/$name.perf.ids" >"$TMP/perf.sorted"
		sort "$TMP/$name.prec.ids" >"$TMP/prec.sorted"
		[[ -z $(comm -23 "$TMP/perf.sorted" "$TMP/prec.sorted") ]] ||
			fail "$name: ID_INDEX lacks ids perf record has"
		comm -13 "$TMP/perf.sorted" "$TMP/prec.sorted" >"$TMP/extra"
		(($(awk '$2 != 0 && $3 == -1' "$TMP/extra" | wc -l) == $(nproc) - 1 &&
			$(wc -l <"$TMP/extra") == $(nproc) - 1)) ||
			fail "$name: the ids beyond perf's are not one per other CPU: $(tr '\n' ';' <"$TMP/extra")"
		return 0
	fi
	diff "$TMP/$name.perf.ids" "$TMP/$name.prec.ids" >&2 || fail "$name: ID_INDEX (idx cpu tid) differs from perf record's"
}

check workload -- "$WORKLOAD_DIR/prec_busy" 0.3
check system -a -- sleep 0.2
check cpu0 -C 0 -- sleep 0.2
check perthread --per-thread -- "$WORKLOAD_DIR/prec_busy" 0.3
check threads --threads -- "$WORKLOAD_DIR/prec_busy" 0.3
check period -c 100000 -- "$WORKLOAD_DIR/prec_busy" 0.3
check dwarf --call-graph dwarf -- "$WORKLOAD_DIR/prec_busy" 0.3
[[ -f $TMP/threads.prec/data.0 ]] || fail "--threads: no data.0"

# The dummy of a workload target is on every CPU: its ids name each CPU with tid -1.
nr_cpus=$(grep -c '^processor' /proc/cpuinfo)
(($(grep -c ' -1$' "$TMP/workload.prec.ids") == nr_cpus)) ||
	fail "the workload's text_poke dummy is not on all $nr_cpus CPUs for any thread"

# A BPF program's symbols arrive through the dummy (the only ksymbol event).
PREC_TEST_SYSROOT=$ROOT _run bpf "$PREC" --kcore -q -o "$TMP/bpf.prec" -- "$WORKLOAD_DIR/prec_bpf_hold" 1
if ((LAST_RC == 0)); then
	run_perf script --show-text-poke-events -i "$TMP/bpf.prec"
	require_no_warning "$PERF_ERR" "perf script --show-text-poke-events"
	grep -q 'PERF_RECORD_KSYMBOL.*prec_test_prog' "$PERF_OUT" ||
		fail "the BPF program's KSYMBOL did not arrive through the text_poke dummy"
else
	log "prec_bpf_hold could not load a BPF program (status $LAST_RC): KSYMBOL not checked"
fi

# TEXT_POKE: static keys flipped while recording (a tracepoint, NUMA
# balancing); kernels that patch no text for these write none.
(
	sleep 0.3
	for i in 1 2; do
		echo 1 >/sys/kernel/tracing/events/syscalls/sys_enter_getppid/enable
		echo 0 >/sys/kernel/tracing/events/syscalls/sys_enter_getppid/enable
		echo 1 >/proc/sys/kernel/numa_balancing
		echo 0 >/proc/sys/kernel/numa_balancing
	done 2>/dev/null
) &
PREC_TEST_SYSROOT=$ROOT prec_record_ok --kcore -q -a -o "$TMP/poke.prec" -- sleep 1
wait
run_perf report -D -i "$TMP/poke.prec"
pokes=$(grep -c 'PERF_RECORD_TEXT_POKE' "$PERF_OUT")
if ((pokes > 0)); then
	run_perf script --show-text-poke-events -i "$TMP/poke.prec"
	require_no_warning "$PERF_ERR" "perf script --show-text-poke-events"
	grep -q 'PERF_RECORD_TEXT_POKE' "$PERF_OUT" || fail "perf script shows none of the $pokes TEXT_POKE records"
else
	log "this kernel patched no text for the toggled static keys: no TEXT_POKE to check"
fi

pass
