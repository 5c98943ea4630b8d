#!/usr/bin/env bash
# One error convention (include/prec/error.h, issue 32): below record.c and
# main.c a function that can fail returns -errno and fills the caller's
# struct prec_err; the owner of the failure prints it once. This finds what
# the convention replaced, in base/ sysinfo/ writer/ recorder/ include/:
#
#   - a static char message buffer (function- or file-static, of LOG_MSG_MAX
#     or named as a message: err, msg, message, hint, why, reason): one is
#     allowed at most, named in ALLOWED below with its reason;
#   - a char *err, size_t errlen out-parameter (err, msg, why...; also split
#     over two lines; a caller's buffer for a hint is no error's);
#   - a comment saying a callee "said" it: the printed-already protocol.
#
# Code rules look at code with comments and string literals blanked, so a
# message may quote anything; the "said" rule looks at comments only.
#
#   test_errors.sh                the self-check, then the tree at PREC_SRC
#   test_errors.sh DIR...         the self-check, then only these folders of
#                                 the tree (e.g. recorder/options writer)
#   test_errors.sh --self-check   plants one breach per rule in a scratch
#                                 tree and fails unless each is named, and a
#                                 decoy in comments and strings is not
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=${PREC_SRC:-$(cd "$here/../.." && pwd)}

# "file|buffer name|reason": the static message buffers allowed (at most one).
ALLOWED=()

TAB=$'\t'
# A static buffer with any of these names holds a message; an out-parameter
# with one of ERR_NAMES is an error's (a caller's buffer for a hint is not).
MSG_NAMES='err|errbuf|err_buf|error|msg|message|last_message|hint|why|reason'
ERR_NAMES='err|errbuf|err_buf|error|msg|message|why'
# name | view (code: comments and strings blanked; cmt: comments only) | ERE
RULES=(
	"a static message buffer|code|\\bstatic[[:space:]]+char[[:space:]]+[A-Za-z_][A-Za-z0-9_]*[[:space:]]*\\[[^]]*\\bLOG_MSG_MAX\\b|\\bstatic[[:space:]]+char[[:space:]]+($MSG_NAMES)[[:space:]]*\\["
	"a char *err, size_t out-parameter|code|([(,]|$TAB)[[:space:]]*char[[:space:]]*\\*[[:space:]]*($ERR_NAMES)[[:space:]]*,[[:space:]]*(size_t\\b|$)|\\bsize_t[[:space:]]+(errlen|err_len|errsz|msglen|msg_len)\\b"
	"the 'said' protocol|cmt|\\b[Ss]aid\\b"
)
FIX_static="fill the caller's struct prec_err (prec/error.h), or take the caller's buffer"
FIX_out="take a struct prec_err *e (prec/error.h) and return -errno"
FIX_said="say what prints it and where (the error object's owner prints it once)"

# file<TAB>line<TAB>view<TAB>text for every line: "code" with comments and
# string literals blanked, "cmt" with only the comments kept.
views() {
	awk '
	FNR == 1 { state = 0 } # 0 code, 1 block comment
	{
		line = $0; code = ""; cmt = ""; n = length(line); i = 1
		while (i <= n) {
			c = substr(line, i, 1); c2 = substr(line, i, 2)
			if (state == 1) {
				if (c2 == "*/") { state = 0; code = code "  "; cmt = cmt "  "; i += 2 }
				else { code = code " "; cmt = cmt c; i++ }
				continue
			}
			if (c2 == "/*") { state = 1; code = code "  "; cmt = cmt "  "; i += 2; continue }
			if (c2 == "//") { cmt = cmt substr(line, i); break }
			if (c == "\"" || c == "\047") {
				q = c; code = code c; cmt = cmt " "; i++
				while (i <= n) {
					c = substr(line, i, 1)
					if (c == "\\") { code = code "  "; cmt = cmt "  "; i += 2; continue }
					code = code (c == q ? c : " "); cmt = cmt " "; i++
					if (c == q) break
				}
				continue
			}
			code = code c; cmt = cmt " "; i++
		}
		printf "%s\t%d\tcode\t%s\n", FILENAME, FNR, code
		printf "%s\t%d\tcmt\t%s\n", FILENAME, FNR, cmt
	}' "$@"
}

# Scans the folders $2... (default: the five) of the tree at $1; prints
# each breach, returns 1 on any.
scan() (
	cd "$1" || exit 2
	shift
	local -a dirs=("$@")
	((${#dirs[@]})) || dirs=(base sysinfo writer recorder include)
	mapfile -t files < <(find "${dirs[@]}" -name '*.[ch]' 2>/dev/null | sort)
	((${#files[@]})) || { echo "errors: no source files under $1: ${dirs[*]}" >&2; exit 2; }
	all=$(views "${files[@]}")
	tab=$'\t'
	bad=0 allowed=0
	for rule in "${RULES[@]}"; do
		IFS='|' read -r name view re <<<"$rule"
		case $name in
		*static*) fix=$FIX_static ;;
		*out-param*) fix=$FIX_out ;;
		*) fix=$FIX_said ;;
		esac
		while IFS=$'\t' read -r f line _ text; do
			if [[ $view == code && $name == *static* ]] && is_allowed "$f" "$text"; then
				allowed=$((allowed + 1))
				continue
			fi
			echo "errors: $f:$line: $name: $fix" >&2
			echo "    ${text#"${text%%[![:space:]]*}"}" >&2
			bad=1
		done < <(grep -E -- "^[^${tab}]*${tab}[0-9]+${tab}${view}${tab}.*(${re})" <<<"$all")
	done
	if ((allowed > 1)); then
		echo "errors: $allowed static message buffers allowed by ALLOWED: at most one" >&2
		bad=1
	fi
	exit $bad
)

# Whether the buffer on this line of file $1 is the one ALLOWED names.
is_allowed() {
	local entry file name
	((${#ALLOWED[@]} <= 1)) || return 1
	for entry in "${ALLOWED[@]}"; do
		IFS='|' read -r file name _ <<<"$entry"
		[[ $1 == "$file" && $2 =~ static[[:space:]]+char[[:space:]]+${name}[[:space:]]*\[ ]] &&
			return 0
	done
	return 1
}

# One breach per rule, each in its own scratch tree beside a decoy that
# names every pattern only in comments and messages; each must be found by
# file, line and rule, and the decoy alone must pass.
self_check() {
	local tmp fail=0 out
	tmp=$(mktemp -d) || return 2
	trap 'rm -rf "$tmp"' RETURN
	mkdir -p "$tmp/decoy/recorder"
	cat >"$tmp/decoy/recorder/decoy.c" <<-'EOF'
	/* Decoy: static char msg[LOG_MSG_MAX]; int f(char *err, size_t errlen);
	 * the kernel says so; what the user typed */
	static const char *m = "static char err[LOG_MSG_MAX]; f(char *err, size_t errlen), said";
	static const char *const why = "x"; /* const char *why, is a string */
	static int g(const char *why, size_t len);
	static char path[64];
	EOF
	if ! out=$(scan "$tmp/decoy" 2>&1); then
		echo "errors self-check: the decoy (comments and strings only) was flagged:" >&2
		echo "$out" >&2
		fail=1
	fi
	local -a breaches=(
		"a static message buffer|	static char msg[LOG_MSG_MAX];"
		"a static message buffer|	static char buf[2 * LOG_MSG_MAX];"
		"a static message buffer|static char last_message[512];"
		"a static message buffer|	static char hint[128];"
		"a char *err, size_t out-parameter|int f(const char *s, char *err, size_t errlen);"
		"a char *err, size_t out-parameter|static int f(int a, char *err, size_t len)"
		"a char *err, size_t out-parameter|			 char *err,"
		"a char *err, size_t out-parameter|			 size_t errlen);"
		"the 'said' protocol|	return ret; /* said */"
		"the 'said' protocol|/* 0 or -errno (said). */"
		"the 'said' protocol|	ret = 0; // Said once"
	)
	local k=0 b name snippet dir
	for b in "${breaches[@]}"; do
		IFS='|' read -r name snippet <<<"$b"
		k=$((k + 1))
		dir=$tmp/breach$k
		mkdir -p "$dir/writer"
		cp "$tmp/decoy/recorder/decoy.c" "$dir/writer/decoy.c"
		printf '/* breach */\n%s\n' "$snippet" >"$dir/writer/breach.c"
		out=$(scan "$dir" 2>&1)
		if [[ $? -ne 1 || $out != *"writer/breach.c:2: $name: "* || $out == *decoy.c* ]]; then
			echo "errors self-check: a breach of $name was not named as such:" >&2
			echo "    $snippet" >&2
			printf '    got: %s\n' "${out//$'\n'/$'\n'    got: }" >&2
			fail=1
		fi
	done
	# Only the ALLOWED buffer passes, and only one may be allowed.
	mkdir -p "$tmp/allowed/writer"
	printf 'void f(void)\n{\n\tstatic char msg[LOG_MSG_MAX];\n}\n' >"$tmp/allowed/writer/one.c"
	if ! out=$(ALLOWED=("writer/one.c|msg|a test") && scan "$tmp/allowed" 2>&1); then
		echo "errors self-check: the ALLOWED buffer was flagged:" >&2
		echo "$out" >&2
		fail=1
	fi
	if out=$(ALLOWED=("writer/one.c|msg|a" "writer/one.c|msg|b") && scan "$tmp/allowed" 2>&1); then
		echo "errors self-check: two ALLOWED buffers passed" >&2
		fail=1
	fi
	((fail == 0)) && echo "errors self-check: ${#breaches[@]} breaches found, the decoy passed"
	return $fail
}

case ${1:-} in
--self-check)
	self_check
	exit $?
	;;
-*)
	echo "usage: $0 [--self-check | DIR...]" >&2
	exit 2
	;;
esac
self_check || exit 1
scan "$root" "$@" && echo "errors: ${#RULES[@]} rules, one error convention under $root${*:+ (${*})}"
