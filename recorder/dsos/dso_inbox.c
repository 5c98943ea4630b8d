// SPDX-License-Identifier: GPL-2.0-only
/* A drain stream's inbound side-band queue (dso_inbox.h): many pushers, one
 * taker, a lock only around the buffer swap. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>

#include "dsos/dso_inbox.h"
#include "prec/grow.h"

int dso_inbox__init(struct dso_inbox *in)
{
	memset(in, 0, sizeof(*in)); /* a zeroed mutex is a default one to glibc */
	atomic_init(&in->queued, 0);
	atomic_init(&in->dropped, 0);
	return -pthread_mutex_init(&in->lock, NULL);
}

void dso_inbox__exit(struct dso_inbox *in)
{
	free(in->buf);
	free(in->spare);
	pthread_mutex_destroy(&in->lock);
	memset(in, 0, sizeof(*in));
}

int dso_inbox__push(struct dso_inbox *in, const void *rec)
{
	struct perf_event_header h;
	int ret = 0;

	memcpy(&h, rec, sizeof(h));
	if (h.size < sizeof(h))
		return -EINVAL;
	pthread_mutex_lock(&in->lock);
	if (in->len + h.size > DSO_INBOX_MAX) {
		ret = -ENOSPC;
	} else if (grow__array(&in->buf, &in->cap, in->len + h.size, 1, 4096, DSO_INBOX_MAX)) {
		ret = -ENOMEM;
	}
	if (!ret) {
		memcpy(in->buf + in->len, rec, h.size);
		in->len += h.size;
		atomic_store_explicit(&in->queued, in->len, memory_order_release);
	}
	pthread_mutex_unlock(&in->lock);
	if (ret)
		atomic_fetch_add_explicit(&in->dropped, 1, memory_order_relaxed);
	return ret;
}

uint64_t dso_inbox__take(struct dso_inbox *in, void (*fn)(void *arg, const void *rec, size_t len),
			 void *arg)
{
	uint8_t *got;
	size_t len, cap;
	uint64_t n = 0;

	if (!atomic_load_explicit(&in->queued, memory_order_acquire))
		return 0;
	pthread_mutex_lock(&in->lock);
	got = in->buf;
	len = in->len;
	cap = in->cap;
	in->buf = in->spare;
	in->cap = in->spare_cap;
	in->len = 0;
	atomic_store_explicit(&in->queued, 0, memory_order_relaxed);
	pthread_mutex_unlock(&in->lock);
	for (size_t off = 0; off + sizeof(struct perf_event_header) <= len;) {
		struct perf_event_header h;

		memcpy(&h, got + off, sizeof(h));
		fn(arg, got + off, h.size);
		off += h.size;
		n++;
	}
	in->spare = got;
	in->spare_cap = cap;
	return n;
}
