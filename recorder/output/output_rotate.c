// SPDX-License-Identifier: GPL-2.0-only
/*
 * When the output ends a file and what the ended files are called
 * (output_rotate.h): the limits and periods of --max-size and
 * --switch-output, perf's timestamped names, --switch-max-files.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "prec/log.h"
#include "prec/mono_clock.h"
#include "prec/writer.h"
#include "output/output_config.h"
#include "output/output_hint.h"
#include "output/output_rotate.h"
#include "output/size_limit.h"

static uint64_t now_ms(void)
{
	return mono_clock__ns(false) / 1000000;
}

enum output_step output_rotate__check(struct output_rotate *r, const struct output_config *cfg,
				      uint64_t size, bool capped, bool requested, bool sampled)
{
	bool rotate = requested;

	if (size_limit__full(cfg, size, capped))
		return OUTPUT_FULL;
	/* Not for the size alone before the file holds a sample: with -a on a
	 * busy machine the side-band at each file's front may fill SIZE by
	 * itself, and every new file would end at once, side-band only, which
	 * perf reports as "no samples". The cut (capped) still rotates: the
	 * drain holds the ring's records back until the next file. */
	if (cfg->switch_size && (capped || (sampled && size >= cfg->switch_size)))
		rotate = true;
	if (cfg->switch_time_ms) {
		uint64_t t = now_ms();

		if (!r->next_switch_ms)
			r->next_switch_ms = t + cfg->switch_time_ms;
		if (t >= r->next_switch_ms) {
			rotate = true;
			r->next_switch_ms = t + cfg->switch_time_ms;
		}
	}
	return rotate && !cfg->pipe ? OUTPUT_ROTATE : OUTPUT_GO_ON;
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
static void output_rotate__keep(struct output_rotate *r, int max, const char *name)
{
	char **k;

	if (!max)
		return;
	k = realloc(r->kept, ((size_t)r->nr_kept + 1) * sizeof(*k));
	if (!k)
		return;
	r->kept = k;
	r->kept[r->nr_kept] = strdup(name);
	if (!r->kept[r->nr_kept])
		return;
	r->nr_kept++;
	while (r->nr_kept > max) {
		if (unlink(r->kept[0]) && errno != ENOENT)
			pr_warn("cannot remove old output '%s': %s", r->kept[0], strerror(errno));
		free(r->kept[0]);
		memmove(r->kept, r->kept + 1, (size_t)(r->nr_kept - 1) * sizeof(*r->kept));
		r->nr_kept--;
	}
}

int output_rotate__name(struct output_rotate *r, const struct output_config *cfg, struct writer *w,
			const char *path, struct writer **next, char *final, size_t len)
{
	bool at_exit = !next;
	int ret;

	snprintf(final, len, "%s", path);
	/* Rotated files always carry the time; the last one with
	 * --timestamp-filename (which --switch-output implies). A directory's
	 * data file (w not at path) keeps its name. */
	if ((!cfg->timestamp_filename && at_exit) || cfg->pipe || strcmp(writer__path(w), path))
		return 0;
	timestamped_name(path, final, len);
	if (at_exit) {
		ret = writer__rename(w, final);
		if (ret) {
			pr_warn("cannot rename '%s' to '%s': %s", path, final, strerror(-ret));
			snprintf(final, len, "%s", path);
		}
		return 0;
	}
	ret = writer__rotate(w, final, next);
	if (ret && strcmp(writer__path(w), final))
		pr_err("cannot rename '%s' to '%s' for the next file: %s (%s)", path, final,
		       strerror(-ret), output__hint(path, ret));
	else if (ret)
		pr_err("cannot create the output file '%s': %s (%s)", path, strerror(-ret),
		       output__hint(path, ret));
	return ret ? -ECANCELED : 0;
}

void output_rotate__ended(struct output_rotate *r, const struct output_config *cfg, bool at_exit,
			  const char *path, const char *final)
{
	if (!at_exit)
		r->rotations++;
	if (!strcmp(path, final))
		return;
	if (cfg->switch_output || !at_exit)
		pr_info("[ prec record: Dump %s ]\n", final);
	output_rotate__keep(r, cfg->switch_max_files, final);
}

void output_rotate__exit(struct output_rotate *r)
{
	for (int i = 0; i < r->nr_kept; i++)
		free(r->kept[i]);
	free(r->kept);
	r->kept = NULL;
	r->nr_kept = 0;
}
