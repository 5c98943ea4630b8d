#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The two ways prec is installed (cmake/install.cmake, doc/CMakeLists.txt):
# `cmake --install` into a prefix (and with DESTDIR) gives prec, perf-prec,
# the man pages and the bash completion where perf users look for them, and
# `perf prec ...` runs prec through stock perf's own lookup; `cpack -G DEB`
# gives a package holding the same files, with the runtime libraries as its
# dependencies. (scripts/install-check does both on fresh Debian 12 chroots,
# with apt install of the package.)
source "$TEST_LIB"

build=$(dirname "$PREC")
[[ -f $build/cmake_install.cmake ]] || fail "no cmake_install.cmake beside $PREC"

# ---- cmake --install --prefix ------------------------------------------------
prefix=$TMP/prefix
_run install cmake --install "$build" --prefix "$prefix"
((LAST_RC == 0)) || fail "cmake --install exited $LAST_RC: $(tail -n 3 "$LAST_ERR")"
for f in bin/prec bin/perf-prec share/man/man1/prec.1 share/man/man1/prec-record.1 share/man/man1/perf-prec.1 \
	share/bash-completion/completions/prec; do
	[[ -e $prefix/$f ]] || fail "cmake --install left out $f"
done
[[ $(readlink "$prefix/bin/perf-prec") == prec ]] || fail "perf-prec is not a link to prec"
cmp -s "$PREC" "$prefix/bin/prec" || fail "the installed prec differs from the built one"

# DESTDIR (what packagers and cpack use) puts the same files under it.
_run destdir env DESTDIR="$TMP/stage" cmake --install "$build" --prefix /opt/prec
((LAST_RC == 0)) || fail "cmake --install with DESTDIR exited $LAST_RC"
[[ -x $TMP/stage/opt/prec/bin/prec && -L $TMP/stage/opt/prec/bin/perf-prec ]] ||
	fail "DESTDIR: prec or perf-prec missing under $TMP/stage/opt/prec/bin"

# ---- perf prec: stock perf finds perf-prec on PATH ---------------------------
cd "$TMP" || fail "cd $TMP"
_run perfprec env PATH="$prefix/bin:$PATH" "$PERF" prec -o via-perf.data -- "$WORKLOAD" 200
((LAST_RC == 0)) || fail "perf prec exited $LAST_RC: $(head -n 3 "$LAST_ERR")"
require_valid via-perf.data
grep -q "prec_workload" "$TMP/report.out" || fail "perf prec: the workload's samples are not in the report"
# Its errors and exit status are prec's own.
_run perfbad env PATH="$prefix/bin:$PATH" "$PERF" prec --nosuch -- true
((LAST_RC >= 1 && LAST_RC <= 125)) || fail "perf prec --nosuch exited $LAST_RC"
grep -q "unknown option '--nosuch'" "$LAST_ERR" || fail "perf prec --nosuch: $(cat "$LAST_ERR")"
(($(wc -l <"$LAST_ERR") == 1)) || fail "perf prec --nosuch printed more than one line"

# ---- the installed man pages and completion ----------------------------------
_run man env MANWIDTH=80 man --warnings -P cat -l "$prefix/share/man/man1/prec.1"
((LAST_RC == 0)) || fail "man -l prec.1 exited $LAST_RC"
[[ ! -s $LAST_ERR ]] || fail "man warns about prec.1: $(head -n 3 "$LAST_ERR")"
grep -q "perf record" "$LAST_OUT" || fail "the man page does not mention perf record"
# prec-record(1) renders the same page (man resolves its .so against the tree).
_run manalias env MANWIDTH=80 MANPATH="$prefix/share/man" man -P cat prec-record
((LAST_RC == 0)) && grep -q -- "--switch-output" "$LAST_OUT" || fail "man prec-record does not show prec's page"
# `perf help prec` opens man perf-prec, as for perf's own commands.
_run perfhelp env MANWIDTH=80 MANPATH="$prefix/share/man" PATH="$prefix/bin:$PATH" MANPAGER=cat "$PERF" help prec
((LAST_RC == 0)) && grep -q -- "--switch-output" "$LAST_OUT" || fail "perf help prec does not show prec's page: $(head -n 2 "$LAST_ERR")"
words=$(bash -c 'source "$1"; COMP_WORDS=(prec --sw); COMP_CWORD=1; COMP_LINE="prec --sw"
	COMP_POINT=${#COMP_LINE}; _prec prec --sw prec; printf "%s\n" "${COMPREPLY[@]}"' - \
	"$prefix/share/bash-completion/completions/prec")
grep -qx -- "--switch-output.*" <<<"$words" || fail "the installed completion of 'prec --sw' gave: $words"

# ---- cpack -G DEB --------------------------------------------------------------
_run cpack bash -c 'cd "$1" && cpack -G DEB -B "$2"' - "$build" "$TMP/pkg"
((LAST_RC == 0)) || fail "cpack -G DEB exited $LAST_RC: $(tail -n 3 "$LAST_OUT")"
deb=$(ls "$TMP"/pkg/prec_*_*.deb 2>/dev/null | head -n 1)
[[ -n $deb ]] || fail "cpack made no prec_VERSION_ARCH.deb"
_run debinfo dpkg-deb -f "$deb" Package Depends Recommends
for dep in libc6 libcap2 libzstd1 libnuma1 libunwind8; do
	grep -q "Depends:.*$dep" "$LAST_OUT" || fail "the package does not depend on $dep: $(cat "$LAST_OUT")"
done
grep -q "Recommends: linux-perf, bash-completion" "$LAST_OUT" || fail "the package does not recommend linux-perf and bash-completion"
_run debfiles dpkg-deb -c "$deb"
for f in usr/bin/prec usr/bin/perf-prec usr/share/man/man1/prec.1 usr/share/man/man1/prec-record.1 \
	usr/share/man/man1/perf-prec.1 \
	usr/share/bash-completion/completions/prec; do
	grep -q " \./$f\( \|$\)" "$LAST_OUT" || fail "the package lacks /$f"
done

pass
