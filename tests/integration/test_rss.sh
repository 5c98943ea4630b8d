#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# What a recording keeps resident. libdebuginfod is loaded only by
# --debuginfod: linked, it brought libcurl and its TLS, Kerberos and LDAP
# chain (~30 libraries, 4-5 MB resident) into every recording. So a
# recording without --debuginfod maps neither libdebuginfod nor libcurl
# (its /proc/PID/maps, read while it records), one with it maps both; and
# the peak RSS of `prec -- sleep 1` stays under 8 MB: 3.0 MB measured on
# the development VM (libc and ld.so's shared pages 1.8 MB of it), 13.4 MB
# before (the libraries, and the build-id cache's 5 MB kallsyms copy read
# whole), perf record 6.1 25 MB. Without -a, so the side-band of a busy
# machine's processes does not count; the rings' pages are never resident.
# Not under the sanitizers (ASan's shadow memory is most of the RSS there).
source "${TEST_LIB:-$(dirname "$0")/lib.sh}" || exit 1

[[ -x /usr/bin/time ]] || skip "/usr/bin/time not found (scripts/bootstrap --test installs time)"
mkdir -p "$TMP/home"

# maps_during TAG ARGS...: prec ARGS -o TAG.data -- sleep 2 in the
# background; its /proc/PID/maps, once it records, in $TMP/TAG.maps.
maps_during()
{
	local tag=$1 pid rc
	shift
	# exec: the background job's pid is prec's.
	HOME=$TMP/home bash -c 'exec "$@"' _ "$PREC" "$@" -o "$TMP/$tag.data" -- sleep 2 \
		>"$TMP/$tag.out" 2>"$TMP/$tag.err" &
	pid=$!
	track_pid "$pid"
	# The file exists from step 5 on: the check (step 1) loaded what it loads.
	for _ in $(seq 200); do
		[[ -s $TMP/$tag.data ]] && break
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.05
	done
	cp "/proc/$pid/maps" "$TMP/$tag.maps" 2>/dev/null
	wait "$pid"
	rc=$?
	((rc == 0)) || fail "prec $* exited $rc: $(head -n 3 "$TMP/$tag.err")"
	grep -q 'libc\.so' "$TMP/$tag.maps" || fail "could not read prec's maps while it recorded ($tag)"
}

maps_during plain
if grep -E 'libdebuginfod|libcurl' "$TMP/plain.maps"; then
	fail "a recording without --debuginfod maps libdebuginfod or libcurl"
fi
maps_during all -a
grep -Eq 'libdebuginfod|libcurl' "$TMP/all.maps" &&
	fail "a recording with -a and without --debuginfod maps libdebuginfod or libcurl"

# --debuginfod loads it (a dead server: the queries fail at once, as -v says).
"$PREC" --debuginfod=http://127.0.0.1:1 -o "$TMP/probe.data" -- true 2>"$TMP/probe.err"
if grep -q 'built without libdebuginfod' "$TMP/probe.err"; then
	log "this prec was built without libdebuginfod: --debuginfod's half not run"
else
	maps_during dfd --debuginfod=http://127.0.0.1:1
	grep -q 'libdebuginfod' "$TMP/dfd.maps" || fail "--debuginfod did not load libdebuginfod"
	grep -q 'libcurl' "$TMP/dfd.maps" || fail "--debuginfod loaded libdebuginfod without libcurl"
fi

# The peak: median of three.
if [[ "${PREC_SANITIZED:-0}" == 1 ]]; then
	log "sanitized build: the RSS bound is not checked"
else
	for i in 1 2 3; do
		/usr/bin/time -f %M -o "$TMP/rss.$i" "$PREC" -q -o "$TMP/r.data" -- sleep 1 ||
			fail "prec -- sleep 1 failed"
	done
	rss=$(tail -qn 1 "$TMP"/rss.? | sort -n | sed -n 2p)
	log "peak RSS of prec -- sleep 1: $rss KB (median of 3)"
	((rss > 0 && rss <= 8192)) || fail "peak RSS of prec -- sleep 1 is $rss KB, over 8 MB"
fi
pass
