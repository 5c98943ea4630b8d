#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# --keep-names against a hostile container (recorder/names/names_open.c,
# names_src.c, names_bin.c): a process in its own PID and mount namespace,
# with its own tmpfs /tmp and anonymous executable memory, plants at
# /tmp/perf-1.map (its pid in its namespace is 1)
#  - a symbolic link to a host file holding a perf map line of a marker,
#  - a FIFO (nothing ever writes it),
#  - a sparse file over 1 GiB starting with a marker line,
#  - a file of another user (nobody) with a marker line,
#  - malformed lines (binary, NULs, a 100 KB line) between good ones,
# and maps a jitdump whose records lie about their sizes between good ones.
# Each time prec exits 0 in its normal time, says at most one warning line
# (exactly one where it refused a file), perf report reads the file without
# a warning, and no marker is in anything prec wrote; the good lines and
# records of the malformed files are in the JIT ELF. Last, a binary mapped
# in the container and replaced by a link to a host file before the end:
# the build-id cache holds the mapped bytes, and nothing of the host file.
source "${TEST_LIB:-$(dirname "$0")/lib.sh}" || exit 1

need_root "a container's namespaces and its files of other owners"
need_namespaces "the container's private /tmp"
need_tool unshare "install util-linux"
need_tool nm "install binutils"
need_tool python3 "the container's JIT"
PY=$(python3 -c 'import sys; print(sys.executable)') || skip "python3 does not run"

# The host's files: outside /tmp, so the container sees their paths (its
# script and its hostile files, and the secret).
HOST=$(mktemp -d /var/tmp/prec-secret.XXXXXX) || fail "mktemp /var/tmp"
trap '_rc=$?; rm -rf "$HOST"; (exit $_rc); _cleanup' EXIT
MARK=HOST_SECRET_$RANDOM$RANDOM
printf '0x1000 10 %s\n' "$MARK" >"$HOST/secret"

# The container's process: anonymous executable memory, and a jitdump
# mapped when /tmp/jit-1.dump exists; busy for a second and a half.
cat >"$HOST/jit.py" <<'EOF'
import mmap, os, time
anon = mmap.mmap(-1, 4096, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)
if os.path.exists("/tmp/jit-1.dump"):
    fd = os.open("/tmp/jit-1.dump", os.O_RDONLY)
    dump = mmap.mmap(fd, os.fstat(fd).st_size, flags=mmap.MAP_PRIVATE,
                     prot=mmap.PROT_READ | mmap.PROT_EXEC)
end = time.monotonic() + 1.5
x = 0
while time.monotonic() < end:
    x = (x * 7 + 3) % 1000003
EOF

# in_private_mounts as a command prec can run: in a chroot (a fresh
# machine's CI) unshare cannot make / private, so every mount is made
# private first.
{
	echo '#!/usr/bin/env bash'
	declare -f in_private_mounts
	echo 'in_private_mounts "$@"'
} >"$TMP/privmnt"
chmod +x "$TMP/privmnt"

# record CASE SETUP: prec records the container, whose /tmp SETUP (shell)
# fills first. Judges the exit, the time, the warnings (at most WARN_MAX,
# at least WARN_MIN lines), perf report, and the markers.
record()
{
	local name=$1 setup=$2 t0=$SECONDS warns
	mkdir -p "home-$name"
	HOME=$TMP/home-$name run_prec record -e cpu-clock -o "$name.data" -- \
		"$TMP/privmnt" unshare -p -m --propagation unchanged --fork --mount-proc sh -c \
		"mount -t tmpfs none /tmp && cd /tmp && $setup && exec $PY $HOST/jit.py"
	((PREC_RC == 0)) || fail "$name: prec exited $PREC_RC"
	((SECONDS - t0 < 30)) || fail "$name: prec took $((SECONDS - t0)) s (a hang?)"
	warns=$(grep -ci 'warning' "$PREC_ERR")
	((warns <= 1 && warns >= WARN_MIN)) ||
		fail "$name: $warns warning lines, expected $WARN_MIN or 1: $(cat "$PREC_ERR")"
	grep -i warning "$PREC_ERR" | sed "s/^/$TEST_NAME: $name: /" >&2
	HOME=$TMP/home-$name require_valid "$name.data"
	cp "$TMP/report.out" "$name.report"
	HOME=$TMP/home-$name run_perf script -i "$name.data"
	if grep -rlF -e "$MARK" -e HUGE_MARK -e FOREIGN_MARK "$name.data" "$name.report" \
		"$PERF_OUT" "home-$name" >marks.txt; then
		fail "$name: a marker in what prec wrote: $(cat marks.txt)"
	fi
	JIT_ELF=$(find "home-$name/.debug/jit" -name 'jitted-*.so' -type f 2>/dev/null | head -n 1)
}

WARN_MIN=1
record link "ln -s $HOST/secret /tmp/perf-1.map"
record chain "ln -s $HOST/secret /tmp/a && ln -s /tmp/a /tmp/perf-1.map"
record fifo "mkfifo /tmp/perf-1.map"
# The markers stay out of prec's command line (the file's header has it).
echo '0x1000 10 HUGE_MARK' >"$HOST/huge.map"
echo '0x1000 10 FOREIGN_MARK' >"$HOST/foreign.map"
record huge "cp $HOST/huge.map /tmp/perf-1.map && truncate -s 1200M /tmp/perf-1.map"
record foreign "cp $HOST/foreign.map /tmp/perf-1.map && chown nobody /tmp/perf-1.map"
# The secret itself is never changed by any of them.
[[ $(cat "$HOST/secret") == "0x1000 10 $MARK" ]] || fail "the host secret changed"

# Malformed lines between good ones: the good ones are kept.
{
	echo '10000 40 good_before'
	head -c 3000 /dev/urandom | tr -d '\n'
	echo
	printf 'abc\0def 40 nul_name\n20000 40 x\0y\n'
	head -c 102400 /dev/zero | tr '\0' 'A'
	echo
	echo '30000 40 good_after'
} >"$HOST/bad.map"
WARN_MIN=0
record malformed "cp $HOST/bad.map /tmp/perf-1.map"
[[ -n "$JIT_ELF" ]] || fail "malformed: no JIT ELF written"
nm "$JIT_ELF" >syms.txt || fail "nm $JIT_ELF"
grep -q ' good_before$' syms.txt && grep -q ' good_after$' syms.txt ||
	fail "malformed: the good lines are not in the ELF: $(head -c 300 syms.txt)"

# A jitdump whose records lie: good, huge code_size, name without NUL, good,
# a total_size under the prefix (the framing is lost: the rest is not read).
"$PY" - "$HOST/jit-1.dump" <<'EOF' || fail "could not write the jitdump"
import struct, sys
def load(name, addr, size, total=None, nul=True):
    body = struct.pack('<IIQQQQ', 1, 1, addr, addr, size, 0) + name + (b'\0' if nul else b'')
    return struct.pack('<IIQ', 0, 16 + len(body) if total is None else total, 0) + body
d = struct.pack('<IIIIIIQQ', 0x4A695444, 1, 40, 62, 0, 1, 0, 0)
d += load(b'dump_good_before', 0x10000, 16)
d += load(b'dump_huge_code', 0x20000, 1 << 63)
d += load(b'dump_no_nul', 0x30000, 16, nul=False)
d += load(b'dump_good_after', 0x40000, 16)
d += struct.pack('<IIQ', 0, 8, 0) + load(b'dump_never', 0x50000, 16)
open(sys.argv[1], "wb").write(d)
EOF
record dump "cp $HOST/jit-1.dump /tmp/jit-1.dump"
[[ -n "$JIT_ELF" ]] || fail "dump: no JIT ELF written"
nm "$JIT_ELF" >syms.txt || fail "nm $JIT_ELF"
grep -q ' dump_good_before$' syms.txt && grep -q ' dump_good_after$' syms.txt ||
	fail "dump: the good records are not in the ELF: $(head -c 300 syms.txt)"
grep -q 'dump_never' syms.txt && fail "dump: read past a lost framing"

# A binary of the container (hot in its own code: the build-id list names
# the DSOs with samples) replaced by a link to a host ELF while it runs.
cp "$WORKLOAD_DIR/prec_jit" "$HOST/host.elf"
host_bid=$(readelf -n "$HOST/host.elf" | awk '/Build ID/ { print $3 }')
bin_bid=$(readelf -n "$WORKLOAD_DIR/prec_busy" | awk '/Build ID/ { print $3 }')
[[ -n $host_bid && -n $bin_bid && $host_bid != "$bin_bid" ]] || fail "no build-ids to tell apart"
mkdir -p home-bin
HOME=$TMP/home-bin run_prec record -e cpu-clock -o bin.data -- \
	"$TMP/privmnt" unshare -p -m --propagation unchanged --fork --mount-proc sh -c "mount -t tmpfs none /tmp &&
		cp $WORKLOAD_DIR/prec_busy /tmp/victim && { /tmp/victim 2 >/dev/null 2>&1 & } &&
		sleep 0.5 && rm /tmp/victim && ln -s $HOST/host.elf /tmp/victim && wait"
((PREC_RC == 0)) || fail "bin: prec exited $PREC_RC"
cached=home-bin/.debug/.build-id/${bin_bid:0:2}/${bin_bid:2}/elf
[[ -f $cached ]] || fail "bin: no build-id cache entry for the mapped binary $bin_bid"
cmp -s "$cached" "$WORKLOAD_DIR/prec_busy" || fail "bin: the cache holds other bytes than were mapped"
[[ -e home-bin/.debug/.build-id/${host_bid:0:2}/${host_bid:2} ]] &&
	fail "bin: the host ELF reached the build-id cache"
HOME=$TMP/home-bin require_valid bin.data

pass "links, FIFO, 1.2 GiB, foreign, malformed maps and dumps, a replaced binary"
