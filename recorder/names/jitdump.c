// SPDX-License-Identifier: GPL-2.0-only
/*
 * The jit-PID.dump reader: the file header and the records, in either byte
 * order, as jitdump.h describes. Pure: reads the caller's buffer only, never
 * past a length it has checked; nothing in the file is trusted.
 */
#include <errno.h>
#include <string.h>

#include "names/jitdump.h"

/* The fixed parts of each body, after the 16-byte prefix (perf's structs). */
#define LOAD_FIXED 40 /* pid, tid, vma, code_addr, code_size, code_index */
#define MOVE_FIXED 48 /* pid, tid, vma, old_code_addr, new_code_addr, code_size, code_index */
#define DEBUG_FIXED 16 /* code_addr, nr_entry */
#define DEBUG_ENTRY_FIXED 16 /* addr, lineno, discrim; then the file name and its NUL */
#define UNWIND_FIXED 24 /* unwinding_size, eh_frame_hdr_size, mapped_size */

/* The byte order of one dump, and the bytes of one record. */
struct jd_cursor {
	const unsigned char *p;
	size_t len;
	bool swapped;
};

static uint32_t jd__u32(const struct jd_cursor *c, size_t off)
{
	uint32_t v;

	memcpy(&v, c->p + off, sizeof(v));
	return c->swapped ? __builtin_bswap32(v) : v;
}

static uint64_t jd__u64(const struct jd_cursor *c, size_t off)
{
	uint64_t v;

	memcpy(&v, c->p + off, sizeof(v));
	return c->swapped ? __builtin_bswap64(v) : v;
}

int jitdump__parse_header(const void *buf, size_t len, struct jitdump_header *h)
{
	struct jd_cursor c = { .p = buf, .len = len };
	uint32_t magic;

	if (len < 4)
		return -EAGAIN;
	magic = jd__u32(&c, 0);
	if (magic == JITDUMP_MAGIC_SWAPPED)
		c.swapped = true;
	else if (magic != JITDUMP_MAGIC)
		return -EINVAL;
	if (len < JITDUMP_HEADER_SIZE)
		return -EAGAIN;
	h->version = jd__u32(&c, 4);
	h->header_size = jd__u32(&c, 8);
	h->elf_mach = jd__u32(&c, 12);
	/* 16: pad1, reserved */
	h->pid = jd__u32(&c, 20);
	h->timestamp = jd__u64(&c, 24);
	h->flags = jd__u64(&c, 32);
	h->swapped = c.swapped;
	/* perf refuses these too: the layout or the clock would be unknown. */
	if (h->version > JITDUMP_VERSION || (h->flags & ~JITDUMP_FLAGS_ARCH_TIMESTAMP))
		return -EINVAL;
	if (h->header_size < JITDUMP_HEADER_SIZE || h->header_size > JITDUMP_RECORD_MAX)
		return -EINVAL;
	return 0;
}

static int jd__load(const struct jd_cursor *c, struct jitdump_load *l)
{
	const unsigned char *name, *nul;
	size_t name_off = JITDUMP_PREFIX_SIZE + LOAD_FIXED, after;

	if (c->len <= name_off)
		return -EINVAL;
	l->pid = jd__u32(c, 16);
	l->tid = jd__u32(c, 20);
	l->vma = jd__u64(c, 24);
	l->code_addr = jd__u64(c, 32);
	l->code_size = jd__u64(c, 40);
	l->code_index = jd__u64(c, 48);
	name = c->p + name_off;
	nul = memchr(name, '\0', c->len - name_off);
	if (!nul)
		return -EINVAL;
	l->name = (const char *)name;
	l->name_len = (size_t)(nul - name);
	after = name_off + l->name_len + 1;
	/* The code is optional: a writer may leave it out and keep the name. */
	l->code = (uint64_t)(c->len - after) >= l->code_size ? c->p + after : NULL;
	return 0;
}

static int jd__move(const struct jd_cursor *c, struct jitdump_move *m)
{
	if (c->len < JITDUMP_PREFIX_SIZE + MOVE_FIXED)
		return -EINVAL;
	m->pid = jd__u32(c, 16);
	m->tid = jd__u32(c, 20);
	m->vma = jd__u64(c, 24);
	m->old_code_addr = jd__u64(c, 32);
	m->new_code_addr = jd__u64(c, 40);
	m->code_size = jd__u64(c, 48);
	m->code_index = jd__u64(c, 56);
	return 0;
}

/* One debug entry at off of [0, len): its bytes, or -EINVAL when it does not fit. */
static int jd__debug_entry_at(const struct jd_cursor *c, size_t off, struct jitdump_debug_entry *e,
			      size_t *next)
{
	const unsigned char *name, *nul;

	if (off > c->len || c->len - off <= DEBUG_ENTRY_FIXED)
		return -EINVAL;
	name = c->p + off + DEBUG_ENTRY_FIXED;
	nul = memchr(name, '\0', c->len - off - DEBUG_ENTRY_FIXED);
	if (!nul)
		return -EINVAL;
	e->addr = jd__u64(c, off);
	e->lineno = (int32_t)jd__u32(c, off + 8);
	e->discrim = (int32_t)jd__u32(c, off + 12);
	e->name = (const char *)name;
	e->name_len = (size_t)(nul - name);
	*next = (size_t)(nul + 1 - c->p);
	return 0;
}

static int jd__debug_info(const struct jd_cursor *c, struct jitdump_debug_info *d)
{
	size_t base = JITDUMP_PREFIX_SIZE + DEBUG_FIXED, off = 0;
	struct jd_cursor ents = { .p = c->p + base, .swapped = c->swapped };
	struct jitdump_debug_entry e;
	uint64_t i;

	if (c->len < base)
		return -EINVAL;
	d->code_addr = jd__u64(c, 16);
	d->nr_entry = jd__u64(c, 24);
	ents.len = c->len - base;
	/* Each entry is at least 17 bytes, so this walk is bounded by the record. */
	for (i = 0; i < d->nr_entry; i++)
		if (jd__debug_entry_at(&ents, off, &e, &off))
			return -EINVAL;
	d->entries = ents.p;
	d->entries_len = off;
	d->swapped = c->swapped;
	return 0;
}

static int jd__unwinding(const struct jd_cursor *c, struct jitdump_unwinding *u)
{
	size_t base = JITDUMP_PREFIX_SIZE + UNWIND_FIXED;

	if (c->len < base)
		return -EINVAL;
	u->unwinding_size = jd__u64(c, 16);
	u->eh_frame_hdr_size = jd__u64(c, 24);
	u->mapped_size = jd__u64(c, 32);
	if (u->unwinding_size > (uint64_t)(c->len - base) ||
	    u->eh_frame_hdr_size > u->unwinding_size)
		return -EINVAL;
	u->data = c->p + base;
	return 0;
}

/* The body of one well-framed record: 0, or -EINVAL when it lies. */
static int jd__body(const struct jd_cursor *c, struct jitdump_record *r)
{
	switch (r->id) {
	case JITDUMP_CODE_LOAD:
		return jd__load(c, &r->load);
	case JITDUMP_CODE_MOVE:
		return jd__move(c, &r->move);
	case JITDUMP_CODE_DEBUG_INFO:
		return jd__debug_info(c, &r->debug_info);
	case JITDUMP_CODE_UNWINDING_INFO:
		return jd__unwinding(c, &r->unwinding);
	default:
		return 0;
	}
}

ssize_t jitdump__parse_records(const void *buf, size_t len, bool swapped,
			       struct jitdump_stats *stats, jitdump_cb cb, void *arg)
{
	struct jitdump_stats dummy;
	size_t pos = 0;
	int err;

	if (!stats)
		stats = &dummy;
	while (len - pos >= JITDUMP_PREFIX_SIZE) {
		struct jd_cursor c = { .p = (const unsigned char *)buf + pos, .swapped = swapped };
		struct jitdump_record r;

		memset(&r, 0, sizeof(r));
		r.id = jd__u32(&c, 0);
		r.total_size = jd__u32(&c, 4);
		r.timestamp = jd__u64(&c, 8);
		if (r.total_size < JITDUMP_PREFIX_SIZE || r.total_size > JITDUMP_RECORD_MAX)
			return -EINVAL;
		if (len - pos < r.total_size)
			break;
		c.len = r.total_size;
		pos += r.total_size;
		if (jd__body(&c, &r)) {
			stats->malformed++;
			continue;
		}
		stats->records++;
		if (r.id > JITDUMP_CODE_UNWINDING_INFO)
			stats->unknown++;
		err = cb(&r, arg);
		if (err < 0)
			return err;
	}
	return (ssize_t)pos;
}

int jitdump__debug_entry(const struct jitdump_debug_info *d, size_t *off,
			 struct jitdump_debug_entry *e)
{
	struct jd_cursor c = { .p = d->entries, .len = d->entries_len, .swapped = d->swapped };

	if (*off == d->entries_len)
		return -ENOENT;
	return jd__debug_entry_at(&c, *off, e, off);
}
