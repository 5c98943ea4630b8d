#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# writer/jit_elf.c judged by stock perf: a tiny JIT (prec_jit: three
# functions in an anonymous RWX mapping, and its /tmp/perf-PID.map) is
# recorded with perf record; then
#  - with the map, perf report names the functions (the control) and, with
#    the map gone, does not;
#  - the image prec_jit_elf writes of the map's symbols is what readelf, nm
#    and perf buildid-list read: the symbols at their absolute addresses,
#    the build-id prec_jit_elf printed, no warning; the same map gives the
#    same bytes;
#  - perf buildid-cache -a takes it, and once the recording's MMAP2 of the
#    mapping names it (a DSO "/jit" that no file holds, with its build-id, as
#    prec will write it), perf report finds it in the cache and gives every
#    sample the name and share the perf map gave; without the cache, none.
source "${TEST_LIB:-$(dirname "$0")/lib.sh}" || exit 1

need_tool readelf "install binutils"
need_tool nm "install binutils"
case $(uname -m) in
x86_64 | aarch64) ;;
*) skip "prec_jit writes x86_64 and aarch64 code only" ;;
esac
JIT=$WORKLOAD_DIR/prec_jit
TOOL=$WORKLOAD_DIR/prec_jit_elf
mkdir -p hcache hnone

perf_record_ok -q -e cpu-clock -o jit.data -- "$JIT" 1 map.txt
pid=$(head -n 1 "$PERF_OUT")
[[ $pid =~ ^[0-9]+$ ]] || fail "prec_jit printed no pid: $(head -c 200 "$PERF_OUT")"
[[ $(wc -l <map.txt) == 3 ]] || fail "prec_jit wrote no map: $(cat map.txt)"

# The control: perf's own reading of the perf map, then without it.
declare -A share
for f in jit_alpha jit_beta jit_gamma; do
	share[$f]=$(report_percent jit.data $f)
done
rm -f "/tmp/perf-$pid.map"
awk -v a="${share[jit_alpha]}" -v g="${share[jit_gamma]}" 'BEGIN { exit !(a > 3 && g > a) }' ||
	fail "control: the perf map gives jit_alpha ${share[jit_alpha]}%, jit_gamma ${share[jit_gamma]}%"
[[ $(report_percent jit.data jit_gamma) == 0.00 ]] || fail "control: names without the perf map"

# The image, as binutils and perf read it.
bid=$("$TOOL" map.txt jit.elf) || fail "prec_jit_elf map.txt: $bid"
[[ $bid =~ ^[0-9a-f]{40}$ ]] || fail "prec_jit_elf printed no build-id: $bid"
readelf -a -W jit.elf >readelf.out 2>readelf.err || fail "readelf -a: $(head -n 3 readelf.err)"
[[ -s readelf.err ]] && fail "readelf warns: $(head -n 3 readelf.err)"
grep -q "Build ID: $bid" readelf.out || fail "readelf -n: no build-id $bid"
grep -qE 'Type: +DYN' readelf.out || fail "not ET_DYN: $(grep 'Type:' readelf.out)"
grep -qE '^ +\[ ?[0-9]+\] \.text +NOBITS .* AX ' readelf.out || fail "no NOBITS AX .text"
while read -r addr size name; do
	printf -v want '%016x %s %s' "0x$addr" "$((16#$size))" "$name"
	readelf -Ws jit.elf | awk '$4 == "FUNC" && $5 == "GLOBAL" { print $2, $3, $8 }' |
		has_match -x "$want" || fail "readelf -Ws: no FUNC GLOBAL '$want'"
	nm jit.elf | has_match -x "$(printf '%016x' "0x$addr") T $name" || fail "nm: no $name at $addr"
done <map.txt
[[ $("$PERF" buildid-list -i jit.elf 2>/dev/null) == "$bid" ]] ||
	fail "perf buildid-list -i jit.elf: '$("$PERF" buildid-list -i jit.elf 2>&1)', not $bid"
"$TOOL" map.txt again.elf >/dev/null || fail "prec_jit_elf map.txt again.elf failed"
cmp -s jit.elf again.elf || fail "the same map gave other bytes"

# perf's cache takes it; the recording names it.
HOME=$TMP/hcache run_perf buildid-cache -a jit.elf
((PERF_RC == 0)) || fail "perf buildid-cache -a jit.elf exited $PERF_RC"
cmp -s jit.elf "hcache/.debug/.build-id/${bid:0:2}/${bid:2}/elf" ||
	fail "the cache has no copy of jit.elf under its build-id"
cp jit.data named.data
n=$("$TOOL" --patch named.data "$pid" /jit "$bid") || fail "no //anon MMAP2 of pid $pid"
log "$n MMAP2 record(s) renamed to /jit, build-id $bid"
for f in jit_alpha jit_beta jit_gamma; do
	got=$(HOME=$TMP/hcache report_percent named.data $f)
	[[ $got == "${share[$f]}" ]] || fail "through the cache $f has $got%, the perf map gave ${share[$f]}%"
	[[ $(HOME=$TMP/hnone report_percent named.data $f) == 0.00 ]] ||
		fail "without the cache $f still resolves (the control)"
done
HOME=$TMP/hcache report_rows named.data | has_match ' jit jit_gamma$' ||
	fail "jit_gamma is not in the DSO jit: $(HOME=$TMP/hcache report_rows named.data | head -n 3)"

pass "names of ${share[jit_alpha]}/${share[jit_beta]}/${share[jit_gamma]}% kept through the cache"
