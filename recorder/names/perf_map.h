/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_RECORDER_NAMES_PERF_MAP_H
#define PREC_RECORDER_NAMES_PERF_MAP_H
/*
 * The line parser of /tmp/perf-PID.map, the symbol file JITs write (node
 * --perf-basic-prof, Java's perfmap, perf-map-agent, Python -X perf, .NET):
 *
 *   START SIZE NAME
 *   18c4000 300 Builtin:DeoptimizationEntry_Eager
 *
 * START and SIZE are hex, with or without 0x/0X, either case; leading blanks
 * and one or more spaces/tabs between the fields; NAME is the rest of the
 * line after the blanks that follow SIZE (it may hold spaces). Incremental,
 * because the file grows while the JIT runs: the caller reads it in chunks
 * and hands back what a call did not consume.
 *
 * Every line perf 6.1's reader (dso__load_perf_map) takes from a real
 * writer is an entry here too: the fields as strtoull(,16) reads them
 * (blanks first, 0x optional, either case), any run of blanks between START
 * and SIZE, a name of 3 bytes or more after one blank. Deliberate decisions
 * where perf differs or is silent:
 * - Names of 1 or 2 bytes are entries (perf drops them by an off-by-two).
 * - A last line without '\n' keeps its last byte (perf cuts it off).
 * - A name ends at its first NUL, as perf's C string does; a line whose name
 *   is then empty is malformed. A '\r' right before the '\n' (CRLF files) is
 *   not part of the name (perf would keep it).
 * - Separators are spaces and tabs only, and blanks between SIZE and NAME
 *   are not part of the name (perf skips exactly one byte of any kind, so
 *   "1000,10,foo" and "1000 10  foo" differ there); a field that is not hex,
 *   has a sign or passes 64 bits (perf: 0 or ULLONG_MAX) is malformed.
 * - SIZE 0 is an entry (perf keeps it and stretches it to the next symbol
 *   later); whoever stores it decides (jit_syms__add refuses it).
 * - START + SIZE past UINT64_MAX (or exactly 2^64) is malformed: no code
 *   ends beyond the address space, and the end must be representable.
 * - An empty line (or "\r" alone) is counted as a line, neither entry nor
 *   malformed.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * The longest line kept, without its '\n'. A longer one is skipped whole
 * and counted malformed; so a cut line is never longer than this, and a
 * caller's buffer of PERF_MAP_LINE_MAX + 1 bytes always makes progress.
 */
#define PERF_MAP_LINE_MAX 4096

struct perf_map_entry {
	uint64_t start, size;
	const char *name; /* points into the caller's buffer, NOT NUL-terminated */
	size_t name_len; /* >= 1; no NUL or '\n' inside */
};

struct perf_map_stats {
	uint64_t lines; /* whole lines seen, entries or not */
	uint64_t entries; /* delivered to the callback */
	uint64_t malformed; /* skipped: bad fields, empty name, too long */
};

/* The state that lives between the chunks of one file. Zero it to start. */
struct perf_map_parser {
	struct perf_map_stats stats;
	bool skipping; /* inside a line longer than PERF_MAP_LINE_MAX */
};

void perf_map__init(struct perf_map_parser *p);

/* Returns 0 to go on, or a negative value that stops the parse. */
typedef int (*perf_map_cb)(const struct perf_map_entry *e, void *arg);

/*
 * Parses the whole lines of buf[0..len): a line ends at '\n'; with at_eof
 * the last one needs none. Calls cb for each entry, in file order. Returns
 * the bytes consumed (always whole lines, or the part of a too-long line
 * seen so far: the function consumes it and skips the rest of that line in
 * the next calls), or cb's negative value (the counts then include the line
 * cb stopped at, and the caller should not parse this file further). The
 * caller keeps buf[consumed..len), appends what it reads next, and calls
 * again; what is left is never more than PERF_MAP_LINE_MAX bytes.
 */
ssize_t perf_map__parse(struct perf_map_parser *p, const char *buf, size_t len, bool at_eof,
			perf_map_cb cb, void *arg);

/*
 * One line without its '\n' (line[0..len), len <= PERF_MAP_LINE_MAX or it is
 * malformed). Returns 0 and *e, 1 for an empty line, -EINVAL for a malformed
 * one. What perf_map__parse calls per line; pure.
 */
int perf_map__parse_line(const char *line, size_t len, struct perf_map_entry *e);

#endif
