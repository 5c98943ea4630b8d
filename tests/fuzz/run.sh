#!/usr/bin/env bash
# Runs one libFuzzer harness for a bounded time, as a ctest test (see
# CMakeLists.txt here): first every seed and past crash of its corpus, then
# new inputs. It fuzzes a copy, so the committed corpus only grows by hand.
# Usage: run.sh FUZZER CORPUS_DIR SECONDS ARTIFACT_DIR
set -euo pipefail

fuzzer=$1 corpus=$2 seconds=$3 artifacts=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [[ -d "$corpus" ]]; then
	cp -r "$corpus"/. "$work"/
fi
mkdir -p "$artifacts"

# -timeout: a parser that takes seconds on one input is a hang (a bug too).
# -rss_limit_mb: the harnesses need little; more is a leak or a runaway size.
if "$fuzzer" -max_total_time="$seconds" -timeout=5 -rss_limit_mb=1024 \
	-artifact_prefix="$artifacts"/ -print_final_stats=1 "$work" 2>"$work.log"; then
	tail -n 12 "$work.log"
	rm -f "$work.log"
	exit 0
fi
cat "$work.log"
rm -f "$work.log"
echo "$(basename "$fuzzer"): failed; its input is in $artifacts/ (fix the bug, then add that file to $corpus/ as a regression case)" >&2
exit 1
