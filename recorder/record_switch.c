// SPDX-License-Identifier: GPL-2.0-only
/*
 * Where the records go over a recording's life: the front of each file
 * (header, attrs, features of a stream, side-band), the end of each file
 * (features, build-ids, the name with a timestamp), and in between
 * --switch-output's rotation, --overwrite's snapshots and --max-size's stop.
 *
 * Every file --switch-output starts is whole on its own: its own header and
 * features, the side-band of the threads alive at the switch (read from
 * /proc, as at the start), and the build-ids of what its own samples hit
 * (a tracker per file, fed by that file's records).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "prec/dso_track.h"
#include "prec/event.h"
#include "prec/evlist.h"
#include "prec/log.h"
#include "prec/record.h"
#include "prec/workload.h"
#include "prec/writer.h"
#include "drain.h"
#include "record_int.h"
#include "synth/synthesize.h"
#include "unwind/unwind.h"

int record__begin_file(struct rec_ctx *c, enum synth_when when)
{
	const struct evlist *evlist = c->evlist;
	struct dso_track_layout tl;
	int ret;

	ret = writer__begin(c->w, c->wev, (uint32_t)evlist->nr);
	if (ret)
		return ret;
	if (c->opts->pipe_output) {
		/* A stream cannot be patched: its features go first, from what is
		 * known now, as perf sends them. */
		ret = record_meta__init(&c->rm, c->si, c->wev, evlist, c->clk, c->opts, c->argc,
					c->argv);
		c->have_meta = true;
		if (!ret)
			ret = writer__send_features(c->w, &c->rm.meta);
		if (ret)
			return ret;
	}
	/* The build-id hit set sees every record of this file: synthesized
	 * ones through the writer's observer, the kernel's in the drain loop. */
	dso_track__layout(evlist->evsel[0].attr.sample_type, evlist->evsel[0].attr.sample_id_all,
			  &tl);
	if (!dso_track__new(&c->track, &tl)) {
		dso_track__set_buildids(c->track, record__buildids(c->opts));
		writer__set_observer(c->w, dso_track__stream, c->track);
	}
	unwinder__set_track(c->unw, c->track);
	if (c->drain) {
		c->drain->w = c->w;
		c->drain->track = c->track;
	}
	ret = record__synthesize(c->w, evlist, c->si, c->opts, c->wl->pid, when);
	/* What the rings said of the processes still alive, for those /proc
	 * no longer shows (gone while their samples waited). */
	if (!ret && when == SYNTH_NEW_FILE)
		ret = sideband_log__replay(&c->sblog, c->w);
	/* -z: the ring data from here on; synthesized records stay raw, as perf. */
	if (!ret && c->opts->comp_level)
		ret = writer__set_compression(c->w, c->opts->comp_level);
	return ret;
}

/* "<base>.YYYYmmddHHMMSScc" as perf names rotated files; a name already
 * taken (two in one hundredth of a second) gets ".N" after it. */
static void timestamped_name(const char *base, char *out, size_t len)
{
	struct timeval tv;
	struct tm tm;
	char ts[32];

	gettimeofday(&tv, NULL);
	localtime_r(&tv.tv_sec, &tm);
	strftime(ts, sizeof(ts), "%Y%m%d%H%M%S", &tm);
	snprintf(out, len, "%s.%s%02d", base, ts, (int)(tv.tv_usec / 10000));
	for (int n = 1; !access(out, F_OK) && n < 1000; n++)
		snprintf(out, len, "%s.%s%02d.%d", base, ts, (int)(tv.tv_usec / 10000), n);
}

/* --switch-max-files: name joins the kept files; the oldest beyond the
 * limit is removed, as perf does. */
static void keep_file(struct rec_ctx *c, const char *name)
{
	char **k;

	if (!c->opts->switch_max_files)
		return;
	k = realloc(c->kept, ((size_t)c->nr_kept + 1) * sizeof(*k));
	if (!k)
		return;
	c->kept = k;
	c->kept[c->nr_kept] = strdup(name);
	if (!c->kept[c->nr_kept])
		return;
	c->nr_kept++;
	while (c->nr_kept > c->opts->switch_max_files) {
		if (unlink(c->kept[0]) && errno != ENOENT)
			pr_warn("cannot remove old output '%s': %s", c->kept[0], strerror(errno));
		free(c->kept[0]);
		memmove(c->kept, c->kept + 1, (size_t)(c->nr_kept - 1) * sizeof(*c->kept));
		c->nr_kept--;
	}
}

int record__end_file(struct rec_ctx *c, bool at_exit)
{
	uint64_t in = 0, out = 0;
	int ret = 0;

	/* The overwrite rings hold the newest records: they go in now. */
	if (c->evlist->nr_bw_rings) {
		ret = drain_backward(c->evlist, c->w, c->drain);
		/* Written: a snapshot lets the kernel go on at once (samples
		 * that come while a ring is paused are lost). */
		if (!at_exit)
			evlist__resume_backward(c->evlist);
	}
	if (!ret && c->opts->tail_synthesize)
		ret = record__synthesize(c->w, c->evlist, c->si, c->opts, c->wl->pid, SYNTH_TAIL);
	if (!ret && at_exit)
		ret = synth__lost_samples(c->w, c->evlist, c->wl->pid,
					  &c->drain->stats.lost_samples);
	if (ret)
		return ret;
	c->file_bytes = writer__data_size(c->w);
	if (c->opts->comp_level)
		writer__compression_stats(c->w, &in, &out);
	c->comp_in = in;
	c->comp_out = out;
	if (!c->have_meta) {
		ret = record_meta__init(&c->rm, c->si, c->wev, c->evlist, c->clk, c->opts,
					c->argc, c->argv);
		c->have_meta = true;
		if (ret)
			return ret;
	}
	ret = finish(c->w, &c->rm, &c->drain->stats, c->track);
	c->w = NULL;
	if (c->drain)
		c->drain->w = NULL;
	if (ret)
		return ret;
	if (!c->opts->no_buildid_cache)
		record__cache_buildids(&c->rm.meta);
	unwinder__set_track(c->unw, NULL);
	dso_track__delete(c->track);
	c->track = NULL;
	if (c->drain)
		c->drain->track = NULL;
	record_meta__exit(&c->rm);
	c->have_meta = false;
	snprintf(c->final_name, sizeof(c->final_name), "%s", c->output);
	/* Rotated files always carry the time; the last one with
	 * --timestamp-filename (which --switch-output implies). */
	if ((c->opts->timestamp_filename || !at_exit) && !c->opts->pipe_output) {
		timestamped_name(c->output, c->final_name, sizeof(c->final_name));
		if (rename(c->output, c->final_name)) {
			pr_warn("cannot rename '%s' to '%s': %s", c->output, c->final_name,
				strerror(errno));
			snprintf(c->final_name, sizeof(c->final_name), "%s", c->output);
		} else {
			if (c->opts->switch_output || !at_exit)
				pr_info("[ prec record: Dump %s ]\n", c->final_name);
			keep_file(c, c->final_name);
		}
	}
	return 0;
}

/* SIGUSR2, a size or a period: this file ends and the next begins. */
static int record__switch(struct rec_ctx *c)
{
	int ret;

	pr_info("[ prec record: dump data: Woken up %llu times ]\n",
		(unsigned long long)(c->drain->stats.wakeups - c->wakeups_at_switch));
	c->wakeups_at_switch = c->drain->stats.wakeups;
	ret = record__end_file(c, false);
	if (ret)
		return ret;
	/* SAMPLE_TIME is per file. */
	c->drain->stats.first_time = 0;
	c->drain->stats.last_time = 0;
	c->samples_at_file_start = c->drain->stats.samples;
	ret = writer__open(&c->w, c->output);
	if (ret) {
		pr_err("cannot create the output file '%s': %s (%s)", c->output, strerror(-ret),
		       output_path__hint(c->output, ret));
		return -ECANCELED; /* said */
	}
	ret = record__begin_file(c, SYNTH_NEW_FILE);
	if (!ret)
		record__set_cap(c);
	return ret;
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

void record__set_cap(struct rec_ctx *c)
{
	const struct record_opts *o = c->opts;
	uint64_t limit = o->max_size, front;

	if (o->switch_size && !o->pipe_output && (!limit || o->switch_size < limit))
		limit = o->switch_size;
	if (!limit || !c->drain)
		return;
	/* The ring data may fill what the file's front left of the limit. */
	front = writer__file_size(c->w);
	c->drain->max_bytes = c->drain->stats.bytes + (limit > front ? limit - front : 1);
	c->drain->capped = false;
}

int record__output_check(struct rec_ctx *c, bool switch_requested)
{
	const struct record_opts *o = c->opts;
	uint64_t size = writer__file_size(c->w);
	bool rotate = switch_requested;
	/* A cut at the cap is the smaller of the two limits. */
	bool at_max = o->max_size &&
		      (size >= o->max_size ||
		       (c->drain->capped &&
			(!o->switch_size || o->pipe_output || o->max_size <= o->switch_size)));

	if (at_max) {
		pr_info("[ prec record: perf size limit reached (%llu KB), stopping session ]\n",
			(unsigned long long)(size >> 10));
		c->size_limit = true;
		c->drain->no_tail = true;
		return 1;
	}
	if (o->switch_size && (size >= o->switch_size || c->drain->capped))
		rotate = true;
	if (o->switch_time_ms) {
		uint64_t t = now_ms();

		if (!c->next_switch_ms)
			c->next_switch_ms = t + o->switch_time_ms;
		if (t >= c->next_switch_ms) {
			rotate = true;
			c->next_switch_ms = t + o->switch_time_ms;
		}
	}
	if (!rotate || o->pipe_output)
		return 0;
	c->err = record__switch(c);
	return c->err ? -1 : 0;
}

void rec_ctx__exit(struct rec_ctx *c)
{
	for (int i = 0; i < c->nr_kept; i++)
		free(c->kept[i]);
	free(c->kept);
	c->kept = NULL;
	c->nr_kept = 0;
	dso_track__delete(c->track);
	c->track = NULL;
	sideband_log__exit(&c->sblog);
	if (c->have_meta)
		record_meta__exit(&c->rm);
	c->have_meta = false;
}
