// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer harness for the perf map parser (recorder/names/perf_map.c):
 * any bytes in, no crash, no read outside the buffer; an entry lies inside
 * its line and agrees with the grammar; the counts add up; and the file fed
 * in chunks (their size taken from the input) gives the same entries and
 * counts as fed whole. The entries also go through the JIT symbol table.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "recorder/names/jit_syms.h"
#include "recorder/names/perf_map.h"

struct run {
	const char *buf;
	size_t len;
	uint64_t hash; /* of every entry, in order */
	struct jit_syms *syms;
};

static int fuzz_cb(const struct perf_map_entry *e, void *arg)
{
	struct run *r = arg;
	uint64_t end;

	if (!e->name_len || e->name < r->buf || e->name + e->name_len > r->buf + r->len ||
	    memchr(e->name, '\n', e->name_len) || memchr(e->name, '\0', e->name_len) ||
	    e->name[0] == ' ' || e->name[0] == '\t' ||
	    __builtin_add_overflow(e->start, e->size, &end) || (e->size && !end))
		abort();
	r->hash = (r->hash ^ e->start ^ (e->size << 1) ^ e->name_len) * 0x100000001b3ULL;
	for (size_t i = 0; i < e->name_len; i++)
		r->hash = (r->hash ^ (unsigned char)e->name[i]) * 0x100000001b3ULL;
	if (r->syms)
		jit_syms__add(r->syms, e->start, e->size, e->name, e->name_len);
	return 0;
}

/* Feeds data as a reader of a growing file: step bytes a read, the tail kept. */
static void feed(const uint8_t *data, size_t size, size_t step, struct perf_map_parser *p,
		 uint64_t *hash, struct jit_syms *syms)
{
	char *buf = malloc(PERF_MAP_LINE_MAX + step + 1);
	size_t have = 0, off = 0;
	struct run r = { .syms = syms };

	if (!buf)
		abort();
	perf_map__init(p);
	for (;;) {
		size_t take = step < size - off ? step : size - off;
		ssize_t n;

		memcpy(buf + have, data + off, take);
		have += take;
		off += take;
		r.buf = buf;
		r.len = have;
		n = perf_map__parse(p, buf, have, off == size, fuzz_cb, &r);
		if (n < 0 || (size_t)n > have)
			abort();
		memmove(buf, buf + n, have - (size_t)n);
		have -= (size_t)n;
		if (have > PERF_MAP_LINE_MAX)
			abort();
		if (off == size)
			break;
	}
	if (have || p->skipping)
		abort();
	free(buf);
	*hash = r.hash;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct perf_map_parser whole, chunked;
	uint64_t h1, h2;
	struct jit_syms syms;
	const struct jit_sym *s;
	size_t nr, step = size ? 1 + data[0] % 67 : 1;

	jit_syms__init(&syms);
	feed(data, size, size ? size : 1, &whole, &h1, &syms);
	if (whole.stats.entries + whole.stats.malformed > whole.stats.lines)
		abort();
	feed(data, size, step, &chunked, &h2, NULL);
	if (h1 != h2 || memcmp(&whole.stats, &chunked.stats, sizeof(whole.stats)))
		abort();
	if (jit_syms__sorted(&syms, &s, &nr) == 0)
		for (size_t i = 1; i < nr; i++)
			if (s[i].addr < s[i - 1].addr + s[i - 1].size)
				abort();
	jit_syms__exit(&syms);
	return 0;
}
