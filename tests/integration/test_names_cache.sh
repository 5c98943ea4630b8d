#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# --names-cache-max (issue 37): the JIT ELFs prec adds to the build-id cache
# are capped, the oldest recordings pruned first, perf's entries never:
#  - 20 recordings of node --perf-basic-prof under --names-cache-max=2M keep
#    prec's share of the cache (jit/prec-*, their path-named entries and
#    .build-id links, as du counts them) at most 2 MiB after each one, and
#    some were pruned;
#  - the newest recording still names its JIT functions in stock perf
#    report with its perf map deleted, and every file of its ELFs is there;
#  - perf's own entry (perf buildid-cache -a /bin/true) and a perf inject
#    jit directory placed beforehand are untouched, byte for byte;
#  - with -N (no cache filled) the ELFs in jit/ are capped too;
#  - --names-cache-max=0 prunes nothing, prec.names-cache-max in perf's
#    configuration prunes and the command line wins over it, an old
#    recording's link to another entry is kept;
#  - --names-cache-max=abc and a bad prec.names-cache-max: one "prec:" line,
#    exit 1..125.
source "${TEST_LIB:-$(dirname "$0")/lib.sh}" || exit 1

need_tool node "install nodejs (scripts/bootstrap --test)"

export HOME=$TMP/home
bdir=$HOME/.debug
# perf 6.1 reads only $HOME (and its config) for the cache; prec honours this too.
export PERF_BUILDID_DIR=$bdir
mkdir -p "$bdir/jit"
unset PERF_CONFIG
export PERF_CONFIG_NOSYSTEM=1 PERF_CONFIG_NOGLOBAL=1
CAP=$((2 << 20))

# A 0.3 s hot loop: every process gets its JIT ELF (test_names_trust holds
# that for short ones), so each recording adds to the cache.
js='function hotLoopGamma(n){let s=0;for(let i=0;i<n;i++){s+=Math.sqrt(i)*Math.sin(i);}return s;}
let t=Date.now(),x=0;while(Date.now()-t<300){x+=hotLoopGamma(20000);}if(x<0)console.log(x);'

ls /tmp/perf-*.map >maps.before 2>/dev/null
drop_maps()
{
	local m
	for m in /tmp/perf-*.map; do
		[[ -e $m ]] && ! grep -qxF "$m" maps.before && rm -f "$m"
	done
	return 0
}
# This test's maps removed, then lib.sh's cleanup with the test's status.
names_cache_exit()
{
	local rc=$?
	drop_maps
	(exit "$rc")
	_cleanup
}
trap names_cache_exit EXIT

# mirror DIR: where the cache files the entries of DIR's jit ELFs.
mirror()
{
	echo "$1$(realpath "$1/jit")"
}

# usage DIR: bytes (du's blocks) of prec's entries in cache DIR: its
# jit/prec-* and their entries (with the two directories holding them, a
# file linked twice once) and the .build-id links to those.
usage()
{
	local d=$1 m dirs links inject
	m=$(mirror "$d")
	dirs=$(du -sc -B1 "$d/jit" "$m" 2>/dev/null | tail -n 1 | cut -f1)
	inject=$(du -sc -B1 "$d"/jit/java-jit-* 2>/dev/null | tail -n 1 | cut -f1)
	links=$(find "$d/.build-id" -type l -lname "*/jit/prec-*" -printf '%b\n' 2>/dev/null |
		awk '{ s += $1 * 512 } END { print s + 0 }')
	echo $((dirs - ${inject:-0} + links))
}

# snapshot DIR [PATHS...]: what is there under DIR, but prec's own.
snapshot()
{
	find "$@" \( -path "*/jit/prec-*" -prune \) -o \( -type f -printf '%p %i %s\n' \) -o \
		\( -type l -printf '%p -> %l\n' \) 2>/dev/null | grep -v '/jit/prec-' | sort
}

# ---- perf's own entries, before prec ----
run_perf buildid-cache -a /bin/true
((PERF_RC == 0)) || fail "perf buildid-cache -a /bin/true exited $PERF_RC: $(head -2 "$PERF_ERR")"
mkdir -p "$bdir/jit/java-jit-20240101.XXXX"
printf 'perf inject -j wrote this\n' >"$bdir/jit/java-jit-20240101.XXXX/jitted-1-1.so"
perf_entry=$(find "$bdir" -path '*/true/*' -name elf | head -n 1)
[[ -n $perf_entry ]] || fail "perf buildid-cache -a /bin/true left no entry in $bdir"
snapshot "$bdir" >perf.before

# ---- 20 recordings under 2M ----
with_elf=0 max_use=0
for i in $(seq 1 20); do
	prec_record_ok --names-cache-max=2M -o "r$i.data" -- node --perf-basic-prof -e "$js"
	elf=$("$PERF" buildid-list -i "r$i.data" 2>/dev/null | awk '/\/jit\/prec-[0-9]+-[0-9]+\/jitted-[0-9]+\.so$/ { print $2 }')
	[[ -z $elf ]] || with_elf=$((with_elf + 1))
	use=$(usage "$bdir")
	((use > max_use)) && max_use=$use
	((use <= CAP)) || fail "after recording $i: prec's entries take $use bytes, over the 2M cap ($CAP)"
	# The newest recording's ELF is never pruned.
	[[ -z $elf || -e $elf ]] || fail "recording $i: its own ELF $elf is gone"
done
left=$(find "$bdir/jit" -maxdepth 1 -name 'prec-*' | wc -l)
log "20 recordings, $with_elf with a JIT ELF: $left kept, at most $max_use bytes of the $CAP cap ($(du -sh "$bdir/jit" | cut -f1) in jit/)"
((with_elf == 20)) || fail "only $with_elf of 20 recordings wrote a JIT ELF"
((left < with_elf)) || fail "nothing was pruned: $left recordings of $with_elf kept"

# ---- the newest recording, named without its map ----
newest=r20.data
elf=$("$PERF" buildid-list -i "$newest" 2>/dev/null | awk '/\/jit\/prec-.*\/jitted-[0-9]+\.so$/ { print $2 }')
[[ -f $elf ]] || fail "the newest recording's ELF $elf was pruned"
drop_maps
read -r named total < <("$PERF" report --stdio --sort dso,sym -i "$newest" 2>/dev/null |
	awk '!/^#/ && $1 ~ /%$/ && ($2 ~ /^jitted-/ || $2 == "[JIT]" || $2 ~ /anon/) {
		t += $1; if ($NF !~ /^0x/) n += $1 } END { printf "%.2f %.2f\n", n, t }')
hot=$("$PERF" report --stdio --sort sym -i "$newest" 2>/dev/null |
	awk '!/^#/ && $1 ~ /%$/ && /hotLoopGamma/ { s += $1 } END { printf "%.2f\n", s }')
log "newest recording, its map deleted: $named% of $total% JIT samples named, hotLoopGamma $hot%"
awk -v t="$total" 'BEGIN { exit !(t >= 5) }' || fail_or_retry "only $total% samples in JIT code"
awk -v n="$named" -v t="$total" -v h="$hot" 'BEGIN { exit !(n >= 0.9 * t && h >= 5) }' ||
	fail "the newest recording names $named% of $total% JIT samples (hotLoopGamma $hot%)"

# ---- perf's entries, untouched ----
snapshot "$bdir" >perf.after
missing=$(comm -23 perf.before perf.after)
[[ -z $missing ]] || fail "perf's entries changed: $(head -n 3 <<<"$missing")"
[[ -f $perf_entry ]] || fail "perf's entry $perf_entry is gone"

# ---- 0 prunes nothing; the configuration key; the command line wins ----
# A fresh cache with an old recording of 3 MiB (a prec that is long gone:
# its PID is above the kernel's limit) and its entry and link.
c2=$TMP/cache2
old=$c2/jit/prec-4194400-1000
mkdir -p "$old"
head -c $((3 << 20)) /dev/urandom >"$old/jitted-4194401.so"
sbid=0123456789abcdef0123456789abcdef01234567
m2=$(mirror "$c2")
mkdir -p "$m2/prec-4194400-1000/jitted-4194401.so/$sbid" "$c2/.build-id/01"
ln "$old/jitted-4194401.so" "$m2/prec-4194400-1000/jitted-4194401.so/$sbid/elf"
ln -s "../..$(realpath "$c2/jit")/prec-4194400-1000/jitted-4194401.so/$sbid" \
	"$c2/.build-id/01/${sbid:2}"
# and a link of the same kind that perf made to its own entry
ln -s "../../usr/bin/true/ab$sbid" "$c2/.build-id/01/ffff"
printf '[prec]\n\tnames-cache-max = 1M\n' >prec.config

PERF_BUILDID_DIR=$c2 prec_record_ok --names-cache-max=0 -o z.data -- true
[[ -f $old/jitted-4194401.so && -L $c2/.build-id/01/${sbid:2} ]] ||
	fail "--names-cache-max=0 pruned an old recording"
PERF_BUILDID_DIR=$c2 PERF_CONFIG=$TMP/prec.config prec_record_ok --names-cache-max=0 -o z.data -- true
[[ -f $old/jitted-4194401.so ]] || fail "prec.names-cache-max won over --names-cache-max=0"
PERF_BUILDID_DIR=$c2 PERF_CONFIG=$TMP/prec.config prec_record_ok -v -o z.data -- true
[[ ! -e $old && ! -e $m2/prec-4194400-1000 ]] || fail "prec.names-cache-max = 1M did not prune a 3 MiB recording"
[[ ! -L $c2/.build-id/01/${sbid:2} ]] || fail "the pruned entry's .build-id link is left dangling"
[[ -L $c2/.build-id/01/ffff ]] || fail "a .build-id link to perf's entry was removed"
grep_or_fail "prec's JIT ELFs of 1 recordings.*1 oldest removed" "$PREC_ERR" "-v's prune line"

# ---- -N fills no cache, but its ELFs are still capped ----
c3=$TMP/cache3
for i in 1 2 3; do
	PERF_BUILDID_DIR=$c3 prec_record_ok -N --names-cache-max=1K -o "n$i.data" -- \
		node --perf-basic-prof -e "$js"
done
n=$(find "$c3/jit" -maxdepth 1 -name 'prec-*' | wc -l)
((n == 1)) || fail "-N --names-cache-max=1K: $n recordings' ELFs in $c3/jit, expected the newest alone"

# ---- bad values ----
one_error()
{
	local what=$1
	((PREC_RC >= 1 && PREC_RC <= 125)) || fail "$what: exit status $PREC_RC, expected 1..125"
	(($(grep -c . "$PREC_ERR") == 1)) || fail "$what: $(grep -c . "$PREC_ERR") lines on stderr, expected one"
	grep -Eq '^prec: .*names-cache-max.*abc' "$PREC_ERR" || fail "$what: '$(head -n 1 "$PREC_ERR")' does not name the option and value"
}
run_prec --names-cache-max=abc -o bad.data -- true
one_error "--names-cache-max=abc"
[[ ! -e bad.data ]] || fail "--names-cache-max=abc left bad.data"
printf '[prec]\n\tnames-cache-max = abc\n' >bad.config
PERF_CONFIG=$TMP/bad.config run_prec -o bad.data -- true
one_error "prec.names-cache-max = abc"

pass "$left of 20 recordings kept, at most $max_use of $CAP bytes; newest named $named% of $total%"
