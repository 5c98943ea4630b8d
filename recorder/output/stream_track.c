// SPDX-License-Identifier: GPL-2.0-only
/*
 * Each drain stream's build-id tracker and unwinder (stream_track.h). Every hook here runs on its stream's thread
 * (or on the main thread for the tail, once the loops are joined); the
 * streams meet only at the inboxes and the size budget.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dsos/dso_track.h"
#include "prec/grow.h"
#include "prec/log.h"
#include "drain/ring.h"
#include "prec/writer.h"
#include "drain/drain.h"
#include "output/stream_track.h"
#include "unwind/unwind.h"

#define RECORD_MAX 65536

void stream_tracks__keep(void *arg, const void *buf, size_t len)
{
	struct stream_tracks *ts = arg;

	if (ts->synth_lost || !len)
		return;
	/* Copies of records made in memory: memory is the bound. */
	if (grow__array(&ts->synth, &ts->synth_cap, ts->synth_len + len, 1, 1 << 16, GROW_MEMORY)) {
		ts->synth_lost = true; /* printed at open */
		return;
	}
	memcpy(ts->synth + ts->synth_len, buf, len);
	ts->synth_len += len;
}

int stream_tracks__borrow(struct stream_tracks *ts, struct dso_track *t, struct unwinder *unw)
{
	ts->s = calloc(1, sizeof(*ts->s));
	if (!ts->s)
		return -ENOMEM;
	ts->nr = 1;
	ts->borrowed = true;
	ts->s[0].set = ts;
	ts->s[0].t = t;
	ts->s[0].unw = unw;
	return dso_inbox__init(&ts->s[0].inbox);
}

void stream_tracks__follow(struct stream_tracks *ts, struct dso_track *t)
{
	if (ts->borrowed)
		ts->s[0].t = t;
}

int stream_tracks__open(struct stream_tracks *ts, int nr, const struct dso_track_layout *l,
			enum dso_track_buildids which, const struct unwinder *unw)
{
	int ret = 0;

	ts->s = calloc((size_t)nr, sizeof(*ts->s));
	if (!ts->s)
		return -ENOMEM;
	ts->nr = nr;
	if (ts->synth_lost)
		pr_warn("--threads: the synthesized side-band could not be kept for the streams' build-id trackers (out of memory): some build-ids may be missing");
	for (int i = 0; i < nr && !ret; i++) {
		struct stream_track *s = &ts->s[i];

		s->set = ts;
		s->idx = i;
		ret = dso_inbox__init(&s->inbox);
		if (!ret)
			ret = dso_track__new(&s->t, l);
		if (!ret && unw)
			ret = unwinder__clone(&s->unw, unw);
		if (ret)
			break;
		/* Only the hits are merged: the file's tracker reads the ids. */
		dso_track__set_buildids(s->t, which);
		dso_track__set_namer(s->t, &ts->namer);
		dso_track__stream(s->t, ts->synth, ts->synth_len);
		unwinder__set_track(s->unw, s->t);
		unwinder__hold(s->unw, ts->late);
	}
	free(ts->synth);
	ts->synth = NULL;
	ts->synth_len = ts->synth_cap = 0;
	return ret;
}

void stream_tracks__publish(struct stream_tracks *ts)
{
	if (ts->synth_lost)
		pr_warn("--threads: the late side-band could not be kept for the streams' build-id trackers (out of memory): some build-ids may be missing");
	ts->late_buf = ts->synth;
	ts->late_len = ts->synth_len;
	ts->synth = NULL;
	ts->synth_len = ts->synth_cap = 0;
	atomic_store(&ts->late_left, ts->nr);
	atomic_store_explicit(&ts->late_ready, true, memory_order_release);
}

/* The late side-band, once published, into s's tracker; its held samples
 * unwound and written to its file. The last stream to take it frees it.
 * 0 or the write's -errno. */
static int stream_track__take_late(struct stream_track *s)
{
	struct stream_tracks *ts = s->set;
	struct iovec iov;
	int ret;

	if (s->late_taken || !atomic_load_explicit(&ts->late_ready, memory_order_acquire))
		return 0;
	s->late_taken = true;
	dso_track__stream(s->t, ts->late_buf, ts->late_len);
	dso_track__end_pass(s->t);
	if (atomic_fetch_sub(&ts->late_left, 1) == 1) {
		free(ts->late_buf);
		ts->late_buf = NULL;
	}
	/* The streams' readers order records by time (no rounds): the held
	 * samples may follow what was drained after them. */
	ret = unwinder__release(s->unw, &iov);
	if (ret == 1)
		ret = writer__writev_ring(s->d->w, &iov, 1, false);
	return ret;
}

/* ---- the hooks ---- */

/* A record another stream drained. */
static void stream_track__inbound(void *arg, const void *rec, size_t len)
{
	struct stream_track *s = arg;
	const struct perf_event_header *h = rec;

	dso_track__event(s->t, rec, len);
	if (s->unw && h->type == PERF_RECORD_COMM && (h->misc & PERF_RECORD_MISC_COMM_EXEC) &&
	    len >= 16) {
		uint32_t pid;

		memcpy(&pid, (const uint8_t *)rec + 8, sizeof(pid));
		unwinder__exec(s->unw, pid);
	}
}

static bool is_sideband(uint32_t type)
{
	return type == PERF_RECORD_MMAP || type == PERF_RECORD_MMAP2 || type == PERF_RECORD_COMM ||
	       type == PERF_RECORD_FORK || type == PERF_RECORD_EXIT;
}

/* The side-band record h at pos of r goes to every other stream with rings. */
static void stream_track__share(struct stream_track *s, const struct ring *r, uint64_t pos,
				const struct perf_event_header *h)
{
	uint64_t off = pos & r->mask, size = r->mask + 1;
	const void *rec = r->data + off;

	if (off + h->size > size) {
		if (!s->scratch && !(s->scratch = malloc(RECORD_MAX)))
			return;
		ring__copy(r, pos, s->scratch, h->size);
		rec = s->scratch;
	}
	for (int i = 0; i < s->set->nr; i++)
		if (i != s->idx && s->set->s[i].has_rings)
			dso_inbox__push(&s->set->s[i].inbox, rec);
}

/* Every record the stream keeps: its tracker sees it, after what the
 * other streams sent since the last pass (so a map drained elsewhere is
 * known before this pass's samples are looked up and unwound). */
static enum drain_verdict stream_track__record(void *arg, const struct ring *r, uint64_t pos,
					       const struct perf_event_header *h)
{
	struct stream_track *s = arg;

	if (!s->took) {
		s->took = true;
		dso_inbox__take(&s->inbox, stream_track__inbound, s);
	}
	if (s->t)
		dso_track__ring_record(s->t, r, pos, h);
	if (is_sideband(h->type) && s->set->nr > 1)
		stream_track__share(s, r, pos, h);
	return DRAIN_KEEP;
}

/* The end of a pass: what came in meanwhile, then the pending samples. */
static void stream_track__pass(void *arg, const struct drain_stats *pass)
{
	struct stream_track *s = arg;
	bool took = dso_inbox__take(&s->inbox, stream_track__inbound, s) > 0;

	s->took = false;
	if (s->t && (pass->bytes || took))
		dso_track__end_pass(s->t);
	/* A failed write leaves the writer failed: the next pass's write says it. */
	if (stream_track__take_late(s) < 0)
		pr_debug(
			"--threads: stream %d: writing the samples held for the side-band failed\n",
			s->idx);
}

/* --unwind=record: the unwinder copies the windows with the samples unwound. */
static int stream_track__unwind(void *arg, struct ring *rings, const bool *pending, int nr,
				struct iovec *iov)
{
	return unwinder__rewrite(arg, rings, pending, nr, iov);
}

int stream_track__add_unwinder(struct drain *d, struct unwinder *unw)
{
	struct drain_hook unwind = { .rewrite = stream_track__unwind, .arg = unw };

	return unw ? drain__add_hook(d, &unwind) : 0;
}

int stream_tracks__attach(struct stream_tracks *ts, int i, struct drain *d)
{
	struct stream_track *s = &ts->s[i];
	struct drain_hook track = { .on_record = stream_track__record,
				    .on_pass = stream_track__pass,
				    .arg = s };
	int ret;

	s->has_rings = d->nr_rings > 0;
	s->d = d;
	ret = drain__add_hook(d, &track);
	return ret ? ret : stream_track__add_unwinder(d, s->unw);
}

int stream_tracks__end(struct stream_tracks *ts, int i, struct drain_stats *st)
{
	int ret;

	if (i >= ts->nr)
		return 0;
	ret = stream_track__take_late(&ts->s[i]);
	if (ts->s[i].unw)
		unwinder__summary(ts->s[i].unw, st);
	return ret < 0 ? ret : 0;
}

int stream_tracks__merge(struct stream_tracks *ts, struct dso_track *into)
{
	uint64_t dropped = 0;
	int ret = 0;

	if (ts->borrowed)
		return 0; /* the file's own tracker saw it all */
	/* The loops are joined: what each pushed last is in the others' inboxes. */
	for (int i = 0; i < ts->nr; i++) {
		struct stream_track *s = &ts->s[i];

		dso_inbox__take(&s->inbox, stream_track__inbound, s);
		dropped += atomic_load(&s->inbox.dropped);
	}
	for (int i = 0; i < ts->nr && into; i++)
		ret = dso_track__merge(into, ts->s[i].t) ?: ret;
	if (dropped)
		pr_verbose(
			"--threads: %llu side-band records did not reach another stream's tracker (its inbox was full)\n",
			(unsigned long long)dropped);
	return ret;
}

void stream_tracks__exit(struct stream_tracks *ts)
{
	for (int i = 0; i < ts->nr; i++) {
		struct stream_track *s = &ts->s[i];

		dso_inbox__exit(&s->inbox);
		free(s->scratch);
		if (ts->borrowed)
			continue;
		dso_track__delete(s->t);
		unwinder__delete(s->unw);
	}
	free(ts->s);
	free(ts->synth);
	free(ts->late_buf);
	memset(ts, 0, sizeof(*ts));
}
