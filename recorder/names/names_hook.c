// SPDX-License-Identifier: GPL-2.0-only
/* The drain hook that places JIT ELFs over anonymous code (names_hook.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <linux/perf_event.h>

#include "prec/event.h"
#include "prec/grow.h"
#include "drain/drain.h"
#include "drain/ring.h"
#include "dsos/dso_track.h"
#include "names/names.h"
#include "names/names_hook.h"

#define RECORD_MAX 65536
#define ALIGN8(x) (((x) + 7) & ~(size_t)7)

static int hook_room(struct names_hook *h, size_t need)
{
	if (h->len + need <= h->cap)
		return 0;
	if (h->len + need > NAMES_HOOK_MAX)
		return -ENOSPC;
	return grow__array(&h->buf, &h->cap, h->len + need, 1, 16384, NAMES_HOOK_MAX);
}

bool names_hook__is_anon_exec(const struct prec_mmap2_event *k, size_t size)
{
	return size > sizeof(*k) && k->header.type == PERF_RECORD_MMAP2 &&
	       (k->header.misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_USER &&
	       (k->prot & PROT_EXEC) &&
	       strnlen(k->filename, size - sizeof(*k)) < size - sizeof(*k) &&
	       dso_track__is_anon_name(k->filename);
}

size_t names_hook__place(void *dst, size_t room, const struct prec_mmap2_event *k, size_t size,
			 const char *name)
{
	size_t kname, trailer, nlen = strlen(name), out;
	struct prec_mmap2_event *ev = dst;

	/* Size first: below the fixed part, size - sizeof(*k) would wrap. */
	if (size <= sizeof(*k))
		return 0;
	kname = strnlen(k->filename, size - sizeof(*k));
	if (kname == size - sizeof(*k))
		return 0; /* no NUL: not a record to copy */
	trailer = sizeof(*k) + ALIGN8(kname + 1) <= size ? size - sizeof(*k) - ALIGN8(kname + 1) :
							   0;
	out = sizeof(*k) + ALIGN8(nlen + 1) + trailer;
	if (out > UINT16_MAX || out > room)
		return 0;
	memset(ev, 0, out);
	ev->header.type = PERF_RECORD_MMAP2;
	ev->header.misc = k->header.misc & ~PERF_RECORD_MISC_MMAP_BUILD_ID;
	ev->header.size = (uint16_t)out;
	ev->pid = k->pid;
	ev->tid = k->tid;
	ev->start = k->start;
	ev->len = k->len;
	/* The ELF's symbols are absolute: perf's map_ip (ip - start + pgoff)
	 * must be ip. */
	ev->pgoff = k->start;
	ev->prot = k->prot;
	ev->flags = k->flags;
	memcpy(ev->filename, name, nlen);
	memcpy((uint8_t *)ev + out - trailer, (const uint8_t *)k + size - trailer, trailer);
	return out;
}

/* The record placing name over the kernel's MMAP2 k, into the pass's. */
static void place(struct names_hook *h, const struct prec_mmap2_event *k, size_t size,
		  const char *name)
{
	size_t out;

	if (hook_room(h, sizeof(*k) + ALIGN8(strlen(name) + 1) + size)) {
		h->dropped++;
		return;
	}
	out = names_hook__place(h->buf + h->len, h->cap - h->len, k, size, name);
	if (!out) {
		h->dropped++;
		return;
	}
	h->len += out;
	h->placed++;
}

/* A record's sample_id time (0: none). */
static uint64_t record_time(const struct names_hook *h, const struct ring *r, uint64_t pos,
			    const struct perf_event_header *hdr)
{
	uint64_t t = 0;

	if (h->time_back > 0 && hdr->size >= sizeof(*hdr) + (size_t)h->time_back)
		ring__copy(r, pos + hdr->size - (uint64_t)h->time_back, &t, sizeof(t));
	return t;
}

/* An event kept until the pass's end: a new process's FORK (rec_off ==
 * SIZE_MAX) or an anonymous executable MMAP2, copied at rec_off. */
static void pend(struct names_hook *h, uint32_t pid, uint64_t time, const void *rec, size_t size)
{
	struct names_hook_event *e;

	if (grow__array(&h->ev, &h->ev_cap, h->nr_ev + 1, sizeof(*h->ev), 64, NAMES_HOOK_MAX) ||
	    (rec &&
	     grow__array(&h->recs, &h->recs_cap, h->recs_len + size, 1, 16384, NAMES_HOOK_MAX))) {
		h->dropped++;
		return;
	}
	e = &h->ev[h->nr_ev++];
	*e = (struct names_hook_event){ .pid = pid,
					.time = time,
					.seq = h->nr_ev,
					.rec_off = rec ? h->recs_len : SIZE_MAX,
					.size = size };
	if (rec) {
		memcpy(h->recs + h->recs_len, rec, size);
		h->recs_len += size;
	}
}

static enum drain_verdict hook_record(void *arg, const struct ring *r, uint64_t pos,
				      const struct perf_event_header *hdr)
{
	struct names_hook *h = arg;
	const struct prec_mmap2_event *k;
	uint32_t v[4];

	if ((hdr->type == PERF_RECORD_EXIT || hdr->type == PERF_RECORD_FORK) && hdr->size >= 24) {
		ring__copy(r, pos + 8, v, sizeof(v)); /* pid, ppid, tid, ptid */
		if (hdr->type == PERF_RECORD_EXIT)
			names__proc_exit(h->n, v[0]);
		else if (v[0] == v[2]) /* a new process, not a thread */
			pend(h, v[0], record_time(h, r, pos, hdr), NULL, 0);
		return DRAIN_KEEP;
	}
	if (hdr->type != PERF_RECORD_MMAP2 || hdr->size <= sizeof(*k) ||
	    (hdr->misc & PERF_RECORD_MISC_CPUMODE_MASK) != PERF_RECORD_MISC_USER)
		return DRAIN_KEEP;
	ring__copy(r, pos + offsetof(struct prec_mmap2_event, prot), v, sizeof(v[0]));
	if (!(v[0] & PROT_EXEC))
		return DRAIN_KEEP;
	ring__copy(r, pos, h->rec, hdr->size);
	k = (const struct prec_mmap2_event *)h->rec;
	if (names_hook__is_anon_exec(k, hdr->size))
		pend(h, k->pid, record_time(h, r, pos, hdr), k, hdr->size);
	return DRAIN_KEEP;
}

/* Time order; at one time a FORK first (the process exists before it maps
 * anything); else the order seen. */
static int event_order(const void *a, const void *b)
{
	const struct names_hook_event *x = a, *y = b;
	bool xf = x->rec_off == SIZE_MAX, yf = y->rec_off == SIZE_MAX;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	if (xf != yf)
		return xf ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/*
 * The pass's events, in time order: the rings are read one after the
 * other, so a process's FORK on one CPU may come after its MMAP2s on
 * another. A reused pid's new process must not take the old one's ELF.
 */
static void resolve(struct names_hook *h)
{
	if (!h->nr_ev)
		return;
	qsort(h->ev, h->nr_ev, sizeof(*h->ev), event_order);
	for (size_t i = 0; i < h->nr_ev; i++) {
		const struct names_hook_event *e = &h->ev[i];
		const char *name;

		if (e->rec_off == SIZE_MAX) {
			names__proc_fork(h->n, e->pid, e->time);
			continue;
		}
		name = names__anon_name_at(h->n, e->pid, e->time);
		if (name)
			place(h, (const void *)(h->recs + e->rec_off), e->size, name);
	}
	h->nr_ev = 0;
	h->recs_len = 0;
}

static bool hook_append(void *arg, struct iovec *iov)
{
	struct names_hook *h = arg;

	resolve(h);
	if (!h->len)
		return false;
	iov->iov_base = h->buf;
	iov->iov_len = h->len;
	return true;
}

static void hook_pass(void *arg, const struct drain_stats *pass)
{
	struct names_hook *h = arg;

	(void)pass;
	h->len = 0;
}

int names_hook__attach(struct names_hook *h, struct names *n, struct drain *d, int time_back)
{
	struct drain_hook hk = {
		.on_record = hook_record,
		.append = hook_append,
		.on_pass = hook_pass,
		.arg = h,
	};

	int err;

	memset(h, 0, sizeof(*h));
	h->n = n;
	h->time_back = time_back;
	h->rec = malloc(RECORD_MAX);
	if (!h->rec)
		return -ENOMEM;
	/* A JIT process is followed from the pass that sees its code: a pass
	 * every NAMES_HOOK_TICK_MS at least, so one that lives less than a
	 * quiet ring takes to fill is read while it lives, before its pid
	 * can be another's. */
	err = drain__want_tick(d, NAMES_HOOK_TICK_MS);
	return err < 0 ? err : drain__add_hook(d, &hk);
}

void names_hook__exit(struct names_hook *h)
{
	free(h->buf);
	free(h->rec);
	free(h->recs);
	free(h->ev);
	h->buf = h->rec = h->recs = NULL;
	h->ev = NULL;
	h->len = h->cap = h->recs_len = h->recs_cap = h->nr_ev = h->ev_cap = 0;
}
