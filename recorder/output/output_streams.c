// SPDX-License-Identifier: GPL-2.0-only
/*
 * The output's side of the engine's streams (output.h): what every
 * stream's drain starts with, and each stream's writer, hooks, tick and
 * between-pass step; with --threads the perf.data directory's stream
 * files data.N made as the output begins, their trackers, and each one's
 * end. output.c keeps the life of the file itself.
 */
#include <errno.h>
#include <stdlib.h>

#include "bpf/off_cpu.h"
#include "dsos/dso_track.h"
#include "drain/drain.h"
#include "drain/streams.h"
#include "evlist/evlist.h"
#include "names/names_hook.h"
#include "output/output.h"
#include "prec/writer.h"
#include "prec/writer_dir.h"

/* The longest a drained record waits in a ring before it is in the file. */
#define OUTPUT_TICK_MS 1000

/* The drain's hooks: each reads the output's current state, so a rotation
 * needs no change in the drain. */

/* --switch-output: the kernel's side-band kept for the next file's front. */
static enum drain_verdict output__log(void *arg, const struct ring *r, uint64_t pos,
				      const struct perf_event_header *h)
{
	struct output *o = arg;

	if (sideband_log__wants(h->type))
		sideband_log__add_ring(&o->sblog, r, pos, h->size);
	return DRAIN_KEEP;
}

/* A pass ended: whole unless the size cut stopped it or --mmap-flush left
 * a ring's data for later (the log keeps an exited process's maps until a
 * whole pass has drained its samples). */
static void output__log_pass(void *arg, const struct drain_stats *pass)
{
	struct output *o = arg;

	sideband_log__pass(&o->sblog, !o->shares[0].capped && !pass->held);
}

int output__begin_streams(struct output *o, int nr)
{
	const struct output_config *cfg = o->src.cfg;
	const struct evsel *ev = &o->src.evlist->evsel[0];
	struct dso_track_layout tl;
	int ret;

	if (!o->src.stream_files)
		return 0;
	ret = output_dir__open_streams(&o->dir, nr, cfg->comp_level,
				       output_meta__comp_mmap_len(o->src.evlist));
	dso_track__layout(ev->attr.sample_type, ev->attr.sample_id_all, &tl);
	if (!ret)
		ret = stream_tracks__open(&o->tracks, nr, &tl, output_meta__buildids(cfg), o->unw);
	if (!ret && !o->have_meta)
		ret = output__meta(o);
	/* The data file takes nothing more until the end: its features go in
	 * now (DIR_FORMAT above all, without which perf cannot read the
	 * directory), so that a recording killed meanwhile reads whole. */
	if (!ret) {
		o->rm.meta.dir_version = WRITER_DIR_VERSION;
		ret = writer__checkpoint(o->w, &o->rm.meta);
	}
	return ret;
}

/* --off-cpu's direct samples, on the first stream. */
static int output__off_cpu_drain(void *arg, struct writer *w)
{
	return off_cpu__drain(arg, w);
}

void output__drain_config(const struct output *o, struct drain_config *c)
{
	/* The file's one stream writes o->w; a directory's streams their
	 * own (output__attach_streams). Streams of a directory have no
	 * rounds: their reader orders them. The file holds its rounds until
	 * the background side-band is in (output__synth_join): perf's readers
	 * flush the samples queued before each round. */
	c->writer = o->src.stream_files ? NULL : o->w;
	c->no_round = o->src.stream_files || o->bg != NULL;
	c->mmap2_build_ids = o->src.cfg->buildid_mmap;
}

/* Stream i's drain d: its writer, the hooks every stream has (the size
 * cut, the tracker, the unwinder) and, for the stream that writes the file
 * itself, the side-band log, the counts and the output's between-pass
 * step; with a directory the first stream also takes the background
 * side-band in (output__between). */
static int output__attach_stream(struct output *o, int i, struct drain *d)
{
	const struct output_config *cfg = o->src.cfg;
	bool writes_file = !o->src.stream_files;
	struct drain_hook cut = { .on_record = size_share__cut, .arg = &o->shares[i] };
	struct drain_hook log = { .on_record = output__log, .on_pass = output__log_pass, .arg = o };
	struct drain_hook count = { .on_pass = output__count_pass, .arg = o };
	struct drain_hook off_cpu = { .produce = output__off_cpu_drain, .arg = o->src.off_cpu };
	/* The period is checked between passes; else a quiet ring may not
	 * reach its watermark for a long time: a pass every second takes what
	 * it holds, so that a recording killed now has it in the file (the
	 * writer's header follows the data). */
	int ret = drain__want_tick(d, cfg->switch_time_ms ? 100 : OUTPUT_TICK_MS);

	size_share__init(&o->shares[i], &o->size);
	if (!writes_file)
		drain__set_writer(d, output_dir__stream(&o->dir, i));
	if (ret >= 0 && writes_file) {
		o->drain = d;
		ret = drain__add_between(d, output__between_pass, o);
	} else if (ret >= 0 && size_limit__active(&o->size)) {
		ret = drain__add_between(d, size_share__between, &o->shares[i]);
	}
	if (ret >= 0 && !writes_file && i == 0)
		ret = drain__add_between(d, output__between, o);
	/* The cut first: the records it leaves in the rings reach no hook. */
	if (ret >= 0 && size_limit__active(&o->size))
		ret = drain__add_hook(d, &cut);
	if (ret >= 0)
		ret = stream_tracks__attach(&o->tracks, i, d);
	if (!ret && cfg->switch_output)
		ret = drain__add_hook(d, &log);
	if (!ret && writes_file)
		ret = drain__add_hook(d, &count);
	if (!ret && i == 0 && o->src.off_cpu)
		ret = drain__add_hook(d, &off_cpu);
	if (!ret && o->names)
		ret = names_hook__attach(&o->nhooks[i], o->names, d, output__id_time_back(o));
	return ret ? ret : output__attach_hints(o, i, d);
}

int output__attach_streams(struct output *o, struct streams *ss)
{
	int ret;

	o->shares = calloc((size_t)ss->nr, sizeof(*o->shares));
	o->nhooks = calloc((size_t)ss->nr, sizeof(*o->nhooks));
	if (!o->shares || !o->nhooks)
		return -ENOMEM;
	o->nr_shares = ss->nr;
	/* A directory's stream files were made by output__begin_streams,
	 * one per stream. */
	if (o->src.stream_files && o->dir.nr != ss->nr)
		return -EINVAL;
	ret = o->src.stream_files ? 0 : stream_tracks__borrow(&o->tracks, o->track, o->unw);
	for (int i = 0; !ret && i < ss->nr; i++)
		ret = output__attach_stream(o, i, &ss->s[i].d);
	return ret;
}

int output__end_stream(struct output *o, int i, const struct drain_stats *st)
{
	struct drain_stats all = *st;
	int ret;

	if (!o->src.stream_files)
		return 0;
	/* The side-band still to come, now: the streams' held samples go into
	 * their files before these close. */
	ret = o->bg ? output__synth_join(o) : 0;
	ret = ret ? ret : stream_tracks__end(&o->tracks, i, &all);
	if (ret)
		return ret;
	drain_stats__add(&o->file, &all);
	drain_stats__add(&o->total, &all);
	return output_dir__end_stream(&o->dir, i, st, o->src.cfg->comp_level);
}
