#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# --kcore: the output is a perf.data directory with kcore_dir/ holding
# kallsyms and modules as they were and a kcore cut down to the kernel and
# module text, as perf record 6.1's kcore_copy makes it; perf report,
# script and annotate read it without a warning and take kernel symbols and
# code from it. Machines without /proc/kcore (CONFIG_PROC_KCORE unset, as
# this VM) get a sysroot whose proc/ is the real one but for kcore (made by
# prec_fake_kcore over the real kernel text), kallsyms (the real one with a
# made-up module's symbols) and modules. Where /proc/kcore is readable, the
# real copy is compared with perf record's. Then the bad cases: one line,
# status 1..125, nothing left behind.
source "${TEST_LIB:-$(dirname "$0")/lib.sh}" || exit 1

need_root "system-wide recordings (-a) and the kernel symbols of /proc/kallsyms"

ROOT=$TMP/root
mkdir -p "$ROOT/proc"
for f in /proc/*; do
	case ${f##*/} in
	kcore | kallsyms | modules) ;;
	*) ln -s "$f" "$ROOT/proc/${f##*/}" ;;
	esac
done
ln -s /sys "$ROOT/sys"
stext=$(awk '$3 == "_stext" { print $1; exit }' /proc/kallsyms)
etext=$(awk '$3 == "_etext" { print $1; exit }' /proc/kallsyms)
[[ -n "$stext" && -n "$etext" && "$stext" != 0000000000000000 ]] ||
	fail "/proc/kallsyms shows no _stext/_etext address (run as root, kernel.kptr_restrict=0)"
modbase=ffffffffc0000000
{
	cat /proc/kallsyms
	printf '%s t fake_mod_fn\t[fakemod]\n' ffffffffc0001000
} >"$ROOT/proc/kallsyms"
echo "fakemod 16384 0 - Live 0x$modbase" >"$ROOT/proc/modules"
"$WORKLOAD_DIR/prec_fake_kcore" "$stext" "$etext" "$modbase" 10000 "$ROOT/proc/kcore" ||
	fail "prec_fake_kcore failed"

# Kernel-heavy: one-byte reads and writes, a system call each.
busy=(dd if=/dev/zero of=/dev/null bs=1 count=400000)

# ---- the directory, as perf lays it out ----
PREC_TEST_SYSROOT=$ROOT prec_record_ok --kcore -o "$TMP/kc.data" -a -- "${busy[@]}"
[[ -d $TMP/kc.data && -f $TMP/kc.data/data ]] || fail "no perf.data directory with a data file"
[[ $(stat -c %a "$TMP/kc.data") == 700 && $(stat -c %a "$TMP/kc.data/kcore_dir") == 700 ]] ||
	fail "the directories are not 0700 as perf makes them"
for f in kcore kallsyms modules; do
	[[ $(stat -c %a "$TMP/kc.data/kcore_dir/$f") == 400 ]] || fail "kcore_dir/$f is not mode 0400"
done
[[ $(ls "$TMP/kc.data" | tr '\n' ' ') == "data kcore_dir " ]] ||
	fail "the directory holds $(ls "$TMP/kc.data" | tr '\n' ' '), expected data kcore_dir"
cmp -s "$ROOT/proc/kallsyms" "$TMP/kc.data/kcore_dir/kallsyms" || fail "kallsyms differs from the source"
cmp -s "$ROOT/proc/modules" "$TMP/kc.data/kcore_dir/modules" || fail "modules differs from the source"
# Only the executable segments over the text and the module: not the data.
loads=$(readelf -lW "$TMP/kc.data/kcore_dir/kcore" | awk '$1 == "LOAD" { print $3 }' | tr '\n' ' ')
[[ $loads == "0xffffffff${stext#ffffffff} 0x$modbase " ]] ||
	fail "the copy's segments start at '$loads', expected the text at $stext and the module at $modbase"
(($(stat -c %s "$TMP/kc.data/kcore_dir/kcore") < $(stat -c %s "$ROOT/proc/kcore"))) ||
	fail "the copy is not smaller than the source (the data segment was copied)"
grep -aq $'\xee\xee\xee\xee' "$TMP/kc.data/kcore_dir/kcore" && fail "the non-executable data segment was copied"
# --kcore alone writes no DIR_FORMAT: perf 6.1 reads such a directory as a
# single file (with DIR_FORMAT it wants data.N files and fails silently).
run_perf report --header-only -I -i "$TMP/kc.data"
((PERF_RC == 0)) || fail "perf report --header-only exited $PERF_RC"
require_no_warning "$PERF_ERR" "perf report --header-only -I"
grep -q 'directory data version' "$PERF_OUT" && fail "DIR_FORMAT written without --threads"

# ---- perf reads it, with kernel symbols and code from the copy ----
require_valid "$TMP/kc.data"
run_perf report --stdio -v -i "$TMP/kc.data" --sort sym
grep -q "Using $TMP/kc.data/kcore_dir/kcore for kernel data" "$PERF_ERR" ||
	fail "perf report did not take kernel data from kcore_dir/kcore"
run_perf report --stdio -i "$TMP/kc.data" --sort sym
ksym=$(grep -m1 -E '^ +[0-9.]+% +\[k\] [a-z_]' "$PERF_OUT" | awk '{ print $3 }')
[[ -n "$ksym" ]] || fail "no kernel symbol resolved in the report"
run_perf script -i "$TMP/kc.data"
((PERF_RC == 0)) || fail "perf script exited $PERF_RC"
require_no_warning "$PERF_ERR" "perf script"
run_perf annotate --stdio -i "$TMP/kc.data" "$ksym"
((PERF_RC == 0)) || fail "perf annotate $ksym exited $PERF_RC"
grep -q 'int3' "$PERF_OUT" || fail "perf annotate $ksym shows no code from the copied kcore"

# ---- with --threads: data.N beside kcore_dir, and DIR_FORMAT ----
PREC_TEST_SYSROOT=$ROOT prec_record_ok --kcore --threads -o "$TMP/kt.data" -a -- "${busy[@]}"
[[ -f $TMP/kt.data/data.0 && -f $TMP/kt.data/kcore_dir/kcore ]] || fail "--kcore --threads: data.0 or kcore_dir/kcore missing"
require_valid "$TMP/kt.data"
run_perf report --header-only -I -i "$TMP/kt.data"
grep -q 'directory data version : 1' "$PERF_OUT" || fail "--kcore --threads: no DIR_FORMAT"

# ---- a recording there before goes to .old, kcore_dir and all ----
PREC_TEST_SYSROOT=$ROOT prec_record_ok --kcore -o "$TMP/kc.data" -- true
[[ -f $TMP/kc.data.old/kcore_dir/kcore && -f $TMP/kc.data/kcore_dir/kcore ]] ||
	fail "the earlier --kcore recording was not kept as kc.data.old"

# ---- beside perf record, where this machine has a kcore ----
if [[ -r /proc/kcore ]]; then
	prec_record_ok --kcore -o "$TMP/real.data" -a -- "${busy[@]}"
	perf_record_ok --kcore -o "$TMP/perf.data" -a -- "${busy[@]}"
	[[ $(ls "$TMP/real.data/kcore_dir") == $(ls "$TMP/perf.data/kcore_dir") ]] ||
		fail "kcore_dir holds $(ls "$TMP/real.data/kcore_dir"), perf's $(ls "$TMP/perf.data/kcore_dir")"
	ours=$(readelf -lW "$TMP/real.data/kcore_dir/kcore" | awk '$1 == "LOAD" { print $3 }')
	theirs=$(readelf -lW "$TMP/perf.data/kcore_dir/kcore" | awk '$1 == "LOAD" { print $3 }')
	[[ "$ours" == "$theirs" ]] || fail "segments at $ours, perf's at $theirs"
	require_valid "$TMP/real.data"
fi

# ---- bad cases ----
# refused EXPECT-REGEX ENV... -- PREC-ARGS: status 1..125, one "prec:" line
# matching EXPECT, no output directory left.
refused()
{
	local want=$1 envs=()
	shift
	while [[ "$1" != -- ]]; do
		envs+=("$1")
		shift
	done
	shift
	rm -rf "$TMP/bad.data"
	_run bad env "${envs[@]}" "$PREC" -o "$TMP/bad.data" "$@" -- true
	((LAST_RC >= 1 && LAST_RC <= 125)) || fail "prec $*: status $LAST_RC, expected 1..125"
	(($(grep -c . "$LAST_ERR") == 1)) || fail "prec $*: $(grep -c . "$LAST_ERR") lines on stderr, expected one"
	grep -Eq "^prec: .*($want)" "$LAST_ERR" || fail "prec $*: the line does not say $want"
	[[ -e $TMP/bad.data ]] && fail "prec $*: left $TMP/bad.data behind"
	return 0
}
NOKCORE=$TMP/nokcore
mkdir -p "$NOKCORE/proc"
cp "$ROOT/proc/kallsyms" "$ROOT/proc/modules" "$NOKCORE/proc/"
refused 'CONFIG_PROC_KCORE' PREC_TEST_SYSROOT="$NOKCORE" -- --kcore
HIDDEN=$TMP/hidden
mkdir -p "$HIDDEN/proc"
cp "$ROOT/proc/kcore" "$ROOT/proc/modules" "$HIDDEN/proc/"
sed 's/^[0-9a-f]*/0000000000000000/' "$ROOT/proc/kallsyms" >"$HIDDEN/proc/kallsyms"
refused 'kptr_restrict' PREC_TEST_SYSROOT="$HIDDEN" -- --kcore
NOTELF=$TMP/notelf
mkdir -p "$NOTELF/proc"
cp "$ROOT/proc/kallsyms" "$ROOT/proc/modules" "$NOTELF/proc/"
echo 'not a core' >"$NOTELF/proc/kcore"
refused 'ELF64' PREC_TEST_SYSROOT="$NOTELF" -- --kcore
refused 'pipe' PREC_TEST_SYSROOT="$ROOT" -- --kcore -o -
refused 'switch-output' PREC_TEST_SYSROOT="$ROOT" -- --kcore --switch-output
# Without a sysroot on a machine with no /proc/kcore: perf says "kcore is
# not readable" and leaves an empty perf.data directory; prec leaves nothing.
[[ -e /proc/kcore ]] || refused 'CONFIG_PROC_KCORE' X=1 -- --kcore

pass
