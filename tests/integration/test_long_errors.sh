#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# An error that quotes a long argument (a 1500-character path or value, a
# 3000-character --filter) is still printed whole, as perf prints it: one
# line, ending with its reason and fix, status 1..125 (127 for a command
# not found), no file left.
source "${TEST_LIB:-$(dirname "$0")/lib.sh}" || exit 1

long=$(printf 'b%.0s' $(seq 1500))
ors="ip > 0$(printf ' || ip > 0%.0s' $(seq 300)) || junk > 1"
ands="ip > 0$(printf ', ip > 0%.0s' $(seq 400)), cpu > 0"

# expect WHAT TAIL ARGS...: prec ARGS fails in one line ending with TAIL.
expect()
{
	local what=$1 tail=$2
	shift 2
	rm -f "$TMP/out.data"
	run_prec -o "$TMP/out.data" "$@" -- true
	# 127: a command that cannot be found, as the shell says it.
	((PREC_RC >= 1 && PREC_RC <= 125)) || [[ $PREC_RC == 127 && $what == *command* ]] ||
		fail "$what: exit status $PREC_RC"
	[[ $(wc -l <"$PREC_ERR") -eq 1 ]] || fail "$what: not one line: $(head -c 300 "$PREC_ERR")"
	local line
	line=$(cat "$PREC_ERR")
	((${#line} > 1024)) || fail "$what: the line is only ${#line} bytes: the quoted argument is cut"
	[[ "$line" == *"$tail" ]] || fail "$what: the line does not end with '$tail': ...${line: -120}"
	[[ ! -e "$TMP/out.data" ]] || fail "$what: left its output"
}

expect "--call-graph" "(use fp, dwarf[,size], lbr or no)" --call-graph "$long"
expect "--switch-output" "a time like 30s, 5m, 1h)" --switch-output="$long"
expect "-m" ")" -m "$long"
expect "--clockid" ")" --clockid "$long"
expect "--threads=" "e.g. 0-1/0:2-3/2)" --threads="$long"
expect "-C" "(give CPUs like 0-2,5)" -C "0,$long"
expect "-e with a long term" ")" -e "cpu-clock/$long/"
expect "-e with a long period" "at offset 10" -e "cpu-clock/period=$long/"
expect "--filter, 300 '||' groups" "drop terms" -e cpu-clock --filter "$ors"
expect "--filter, 400 terms" "drop terms" -e cpu-clock --filter "$ands"
expect "--filter, a long value" "(a number)" -e cpu-clock --filter "ip > $long"
expect "a command with a long name" "(check the command name and \$PATH)" "/nonexistent/$long"
pass
