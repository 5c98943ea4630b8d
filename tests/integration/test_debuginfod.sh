#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# --debuginfod against a real debuginfod server started here on a free
# port over a directory holding the debug info split off a workload: the
# workload is stripped of everything (symbols included), recorded, and its
# debug file must land in the build-id cache as NAME/SBUILDID/debug (what
# .build-id/xx/rest/debug reaches), where perf report finds its symbols.
# Without --debuginfod (even with DEBUGINFOD_URLS set) nothing is fetched;
# a server that stops answering costs one bounded stall, not a hang; a
# dead one is a -v line, never an error. Each run has a private HOME, so
# the real ~/.debug and ~/.cache are not touched. The server is stopped at
# the end.
source "${TEST_LIB:-$(dirname "$0")/lib.sh}" || exit 1

need_tool debuginfod "run scripts/bootstrap --test"
need_tool curl "scripts/bootstrap --test installs it"
"$PREC" --debuginfod=http://127.0.0.1:1 -o "$TMP/probe.data" -- true 2>"$TMP/probe.err"
grep -q 'built without libdebuginfod' "$TMP/probe.err" &&
	skip "this prec was built without libdebuginfod (install libdebuginfod-dev and rebuild)"

# The workload, and its debug info apart (same build-id in both).
mkdir -p "$TMP/srv"
cp "$WORKLOAD" "$TMP/w"
objcopy --only-keep-debug "$TMP/w" "$TMP/srv/w.debug" || fail "objcopy failed"
strip --strip-all "$TMP/w" || fail "strip failed"
bid=$(readelf -n "$TMP/w" 2>/dev/null | awk '/Build ID/ { print $3 }')
[[ -n "$bid" && "$bid" == "$(readelf -n "$TMP/srv/w.debug" 2>/dev/null | awk '/Build ID/ { print $3 }')" ]] ||
	fail "the stripped workload and its debug file do not share a build-id"
readelf -S "$TMP/w" | has_match symtab && fail "the workload still has its symbols"

# A free port, and the server on it.
port=
for _ in $(seq 20); do
	p=$((20000 + RANDOM % 30000))
	ss -ltn | has_match ":$p " || {
		port=$p
		break
	}
done
[[ -n "$port" ]] || fail "no free port found"
debuginfod -F -p "$port" -d "$TMP/db.sqlite" -t 0 -g 0 "$TMP/srv" >"$TMP/server.log" 2>&1 &
server=$!
track_pid "$server"
url=http://127.0.0.1:$port
# Indexed when it serves the file.
for _ in $(seq 100); do
	code=$(curl -s -o /dev/null -w '%{http_code}' "$url/buildid/$bid/debuginfo")
	[[ $code == 200 ]] && break
	kill -0 "$server" 2>/dev/null || fail "debuginfod exited: $(tail -n 3 "$TMP/server.log")"
	sleep 0.2
done
[[ $code == 200 ]] || fail "debuginfod did not serve $bid in 20 s (last status $code)"

entry=.debug$TMP/w/$bid

# ---- without --debuginfod: nothing fetched, even with DEBUGINFOD_URLS ----
mkdir -p "$TMP/h0"
HOME=$TMP/h0 DEBUGINFOD_URLS=$url prec_record_ok -o "$TMP/none.data" -- "$TMP/w"
[[ -e $TMP/h0/$entry/elf ]] || fail "the workload was not cached at all"
[[ -e $TMP/h0/$entry/debug ]] && fail "a debug file was fetched without --debuginfod"
[[ -e $TMP/h0/.cache/debuginfod_client ]] && fail "libdebuginfod was used without --debuginfod"
# The private HOME: the real cache may hold the unstripped workload (same id).
HOME=$TMP/h0 run_perf report --stdio -i "$TMP/none.data"
grep -Eq '\[\.\] (hot_two_thirds|cold_one_third)' "$PERF_OUT" &&
	fail "symbols of a stripped workload resolved without its debug file"

# ---- --debuginfod=URL: the debug file in the cache, perf reads it ----
mkdir -p "$TMP/h1"
HOME=$TMP/h1 prec_record_ok -v --debuginfod="$url" -o "$TMP/d.data" -- "$TMP/w"
grep -q 'debuginfod: 1 debug files fetched' "$PREC_ERR" || fail "prec did not say it fetched one debug file"
[[ -f $TMP/h1/$entry/debug ]] || fail "no $entry/debug in the build-id cache"
cmp -s "$TMP/h1/$entry/debug" "$TMP/srv/w.debug" || fail "the cached debug file is not the server's"
[[ -f $TMP/h1/.debug/.build-id/${bid:0:2}/${bid:2}/debug ]] ||
	fail "the debug file is not reached through .build-id/${bid:0:2}/${bid:2}/debug"
HOME=$TMP/h1 require_valid "$TMP/d.data"
grep -Eq '\[\.\] hot_two_thirds' "$TMP/report.out" ||
	fail "perf report did not find the stripped workload's symbols in the fetched debug file"
HOME=$TMP/h1 run_perf script -i "$TMP/d.data"
require_no_warning "$PERF_ERR" "perf script"

# ---- --debuginfod with no value: $DEBUGINFOD_URLS, as perf's "system" ----
mkdir -p "$TMP/h2"
HOME=$TMP/h2 DEBUGINFOD_URLS=$url prec_record_ok --debuginfod -o "$TMP/s.data" -- "$TMP/w"
[[ -f $TMP/h2/$entry/debug ]] || fail "--debuginfod with DEBUGINFOD_URLS fetched nothing"

# ---- a dead server: a -v line, the recording ends normally ----
mkdir -p "$TMP/h3"
HOME=$TMP/h3 prec_record_ok -v --debuginfod=http://127.0.0.1:1 -o "$TMP/dead.data" -- "$TMP/w"
grep -q 'debuginfod: no debug info for' "$PREC_ERR" || fail "a dead server was not said under -v"
HOME=$TMP/h3 prec_record_ok --debuginfod=http://127.0.0.1:1 -o "$TMP/dead.data" -- "$TMP/w"
grep -q 'debuginfod:' "$PREC_ERR" && fail "a dead server was said without -v"

# ---- a server that stops answering: one bounded stall ----
kill -STOP "$server"
mkdir -p "$TMP/h4"
start=$(date +%s)
HOME=$TMP/h4 prec_record_ok -v --debuginfod="$url" -o "$TMP/stall.data" -- "$TMP/w"
took=$(($(date +%s) - start))
kill -CONT "$server"
((took <= 25)) || fail "a stalled server held the end of the recording for ${took}s"
grep -q 'stopped answering' "$PREC_ERR" || fail "the stall was not said under -v"
require_valid "$TMP/stall.data"

# ---- bad input ----
run_prec --debuginfod= -o "$TMP/bad.data" -- true
((PREC_RC >= 1 && PREC_RC <= 125)) || fail "--debuginfod= exited $PREC_RC"
[[ -e $TMP/bad.data ]] && fail "--debuginfod= left a file"
DEBUGINFOD_URLS= run_prec --debuginfod -o "$TMP/bad.data" -- true
((PREC_RC >= 1 && PREC_RC <= 125)) || fail "--debuginfod without DEBUGINFOD_URLS exited $PREC_RC"
grep -q 'DEBUGINFOD_URLS is not set' "$PREC_ERR" || fail "--debuginfod without URLs: no clear line"
[[ -e $TMP/bad.data ]] && fail "--debuginfod without URLs left a file"

kill "$server"
wait "$server" 2>/dev/null
pass
