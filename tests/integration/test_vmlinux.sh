#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# --vmlinux=PATH as perf record 6.1 treats it, judged beside perf record on
# the same command: the kernel's HEADER_BUILD_ID entry is named PATH and
# keeps the running kernel's build-id (perf buildid-list shows the same
# line for both files); the build-id cache keeps PATH as
# PATH/SBUILDID/elf (with its .build-id link) only when PATH's own
# build-id is the running kernel's, and nothing at all for the kernel
# otherwise - the same entries perf makes, in private HOMEs. A missing or
# non-ELF PATH is refused in one line with nothing left (perf exits 234 for
# a missing one and takes a non-ELF one silently).
source "${TEST_LIB:-$(dirname "$0")/lib.sh}" || exit 1

need_root "system-wide recordings (-a) and the kernel build-id"
need_tool cc "install gcc"
kbid=$("$PERF" buildid-list -k 2>/dev/null)
[[ ${#kbid} == 40 ]] || fail "perf buildid-list -k gives no build-id for the running kernel"
echo 'int main(void) { return 0; }' >"$TMP/k.c"
cc -Wl,--build-id=0x$kbid -o "$TMP/vmlinux-good" "$TMP/k.c" || fail "cc failed"
cc -Wl,--build-id=0x0123456789abcdef0123456789abcdef01234567 -o "$TMP/vmlinux-other" "$TMP/k.c" ||
	fail "cc failed"

# The cache's entries, as paths below its root (the kernel's and others').
cache_list()
{
	(cd "$1/.debug" && find . -mindepth 1 | sort)
}

for v in good other; do
	vm=$TMP/vmlinux-$v
	mkdir -p "$TMP/prec-$v" "$TMP/perf-$v"
	HOME=$TMP/prec-$v prec_record_ok --vmlinux="$vm" -o "$TMP/prec-$v.data" -a -- "$WORKLOAD" 300
	HOME=$TMP/perf-$v perf_record_ok --vmlinux="$vm" -o "$TMP/perf-$v.data" -a -- "$WORKLOAD" 300
	require_valid "$TMP/prec-$v.data"
	run_perf buildid-list -i "$TMP/prec-$v.data"
	grep -qx "$kbid $vm" "$PERF_OUT" || fail "$v: the kernel is not listed as '$kbid $vm'"
	grep -q 'kernel.kallsyms' "$PERF_OUT" && fail "$v: the kernel is still named [kernel.kallsyms]"
	run_perf buildid-list -i "$TMP/perf-$v.data"
	grep -qx "$kbid $vm" "$PERF_OUT" || fail "$v: perf record itself names the kernel otherwise (the rule moved)"
	# The kernel's cache entries: prec's are perf's.
	ours=$(cache_list "$TMP/prec-$v" | grep -E "vmlinux-$v|/${kbid:0:2}/${kbid:2}|kernel.kallsyms")
	theirs=$(cache_list "$TMP/perf-$v" | grep -E "vmlinux-$v|/${kbid:0:2}/${kbid:2}|kernel.kallsyms")
	[[ "$ours" == "$theirs" ]] || fail "$v: the kernel's cache entries differ: prec [$ours], perf [$theirs]"
done
entry=$TMP/prec-good/.debug$TMP/vmlinux-good/$kbid
cmp -s "$entry/elf" "$TMP/vmlinux-good" || fail "the matching vmlinux was not cached as $entry/elf"
[[ -L $TMP/prec-good/.debug/.build-id/${kbid:0:2}/${kbid:2} ]] || fail "no .build-id link to the cached vmlinux"
[[ -e $TMP/prec-other/.debug$TMP/vmlinux-other ]] && fail "a vmlinux of another build-id was cached"

# A relative name: kept as given in the header, as perf.
mkdir -p "$TMP/rel"
(cd "$TMP" && HOME=$TMP/rel "$PREC" --vmlinux=vmlinux-good -o rel.data -a -- "$WORKLOAD" 200 2>/dev/null) ||
	fail "--vmlinux with a relative path failed"
run_perf buildid-list -i "$TMP/rel.data"
grep -qx "$kbid vmlinux-good" "$PERF_OUT" || fail "a relative --vmlinux is not named as given"

# ---- bad input: one line, status 1..125, nothing left ----
for bad in /nonexistent/vmlinux /etc/hostname "$TMP"; do
	rm -f "$TMP/bad.data"
	run_prec --vmlinux="$bad" -o "$TMP/bad.data" -- true
	((PREC_RC >= 1 && PREC_RC <= 125)) || fail "--vmlinux=$bad: status $PREC_RC"
	(($(grep -c . "$PREC_ERR") == 1)) || fail "--vmlinux=$bad: $(grep -c . "$PREC_ERR") lines on stderr"
	grep -Eq "^prec: --vmlinux '$bad'.*(No such file|not an ELF)" "$PREC_ERR" ||
		fail "--vmlinux=$bad: the line does not name the problem"
	[[ -e $TMP/bad.data ]] && fail "--vmlinux=$bad left $TMP/bad.data"
done
pass
