// SPDX-License-Identifier: GPL-2.0-only
/*
 * Record-time DWARF unwinding (unwind.h), the record side: which samples are
 * the DWARF events', where their parts are, the rewritten record (user
 * frames into the callchain, registers and stack copy out), the drain's copy
 * pass and the attrs the file gets. The unwinding itself is in
 * unwind_frames.c, the files' tables in unwind_elf.c. Nothing is allocated
 * per sample: the output buffer grows to the largest pass and stays.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>

#include "prec/error.h"
#include "dsos/dso_track.h"
#include "prec/grow.h"
#include "prec/log.h"
#include "drain/ring.h"
#include "prec/writer.h"
#include "drain/drain.h"
#include "unwind/unwind.h"
#include "unwind/unwind_int.h"

#define RECORD_MAX 65536
#define RECORD_SIZE_MAX 65528 /* the largest 8-aligned u16 header.size */
#define GROW_SLACK ((UNWIND_MAX_FRAMES + 1) * 8)

/* Bytes of the sample fields before READ, each a u64 when present. */
#define FIXED_FIELDS                                                                    \
	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
	 PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU |  \
	 PERF_SAMPLE_PERIOD)
#define DWARF_FIELDS (PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER)

static uint64_t rd64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* ---- one sample ---- */

/* Where a DWARF sample's variable parts are, as offsets into the record. */
struct sample_parts {
	size_t cc; /* the callchain's nr */
	size_t cc_end;
	size_t regs; /* REGS_USER: abi, then the registers */
	size_t stack; /* STACK_USER: size, data, dyn_size */
	size_t stack_end;
};

static int sample_parts(const struct uw_event *ev, const uint8_t *rec, size_t size,
			struct sample_parts *p)
{
	uint64_t st = ev->sample_type, rf = ev->read_format, v;
	size_t o = sizeof(struct perf_event_header);

#define INSIDE()                        \
	do {                            \
		if (o > size)           \
			return -EINVAL; \
	} while (0)
#define NEED(n)                               \
	do {                                  \
		INSIDE();                     \
		if (size - o < (uint64_t)(n)) \
			return -EINVAL;       \
	} while (0)
	o += 8 * (size_t)__builtin_popcountll(st & FIXED_FIELDS);
	if (st & PERF_SAMPLE_READ) {
		size_t per = 8 * (1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST));
		size_t times = 8 * (!!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) +
				    !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING));

		if (rf & PERF_FORMAT_GROUP) {
			NEED(8);
			v = rd64(rec + o);
			o += 8 + times;
			INSIDE();
			if (v > (size - o) / per)
				return -EINVAL;
			o += v * per;
		} else {
			o += per + times;
		}
	}
	NEED(8);
	p->cc = o;
	v = rd64(rec + o);
	o += 8;
	if (v > (size - o) / 8)
		return -EINVAL;
	o += v * 8;
	p->cc_end = o;
	if (st & PERF_SAMPLE_RAW) {
		uint32_t raw;

		NEED(4);
		memcpy(&raw, rec + o, sizeof(raw));
		o += 4;
		NEED(raw);
		o += raw;
	}
	if (st & PERF_SAMPLE_BRANCH_STACK) {
		NEED(8);
		v = rd64(rec + o);
		o += 8;
		if (ev->branch_type & PERF_SAMPLE_BRANCH_HW_INDEX)
			o += 8;
		INSIDE();
		if (v > (size - o) / 24)
			return -EINVAL;
		o += v * 24;
	}
	p->regs = o;
	NEED(8);
	if (rd64(rec + o))
		o += 8 * (size_t)ev->nr_regs; /* abi NONE: no registers follow */
	o += 8;
	p->stack = o;
	NEED(8);
	v = rd64(rec + o);
	o += 8;
	if (v) {
		NEED(v);
		o += v;
		NEED(8);
		if (rd64(rec + o) > v)
			return -EINVAL; /* dyn_size beyond the copy */
		o += 8;
	}
	INSIDE();
	p->stack_end = o;
#undef NEED
#undef INSIDE
	return 0;
}

/* The pid and user-space IP (REGS_USER's) of the DWARF sample rec of ev.
 * 0, or -EINVAL when it has no 64-bit user registers or TID. */
static int unwind_sample_user_ip(const struct uw_event *ev, const uint8_t *rec, size_t size,
				 uint32_t *pid, uint64_t *ip)
{
	struct sample_parts p;

	if (ev->tid_off < 0 || sample_parts(ev, rec, size, &p) ||
	    rd64(rec + p.regs) != PERF_SAMPLE_REGS_ABI_64)
		return -EINVAL;
	memcpy(pid, rec + ev->tid_off, sizeof(*pid));
	*ip = rd64(rec + p.regs + 8 + 8 * ev->reg_pos[UNW_REG_IP]);
	return 0;
}

static const struct uw_event *event_of(const struct unwinder *u, const uint8_t *rec, size_t size)
{
	size_t lo = 0, hi = u->nr_ids;
	uint64_t id;

	if (u->id_off < 0)
		return &u->ev[0];
	if (size < (size_t)u->id_off + 8)
		return NULL;
	id = rd64(rec + u->id_off);
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (u->ids[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < u->nr_ids && u->ids[lo].id == id ? &u->ev[u->ids[lo].ev] : NULL;
}

/* The DWARF sample rec rewritten into dst; 0 when it cannot be parsed. */
static size_t rewrite_sample(struct unwinder *u, const struct uw_event *ev, const uint8_t *rec,
			     size_t size, uint8_t *dst)
{
	struct perf_event_header h;
	struct sample_parts p;
	uint64_t nr, user_ctx = PERF_CONTEXT_USER;
	uint32_t pid = 0;
	bool partial = false, has_user = false;
	int n = 0, max;
	size_t o, len;

	if (sample_parts(ev, rec, size, &p))
		return 0;
	nr = rd64(rec + p.cc);
	for (uint64_t i = 0; i < nr; i++)
		if (rd64(rec + p.cc + 8 + 8 * i) == PERF_CONTEXT_USER)
			has_user = true; /* the kernel walked the user stack already */
	if (ev->tid_off >= 0)
		memcpy(&pid, rec + ev->tid_off, sizeof(pid));
	/* Room for the frames: the record size is a u16. */
	max = (int)((RECORD_SIZE_MAX - (size - (p.stack_end - p.regs))) / 8) - 1;
	if (max > ev->max_frames)
		max = ev->max_frames;
	if (!has_user && rd64(rec + p.regs) == PERF_SAMPLE_REGS_ABI_64) {
		uint64_t ssize = rd64(rec + p.stack);
		uint64_t dyn = ssize ? rd64(rec + p.stack + 8 + ssize) : 0;

		n = unwind_frames(u, ev, pid, rec + p.regs + 8, rec + p.stack + 8, dyn, max,
				  &partial);
	} else if (!has_user && rd64(rec + p.regs) != PERF_SAMPLE_REGS_ABI_NONE && max > 0) {
		/* A 32-bit task: x86-64 unwind rules do not apply; its IP only. */
		u->ips[0] = rd64(rec + p.regs + 8 + 8 * ev->reg_pos[UNW_REG_IP]);
		n = 1;
		partial = true;
		u->st.other++;
	}
	len = size - (p.stack_end - p.regs) + (n ? 8 * (size_t)(n + 1) : 0);
	memcpy(&h, rec, sizeof(h));
	h.size = (uint16_t)len;
	memcpy(dst, &h, sizeof(h));
	o = sizeof(h);
	memcpy(dst + o, rec + o, p.cc - o);
	o = p.cc;
	nr += n ? (uint64_t)n + 1 : 0;
	memcpy(dst + o, &nr, 8);
	o += 8;
	memcpy(dst + o, rec + p.cc + 8, p.cc_end - p.cc - 8);
	o += p.cc_end - p.cc - 8;
	if (n) {
		memcpy(dst + o, &user_ctx, 8);
		memcpy(dst + o + 8, u->ips, 8 * (size_t)n);
		o += 8 * (size_t)(n + 1);
	}
	/* RAW and BRANCH_STACK, then whatever follows the stack copy. */
	memcpy(dst + o, rec + p.cc_end, p.regs - p.cc_end);
	o += p.regs - p.cc_end;
	memcpy(dst + o, rec + p.stack_end, size - p.stack_end);
	o += size - p.stack_end;
	u->st.samples++;
	u->st.partial += partial;
	u->st.frames += (uint64_t)n;
	u->st.bytes_in += size;
	u->st.bytes_out += o;
	return o;
}

/* Whether the DWARF sample rec of ev must wait for the background
 * side-band: its user IP is in no map the tracker knows yet (without a
 * tracker nothing will ever be known: no point waiting). */
static bool unwind__must_wait(struct unwinder *u, const struct uw_event *ev, const uint8_t *rec,
			      size_t size)
{
	struct dso_track_map m;
	uint64_t ip;
	uint32_t pid;

	return u->track && !unwind_sample_user_ip(ev, rec, size, &pid, &ip) &&
	       dso_track__find_map(u->track, pid, ip, &m) != 0;
}

size_t unwinder__record(struct unwinder *u, const void *rec, void *dst)
{
	const uint8_t *r = rec;
	struct perf_event_header h;
	const struct uw_event *ev;
	size_t n;

	memcpy(&h, r, sizeof(h));
	if (h.type == PERF_RECORD_SAMPLE) {
		ev = event_of(u, r, h.size);
		/* Its process's maps are still to come: kept until they are. */
		if (ev && ev->dwarf && u->hold.on && unwind__must_wait(u, ev, r, h.size) &&
		    uw_hold__keep(&u->hold, r, h.size))
			return 0;
		if (ev && ev->dwarf && (n = rewrite_sample(u, ev, r, h.size, dst)))
			return n;
	} else if (h.type == PERF_RECORD_COMM && (h.misc & PERF_RECORD_MISC_COMM_EXEC) &&
		   h.size >= 16) {
		uint32_t pid;

		memcpy(&pid, r + 8, sizeof(pid));
		unwind_spaces_exec(u, pid);
	}
	memcpy(dst, r, h.size);
	return h.size;
}

/* ---- the drain's copy path ---- */

static int out_reserve(struct unwinder *u, size_t need)
{
	/* It holds a pass's ring bytes (or the hold's), already in memory. */
	return grow__array(&u->out, &u->out_cap, need, 1, 1 << 20, GROW_MEMORY) ? -ENOMEM : 0;
}

void unwinder__hold(struct unwinder *u, bool on)
{
	if (u)
		u->hold.on = on;
}

int unwinder__release(struct unwinder *u, struct iovec *iov)
{
	struct uw_hold *h;
	size_t len = 0;

	if (!u)
		return 0;
	h = &u->hold;
	uw_hold__end(h);
	if (!h->len)
		return 0;
	if (out_reserve(u, h->len + GROW_SLACK))
		return -ENOMEM;
	for (size_t at = 0; at < h->len;) {
		const struct perf_event_header *eh = (const void *)(h->buf + at);

		len += unwinder__record(u, h->buf + at, u->out + len);
		at += eh->size;
	}
	uw_hold__free(h);
	iov[0].iov_base = u->out;
	iov[0].iov_len = len;
	return 1;
}

int unwinder__rewrite(struct unwinder *u, struct ring *rings, const bool *pending, int nr,
		      struct iovec *iov)
{
	size_t len = 0, total = 0;

	for (int i = 0; i < nr; i++)
		if (pending[i])
			total += rings[i].end - rings[i].start;
	if (!total)
		return 0;
	if (out_reserve(u, total + GROW_SLACK))
		return -ENOMEM;
	for (int i = 0; i < nr; i++) {
		struct ring *r = &rings[i];
		const struct perf_event_header *h;
		uint64_t pos = r->start, size = r->mask + 1;

		if (!pending[i])
			continue;
		while ((h = ring__read_event(r, &pos))) {
			uint64_t off = (pos - h->size) & r->mask;
			const uint8_t *rec = r->data + off;

			/* Rewritten samples shrink; a short stack copy may not. */
			if (out_reserve(u, len + h->size + GROW_SLACK))
				return -ENOMEM;
			if (off + h->size > size) {
				memcpy(u->scratch, r->data + off, size - off);
				memcpy(u->scratch + (size - off), r->data, h->size - (size - off));
				rec = u->scratch;
			}
			len += unwinder__record(u, rec, u->out + len);
		}
		/* A corrupt header ends the walk: the rest goes out as it is,
		 * as on the zero-copy path. */
		for (; pos != r->end; pos++) {
			if (out_reserve(u, len + 1))
				return -ENOMEM;
			u->out[len++] = r->data[pos & r->mask];
		}
	}
	iov[0].iov_base = u->out;
	iov[0].iov_len = len;
	return 1;
}

/* ---- set-up and the end ---- */

static int id_cmp(const void *a, const void *b)
{
	const struct uw_id *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

static int event_init(struct uw_event *ev, const struct perf_event_attr *attr)
{
	uint64_t st = attr->sample_type;
	int ret;

	memset(ev, 0, sizeof(*ev));
	ev->sample_type = st;
	ev->read_format = attr->read_format;
	ev->branch_type = attr->branch_sample_type;
	ev->file_attr = *attr;
	ev->tid_off = -1;
	if (st & PERF_SAMPLE_TID)
		ev->tid_off = 8 + 8 * __builtin_popcountll(
					      st & (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP));
	if ((st & DWARF_FIELDS) != DWARF_FIELDS || !attr->sample_stack_user)
		return 0;
	ret = unwind_event_regs(ev, attr->sample_regs_user);
	if (ret)
		return ret;
	ev->max_frames = attr->sample_max_stack && attr->sample_max_stack < UNWIND_MAX_FRAMES ?
				 attr->sample_max_stack :
				 UNWIND_MAX_FRAMES;
	ev->dwarf = true;
	/* The file's view: a plain callchain, user frames included. */
	ev->file_attr.sample_type &= ~(uint64_t)(PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER);
	ev->file_attr.sample_regs_user = 0;
	ev->file_attr.sample_stack_user = 0;
	ev->file_attr.exclude_callchain_user = 0;
	return 0;
}

/*
 * Where a sample of several events says which event it is: IDENTIFIER comes
 * first; ID, which the events share a layout to have alone, after IP, TID,
 * TIME and ADDR. -1 for one event (none is needed) or neither.
 */
static int sample_id_offset(uint64_t st, uint32_t nr)
{
	if (nr < 2)
		return -1;
	if (st & PERF_SAMPLE_IDENTIFIER)
		return 8;
	if (st & PERF_SAMPLE_ID)
		return 8 + 8 * __builtin_popcountll(st & (PERF_SAMPLE_IP | PERF_SAMPLE_TID |
							  PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR));
	return -1;
}

int unwinder__new(struct unwinder **out, const struct writer_event *events, uint32_t nr)
{
	struct unwinder *u;
	size_t nr_ids = 0, k = 0;
	bool any = false;
	int ret = -ENOMEM;

	*out = NULL;
	if (!nr)
		return -EINVAL;
	u = calloc(1, sizeof(*u));
	if (!u)
		return -ENOMEM;
	for (uint32_t i = 0; i < nr; i++)
		nr_ids += events[i].nr_ids;
	u->ev = calloc(nr, sizeof(*u->ev));
	u->ids = calloc(nr_ids ? nr_ids : 1, sizeof(*u->ids));
	u->scratch = malloc(RECORD_MAX);
	if (!u->ev || !u->ids || !u->scratch)
		goto fail;
	u->nr_ev = nr;
	u->id_off = sample_id_offset(events[0].attr->sample_type, nr);
	for (uint32_t i = 0; i < nr; i++) {
		ret = event_init(&u->ev[i], events[i].attr);
		if (ret)
			goto fail;
		any |= u->ev[i].dwarf;
		for (uint32_t j = 0; j < events[i].nr_ids; j++)
			u->ids[k++] = (struct uw_id){ events[i].ids[j], i };
	}
	ret = -EINVAL;
	if (!any || (nr > 1 && u->id_off < 0))
		goto fail;
	u->nr_ids = k;
	qsort(u->ids, k, sizeof(*u->ids), id_cmp);
	*out = u;
	return 0;
fail:
	unwinder__delete(u);
	return ret;
}

int unwinder__setup(struct unwinder **out, struct writer_event *events, uint32_t nr,
		    struct prec_err *e)
{
	int ret = unwinder__new(out, events, nr);

	if (ret)
		return prec_err__set(
			e, ret, "cannot unwind at record time: %s (%s)", strerror(-ret),
			ret == -EOPNOTSUPP ?
				"it is x86-64 only: drop --unwind=record" :
			ret == -EINVAL ?
				"no event samples a user stack with its IP and SP: drop --user-regs or --unwind=record" :
				"free some memory");
	unwinder__file_attrs(*out, events, nr);
	return 0;
}

int unwinder__clone(struct unwinder **out, const struct unwinder *u)
{
	struct unwinder *c = calloc(1, sizeof(*c));

	*out = NULL;
	if (!c)
		return -ENOMEM;
	c->ev = malloc(u->nr_ev * sizeof(*c->ev));
	c->ids = malloc((u->nr_ids ? u->nr_ids : 1) * sizeof(*c->ids));
	c->scratch = malloc(RECORD_MAX);
	if (!c->ev || !c->ids || !c->scratch) {
		unwinder__delete(c);
		return -ENOMEM;
	}
	/* The events as parsed (the file attrs are u's, written once). */
	memcpy(c->ev, u->ev, u->nr_ev * sizeof(*c->ev));
	memcpy(c->ids, u->ids, u->nr_ids * sizeof(*c->ids));
	c->nr_ev = u->nr_ev;
	c->nr_ids = u->nr_ids;
	c->id_off = u->id_off;
	*out = c;
	return 0;
}

void unwinder__exec(struct unwinder *u, uint32_t pid)
{
	if (u)
		unwind_spaces_exec(u, pid);
}

void unwinder__delete(struct unwinder *u)
{
	if (!u)
		return;
	unwind_spaces_exit(u);
	uelf_cache__exit(&u->elfs);
	free(u->ev);
	free(u->ids);
	free(u->out);
	free(u->scratch);
	uw_hold__free(&u->hold);
	free(u);
}

void unwinder__file_attrs(struct unwinder *u, struct writer_event *events, uint32_t nr)
{
	for (uint32_t i = 0; i < nr && i < u->nr_ev; i++)
		if (u->ev[i].dwarf)
			events[i].attr = &u->ev[i].file_attr;
}

void unwinder__set_track(struct unwinder *u, struct dso_track *track)
{
	if (u)
		u->track = track;
}

void unwinder__stats(const struct unwinder *u, struct unwind_stats *st)
{
	*st = u->st;
	st->files = u->elfs.files;
	st->bad_files = u->elfs.bad;
}

void unwinder__summary(const struct unwinder *u, struct drain_stats *st)
{
	struct unwind_stats us;

	unwinder__stats(u, &us);
	st->unwound += us.samples;
	st->unwind_partial += us.partial;
	pr_verbose(
		"unwound %llu samples at record time: %llu frames, %llu stopped early (%llu IP in no file, %llu file without .eh_frame_hdr, %llu stack copy too short, %llu other); %u files, %u unusable; sample bytes %llu -> %llu\n",
		(unsigned long long)us.samples, (unsigned long long)us.frames,
		(unsigned long long)us.partial, (unsigned long long)us.no_map,
		(unsigned long long)us.no_table, (unsigned long long)us.short_stack,
		(unsigned long long)us.other, us.files, us.bad_files,
		(unsigned long long)us.bytes_in, (unsigned long long)us.bytes_out);
}
