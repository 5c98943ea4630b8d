// SPDX-License-Identifier: GPL-2.0-only
/*
 * The /tmp/perf-PID.map line parser: whole lines of a growing file, in
 * chunks, into (start, size, name) entries. The grammar and each decision
 * against perf's reader are in perf_map.h. Pure: no allocation, no I/O.
 */
#include <errno.h>
#include <string.h>

#include "prec/number.h"
#include "names/perf_map.h"

void perf_map__init(struct perf_map_parser *p)
{
	memset(p, 0, sizeof(*p));
}

/* The field separators: spaces and tabs only, as every writer emits them. */
static bool perf_map__sep(char c)
{
	return c == ' ' || c == '\t';
}

static size_t perf_map__skip_seps(const char *s, size_t i, size_t len)
{
	while (i < len && perf_map__sep(s[i]))
		i++;
	return i;
}

/* One hex field at s[*i..): the bytes up to the next separator. */
static int perf_map__hex_field(const char *s, size_t *i, size_t len, uint64_t *val)
{
	size_t from = *i, to = from;

	while (to < len && !perf_map__sep(s[to]))
		to++;
	if (to == from)
		return -EINVAL;
	*i = to;
	return u64__parse(s + from, to - from, 16, val) ? -EINVAL : 0;
}

int perf_map__parse_line(const char *line, size_t len, struct perf_map_entry *e)
{
	const char *name, *nul;
	uint64_t start, size, end;
	size_t i = 0, name_len;

	if (len > PERF_MAP_LINE_MAX)
		return -EINVAL;
	if (len && line[len - 1] == '\r')
		len--;
	if (!len)
		return 1;
	i = perf_map__skip_seps(line, 0, len);
	if (perf_map__hex_field(line, &i, len, &start))
		return -EINVAL;
	if (i == len || !perf_map__sep(line[i]))
		return -EINVAL;
	i = perf_map__skip_seps(line, i, len);
	if (perf_map__hex_field(line, &i, len, &size))
		return -EINVAL;
	/* SIZE must be followed by a separator and a name, not end the line. */
	if (i == len)
		return -EINVAL;
	i = perf_map__skip_seps(line, i, len);
	name = line + i;
	name_len = len - i;
	nul = memchr(name, '\0', name_len);
	if (nul)
		name_len = (size_t)(nul - name);
	if (!name_len)
		return -EINVAL;
	/* An end of exactly 2^64 wraps to 0 and counts as an overflow too. */
	if (__builtin_add_overflow(start, size, &end))
		return -EINVAL;
	e->start = start;
	e->size = size;
	e->name = name;
	e->name_len = name_len;
	return 0;
}

/* One whole line: counted, and delivered when it is an entry. */
static int perf_map__line(struct perf_map_parser *p, const char *line, size_t len, perf_map_cb cb,
			  void *arg)
{
	struct perf_map_entry e;
	int err;

	p->stats.lines++;
	err = perf_map__parse_line(line, len, &e);
	if (err > 0)
		return 0;
	if (err < 0) {
		p->stats.malformed++;
		return 0;
	}
	p->stats.entries++;
	return cb(&e, arg);
}

ssize_t perf_map__parse(struct perf_map_parser *p, const char *buf, size_t len, bool at_eof,
			perf_map_cb cb, void *arg)
{
	size_t pos = 0;
	int err;

	while (pos < len) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		size_t line_len = nl ? (size_t)(nl - (buf + pos)) : len - pos;

		if (p->skipping) {
			/* The rest of a line already counted malformed. */
			pos += line_len + (nl ? 1 : 0);
			p->skipping = !nl && !at_eof;
			continue;
		}
		if (!nl && !at_eof) {
			if (line_len <= PERF_MAP_LINE_MAX)
				break; /* cut: the next call sees it whole */
			/* Too long already: count it now and skip the rest later. */
			p->stats.lines++;
			p->stats.malformed++;
			p->skipping = true;
			pos = len;
			break;
		}
		err = perf_map__line(p, buf + pos, line_len, cb, arg);
		pos += line_len + (nl ? 1 : 0);
		if (err < 0)
			return err;
	}
	/* at_eof ends a skipped line that had no '\n' in this call either. */
	if (at_eof)
		p->skipping = false;
	return (ssize_t)pos;
}
