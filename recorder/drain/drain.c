// SPDX-License-Identifier: GPL-2.0-only
/* The drain loop (drain.h). */
#include <errno.h>
#include <poll.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "prec/event.h"
#include "drain/ring.h"
#include "prec/writer.h"
#include "drain/drain.h"
#include "drain/wake.h"

static const struct perf_event_header finished_round = {
	.type = PERF_RECORD_FINISHED_ROUND,
	.misc = 0,
	.size = sizeof(struct perf_event_header),
};

int drain__init(struct drain *d, struct ring *rings, const struct drain_config *c)
{
	int nr_rings = c->nr_rings;

	memset(d, 0, sizeof(*d));
	d->rings = rings;
	d->nr_rings = nr_rings;
	d->w = c->writer;
	d->time_off = c->time_off;
	d->flush = c->flush;
	d->no_round = c->no_round;
	d->mmap2_build_ids = c->mmap2_build_ids;
	d->before_ring = c->before_ring;
	d->ring_arg = c->ring_arg;
	d->out_pfd = -1;
	d->side_pfd = -1;
	d->wake_pfd = -1;
	d->stop_pfd = -1;
	d->rewriter = -1;
	d->batch_bytes = DRAIN_BATCH_BYTES;
	d->iov = calloc(2 * (size_t)nr_rings + 1 + DRAIN_MAX_HOOKS, sizeof(*d->iov));
	d->pending = calloc((size_t)nr_rings, sizeof(*d->pending));
	if (!d->iov || !d->pending) {
		drain__exit(d);
		return -ENOMEM;
	}
	return 0;
}

void drain__set_writer(struct drain *d, struct writer *w)
{
	d->w = w;
}

void drain__hold_rounds(struct drain *d, bool hold)
{
	d->no_round = hold;
}

bool drain__rounds(const struct drain *d)
{
	return !d->no_round;
}

int drain__want_tick(struct drain *d, int ms)
{
	for (int i = 0; i < DRAIN_MAX_TICKS; i++) {
		if (!d->ticks[i]) {
			d->ticks[i] = ms;
			return i;
		}
	}
	return -ENOSPC;
}

void drain__drop_tick(struct drain *d, int handle)
{
	if (handle >= 0 && handle < DRAIN_MAX_TICKS)
		d->ticks[handle] = 0;
}

int drain__tick_ms(const struct drain *d)
{
	int ms = 0;

	for (int i = 0; i < DRAIN_MAX_TICKS; i++)
		if (d->ticks[i] && (!ms || d->ticks[i] < ms))
			ms = d->ticks[i];
	return ms;
}

int drain__add_between(struct drain *d, int (*fn)(void *arg), void *arg)
{
	if (d->nr_between == DRAIN_MAX_BETWEEN)
		return -ENOSPC;
	d->between[d->nr_between++] = (struct drain_between){ .fn = fn, .arg = arg };
	return 0;
}

void drain__exit(struct drain *d)
{
	free(d->iov);
	free(d->pending);
	d->iov = NULL;
	d->pending = NULL;
}

int drain__add_hook(struct drain *d, const struct drain_hook *h)
{
	if (d->nr_hooks == DRAIN_MAX_HOOKS)
		return -ENOSPC;
	if (h->rewrite) {
		if (d->rewriter >= 0)
			return -EBUSY;
		d->rewriter = d->nr_hooks;
	}
	d->hooks[d->nr_hooks++] = *h;
	return 0;
}

void drain_stats__add(struct drain_stats *to, const struct drain_stats *from)
{
	/* Stored whole: the status line reads a running stream's totals from
	 * another thread (status_line.c), without a lock. */
	__atomic_store_n(&to->samples, to->samples + from->samples, __ATOMIC_RELAXED);
	__atomic_store_n(&to->lost, to->lost + from->lost, __ATOMIC_RELAXED);
	to->lost_records += from->lost_records;
	to->lost_samples += from->lost_samples;
	to->wakeups += from->wakeups;
	__atomic_store_n(&to->bytes, to->bytes + from->bytes, __ATOMIC_RELAXED);
	to->unwound += from->unwound;
	to->unwind_partial += from->unwind_partial;
	to->held += from->held;
	if (from->first_time && (!to->first_time || from->first_time < to->first_time))
		to->first_time = from->first_time;
	if (from->last_time > to->last_time)
		to->last_time = from->last_time;
}

/* What the summary and the SAMPLE_TIME feature need, counted in d->pass;
 * reads headers (and a sample's time) only. */
static void drain__count(struct drain *d, const struct ring *r, uint64_t rec,
			 const struct perf_event_header *h)
{
	struct drain_stats *st = &d->pass;

	if (h->type == PERF_RECORD_SAMPLE) {
		st->samples++;
		if (d->time_off >= 0 && h->size >= sizeof(*h) + (unsigned)d->time_off + 8) {
			uint64_t t = ring__peek_u64(r, rec + sizeof(*h) + d->time_off);

			if (!st->first_time || t < st->first_time)
				st->first_time = t;
			if (t > st->last_time)
				st->last_time = t;
		}
	} else if (h->type == PERF_RECORD_LOST && h->size >= sizeof(struct prec_lost_event)) {
		st->lost += ring__peek_u64(r, rec + offsetof(struct prec_lost_event, lost));
		st->lost_records++;
	}
}

/*
 * Walks r's window record by record through the hooks, then counts it. A
 * hook's DRAIN_CUT ends the window there (--max-size: the file never passes
 * its limit by more than the features), the rest staying in the ring.
 */
static void drain__scan(struct drain *d, struct ring *r)
{
	uint64_t pos = r->start;

	for (;;) {
		uint64_t rec = pos;
		const struct perf_event_header *h = ring__read_event(r, &pos);

		if (!h)
			break;
		if (h->type == PERF_RECORD_MMAP2 && (h->misc & PERF_RECORD_MISC_MMAP_BUILD_ID) &&
		    !d->mmap2_build_ids && !r->backward)
			((struct perf_event_header *)h)->misc &= ~PERF_RECORD_MISC_MMAP_BUILD_ID;
		for (int k = 0; k < d->nr_hooks; k++) {
			const struct drain_hook *hk = &d->hooks[k];

			if (hk->on_record && hk->on_record(hk->arg, r, rec, h) == DRAIN_CUT) {
				r->end = rec;
				return;
			}
		}
		drain__count(d, r, rec, h);
	}
}

/*
 * Writes the windows of rings [from, to) gathered in d->iov[0..cnt) (the
 * unwinder's copy of them with --unwind=record); at the pass's end (last)
 * the hooks' appended records after them, then FINISHED_ROUND unless
 * no_round; and gives the space back to the kernel. 0 or the writer's
 * -errno (then nothing is released: the records stay in the rings).
 */
static int drain__flush(struct drain *d, int from, int to, int cnt, bool last)
{
	bool round = last && !d->no_round;
	int ret;

	if (d->rewriter >= 0 && cnt) {
		const struct drain_hook *hk = &d->hooks[d->rewriter];

		cnt = hk->rewrite(hk->arg, d->rings + from, d->pending + from, to - from, d->iov);
		if (cnt < 0)
			return cnt;
	}
	/* Records made from this pass's own (JIT code's names): in the same
	 * round as the records they follow, so a reader sorts them first. */
	for (int k = 0; last && k < d->nr_hooks; k++)
		if (d->hooks[k].append && d->hooks[k].append(d->hooks[k].arg, &d->iov[cnt]))
			cnt++;
	/* Everything before this marker may be sorted and flushed by the reader. */
	if (round) {
		d->iov[cnt].iov_base = (void *)&finished_round;
		d->iov[cnt].iov_len = sizeof(finished_round);
		cnt++;
	}
	/* Nothing left to write: a batch flush took this pass's data and no
	 * round follows (held back until the background side-band is in). */
	ret = cnt ? writer__writev_ring(d->w, d->iov, cnt, round) : 0;
	if (ret)
		return ret;
	for (int i = from; i < to; i++)
		if (d->pending[i])
			ring__consume(&d->rings[i]);
	return 0;
}

/* The pass's counts go to the totals and the hooks; the next pass starts
 * from zero. */
static void drain__end_pass(struct drain *d)
{
	for (int k = 0; k < d->nr_hooks; k++)
		if (d->hooks[k].on_pass)
			d->hooks[k].on_pass(d->hooks[k].arg, &d->pass);
	drain_stats__add(&d->stats, &d->pass);
	memset(&d->pass, 0, sizeof(d->pass));
}

int64_t drain__pass(struct drain *d)
{
	int cnt = 0, from = 0;
	uint64_t bytes = 0, batch = 0;
	int ret = 0;

	d->backlog = false;
	for (int k = 0; k < d->nr_hooks && !ret; k++)
		if (d->hooks[k].produce)
			ret = d->hooks[k].produce(d->hooks[k].arg, d->w);
	if (ret)
		goto out;
	for (int i = 0; i < d->nr_rings; i++) {
		struct ring *r = &d->rings[i];

		d->pending[i] = false;
		if (!ring__read_init(r))
			continue;
		/* --mmap-flush: a ring with less than that waits for more (the
		 * last passes, with flush 0, take everything). */
		if (d->flush > 1 && r->end - r->start < d->flush) {
			d->pass.held += r->end != r->start;
			continue;
		}
		if ((r->end - r->start) * DRAIN_BACKLOG_SHARE >= r->mask + 1)
			d->backlog = true;
		if (d->before_ring)
			d->before_ring(d->ring_arg, r);
		drain__scan(d, r);
		if (r->end == r->start)
			continue;
		bytes += r->end - r->start;
		batch += r->end - r->start;
		cnt += ring__spans(r, &d->iov[cnt]);
		d->pending[i] = true;
		/* A full batch goes out now and its rings are released at once:
		 * under a high rate the kernel gets the space back one write
		 * earlier, instead of after every ring's data is written. Not
		 * when unwinding: a sample must wait until the maps of every
		 * ring (an exec's MMAPs come on the CPU it ran on) are known. */
		if (batch >= d->batch_bytes && i + 1 < d->nr_rings && d->rewriter < 0) {
			ret = drain__flush(d, from, i + 1, cnt, false);
			if (ret)
				goto out;
			from = i + 1;
			cnt = 0;
			batch = 0;
		}
	}
	if (!bytes)
		goto out;
	ret = drain__flush(d, from, d->nr_rings, cnt, true);
	if (!ret)
		d->pass.bytes = bytes;
out:
	drain__end_pass(d);
	return ret ? ret : (int64_t)bytes;
}

/* Between passes, never inside one: the output may end here or start its
 * next file (a new d->w). Every step runs (an ack after the output's step
 * is sent whatever it answered); the first -errno, else the strongest answer. */
static int drain__between(struct drain *d)
{
	int next = DRAIN_GO_ON;

	for (int k = 0; k < d->nr_between; k++) {
		int ret = d->between[k].fn(d->between[k].arg);

		if (next >= 0 && (ret < 0 || ret > next))
			next = ret;
	}
	return next;
}

int drain__run(struct drain *d, struct pollfd *pfd, int nfds, bool stop_on_hup,
	       bool (*stop)(void *arg), void *arg, const sigset_t *sigmask)
{
	int64_t n;

	d->live = nfds - (d->out_pfd >= 0) - (d->side_pfd >= 0) - (d->wake_pfd >= 0) -
		  (d->stop_pfd >= 0);
	for (;;) {
		int next;

		n = drain__pass(d);
		if (n < 0)
			return (int)n;
		next = drain__between(d);
		if (next < 0)
			return next;
		if (next == DRAIN_END)
			d->no_tail = true;
		if (next != DRAIN_GO_ON || stop(arg) || (stop_on_hup && d->live == 0))
			break;
		if (n > 0 && d->backlog) {
			/* Behind: look again before sleeping, but let the signals
			 * in first (they are blocked outside ppoll). Under
			 * saturation every pass finds data, system-wide sampling
			 * of this very loop included, and without this the
			 * command's end (SIGCHLD) or a SIGINT would never be seen.
			 * A pass that found little sleeps instead: passing again
			 * at once would take the records one or two at a time,
			 * each pass's fixed cost (a write, a compressor flush)
			 * paid per record, and under -r would keep the CPU from
			 * the workload. */
			static const struct timespec zero;

			ppoll(NULL, 0, &zero, sigmask);
			continue;
		}
		int tick = drain__tick_ms(d);
		struct timespec ts = { tick / 1000, (tick % 1000) * 1000000L };
		int p = ppoll(pfd, (nfds_t)nfds, tick ? &ts : NULL, sigmask);

		if (p < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		/* The stream's reader exited: stop now, not at the next write,
		 * which may be long in coming for a quiet workload. */
		if (d->out_pfd >= 0 && (pfd[d->out_pfd].revents & (POLLERR | POLLHUP)))
			return -EPIPE;
		if (d->side_pfd >= 0 && pfd[d->side_pfd].revents) {
			p--; /* a command, not the rings */
			if (!d->on_side(d->side_arg, pfd[d->side_pfd].revents))
				pfd[d->side_pfd].fd = -1;
		}
		if (d->wake_pfd >= 0 && pfd[d->wake_pfd].revents) {
			p--; /* another thread's news, taken between passes */
			wake__clear(d->wake);
		}
		if (d->stop_pfd >= 0 && pfd[d->stop_pfd].revents)
			p--; /* the stop: stop() says it next */
		if (p > 0)
			d->pass.wakeups++; /* counted with the next pass; a tick is not one */
		for (int i = 0; i < nfds; i++) {
			if (i == d->out_pfd || i == d->side_pfd || i == d->wake_pfd ||
			    i == d->stop_pfd)
				continue;
			/* An fd whose task is gone reports HUP forever: stop polling
			 * it; its ring is still drained every pass. When every
			 * target is gone, -p/-t recordings end, as perf's do. */
			if (pfd[i].fd >= 0 && (pfd[i].revents & (POLLHUP | POLLERR)) &&
			    !(pfd[i].revents & POLLIN)) {
				pfd[i].fd = -1;
				d->live--;
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
