#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# --setup-filter pin|unpin (perf 6.12), in a private mount namespace with a
# BPF filesystem of its own (nothing pinned here reaches the machine):
#  - refused in one line, exit 1: without a mounted BPF filesystem, as
#    nobody, pin twice, unpin with nothing pinned; a bad action exits 2;
#  - pin leaves the program 0777 and the maps 0666 in prec_filter;
#  - nobody, who cannot load BPF, filters with the pinned program: 'ip <
#    0x1000' keeps no sample and writes the drops as LOST_SAMPLES, 'ip >
#    0x1000' keeps them; its slot and entries are gone afterwards;
#  - unpin removes the directory.
SELF=$(realpath "$0")
source "${TEST_LIB:-$(dirname "$0")/lib.sh}" || exit 1
need_root "pinning BPF objects needs root"
need_namespaces "a BPF filesystem of the test's own"
need_tool setpriv "install util-linux"

if [[ -z ${PREC_PIN_INNER:-} ]]; then
	# The same test again, inside its own mount namespace.
	PREC_PIN_INNER=1 in_private_mounts bash "$SELF"
	exit $?
fi

run_prec -e task-clock --filter 'ip > 0' -o "$TMP/probe.data" -- true
if ((PREC_RC != 0)); then
	grep -q 'built with its BPF programs\|BTF type information\|lacks what the program needs' \
		"$PREC_ERR" && skip "$(head -n 1 "$PREC_ERR")"
	fail "--filter 'ip > 0' exited $PREC_RC: $(head -n 3 "$PREC_ERR")"
fi

# refused WHAT RC PATTERN: the last run exited RC with one line holding PATTERN.
refused()
{
	((LAST_RC == $2)) || fail "$1: exit $LAST_RC, expected $2: $(cat "$LAST_ERR")"
	(($(wc -l <"$LAST_ERR") == 1)) || fail "$1: not one line: $(cat "$LAST_ERR")"
	grep -q -- "$3" "$LAST_ERR" || fail "$1: '$(cat "$LAST_ERR")' does not name $3"
}

AS_NOBODY=(setpriv --reuid=65534 --regid=65534 --clear-groups)
BPFFS=/sys/fs/bpf
DIR=$BPFFS/prec_filter

# 1. No BPF filesystem: pin says how to mount one.
while umount "$BPFFS" 2>/dev/null; do :; done
run_prec --setup-filter pin
refused "pin without bpffs" 1 "no BPF filesystem is mounted (mount it with 'mount -t bpf bpf /sys/fs/bpf')"
run_prec --setup-filter stick
refused "a bad action" 2 "unknown --setup-filter action 'stick' (pin, or unpin)"

mount -t bpf bpf "$BPFFS" || skip "cannot mount a BPF filesystem on $BPFFS"
run_prec --setup-filter unpin
refused "unpin with nothing pinned" 1 "nothing is pinned in $DIR"

# 2. pin, open to every user.
prec_record_ok --setup-filter pin
[[ $(stat -c %a "$DIR/sample_filter") == 777 ]] || fail "the program is $(stat -c %a "$DIR/sample_filter"), not 777"
for m in filters event_hash idx_hash dropped; do
	[[ $(stat -c %a "$DIR/$m") == 666 ]] || fail "map $m is $(stat -c %a "$DIR/$m"), not 666"
done
run_prec --setup-filter pin
refused "pin twice" 1 "pinned already in $DIR (run --setup-filter unpin first"
_run nobody "${AS_NOBODY[@]}" "$PREC" --setup-filter pin
refused "pin as nobody" 1 "needs CAP_BPF and CAP_PERFMON (or root)"

# 3. nobody filters with the pinned program.
chmod 755 "$TMP"
mkdir -m 777 "$TMP/u"
WORK=(dd if=/dev/zero of=/dev/null bs=1M count=1000)
_run nobody "${AS_NOBODY[@]}" "$PREC" -e task-clock:u -c 10000 --filter 'ip < 0x1000' \
	-o "$TMP/u/none.data" -- "${WORK[@]}"
((LAST_RC == 0)) || fail "nobody's --filter with the pinned program exited $LAST_RC: $(cat "$LAST_ERR")"
grep -q 'samples dropped by --filter' "$LAST_ERR" || fail "no drops told: $(cat "$LAST_ERR")"
n=$("$PERF" script -f -i "$TMP/u/none.data" -F ip 2>/dev/null | wc -l)
((n == 0)) || fail "'ip < 0x1000' kept $n samples"
lost=$("$PERF" report -f --stats -i "$TMP/u/none.data" 2>/dev/null |
	awk '/LOST_SAMPLES events:/ { n = $3 } END { print n + 0 }')
((lost > 0)) || fail "the pinned program's drops wrote no LOST_SAMPLES"
_run nobody "${AS_NOBODY[@]}" "$PREC" -e task-clock:u -c 10000 --filter 'ip > 0x1000' \
	-o "$TMP/u/all.data" -- "${WORK[@]}"
((LAST_RC == 0)) || fail "nobody's 'ip > 0x1000' exited $LAST_RC: $(cat "$LAST_ERR")"
n=$("$PERF" script -f -i "$TMP/u/all.data" -F ip 2>/dev/null | wc -l)
((n > 0)) || fail "'ip > 0x1000' kept no sample"
# The recordings freed what they took.
if command -v bpftool >/dev/null; then
	for m in filters event_hash idx_hash; do
		[[ $(bpftool map dump pinned "$DIR/$m" 2>&1) == '[]' ]] ||
			fail "map $m kept entries: $(bpftool map dump pinned "$DIR/$m" 2>&1 | head -n 5)"
	done
fi

# 4. unpin.
prec_record_ok --setup-filter unpin
[[ ! -e $DIR ]] || fail "unpin left $DIR: $(ls "$DIR")"
pass
