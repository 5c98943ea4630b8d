#!/usr/bin/env bash
# The house's rules that a reader can check without building (DESIGN.md,
# "Conventions"): every source file says what it owns in its first lines, no
# file passes ~600 lines, no function ~120, every folder has a README.md that
# says what it owns, and names its files and nothing else. Run from anywhere;
# prints each breach and fails on any.
#
# What a README names: each word ending in .c or .h, but not one inside <...>
# (a system header) nor one that starts with a placeholder in capitals
# (NAME.skel.h, NAME_int.h). A bare name (ring.c) is a file of that folder; a
# name with a slash is a file relative to the folder (progs/x.bpf.c), to
# include/ (prec/log.h), to recorder/ (drain/ring.h, as the code includes
# it) or to the top (tests/fuzz/x.c), the first where it exists. A name with
# a * (feat_*.c) names every file it matches there. Every name must match a
# file, and every .c/.h file of the folder (base, sysinfo, writer,
# include/prec, recorder, recorder/*) must be named.
#
#   test_layout.sh               the README self-check, then the tree at PREC_SRC
#   test_layout.sh --self-check  plants a README that misses a file and one
#                                that names missing files; fails unless each
#                                is named and the READMEs that are right pass
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=${PREC_SRC:-$(cd "$here/../.." && pwd)}

# The files a README names, one a line, as paths from the top; a name that is
# no file is printed as "missing NAME". Run at the top of the tree.
readme_names() {
	local d=$1 tok base m found
	local -a bases
	grep -oE '(^|[^A-Za-z0-9_./<*-])[A-Za-z0-9_*][A-Za-z0-9_./*-]*\.[ch]\b' "$d/README.md" |
		sed -E 's/^[^A-Za-z0-9_*]//' | sort -u | while read -r tok; do
		[[ $tok =~ (^|/)[A-Z]{2,}[._] ]] && continue
		bases=("$d")
		[[ $tok == */* ]] && bases+=(include recorder .)
		found=
		for base in "${bases[@]}"; do
			# shellcheck disable=SC2086 # a pattern expands to what it names
			for m in $base/$tok; do
				[[ -f $m ]] && echo "${m#./}" && found=1
			done
			[[ $found ]] && break
		done
		[[ $found ]] || echo "missing $tok"
	done
}

# Each folder's README against its files; prints each breach, returns 1 on any.
check_readmes() (
	cd "$1" || exit 2
	fail=0
	for d in base sysinfo writer recorder recorder/* include/prec; do
		[[ -d $d && -f $d/README.md ]] || continue
		names=$(readme_names "$d")
		while read -r miss; do
			[[ $miss ]] || continue
			echo "layout: $d/README.md names ${miss#missing }, which is no file (fix the name or drop it)" >&2
			fail=1
		done < <(grep '^missing ' <<<"$names")
		for f in "$d"/*.[ch]; do
			[[ -f $f ]] || continue
			grep -qxF -- "$f" <<<"$names" && continue
			echo "layout: $d/README.md does not name ${f##*/} (say what it owns there)" >&2
			fail=1
		done
	done
	exit $fail
)

# A folder whose README misses a file, one whose README names files that are
# not there, and two that are right: the first two must be named, the others not.
self_check() {
	local tmp out fail=0
	tmp=$(mktemp -d) || return 2
	trap 'rm -rf "$tmp"' RETURN
	mkdir -p "$tmp/base" "$tmp/writer/sub" "$tmp/sysinfo" "$tmp/include/prec"
	touch "$tmp/base/a.c" "$tmp/base/b.h" "$tmp/base/x_1.c" "$tmp/writer/w.c" \
		"$tmp/writer/sub/s.c" "$tmp/sysinfo/ok.c" "$tmp/include/prec/ok.h"
	printf 'a.c reads, x_*.c too; <stdio.h>, NAME.skel.h and NAME_int.h are no names.\n' >"$tmp/base/README.md"
	printf 'w.c, sub/s.c, gone.c, none_*.c and prec/ok.h\n' >"$tmp/writer/README.md"
	printf 'ok.c, with prec/ok.h and base/a.c\n' >"$tmp/sysinfo/README.md"
	printf 'ok.h\n' >"$tmp/include/prec/README.md"
	out=$(check_readmes "$tmp" 2>&1)
	if [[ $out != *"base/README.md does not name b.h"* ||
		$out != *"writer/README.md names gone.c, which is no file"* ||
		$out != *"writer/README.md names none_*.c, which is no file"* ]]; then
		echo "layout self-check: a planted README breach was not named:" >&2
		fail=1
	fi
	if [[ $out == *sysinfo* || $out == *include/prec* || $out == *"a.c"* ||
		$out == *stdio* || $out == *x_1* || $out == *NAME* || $out == *"s.c"* ]]; then
		echo "layout self-check: a README that is right was flagged:" >&2
		fail=1
	fi
	((fail)) && printf '    got: %s\n' "${out//$'\n'/$'\n'    got: }" >&2
	((fail == 0)) && echo "layout self-check: the planted README breaches named, the right ones passed"
	return $fail
}

case ${1:-} in
--self-check)
	self_check
	exit $?
	;;
"") ;;
*)
	echo "usage: $0 [--self-check]" >&2
	exit 2
	;;
esac
self_check || exit 1
cd "$root" || exit 2
max_file=${MAX_FILE_LINES:-620}
max_func=${MAX_FUNC_LINES:-120}
bad=0
breach() { echo "layout: $*" >&2; bad=1; }

mapfile -t files < <(git ls-files -- 'base/*.[ch]' 'sysinfo/*.[ch]' 'writer/*.[ch]' \
	'recorder/*.[ch]' 'include/prec/*.h' 2>/dev/null || find base sysinfo writer recorder include/prec -name '*.[ch]')
((${#files[@]})) || { echo "layout: no source files found under $root" >&2; exit 2; }

for f in "${files[@]}"; do
	[[ -f $f ]] || continue
	n=$(wc -l <"$f")
	((n <= max_file)) || breach "$f has $n lines (over $max_file: it owns two things; split it)"
	# The first comment must come within the first 4 lines (after an SPDX
	# line or an include guard).
	head -n 4 "$f" | grep -qE '^\s*(/\*|\*|//)' ||
		breach "$f does not say what it owns in its first lines (start it with a comment)"
	# Functions: a body opens with '{' in column 0 and closes with '}' there.
	awk -v max="$max_func" -v f="$f" '
		/^\{/ { start = NR; name = prev }
		/^\}/ && start { if (NR - start > max) printf "layout: %s:%d: function of %d lines (over %d): %s\n", f, start, NR - start, max, name; start = 0 }
		{ prev = $0 }' "$f" | grep . >&2 && bad=1
done

for d in base sysinfo writer recorder recorder/* include/prec; do
	[[ -d $d ]] || continue
	compgen -G "$d/*.[ch]" >/dev/null || continue
	[[ -s $d/README.md ]] || breach "folder $d has no README.md saying what it owns"
done
check_readmes "$root" || bad=1

((bad == 0)) && echo "layout: ${#files[@]} files, all within the rules"
exit $bad
