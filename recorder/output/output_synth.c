// SPDX-License-Identifier: GPL-2.0-only
/*
 * The background side-band of the first file (output.h): whether it is
 * synthesized beside the recording, and how it joins the output when the
 * workers are done (FINISHED_INIT, the rounds held back, --unwind=record's
 * held samples, --threads' streams).
 */
#include <stdbool.h>
#include <stdint.h>

#include "prec/event.h"
#include "evlist/evlist.h"
#include "options/options.h"
#include "prec/writer.h"
#include "drain/drain.h"
#include "output/output.h"
#include "synth/background.h"
#include "synth/synthesize.h"
#include "unwind/unwind.h"

/* Whether the first file's side-band is synthesized beside the recording:
 * not for --tail-synthesize (at the end, as perf). --threads' streams take
 * it when ready, --unwind=record holds samples until then (unwinder__hold). */
bool output__synth_later(const struct output *o, enum synth_when when)
{
	const struct record_opts *opts = o->src.opts;
	const struct evlist *evlist = o->src.evlist;

	if (when != SYNTH_START || opts->tail_synthesize)
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

	synth_bg__delete(o->bg);
	o->bg = NULL;
	/* --unwind=record: the samples that waited for these maps, unwound
	 * now, before any round lets a reader flush them. */
	if (!ret && !dir && (ret = unwinder__release(o->unw, &iov)) == 1)
		ret = writer__writev_ring(o->w, &iov, 1, false);
	if (!ret)
		ret = synth__marker(&o->sout, PERF_RECORD_FINISHED_INIT);
	/* --threads: the streams take it on their threads. Their files have
	 * no rounds: perf delivers the data file's (time 0) side-band as read,
	 * before it flushes any of their samples. */
	if (dir) {
		size_limit__spend(&o->size, writer__data_size(o->w) - before);
		stream_tracks__publish(&o->tracks);
	}
	/* The rounds held back until now come as one: readers may flush
	 * everything before it, the side-band being in (perf writes one after
	 * every pass with data). */
	if (!ret && !dir && o->drain && o->drain->no_round)
		ret = synth__marker(&o->sout, PERF_RECORD_FINISHED_ROUND);
	if (o->drain)
		o->drain->no_round = false;
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
