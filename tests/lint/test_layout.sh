#!/usr/bin/env bash
# The house's rules that a reader can check without building (DESIGN.md,
# "Conventions"): every source file says what it owns in its first lines, no
# file passes ~600 lines, no function ~120, every folder has a README.md that
# says what it owns. Run from anywhere; prints each breach and fails on any.
set -uo pipefail
root=${PREC_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
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

((bad == 0)) && echo "layout: ${#files[@]} files, all within the rules"
exit $bad
