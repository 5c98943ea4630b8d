// SPDX-License-Identifier: GPL-2.0-only
/* The drain loop (drain.h). */
#include <errno.h>
#include <poll.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "prec/dso_track.h"
#include "prec/event.h"
#include "prec/mmap.h"
#include "prec/writer.h"
#include "drain.h"
#include "sideband_log.h"
#include "unwind/unwind.h"

static const struct perf_event_header finished_round = {
	.type = PERF_RECORD_FINISHED_ROUND,
	.misc = 0,
	.size = sizeof(struct perf_event_header),
};

int drain__init(struct drain *d, struct ring *rings, int nr_rings, struct writer *w, int time_off)
{
	memset(d, 0, sizeof(*d));
	d->rings = rings;
	d->nr_rings = nr_rings;
	d->w = w;
	d->time_off = time_off;
	d->out_pfd = -1;
	d->batch_bytes = DRAIN_BATCH_BYTES;
	d->iov = calloc(2 * (size_t)nr_rings + 1, sizeof(*d->iov));
	d->pending = calloc((size_t)nr_rings, sizeof(*d->pending));
	if (!d->iov || !d->pending) {
		drain__exit(d);
		return -ENOMEM;
	}
	return 0;
}

void drain__exit(struct drain *d)
{
	free(d->iov);
	free(d->pending);
	d->iov = NULL;
	d->pending = NULL;
}

/* Counts what the summary and the SAMPLE_TIME feature need; reads headers only. */
static void drain__scan(struct drain *d, struct ring *r)
{
	uint64_t pos = r->start;

	for (;;) {
		uint64_t rec = pos;
		const struct perf_event_header *h = ring__read_event(r, &pos);

		if (!h)
			break;
		if (d->track)
			dso_track__ring_record(d->track, r, rec, h);
		if (d->sblog && sideband_log__wants(h->type))
			sideband_log__add_ring(d->sblog, r, rec, h->size);
		if (h->type == PERF_RECORD_SAMPLE) {
			d->stats.samples++;
			if (d->time_off >= 0 && h->size >= sizeof(*h) + (unsigned)d->time_off + 8) {
				uint64_t t = ring__peek_u64(r, rec + sizeof(*h) + d->time_off);

				if (!d->stats.first_time || t < d->stats.first_time)
					d->stats.first_time = t;
				if (t > d->stats.last_time)
					d->stats.last_time = t;
			}
		} else if (h->type == PERF_RECORD_LOST && h->size >= sizeof(struct prec_lost_event)) {
			d->stats.lost += ring__peek_u64(r, rec + offsetof(struct prec_lost_event, lost));
			d->stats.lost_records++;
		}
	}
}

/*
 * --max-size: shrinks r's window to the whole records that fit in what is
 * left of the cap, so the file never passes it by more than the features.
 */
static void drain__cap(struct drain *d, struct ring *r, uint64_t *room)
{
	uint64_t pos = r->start, cut = r->start;

	if (r->end - r->start <= *room) {
		*room -= r->end - r->start;
		return;
	}
	while (ring__read_event(r, &pos) && pos - r->start <= *room)
		cut = pos;
	r->end = cut;
	*room = 0;
	d->capped = true;
}

/*
 * Writes the windows of rings [from, to) gathered in d->iov[0..cnt) (the
 * unwinder's copy of them with --unwind=record), FINISHED_ROUND after them
 * when round, and gives the space back to the kernel. 0 or the writer's
 * -errno (then nothing is released: the records stay in the rings).
 */
static int drain__flush(struct drain *d, int from, int to, int cnt, bool round)
{
	int ret;

	if (d->unwind && cnt) {
		cnt = unwinder__rewrite(d->unwind, d->rings + from, d->pending + from, to - from,
					d->iov);
		if (cnt < 0)
			return cnt;
	}
	/* Everything before this marker may be sorted and flushed by the reader. */
	if (round) {
		d->iov[cnt].iov_base = (void *)&finished_round;
		d->iov[cnt].iov_len = sizeof(finished_round);
		cnt++;
	}
	ret = writer__writev_ring(d->w, d->iov, cnt, round);
	if (ret)
		return ret;
	for (int i = from; i < to; i++)
		if (d->pending[i])
			ring__consume(&d->rings[i]);
	return 0;
}

int64_t drain__pass(struct drain *d)
{
	int cnt = 0, from = 0;
	uint64_t bytes = 0, batch = 0;
	uint64_t room = d->max_bytes > d->stats.bytes ? d->max_bytes - d->stats.bytes : 0;
	int ret;

	if (d->capped)
		return 0;

	for (int i = 0; i < d->nr_rings; i++) {
		struct ring *r = &d->rings[i];

		d->pending[i] = false;
		if (!ring__read_init(r))
			continue;
		/* --mmap-flush: a ring with less than that waits for more (the
		 * last passes, with flush 0, take everything). */
		if (d->flush > 1 && r->end - r->start < d->flush)
			continue;
		if (d->max_bytes) {
			drain__cap(d, r, &room);
			if (r->end == r->start)
				continue;
		}
		drain__scan(d, r);
		bytes += r->end - r->start;
		batch += r->end - r->start;
		cnt += ring__spans(r, &d->iov[cnt]);
		d->pending[i] = true;
		/* A full batch goes out now and its rings are released at once:
		 * under a high rate the kernel gets the space back one write
		 * earlier, instead of after every ring's data is written. */
		if (batch >= d->batch_bytes && i + 1 < d->nr_rings) {
			ret = drain__flush(d, from, i + 1, cnt, false);
			if (ret)
				return ret;
			from = i + 1;
			cnt = 0;
			batch = 0;
		}
	}
	if (!bytes)
		return 0;
	ret = drain__flush(d, from, d->nr_rings, cnt, true);
	if (ret)
		return ret;
	d->stats.bytes += bytes;
	if (d->track)
		dso_track__end_pass(d->track);
	return (int64_t)bytes;
}

int drain__run(struct drain *d, struct pollfd *pfd, int nfds, bool stop_on_hup,
	       bool (*stop)(void *arg), void *arg, const sigset_t *sigmask)
{
	int64_t n;
	int live = nfds - (d->out_pfd >= 0);

	for (;;) {
		n = drain__pass(d);
		if (n < 0)
			return (int)n;
		if (stop(arg) || (stop_on_hup && live == 0))
			break;
		if (n > 0) {
			/* Busy: look again before sleeping, but let the signals in
			 * first (they are blocked outside ppoll). Under saturation
			 * every pass finds data, system-wide sampling of this very
			 * loop included, and without this the command's end
			 * (SIGCHLD) or a SIGINT would never be seen. */
			static const struct timespec zero;

			ppoll(NULL, 0, &zero, sigmask);
			continue;
		}
		struct timespec ts = { d->timeout_ms / 1000, (d->timeout_ms % 1000) * 1000000L };
		int p = ppoll(pfd, (nfds_t)nfds, d->timeout_ms ? &ts : NULL, sigmask);

		if (p < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		/* The stream's reader exited: stop now, not at the next write,
		 * which may be long in coming for a quiet workload. */
		if (d->out_pfd >= 0 && (pfd[d->out_pfd].revents & (POLLERR | POLLHUP)))
			return -EPIPE;
		d->stats.wakeups++;
		for (int i = 0; i < nfds; i++) {
			if (i == d->out_pfd)
				continue;
			/* An fd whose task is gone reports HUP forever: stop polling
			 * it; its ring is still drained every pass. When every
			 * target is gone, -p/-t recordings end, as perf's do. */
			if (pfd[i].fd >= 0 && (pfd[i].revents & (POLLHUP | POLLERR)) &&
			    !(pfd[i].revents & POLLIN)) {
				pfd[i].fd = -1;
				live--;
			}
		}
	}
	return 0;
}

int drain__tail(struct drain *d, bool (*give_up)(void *arg), void *arg)
{
	int with_data = 0;

	if (d->no_tail)
		return 0;
	d->flush = 0;
	for (int i = 0; i < DRAIN_TAIL_PASSES; i++) {
		int64_t n;

		if (give_up && give_up(arg))
			break;
		n = drain__pass(d);
		if (n < 0)
			return (int)n;
		if (n == 0)
			break;
		with_data++;
	}
	return with_data;
}
