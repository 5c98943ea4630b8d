#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# libdebuginfod is dlopen'ed by --debuginfod, not linked: on a machine where
# libdebuginfod.so.1 cannot be loaded (here a private mount namespace binds
# /dev/null over it), prec still starts and records, and --debuginfod is
# refused before anything is written, in one line naming the package to
# install (libdebuginfod1). A prec linked with it would not start at all
# (the dynamic loader's "error while loading shared libraries", status 127).
source "${TEST_LIB:-$(dirname "$0")/lib.sh}" || exit 1

need_root "to bind-mount over a system library"
need_namespaces "to hide libdebuginfod.so.1 from prec alone"

"$PREC" --debuginfod=http://127.0.0.1:1 -o "$TMP/probe.data" -- true 2>"$TMP/probe.err"
grep -q 'built without libdebuginfod' "$TMP/probe.err" &&
	skip "this prec was built without libdebuginfod (install libdebuginfod-dev and rebuild)"
lib=$(ldconfig -p | awk '$1 == "libdebuginfod.so.1" { print $NF; exit }')
[[ -n "$lib" && -e "$lib" ]] || skip "libdebuginfod.so.1 is not installed here"

# hidden ARGS...: prec ARGS with libdebuginfod.so.1 unloadable; LAST_RC,
# LAST_ERR as _run sets them.
hidden()
{
	# shellcheck disable=SC2034 # fail() prints it
	LAST_CMD="prec $* (libdebuginfod.so.1 hidden)"
	LAST_ERR=$TMP/hidden.err
	# shellcheck disable=SC2016 # $1 and $@ are the inner shell's
	in_private_mounts bash -c 'mount --bind /dev/null "$1" && shift && exec timeout 60 "$@"' \
		_ "$lib" "$PREC" "$@" >"$TMP/hidden.out" 2>"$LAST_ERR"
	LAST_RC=$?
}

hidden -o "$TMP/plain.data" -- true
((LAST_RC == 0)) || fail "prec did not record with libdebuginfod.so.1 unloadable (rc $LAST_RC)"
require_valid --allow-empty "$TMP/plain.data"

hidden --debuginfod=http://127.0.0.1:1 -o "$TMP/dfd.data" -- true
((LAST_RC >= 1 && LAST_RC <= 125)) || fail "--debuginfod without the library exited $LAST_RC"
(($(wc -l <"$LAST_ERR") == 1)) || fail "--debuginfod without the library: not one line"
grep -q 'install the package libdebuginfod1' "$LAST_ERR" ||
	fail "--debuginfod without the library does not name the package libdebuginfod1"
grep -q 'libdebuginfod.so.1' "$LAST_ERR" || fail "--debuginfod without the library does not name it"
[[ -e $TMP/dfd.data ]] && fail "--debuginfod without the library left a file"
pass
