// SPDX-License-Identifier: GPL-2.0-only
/*
 * The output between drain passes (output.h): output__attach makes this
 * the drain's after_pass, where --max-size ends the recording and
 * --switch-output (SIGUSR2, a size, a period) ends this file and begins the
 * next. Never inside a pass: the drain has written and released what it
 * took before a file changes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "prec/log.h"
#include "prec/record.h"
#include "prec/writer.h"
#include "drain.h"
#include "output_int.h"

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

/* The drain's after_pass: --max-size (DRAIN_END), else --switch-output's
 * rotation. A drain_next or -errno (-ECANCELED: said). */
static int output__after_pass(void *arg)
{
	struct output *o = arg;
	const struct record_opts *opts = o->src.opts;
	bool rotate = o->src.switch_req && *o->src.switch_req;
	uint64_t size;
	bool at_max;

	if (o->src.switch_req)
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

int output__attach(struct output *o, struct drain *d)
{
	d->after_pass = output__after_pass;
	d->after_arg = o;
	if (o->src.opts->switch_time_ms)
		d->timeout_ms = 100; /* the period is checked between passes */
	return output__add_hooks(o, d);
}
