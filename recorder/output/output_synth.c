// SPDX-License-Identifier: GPL-2.0-only
/*
 * The background side-band of the first file (output.h): whether it is
 * synthesized beside the recording, and how it joins the output when the
 * workers are done (FINISHED_INIT, the rounds held back, --unwind=record's
 * held samples, --threads' streams); the drains' hook that tells its walk
 * which processes have samples, and what of it a file cut by its size
 * limit keeps.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "prec/event.h"
#include "evlist/evlist.h"
#include "prec/log.h"
#include "prec/writer.h"
#include "drain/drain.h"
#include "drain/ring.h"
#include "dsos/dso_track.h"
#include "output/output.h"
#include "synth/background.h"
#include "synth/hints.h"
#include "synth/synth_config.h"
#include "synth/synthesize.h"
#include "unwind/unwind.h"

/* Whether the first file's side-band is synthesized beside the recording:
 * not for --tail-synthesize (at the end, as perf). --threads' streams take
 * it when ready, --unwind=record holds samples until then (unwinder__hold). */
bool output__synth_later(const struct output *o, enum synth_when when)
{
	const struct evlist *evlist = o->src.evlist;

	if (when != SYNTH_START || o->src.synth->tail)
		return false;
	/* Readers queue (and so wait for the side-band) only records with a
	 * time: samples without one (--per-thread) are resolved as read. */
	for (int i = 0; i < evlist->nr; i++)
		if (!(evlist->evsel[i].attr.sample_type & PERF_SAMPLE_TIME) ||
		    !evlist->evsel[i].attr.sample_id_all)
			return false;
	return true;
}

/* The background side-band into the file, then FINISHED_INIT, where perf
 * has them: after this, rounds may let readers flush samples again. Waits
 * for the workers. 0 or -errno. */
int output__synth_join(struct output *o)
{
	bool dir = o->src.stream_files;
	uint64_t before = writer__data_size(o->w);
	struct iovec iov;
	int ret = synth_bg__finish(o->bg, &o->sout);

	if (ret)
		return ret; /* o->bg stays for output__synth_keep */
	synth_bg__delete(o->bg);
	o->bg = NULL;
	if (o->hints)
		synth_hints__close(o->hints);
	/* --unwind=record: the samples that waited for these maps, unwound
	 * now, before any round lets a reader flush them. */
	if (!ret && !dir && (ret = unwinder__release(o->unw, &iov)) == 1)
		ret = writer__writev_ring(o->w, &iov, 1, false);
	if (!ret)
		ret = synth__marker(&o->sout, PERF_RECORD_FINISHED_INIT);
	/* The rings left room for what the walk had made (output__bg_made);
	 * the rest comes off the budget now. */
	size_limit__spend(&o->size, writer__data_size(o->w) - before);
	/* --threads: the streams take it on their threads. Their files have
	 * no rounds: perf delivers the data file's (time 0) side-band as read,
	 * before it flushes any of their samples. */
	if (dir)
		stream_tracks__publish(&o->tracks);
	/* The rounds held back until now come as one: readers may flush
	 * everything before it, the side-band being in (perf writes one after
	 * every pass with data). */
	if (!ret && !dir && o->drain && !drain__rounds(o->drain))
		ret = synth__marker(&o->sout, PERF_RECORD_FINISHED_ROUND);
	if (o->drain)
		drain__hold_rounds(o->drain, false);
	return ret;
}

int output__between(void *arg)
{
	struct output *o = arg;
	int ret;

	if (!o->bg || !synth_bg__done(o->bg))
		return 0;
	ret = output__synth_join(o);
	/* The features again after it: a recording killed now reads whole. */
	return ret ? ret : writer__checkpoint(o->w, &o->rm.meta);
}

/* How often the drains pass while the walk runs: a sampled process that
 * exits soon after prec starts is named to the walk before it is gone. */
#define OUTPUT_HINT_TICK_MS 20

struct output_hint_hook {
	struct synth_hints *hints;
	struct drain *d;
	int tid_off; /* PERF_SAMPLE_TID's offset in a sample's body */
	int tick; /* its drain__want_tick handle, dropped once the side-band is in */
	bool off;
};

/* A chunk of the background side-band was made (on a worker's thread): the
 * file's size budget leaves room for it. */
static void output__bg_made(void *arg, uint64_t bytes)
{
	struct output *o = arg;

	size_limit__made(&o->size, bytes);
}

int output__synth_start(struct output *o)
{
	const struct evlist *evlist = o->src.evlist;
	const struct synth_config *cfg = o->src.synth;
	int ret = synth__sideband_front(&o->sout, evlist, cfg, o->src.pid);

	/* Without the hints the walk still reads everything, in /proc's order. */
	if (!ret && !o->hints && synth_hints__new(&o->hints))
		pr_debug("no memory for the sampled pids: the walk keeps /proc's order\n");
	if (!ret)
		ret = synth_bg__start(&o->bg, evlist, o->src.si, cfg, &o->sout,
				      &(struct synth_bg_links){ .wake = o->src.wake,
								.hints = o->hints,
								.made = output__bg_made,
								.made_arg = o });
	o->tracks.late = o->bg != NULL; /* its streams' unwinders hold */
	unwinder__hold(o->unw, o->bg && !o->src.stream_files);
	return ret;
}

static enum drain_verdict hint__record(void *arg, const struct ring *r, uint64_t pos,
				       const struct perf_event_header *h)
{
	struct output_hint_hook *hh = arg;

	if (!hh->off && h->type == PERF_RECORD_SAMPLE && h->size >= 8 + hh->tid_off + 8)
		synth_hints__add(hh->hints,
				 (pid_t)(uint32_t)ring__peek_u64(r, pos + 8 + hh->tid_off));
	return DRAIN_KEEP;
}

/* On the drain's own thread: its fast tick goes once nothing is wanted. */
static void hint__pass(void *arg, const struct drain_stats *pass)
{
	struct output_hint_hook *hh = arg;

	(void)pass;
	if (!hh->off && synth_hints__closed(hh->hints)) {
		hh->off = true;
		drain__drop_tick(hh->d, hh->tick);
	}
}

int output__attach_hints(struct output *o, int i, struct drain *d)
{
	const struct evsel *ev = &o->src.evlist->evsel[0];
	struct drain_hook hook = { .on_record = hint__record, .on_pass = hint__pass };
	struct dso_track_layout tl;
	struct output_hint_hook *hh;

	dso_track__layout(ev->attr.sample_type, ev->attr.sample_id_all, &tl);
	if (!o->bg || !o->hints || tl.tid_off < 0)
		return 0;
	if (!o->hhooks && !(o->hhooks = calloc((size_t)o->nr_shares, sizeof(*o->hhooks))))
		return -ENOMEM;
	hh = &o->hhooks[i];
	*hh = (struct output_hint_hook){ .hints = o->hints, .d = d, .tid_off = tl.tid_off };
	hh->tick = drain__want_tick(d, OUTPUT_HINT_TICK_MS);
	if (hh->tick < 0)
		return hh->tick;
	hook.arg = hh;
	return drain__add_hook(d, &hook);
}

static bool hint__sampled(void *arg, uint32_t pid)
{
	return synth_hints__has(arg, (pid_t)pid);
}

void output__synth_keep(struct output *o)
{
	struct synth_buf keep = { 0 };

	/* A directory's data file takes no samples: nothing to cut there. */
	if (o->src.stream_files || !o->hints || !writer__failed(o->w))
		return;
	if (synth_bg__keep(o->bg, hint__sampled, o->hints, &keep) ||
	    writer__keep_tail(o->w, keep.data, keep.len))
		pr_debug("no memory to keep the side-band of a file cut short\n");
	synth_buf__exit(&keep);
}

void output__synth_exit(struct output *o)
{
	synth_hints__delete(o->hints);
	o->hints = NULL;
	free(o->hhooks);
	o->hhooks = NULL;
}
