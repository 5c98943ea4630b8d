#!/usr/bin/env bash
# "One reader of one thing" (DESIGN.md, "Conventions"; base/README.md,
# sysinfo/README.md): each fact about the machine, each syscall and each
# little loop below has one owner, and every other file calls it. This finds
# a second reader in base/ sysinfo/ writer/ recorder/ (tests may read what
# they like) and names the owner to call instead.
#
# Comments never count, so a comment may name a file or a call. Path rules
# look at string literals; code rules look at code with its string literals
# blanked, so a message that quotes a path or a call does not count either.
#
# A doubling loop is a capacity (a name with cap or alloc in it) doubled, or
# a realloc to twice a size: every growable array grows through grow__array
# (base/grow.c), with its bound. thread_map.c's pids, a flexible array in one
# allocation with its header, are the one exception (its comment says why).
#
#   test_one_reader.sh               the self-check, then the tree at PREC_SRC
#   test_one_reader.sh --self-check  plants one stray reader per rule in a
#                                    scratch tree and fails unless each is
#                                    named, and a decoy in comments/strings is not
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=${PREC_SRC:-$(cd "$here/../.." && pwd)}

# name | view (code: strings blanked; str: strings kept) | ERE | owner files
# (space-separated; the only files allowed to match) | what to call instead
RULES=(
	"the monotonic clock|code|\\bCLOCK_MONOTONIC(_COARSE|_RAW)?\\b|base/mono_clock.c sysinfo/clock.c|mono_clock__ns, mono_clock__elapsed_ns, mono_clock__deadline_ns, mono_clock__left (base/mono_clock.c)"
	"clock_gettime|code|\\bclock_gettime[[:space:]]*\\(|base/mono_clock.c sysinfo/clock.c|mono_clock__* for intervals (base/mono_clock.c), clock__now_ns for -k's clock (sysinfo/clock.c)"
	"timespec arithmetic|code|\\btv_n?sec[[:space:]]*([-+*/%]|[-+*/]=)|[-+*/%][[:space:]]*[A-Za-z_][A-Za-z0-9_]*(\\.|->)tv_n?sec\\b|base/mono_clock.c sysinfo/clock.c|mono_clock__elapsed_ns, mono_clock__deadline_ns, mono_clock__left, mono_clock__timespec (base/mono_clock.c)"
	"the online CPU list|str|system/cpu/online\"|CPU_DIR[[:space:]]*\"/online\"|sysinfo/cpu.c|sysinfo__cpus_online, or cpu__online inside sysinfo (sysinfo/cpu.c)"
	"bpf(2)|code|\\b(__NR_bpf|SYS_bpf)\\b|sysinfo/bpf.c|sysinfo__read_bpf, sysinfo__bpf_none_loaded (sysinfo/bpf.c)"
	"tracepoint id files|str|/id\"|base/tracefs.c|tracefs__read_id, tracefs__parse_id (base/tracefs.c)"
	"the whitespace predicate|code|\\bisspace[[:space:]]*\\(|static[[:space:]]+(inline[[:space:]]+)?(bool|int)[[:space:]]+is_?(space|blank|ws|whitespace)[[:space:]]*\\(|==[[:space:]]*' '[[:space:]]*\\|\\|.*('\\\\[vfr]'|>=[[:space:]]*'\\\\t')|base/number.c|text__is_blank, text__trim (base/number.c)"
	"the write-all loop|code|[^=!<>]=[[:space:]]*p?write[[:space:]]*\\(|base/write_all.c|fd__write_all, fd__pwrite_all (base/write_all.c)"
	"hex digits|code|[-][[:space:]]*'[aA]'[[:space:]]*\\+[[:space:]]*10\\b|base/number.c|hex__digit (base/number.c)"
	"/proc/mounts|code|\\b(setmntent|getmntent(_r)?)[[:space:]]*\\(|base/mounts.c|mounts__read, mounts__find, tracefs__find, sysfs__find (base/mounts.c)"
	"/proc/mounts|str|\\b(f?open|openat)[[:space:]]*\\([^;]*mounts|/mountinfo\"|base/mounts.c|mounts__read, mounts__find, tracefs__find, sysfs__find (base/mounts.c)"
	"sysctls|str|\"/?proc/sys/|sysinfo/sysctl.c sysinfo/uts.c|sysinfo__sysctl, sysinfo__sysctl_or (sysinfo/sysctl.c)"
	"a doubling loop|code|\\b[A-Za-z0-9_]*(cap|alloc)[A-Za-z0-9_]*[[:space:]]*(\\*=[[:space:]]*2|<<=[[:space:]]*1)\\b|\\b[A-Za-z0-9_]*(cap|alloc)[A-Za-z0-9_]*[[:space:]]*=[^=;]*([*][[:space:]]*2|<<[[:space:]]*1)\\b|\\b[A-Za-z0-9_]*(cap|alloc)[A-Za-z0-9_]*[[:space:]]*([*][[:space:]]*2|<<[[:space:]]*1)\\b|\\b2[[:space:]]*[*][[:space:]]*([A-Za-z_][A-Za-z0-9_]*(->|\\.))*[A-Za-z0-9_]*(cap|alloc)[A-Za-z0-9_]*\\b|\\brealloc[[:space:]]*\\([^;]*([*][[:space:]]*2|<<[[:space:]]*1)\\b|base/grow.c recorder/targets/thread_map.c|grow__array, GROW (base/grow.c) with the data's bound"
	"PMU directories|str|\"(%s/|/sys/|sys/|/)?bus/event_source|\\bPMU_DEVICES_DIR\\b|sysinfo/pmu.c sysinfo/pmu_events.c|pmu__exists, pmu__load, pmus__load (sysinfo/pmu_events.c), or struct sysinfo's PMUs"
)

# file<TAB>line<TAB>view<TAB>text for every line of the given files, once
# with comments blanked (view "str") and once with string literals blanked
# too (view "code"). Character literals stay in both; line numbers hold.
views() {
	awk '
	FNR == 1 { state = 0 } # 0 code, 1 block comment
	{
		line = $0; code = ""; str = ""; n = length(line); i = 1
		while (i <= n) {
			c = substr(line, i, 1); c2 = substr(line, i, 2)
			if (state == 1) {
				if (c2 == "*/") { state = 0; code = code "  "; str = str "  "; i += 2 }
				else { code = code " "; str = str " "; i++ }
				continue
			}
			if (c2 == "/*") { state = 1; code = code "  "; str = str "  "; i += 2; continue }
			if (c2 == "//") break
			if (c == "\"" || c == "\047") {
				q = c; code = code c; str = str c; i++
				while (i <= n) {
					c = substr(line, i, 1)
					if (c == "\\") {
						e = substr(line, i, 2)
						code = code (q == "\047" ? e : "  "); str = str e; i += 2
						continue
					}
					code = code (c == q || q == "\047" ? c : " "); str = str c; i++
					if (c == q) break
				}
				continue
			}
			code = code c; str = str c; i++
		}
		printf "%s\t%d\tstr\t%s\n", FILENAME, FNR, str
		printf "%s\t%d\tcode\t%s\n", FILENAME, FNR, code
	}' "$@"
}

# Scans the tree at $1; prints each breach, returns 1 on any.
scan() (
	cd "$1" || exit 2
	mapfile -t files < <(git ls-files --cached --others --exclude-standard -- 'base/*.[ch]' \
		'sysinfo/*.[ch]' 'writer/*.[ch]' 'recorder/*.[ch]' 2>/dev/null | grep . ||
		find base sysinfo writer recorder -name '*.[ch]' 2>/dev/null | sort)
	((${#files[@]})) || { echo "one reader: no source files under $1" >&2; exit 2; }
	existing=()
	for f in "${files[@]}"; do [[ -f $f ]] && existing+=("$f"); done
	all=$(views "${existing[@]}")
	tab=$'\t'
	bad=0
	for rule in "${RULES[@]}"; do
		IFS='|' read -r name view rest <<<"$rule"
		# The ERE may hold '|': owners and the call list are the last two fields.
		call=${rest##*|}
		rest=${rest%|*}
		owners=${rest##*|}
		re=${rest%|*}
		while IFS=$'\t' read -r f line _ text; do
			[[ " $owners " == *" $f "* ]] && continue
			echo "one reader: $f:$line: $name belongs to $owners: call $call instead" >&2
			echo "    ${text#"${text%%[![:space:]]*}"}" >&2
			bad=1
		done < <(grep -E -- "^[^$tab]*$tab[0-9]+$tab$view$tab.*($re)" <<<"$all")
	done
	exit $bad
)

# One stray reader per rule, each in its own scratch tree beside a decoy that
# names every pattern only in comments and messages; each must be found, by
# file and owner, and the decoy alone must pass.
self_check() {
	local tmp fail=0 out
	tmp=$(mktemp -d) || return 2
	trap 'rm -rf "$tmp"' RETURN
	mkdir -p "$tmp/decoy/recorder"
	cat >"$tmp/decoy/recorder/decoy.c" <<-'EOF'
	/* Decoy: clock_gettime(CLOCK_MONOTONIC), "/sys/devices/system/cpu/online",
	 * syscall(__NR_bpf), "events/x/y/id", isspace(c), n = write(fd, p, len),
	 * c - 'a' + 10, setmntent(...), "/proc/sys/kernel/x", "%s/bus/event_source",
	 * cap *= 2; p = realloc(p, cap * 2) */
	// open("/proc/mounts") and tv_nsec - t0.tv_nsec in a line comment
	static const char *msg = "raise /proc/sys/kernel/perf_event_max_sample_rate or cat /sys/bus/event_source/devices/cpu; isspace( and CLOCK_MONOTONIC and n = write(fd)";
	static const char quote = '"'; static const char *after = "x = pwrite(";
	EOF
	if ! out=$(scan "$tmp/decoy" 2>&1); then
		echo "one reader self-check: the decoy (comments and strings only) was flagged:" >&2
		echo "$out" >&2
		fail=1
	fi
	local -a strays=(
		"the monotonic clock|base/mono_clock.c|clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);"
		"clock_gettime|sysinfo/clock.c|if (clock_gettime(id, &ts)) return -errno;"
		"timespec arithmetic|base/mono_clock.c|ms = (now.tv_sec - t->tv_sec) * 1000;"
		"the online CPU list|sysinfo/cpu.c|fd = open(\"/sys/devices/system/cpu/online\", O_RDONLY);"
		"bpf(2)|sysinfo/bpf.c|return syscall(__NR_bpf, cmd, attr, sizeof(*attr));"
		"tracepoint id files|base/tracefs.c|snprintf(path, len, \"%s/events/%s/%s/id\", t, s, n);"
		"the whitespace predicate|base/number.c|while (isspace((unsigned char)*p)) p++;"
		"the whitespace predicate|base/number.c|static bool is_space(char c) { return c == 0; }"
		"the whitespace predicate|base/number.c|return c == ' ' || c == '\\t' || c == '\\n' || c == '\\r';"
		"the write-all loop|base/write_all.c|ssize_t n = pwrite(fd, p, len, off);"
		"hex digits|base/number.c|v = c >= 'a' ? c - 'a' + 10 : c - '0';"
		"/proc/mounts|base/mounts.c|FILE *f = setmntent(\"/proc/mounts\", \"r\");"
		"/proc/mounts|base/mounts.c|int fd = open(\"/proc/self/mounts\", O_RDONLY);"
		"sysctls|sysinfo/sysctl.c|f = fopen(\"/proc/sys/kernel/perf_event_paranoid\", \"r\");"
		"PMU directories|sysinfo/pmu_events.c|snprintf(p, n, \"%s/bus/event_source/devices/cpu\", sysfs);"
		"a doubling loop|base/grow.c|size_t ncap = cap ? cap * 2 : 16;"
		"a doubling loop|base/grow.c|while (alloc < need) alloc <<= 1;"
		"a doubling loop|base/grow.c|v = realloc(v, 2 * m->nr_cap * sizeof(*v));"
		"a doubling loop|base/grow.c|q = realloc(buf, len * 2);"
	)
	local k=0 s name owner snippet dir
	for s in "${strays[@]}"; do
		IFS='|' read -r name owner snippet <<<"$s"
		k=$((k + 1))
		dir=$tmp/stray$k
		mkdir -p "$dir/writer"
		cp "$tmp/decoy/recorder/decoy.c" "$dir/writer/decoy.c"
		printf '/* stray */\nstatic void f(void)\n{\n\t%s\n}\n' "$snippet" >"$dir/writer/stray.c"
		out=$(scan "$dir" 2>&1)
		if [[ $? -ne 1 || $out != *"writer/stray.c:4: $name belongs to "*"$owner"*" call "* ||
			$out == *decoy.c* ]]; then
			echo "one reader self-check: a stray reader of $name was not named as such:" >&2
			echo "    $snippet" >&2
			echo "$out" | sed 's/^/    got: /' >&2
			fail=1
		fi
	done
	((fail == 0)) && echo "one reader self-check: ${#strays[@]} strays found, the decoy passed"
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
scan "$root" && echo "one reader: ${#RULES[@]} rules, no second reader under $root"
