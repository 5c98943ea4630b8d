// SPDX-License-Identifier: GPL-2.0-only
/*
 * The life of each output file (output.h): opened, begun (header and attrs,
 * a stream's features, its own build-id tracker, the side-band at its front,
 * compression, the size cut), fed by the drain through the hooks given
 * here, ended (the overwrite rings' snapshot, the tail side-band, the lost
 * samples, the features, its final name), and between drain passes ended
 * for --max-size or rotated for --switch-output (output_rotate.h decides
 * when); then the summary.
 *
 * Every file --switch-output starts is whole on its own: its own header and
 * features, the side-band of the threads alive at the switch (read from
 * /proc, as at the start, plus what the rings told of those gone since),
 * and the build-ids of what its own samples hit (a tracker per file, fed by
 * that file's records).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bpf/off_cpu.h"
#include "dsos/dso_track.h"
#include "names/names.h"
#include "names/names_hook.h"
#include "output/output_names.h"
#include "prec/event.h"
#include "evlist/evlist.h"
#include "prec/log.h"
#include "prec/writer.h"
#include "prec/writer_dir.h"
#include "drain/drain.h"
#include "output/output.h"
#include "output/output_rotate.h"
#include "synth/background.h"
#include "synth/sideband.h"
#include "synth/synth_config.h"
#include "synth/synthesize.h"
#include "unwind/unwind.h"

/* The file's metadata from what the output was given; o->rm is o's to free
 * from here on. 0 or -ENOMEM. */
int output__meta(struct output *o)
{
	o->have_meta = true;
	return output_meta__init(&o->rm, o->src.si, o->wev, o->src.evlist, o->src.clk, o->src.cfg,
				 o->src.argc, o->src.argv);
}

/* The file's size budget, from its front on; every stream's share starts
 * empty. */
static void output__set_cap(struct output *o)
{
	size_limit__begin_file(&o->size, o->src.cfg, writer__file_size(o->w));
	for (int i = 0; i < o->nr_shares; i++)
		size_share__init(&o->shares[i], &o->size);
}

/* Every drain's pass, the live one's and the snapshot's, counts for the
 * current file (SAMPLE_TIME, the summary's samples) and the whole run. */
void output__count_pass(void *arg, const struct drain_stats *pass)
{
	struct output *o = arg;

	drain_stats__add(&o->file, pass);
	drain_stats__add(&o->total, pass);
}

/*
 * Overwrite events kept only their newest records, in backward rings: pause
 * them and write what they hold, counted like the rest. Only the unwinder
 * and the counts see them: the build-id tracker never did, and this change
 * keeps the files as they were.
 */
int output__id_time_back(const struct output *o)
{
	const struct evlist *evlist = o->src.evlist;
	struct dso_track_layout tl;

	if (!evlist->nr || dso_track__layout(evlist->evsel[0].attr.sample_type,
					     evlist->evsel[0].attr.sample_id_all, &tl))
		return 0;
	return tl.id_time_back;
}

static int output__snapshot(struct output *o)
{
	struct evlist *evlist = o->src.evlist;
	struct drain_hook count = { .on_pass = output__count_pass, .arg = o };
	struct drain_config c = { .nr_rings = evlist->nr_bw_rings,
				  .writer = o->w,
				  .time_off = evlist__sample_time_offset(evlist) };
	struct names_hook nh = { 0 };
	struct drain bw;
	int64_t n;

	evlist__pause_backward(evlist);
	n = drain__init(&bw, evlist->bw_rings, &c);
	/* The file's attrs say the samples are unwound. */
	if (!n)
		n = stream_track__add_unwinder(&bw, o->unw);
	if (!n)
		n = drain__add_hook(&bw, &count);
	/* JIT code in the snapshot is named as in the rings drained live. */
	if (!n && o->names)
		n = names_hook__attach(&nh, o->names, &bw, output__id_time_back(o));
	if (!n)
		n = drain__pass(&bw);
	drain__exit(&bw);
	names_hook__exit(&nh);
	return n < 0 ? (int)n : 0;
}

int output__open(struct output *o, const struct output_src *src)
{
	const char *path = src->cfg->path;
	bool pipe = src->cfg->pipe;
	int ret;

	memset(o, 0, sizeof(*o));
	o->src = *src;
	o->path = path;
	/* --kcore: a directory too, its kcore_dir/ beside the data file. */
	if (src->stream_files || src->cfg->kcore) {
		ret = output_dir__open(&o->dir, path, &o->w); /* printed */
		return ret ? ret : output_meta__list_events(src->evlist, &o->wev, &o->idbuf);
	}
	ret = pipe ? writer__open_pipe(&o->w, STDOUT_FILENO) : writer__open(&o->w, path);
	if (ret && pipe) {
		pr_err("cannot write the stream to standard output: %s (run prec with its output open, e.g. piped into 'perf report -i -')",
		       strerror(-ret));
		return ret;
	} else if (ret) {
		pr_err("cannot create the output file '%s': %s (%s)", path, strerror(-ret),
		       output__hint(path, ret));
		return ret;
	}
	return output_meta__list_events(src->evlist, &o->wev, &o->idbuf);
}

/* --threads: the synthesized side-band reaches the file's tracker and is
 * kept for each stream's (stream_track.h). */
static void output__tap_dir(void *arg, const void *buf, size_t len)
{
	struct output *o = arg;

	dso_track__stream(o->track, buf, len);
	stream_tracks__keep(&o->tracks, buf, len);
}

static int output__begin_file(struct output *o, enum synth_when when)
{
	const struct evlist *evlist = o->src.evlist;
	const struct output_config *cfg = o->src.cfg;
	struct dso_track_layout tl;
	int ret;

	ret = writer__begin(o->w, o->wev, (uint32_t)evlist->nr);
	if (ret)
		return ret;
	if (cfg->pipe) {
		/* A stream cannot be patched: its features go first, from what is
		 * known now, as perf sends them. */
		ret = output__meta(o);
		if (!ret)
			ret = writer__send_features(o->w, &o->rm.meta);
		if (ret)
			return ret;
	}
	/* The build-id hit set sees every record of this file: synthesized
	 * ones as the tap of their way out, the kernel's through the drain's
	 * hook. */
	dso_track__layout(evlist->evsel[0].attr.sample_type, evlist->evsel[0].attr.sample_id_all,
			  &tl);
	o->sout = (struct synth_out){ .writer = o->w };
	if (!dso_track__new(&o->track, &tl)) {
		dso_track__set_buildids(o->track, output_meta__buildids(cfg));
		dso_track__set_kernel_name(o->track, cfg->vmlinux);
		o->sout.tap = o->src.stream_files ? output__tap_dir : dso_track__stream;
		o->sout.tap_arg = o->src.stream_files ? (void *)o : o->track;
		dso_track__set_namer(o->track, &o->tracks.namer);
	}
	if (o->names) {
		o->sout.anon_name = names__anon_name;
		o->sout.anon_arg = o->names;
	}
	unwinder__set_track(o->unw, o->track);
	stream_tracks__follow(&o->tracks, o->track);
	if (o->drain)
		drain__set_writer(o->drain, o->w);
	if (output__synth_later(o, when)) {
		/* The command starts once the events are open: the slow part
		 * follows (output__synth_join). */
		ret = output__synth_start(o);
	} else {
		ret = synth__sideband(&o->sout, evlist, o->src.si, o->src.synth, o->src.pid, when);
	}
	/* What the rings told of the processes still alive, for those /proc
	 * no longer shows (gone while their samples waited). */
	if (!ret && when == SYNTH_NEW_FILE)
		ret = sideband_log__replay(&o->sblog, &o->sout);
	/* -z: the ring data from here on; synthesized records stay raw, as perf. */
	if (!ret && cfg->comp_level)
		ret = writer__set_compression(o->w, cfg->comp_level,
					      output_meta__comp_mmap_len(evlist));
	if (!ret && cfg->nr_cblocks) /* --aio: the data from here on */
		ret = writer__set_aio(o->w, cfg->nr_cblocks);
	/* The front is in: a recording killed from here on reads. */
	if (!ret)
		ret = writer__commit(o->w);
	if (!ret)
		output__set_cap(o);
	return ret;
}

int output__begin(struct output *o, struct unwinder *unw)
{
	int ret = output_names__new(&o->names, o->src.cfg);

	o->unw = unw;
	names__namer(o->names, &o->tracks.namer);
	return ret ? ret : output__begin_file(o, SYNTH_START);
}

/* --off-cpu's summed samples, as the side-band is written; 1 (stop) where
 * one would pass --max-size. */
static int output__off_cpu_write(void *arg, const void *rec, size_t len)
{
	struct output *o = arg;
	uint64_t max = o->src.cfg->max_size;

	if (max && writer__file_size(o->w) + len > max)
		return 1;
	return synth_out__write(&o->sout, rec, len);
}

/* The current file ends (next NULL: at exit; else the next one, opened at
 * its path as it is renamed, is *next). */
static int output__end_file(struct output *o, struct writer **next)
{
	bool at_exit = !next;
	const struct output_config *cfg = o->src.cfg;
	struct evlist *evlist = o->src.evlist;
	uint64_t in = 0, out = 0;
	int ret = o->bg ? output__synth_join(o) : 0;

	if (ret)
		return ret;
	/* The overwrite rings hold the newest records: they go in now. */
	if (evlist->nr_bw_rings) {
		ret = output__snapshot(o);
		/* Written: a snapshot lets the kernel go on at once (samples
		 * that come while a ring is paused are lost). */
		if (!at_exit)
			evlist__resume_backward(evlist);
	}
	if (!ret && o->src.synth->tail) /* --tail-synthesize */
		ret = synth__sideband(&o->sout, evlist, o->src.si, o->src.synth, o->src.pid,
				      SYNTH_TAIL);
	if (!ret && at_exit)
		ret = synth__lost_samples(&o->sout, evlist, o->src.pid, &o->total.lost_samples);
	/* perf 6.1 writes them last, with times after every other sample. */
	if (!ret && at_exit)
		ret = off_cpu__write_totals(o->src.off_cpu, output__off_cpu_write, o);
	if (ret)
		return ret;
	if (at_exit)
		stream_tracks__merge(&o->tracks, o->track);
	o->file_bytes = writer__data_size(o->w) + o->dir.bytes;
	if (cfg->comp_level)
		writer__compression_stats(o->w, &in, &out);
	o->comp_in = in + o->dir.in;
	o->comp_out = out + o->dir.out;
	o->comp_done += o->comp_out;
	if (!o->have_meta) {
		ret = output__meta(o);
		if (ret)
			return ret;
	}
	/* --kcore alone: perf's "single file" directory, no DIR_FORMAT (perf
	 * reads a DIR_FORMAT directory only with data.N files in it). */
	if (o->src.stream_files) {
		o->rm.meta.dir_version = WRITER_DIR_VERSION;
		o->rm.extra_in = o->dir.in;
		o->rm.extra_out = o->dir.out;
	}
	ret = output_rotate__name(&o->rot, cfg, o->w, o->path, next, o->final_name,
				  sizeof(o->final_name));
	if (ret)
		return ret; /* printed; o->w is kept by output__abort */
	/* The JIT ELFs first: the build-ids are read from them. */
	output_names__write(o->names, at_exit);
	ret = output_meta__finish(&o->rm, o->w, &o->file, o->track);
	o->w = NULL;
	o->sout = (struct synth_out){ 0 };
	if (o->drain)
		drain__set_writer(o->drain, NULL);
	if (ret)
		return ret;
	if (!cfg->no_buildid_cache)
		output_meta__cache_buildids(&o->rm.meta, cfg);
	output_meta__prune_names(cfg);
	unwinder__set_track(o->unw, NULL);
	dso_track__delete(o->track);
	o->track = NULL;
	output_meta__exit(&o->rm);
	o->have_meta = false;
	output_rotate__ended(&o->rot, cfg, at_exit, o->path, o->final_name);
	return 0;
}

/* SIGUSR2, a size or a period: this file ends and the next begins. */
static int output__switch(struct output *o)
{
	struct writer *next = NULL;
	int ret;

	pr_info("[ prec record: dump data: Woken up %llu times ]\n",
		(unsigned long long)(o->total.wakeups - o->wakeups_at_switch));
	o->wakeups_at_switch = o->total.wakeups;
	ret = output__end_file(o, &next);
	if (ret) {
		writer__abort(next); /* the next file, made before this one failed */
		return ret;
	}
	/* SAMPLE_TIME and the summary's samples are per file. */
	memset(&o->file, 0, sizeof(o->file));
	o->w = next;
	return output__begin_file(o, SYNTH_NEW_FILE);
}

/* The file's drain's between-pass step: --max-size ends the recording
 * (DRAIN_END), --switch-output ends this file and begins the next. A
 * drain_next or -errno (-ECANCELED: printed). */
int output__between_pass(void *arg)
{
	struct output *o = arg;
	const struct output_config *cfg = o->src.cfg;
	bool requested;
	uint64_t size;

	if (o->bg && synth_bg__done(o->bg)) {
		int ret = output__synth_join(o);

		/* Committed at once: a recording killed from here on resolves
		 * what existed before it. */
		if (!ret)
			ret = writer__commit(o->w);
		if (ret)
			return ret;
	}
	requested = o->src.take_switch && o->src.take_switch();
	if (!requested && !cfg->max_size && !cfg->switch_size && !cfg->switch_time_ms)
		return DRAIN_GO_ON;
	size = writer__file_size(o->w);
	switch (output_rotate__check(&o->rot, cfg, size, o->shares[0].capped, requested,
				     o->file.samples != 0)) {
	case OUTPUT_FULL:
		/* The walk's records go in before the line, which says the
		 * file's size: the file ends here anyway. */
		if (o->bg) {
			int ret = output__synth_join(o);

			if (ret)
				return ret;
			size = writer__file_size(o->w);
		}
		size_limit__stop(&o->size, size);
		return DRAIN_END;
	case OUTPUT_ROTATE:
		return output__switch(o);
	default:
		return DRAIN_GO_ON;
	}
}

int output__finish(struct output *o)
{
	return output__end_file(o, NULL);
}

/* Whether what the file holds is a recording: ring data went in (a full
 * disk keeps what it took). A failure before that (the command cannot run,
 * the file size limit met by the side-band) leaves no file, rather than
 * one perf would read as an empty recording. */
static bool output__recorded(const struct output *o)
{
	return o->total.bytes || output_dir__has_data(&o->dir);
}

/* A recording that cannot go on keeps what it holds: the streams and the
 * file cut at their last whole record, the features when they fit, the
 * header right. Nothing is printed: the caller printed why it stopped. */
static void output__keep(struct output *o)
{
	int ret = o->have_meta ? 0 : output__meta(o);

	output_dir__keep(&o->dir);
	if (o->dir.path && !ret)
		o->rm.meta.dir_version = WRITER_DIR_VERSION;
	if (!ret)
		ret = output_meta__finish(&o->rm, o->w, &o->file, o->track);
	else
		ret = writer__finish(o->w, NULL);
	if (ret)
		pr_debug("%s: kept what was written (%s)\n", o->path, strerror(-ret));
	o->w = NULL;
	if (o->drain)
		drain__set_writer(o->drain, NULL);
}

void output__abort(struct output *o)
{
	if (o->bg && o->w && output__recorded(o))
		output__synth_keep(o);
	synth_bg__delete(o->bg); /* what it made never goes in whole */
	o->bg = NULL;
	if (o->w && output__recorded(o)) {
		output__keep(o);
		return;
	}
	output__discard(o);
}

void output__discard(struct output *o)
{
	synth_bg__delete(o->bg);
	o->bg = NULL;
	writer__abort(o->w);
	o->w = NULL;
	output_dir__abort(&o->dir);
	if (o->drain)
		drain__set_writer(o->drain, NULL);
}

bool output__size_reached(const struct output *o)
{
	return size_limit__reached(&o->size);
}

void output__status(const struct output *o, struct status_output *so)
{
	uint64_t in, out = 0;

	so->rotations = o->rot.rotations;
	/* --threads: the streams' compressors are their threads' own; the
	 * compressed size is the summary's. */
	so->comp_known = !o->src.stream_files;
	if (so->comp_known && o->w)
		writer__compression_stats(o->w, &in, &out);
	so->comp_bytes = o->comp_done + out;
}

void output__exit(struct output *o)
{
	/* A directory whose data file never finished goes with it. */
	if (o->w)
		output_dir__abort(&o->dir);
	output_dir__exit(&o->dir);
	output_rotate__exit(&o->rot);
	writer__abort(o->w);
	o->w = NULL;
	dso_track__delete(o->track);
	o->track = NULL;
	sideband_log__exit(&o->sblog);
	synth_bg__delete(o->bg);
	o->bg = NULL;
	output__synth_exit(o);
	stream_tracks__exit(&o->tracks);
	for (int i = 0; o->nhooks && i < o->nr_shares; i++)
		names_hook__exit(&o->nhooks[i]);
	free(o->nhooks);
	o->nhooks = NULL;
	names__delete(o->names);
	o->names = NULL;
	free(o->shares);
	o->shares = NULL;
	o->nr_shares = 0;
	if (o->have_meta)
		output_meta__exit(&o->rm);
	o->have_meta = false;
	free(o->wev);
	free(o->idbuf);
	o->wev = NULL;
	o->idbuf = NULL;
}
