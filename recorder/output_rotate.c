// SPDX-License-Identifier: GPL-2.0-only
/*
 * The output between drain passes (output.h): --max-size ends the
 * recording, --switch-output (SIGUSR2, a size, a period) ends this file and
 * begins the next, and each ended file gets its final name (a timestamp,
 * --switch-max-files). Runs in the drain's after_pass, never inside a pass.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "prec/log.h"
#include "prec/record.h"
#include "prec/writer.h"
#include "drain.h"
#include "output_int.h"

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
static void output__keep(struct output *o, const char *name)
{
	int max = o->src.opts->switch_max_files;
	char **k;

	if (!max)
		return;
	k = realloc(o->kept, ((size_t)o->nr_kept + 1) * sizeof(*k));
	if (!k)
		return;
	o->kept = k;
	o->kept[o->nr_kept] = strdup(name);
	if (!o->kept[o->nr_kept])
		return;
	o->nr_kept++;
	while (o->nr_kept > max) {
		if (unlink(o->kept[0]) && errno != ENOENT)
			pr_warn("cannot remove old output '%s': %s", o->kept[0], strerror(errno));
		free(o->kept[0]);
		memmove(o->kept, o->kept + 1, (size_t)(o->nr_kept - 1) * sizeof(*o->kept));
		o->nr_kept--;
	}
}

void output__name_file(struct output *o, bool at_exit)
{
	const struct record_opts *opts = o->src.opts;

	snprintf(o->final_name, sizeof(o->final_name), "%s", o->path);
	/* Rotated files always carry the time; the last one with
	 * --timestamp-filename (which --switch-output implies). */
	if ((!opts->timestamp_filename && at_exit) || opts->pipe_output)
		return;
	timestamped_name(o->path, o->final_name, sizeof(o->final_name));
	if (rename(o->path, o->final_name)) {
		pr_warn("cannot rename '%s' to '%s': %s", o->path, o->final_name, strerror(errno));
		snprintf(o->final_name, sizeof(o->final_name), "%s", o->path);
		return;
	}
	if (opts->switch_output || !at_exit)
		pr_info("[ prec record: Dump %s ]\n", o->final_name);
	output__keep(o, o->final_name);
}

/* SIGUSR2, a size or a period: this file ends and the next begins. */
static int output__switch(struct output *o)
{
	int ret;

	pr_info("[ prec record: dump data: Woken up %llu times ]\n",
		(unsigned long long)(o->total.wakeups - o->wakeups_at_switch));
	o->wakeups_at_switch = o->total.wakeups;
	ret = output__end_file(o, false);
	if (ret)
		return ret;
	/* SAMPLE_TIME and the summary's samples are per file. */
	memset(&o->file, 0, sizeof(o->file));
	ret = writer__open(&o->w, o->path);
	if (ret) {
		pr_err("cannot create the output file '%s': %s (%s)", o->path, strerror(-ret),
		       output__hint(o->path, ret));
		return -ECANCELED; /* said */
	}
	return output__begin_file(o, SYNTH_NEW_FILE);
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

void output__set_cap(struct output *o)
{
	const struct record_opts *opts = o->src.opts;
	uint64_t limit = opts->max_size, front;

	if (opts->switch_size && !opts->pipe_output && (!limit || opts->switch_size < limit))
		limit = opts->switch_size;
	if (!limit)
		return;
	/* The ring data may fill what the file's front left of the limit. */
	front = writer__file_size(o->w);
	o->room = limit > front ? limit - front : 1;
	o->capped = false;
}

int output__after_pass(void *arg)
{
	struct output *o = arg;
	const struct record_opts *opts = o->src.opts;
	bool rotate = *o->src.switch_req;
	uint64_t size;
	bool at_max;

	*o->src.switch_req = 0;
	if (!rotate && !opts->max_size && !opts->switch_size && !opts->switch_time_ms)
		return DRAIN_GO_ON;
	size = writer__file_size(o->w);
	/* A cut at the cap is the smaller of the two limits. */
	at_max = opts->max_size && (size >= opts->max_size ||
				    (o->capped && (!opts->switch_size || opts->pipe_output ||
						   opts->max_size <= opts->switch_size)));
	if (at_max) {
		pr_info("[ prec record: perf size limit reached (%llu KB), stopping session ]\n",
			(unsigned long long)(size >> 10));
		o->size_limit = true;
		return DRAIN_END;
	}
	if (opts->switch_size && (size >= opts->switch_size || o->capped))
		rotate = true;
	if (opts->switch_time_ms) {
		uint64_t t = now_ms();

		if (!o->next_switch_ms)
			o->next_switch_ms = t + opts->switch_time_ms;
		if (t >= o->next_switch_ms) {
			rotate = true;
			o->next_switch_ms = t + opts->switch_time_ms;
		}
	}
	if (!rotate || opts->pipe_output)
		return DRAIN_GO_ON;
	return output__switch(o);
}
