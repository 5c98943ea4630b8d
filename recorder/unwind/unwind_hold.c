// SPDX-License-Identifier: GPL-2.0-only
/*
 * --unwind=record while the side-band of the processes that existed before
 * the recording is synthesized in the background (unwind.h's
 * unwinder__hold): a DWARF sample whose user IP lies in no map the tracker
 * knows yet cannot be unwound now, and its stack copy is gone once its ring
 * space is released, so the raw record is copied aside; when the side-band
 * is in, unwinder__release unwinds the held samples with the maps it brought
 * and hands them out to be written after it. The hold is bounded
 * (UNWIND_HOLD_MAX): past it a sample is unwound at once with what is known,
 * as the synchronous start would never have to.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "prec/dso_track.h"
#include "prec/log.h"
#include "unwind.h"
#include "unwind_int.h"

bool unwind_hold__take(struct unwinder *u, const struct uw_event *ev, const uint8_t *rec,
		       size_t size)
{
	struct uw_hold *h = &u->hold;
	struct dso_track_map m;
	uint64_t ip;
	uint32_t pid;

	/* Without a tracker nothing will ever be known: no point waiting. */
	if (!u->track || unwind_sample_user_ip(ev, rec, size, &pid, &ip) ||
	    !dso_track__find_map(u->track, pid, ip, &m))
		return false;
	/* The whole bound at once: untouched pages cost no memory, and the
	 * buffer never moves. */
	if (!h->buf)
		h->buf = malloc(UNWIND_HOLD_MAX);
	if (!h->buf || h->len + size > UNWIND_HOLD_MAX) {
		h->full++;
		return false;
	}
	memcpy(h->buf + h->len, rec, size);
	h->len += size;
	h->held++;
	return true;
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
	h->on = false;
	if (h->held || h->full)
		pr_verbose("--unwind=record: %llu samples waited for the side-band of existing processes, %llu unwound at once (the %u MiB hold was full)\n",
			   (unsigned long long)h->held, (unsigned long long)h->full,
			   UNWIND_HOLD_MAX >> 20);
	if (!h->len)
		return 0;
	if (unwind_out_reserve(u, h->len))
		return -ENOMEM;
	for (size_t at = 0; at < h->len;) {
		const struct perf_event_header *eh = (const void *)(h->buf + at);

		len += unwinder__record(u, h->buf + at, u->out + len);
		at += eh->size;
	}
	free(h->buf);
	h->buf = NULL;
	h->len = 0;
	iov[0].iov_base = u->out;
	iov[0].iov_len = len;
	return 1;
}
