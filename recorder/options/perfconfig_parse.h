/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_RECORDER_OPTIONS_PERFCONFIG_PARSE_H
#define PREC_RECORDER_OPTIONS_PERFCONFIG_PARSE_H
/*
 * The syntax of perf's configuration files (~/.perfconfig, /etc/perfconfig,
 * $PERF_CONFIG): git's ini dialect as perf 6.1's util/config.c reads it, so
 * that a file means to prec what it means to perf.
 *
 *   [section]            section names: letters, digits, '-', '_', '.'; any case
 *   [section "sub"]      a subsection (case kept, \" and \\ escapes): "section.sub."
 *   name = value         the name starts with a letter; perf lowers only that letter
 *   # or ;               a comment to the end of the line (also after a value)
 *
 * Values: blanks around them dropped, runs of blanks inside one space,
 * "quoted" parts kept as they are, escapes \t \b \n \\ \" and a backslash
 * at the end of a line continuing it. CRLF ends a line as LF; a UTF-8 BOM
 * at the start is skipped. A line perf cannot read ends the parse there:
 * what came before it stands, as in perf.
 */
#include <stddef.h>

/* perf's limits: a full name is under 256 bytes, a value under 1024. */
#define PERFCONFIG_NAME_MAX 256
#define PERFCONFIG_VALUE_MAX 1024

/*
 * Called for each setting in file order: var is "section.name" (or
 * "section.sub.name"), value NULL for a name without '=' (perf takes it as
 * a syntax error when it collects the file), line the line the name is on.
 * A negative return stops the parse with it.
 */
typedef int (*perfconfig_fn)(const char *var, const char *value, int line, void *data);

/*
 * Parses len bytes of buf (NUL bytes are ordinary bytes: perf reads them and
 * fails the line). Pure. Returns 0; -EINVAL for a line perf rejects, with
 * *bad_line its number (the line of the byte perf stopped at); or fn's
 * negative return, with *bad_line the setting's line. perf_line (NULL: not
 * wanted) gets the number perf prints ("bad config file line N"), one more
 * when the byte perf stopped at was the line's newline.
 */
int perfconfig__parse(const char *buf, size_t len, perfconfig_fn fn, void *data, int *bad_line,
		      int *perf_line);

#endif
