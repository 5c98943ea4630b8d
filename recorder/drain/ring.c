// SPDX-License-Identifier: GPL-2.0-only
/* One perf ring buffer, read without copying (see include/prec/mmap.h). */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "drain/ring.h"

int ring__mmap(struct ring *r, int fd, int cpu, size_t data_bytes, bool backward)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t len = page + data_bytes;
	void *base;

	memset(r, 0, sizeof(*r));
	base = mmap(NULL, len, backward ? PROT_READ : PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (base == MAP_FAILED)
		return -errno;
	r->ctl = base;
	r->data = (unsigned char *)base + page;
	r->mask = data_bytes - 1;
	r->map_len = len;
	r->fd = fd;
	r->cpu = cpu;
	r->backward = backward;
	return 0;
}

/*
 * A backward ring holds records from head upwards, newest first, until a
 * header of size 0 (never written) or one ring's worth of bytes.
 */
static uint64_t ring__backward_end(const struct ring *r, uint64_t head)
{
	uint64_t size = r->mask + 1, pos = head;

	for (;;) {
		const struct perf_event_header *h = (const void *)(r->data + (pos & r->mask));

		if (h->size < sizeof(*h) || h->size & 7 || pos - head + h->size > size)
			return pos;
		pos += h->size;
	}
}

void ring__init_mem(struct ring *r, struct perf_event_mmap_page *ctl, void *data,
		    size_t data_bytes)
{
	memset(r, 0, sizeof(*r));
	r->ctl = ctl;
	r->data = data;
	r->mask = data_bytes - 1;
	r->fd = -1;
	r->cpu = -1;
}

void ring__munmap(struct ring *r)
{
	if (r->map_len)
		munmap(r->ctl, r->map_len);
	r->map_len = 0;
	r->ctl = NULL;
	r->data = NULL;
}

uint64_t ring__read_init(struct ring *r)
{
	/* Acquire pairs with the kernel's store of data_head after the data. */
	uint64_t head = __atomic_load_n(&r->ctl->data_head, __ATOMIC_ACQUIRE);

	if (r->backward) {
		r->start = head;
		r->end = ring__backward_end(r, head);
		/* A snapshot after another: only what came since (positions count
		 * down, so the older records start at the previous head). */
		if (r->done && r->prev - head < r->end - head)
			r->end = r->prev;
		r->prev = head;
		r->done = true;
		return r->end - r->start;
	}

	r->start = r->ctl->data_tail;
	r->end = head;
	return r->end - r->start;
}

const struct perf_event_header *ring__read_event(struct ring *r, uint64_t *pos)
{
	const struct perf_event_header *h;

	/* Differences, not sums: a backward ring's positions count down from 0
	 * and the window may straddle 2^64. */
	if (r->end - *pos < sizeof(*h))
		return NULL;
	/* Records are 8-byte aligned and the data size is a power of two, so
	 * an 8-byte header never straddles the end of the data area. */
	h = (const void *)(r->data + (*pos & r->mask));
	if (h->size < sizeof(*h) || h->size > r->end - *pos)
		return NULL;
	*pos += h->size;
	return h;
}

uint64_t ring__peek_u64(const struct ring *r, uint64_t pos)
{
	uint64_t v;
	uint64_t off = pos & r->mask;

	/* An aligned u64 cannot wrap either; records are 8-aligned. */
	memcpy(&v, r->data + off, sizeof(v));
	return v;
}

void ring__copy(const struct ring *r, uint64_t pos, void *to, size_t len)
{
	size_t off = (size_t)(pos & r->mask), first = (size_t)(r->mask + 1) - off;

	if (first >= len) {
		memcpy(to, r->data + off, len);
	} else {
		memcpy(to, r->data + off, first);
		memcpy((char *)to + first, r->data, len - first);
	}
}

int ring__spans(const struct ring *r, struct iovec iov[2])
{
	uint64_t size = r->mask + 1;
	uint64_t len = r->end - r->start;
	uint64_t off = r->start & r->mask;

	if (!len)
		return 0;
	iov[0].iov_base = r->data + off;
	if (off + len <= size) {
		iov[0].iov_len = len;
		return 1;
	}
	iov[0].iov_len = size - off;
	iov[1].iov_base = r->data;
	iov[1].iov_len = len - (size - off);
	return 2;
}

void ring__consume(struct ring *r)
{
	if (r->backward) {
		r->start = r->end; /* read-only mapping: the kernel keeps writing */
		return;
	}
	/* Release: our reads of the window happen before the kernel may reuse it. */
	__atomic_store_n(&r->ctl->data_tail, r->end, __ATOMIC_RELEASE);
	r->start = r->end;
}
