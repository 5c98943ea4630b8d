// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer harness for the jitdump reader (recorder/names/jitdump.c): any
 * bytes in, no crash, no read outside the buffer (the header and each
 * record are read from exact-size copies); what a record points at lies
 * inside it; the debug entries walk to their count; and the records fed in
 * chunks (their size taken from the input) come out as when fed whole.
 * Loads and moves also go through the JIT symbol table.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "recorder/names/jit_syms.h"
#include "recorder/names/jitdump.h"

struct run {
	const unsigned char *buf;
	size_t len;
	uint64_t hash;
	struct jit_syms *syms;
};

static void inside(const struct run *r, const void *p, uint64_t n)
{
	const unsigned char *q = p;

	if (q < r->buf || q > r->buf + r->len || n > (uint64_t)(r->buf + r->len - q))
		abort();
}

static void check_debug(const struct run *r, const struct jitdump_debug_info *d)
{
	struct jitdump_debug_entry e;
	size_t off = 0;
	uint64_t n = 0;
	int err;

	inside(r, d->entries, d->entries_len);
	while (!(err = jitdump__debug_entry(d, &off, &e))) {
		inside(r, e.name, e.name_len + 1);
		if (e.name[e.name_len])
			abort();
		n++;
	}
	if (err != -ENOENT || n != d->nr_entry)
		abort();
}

static int fuzz_cb(const struct jitdump_record *rec, void *arg)
{
	struct run *r = arg;

	r->hash = (r->hash ^ rec->id ^ ((uint64_t)rec->total_size << 32) ^ rec->timestamp) *
		  0x100000001b3ULL;
	switch (rec->id) {
	case JITDUMP_CODE_LOAD:
		inside(r, rec->load.name, rec->load.name_len + 1);
		if (rec->load.name[rec->load.name_len])
			abort();
		if (rec->load.code)
			inside(r, rec->load.code, rec->load.code_size);
		if (r->syms)
			jit_syms__add(r->syms, rec->load.code_addr, rec->load.code_size,
				      rec->load.name, rec->load.name_len);
		r->hash ^= rec->load.code_addr + rec->load.name_len;
		break;
	case JITDUMP_CODE_MOVE:
		if (r->syms)
			jit_syms__move(r->syms, rec->move.old_code_addr, rec->move.new_code_addr,
				       rec->move.code_size);
		break;
	case JITDUMP_CODE_DEBUG_INFO:
		check_debug(r, &rec->debug_info);
		break;
	case JITDUMP_CODE_UNWINDING_INFO:
		inside(r, rec->unwinding.data, rec->unwinding.unwinding_size);
		if (rec->unwinding.eh_frame_hdr_size > rec->unwinding.unwinding_size)
			abort();
		break;
	}
	return 0;
}

/* Records of data[0..size) step bytes at a time; returns the last call's answer. */
static ssize_t feed(const uint8_t *data, size_t size, size_t step, bool swapped,
		    struct jitdump_stats *st, uint64_t *hash, struct jit_syms *syms)
{
	unsigned char *buf = malloc(size ? size : 1);
	size_t have = 0, off = 0;
	struct run r = { .buf = buf, .syms = syms };
	ssize_t n;

	if (!buf)
		abort();
	memset(st, 0, sizeof(*st));
	for (;;) {
		size_t take = step < size - off ? step : size - off;

		memcpy(buf + have, data + off, take);
		have += take;
		off += take;
		r.len = have;
		n = jitdump__parse_records(buf, have, swapped, st, fuzz_cb, &r);
		if (n < 0)
			break;
		if ((size_t)n > have)
			abort();
		memmove(buf, buf + n, have - (size_t)n);
		have -= (size_t)n;
		if (off == size)
			break;
	}
	free(buf);
	*hash = r.hash;
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct jitdump_header h;
	struct jitdump_stats s1, s2;
	struct jit_syms syms;
	const struct jit_sym *s;
	uint64_t h1, h2;
	size_t nr, step = size ? 1 + data[size - 1] % 97 : 1;
	unsigned char *hdr =
		malloc(size < JITDUMP_HEADER_SIZE ? (size ? size : 1) : JITDUMP_HEADER_SIZE);
	ssize_t n1, n2;
	int err;

	if (!hdr)
		abort();
	memcpy(hdr, data, size < JITDUMP_HEADER_SIZE ? size : JITDUMP_HEADER_SIZE);
	err = jitdump__parse_header(hdr, size < JITDUMP_HEADER_SIZE ? size : JITDUMP_HEADER_SIZE,
				    &h);
	free(hdr);
	if (err == -EAGAIN && size >= JITDUMP_HEADER_SIZE)
		abort();
	/* A dump whose header is refused is read as records anyway: more to fuzz. */
	if (err || h.header_size > size) {
		h.header_size = 0;
		h.swapped = size && (data[0] & 1);
	}
	jit_syms__init(&syms);
	n1 = feed(data + h.header_size, size - h.header_size, size - h.header_size + 1, h.swapped,
		  &s1, &h1, &syms);
	n2 = feed(data + h.header_size, size - h.header_size, step, h.swapped, &s2, &h2, NULL);
	if ((n1 < 0) != (n2 < 0) || h1 != h2 || memcmp(&s1, &s2, sizeof(s1)))
		abort();
	if (jit_syms__sorted(&syms, &s, &nr) == 0)
		for (size_t i = 1; i < nr; i++)
			if (s[i].addr < s[i - 1].addr + s[i - 1].size)
				abort();
	jit_syms__exit(&syms);
	return 0;
}
