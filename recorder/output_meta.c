// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the output writes about the recording besides the records
 * (output.h): the events with their ids, the metadata the features are made
 * of (the build-ids of the hit DSOs included), --overwrite's snapshot of the
 * backward rings, the counts of each file and the summary.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "prec/buildid_cache.h"
#include "prec/dso_track.h"
#include "prec/evlist.h"
#include "prec/log.h"
#include "prec/record.h"
#include "prec/tracing_data.h"
#include "prec/version.h"
#include "prec/writer.h"
#include "drain.h"
#include "output_int.h"
#include "unwind/unwind.h"

/*
 * The events as the file lists them, with the ids of the fds that opened
 * (a thread that exited before opening has none).
 */
int output__list_events(struct output *o)
{
	const struct evlist *evlist = o->src.evlist;
	size_t total = 0, n = 0;
	struct writer_event *out;
	uint64_t *ids;

	for (int i = 0; i < evlist->nr; i++)
		total += (size_t)evlist->evsel[i].nr_cpus * (size_t)evlist->evsel[i].nr_threads;
	out = calloc((size_t)evlist->nr ? (size_t)evlist->nr : 1, sizeof(*out));
	ids = calloc(total ? total : 1, sizeof(*ids));
	o->wev = out;
	o->idbuf = ids;
	if (!out || !ids)
		return -ENOMEM;
	for (int i = 0; i < evlist->nr; i++) {
		const struct evsel *evsel = &evlist->evsel[i];

		out[i].attr = &evsel->attr;
		out[i].name = evsel->name;
		out[i].ids = ids + n;
		out[i].nr_ids = 0;
		for (int k = 0; k < evsel->nr_cpus * evsel->nr_threads; k++) {
			if (evsel->fd[k] < 0)
				continue;
			ids[n++] = evsel->id[k];
			out[i].nr_ids++;
		}
	}
	return 0;
}

void output__count_pass(void *arg, const struct drain_stats *pass)
{
	struct output *o = arg;

	drain_stats__add(&o->file, pass);
	drain_stats__add(&o->total, pass);
}

/*
 * Overwrite events kept only their newest records, in backward rings: pause
 * them and write what they hold, counted like the rest. The build-id
 * tracker does not see them (as before the drain had hooks).
 */
int output__snapshot(struct output *o)
{
	struct evlist *evlist = o->src.evlist;
	struct drain_hook count = { .on_pass = output__count_pass, .arg = o };
	struct drain bw;
	int64_t n;

	evlist__pause_backward(evlist);
	n = drain__init(&bw, evlist->bw_rings, evlist->nr_bw_rings, o->w,
			o->drain ? o->drain->time_off : -1);
	/* The file's attrs say the samples are unwound. */
	if (!n)
		n = output__add_unwind_hook(o, &bw);
	if (!n)
		n = drain__add_hook(&bw, &count);
	if (!n)
		n = drain__pass(&bw);
	drain__exit(&bw);
	return n < 0 ? (int)n : 0;
}

void output__summary(struct output *o)
{
	struct drain_stats st = o->total;
	uint64_t bytes = o->file_bytes, comp_in = o->comp_in, comp_out = o->comp_out;
	const char *path = o->final_name;

	if (o->unw)
		unwinder__summary(o->unw, &st);
	st.samples = o->file.samples; /* the last file's, as perf */
	pr_info("[ prec record: Woken up %llu times to write data ]\n",
		(unsigned long long)st.wakeups);
	if (st.lost_samples)
		pr_warn("%llu samples lost: the kernel dropped them (try a lower -F)",
			(unsigned long long)st.lost_samples);
	if (st.lost)
		pr_warn("%llu events lost in %llu chunks: the ring buffer filled up (try a larger -m or a lower -F)",
			(unsigned long long)st.lost, (unsigned long long)st.lost_records);
	if (st.unwound)
		pr_info("[ prec record: Unwound %llu user stacks at record time, %llu incomplete (kept the frames found) ]\n",
			(unsigned long long)st.unwound, (unsigned long long)st.unwind_partial);
	if (comp_out)
		/* perf's wording; "original" is what the data would have taken. */
		pr_info("[ prec record: Captured and wrote %.3f MB %s (%llu samples), compressed (original %.3f MB, ratio is %.3f) ]\n",
			(double)bytes / 1048576.0, path, (unsigned long long)st.samples,
			(double)(bytes - comp_out + comp_in) / 1048576.0,
			(double)comp_in / (double)comp_out);
	else
		pr_info("[ prec record: Captured and wrote %.3f MB %s (%llu samples) ]\n",
			(double)bytes / 1048576.0, path, (unsigned long long)st.samples);
}

/*
 * perf's tracing data for the tracepoint events, so readers can decode their
 * raw fields. Returns the blob (caller frees) or NULL when there are no
 * tracepoints or it cannot be built (said once; the feature is left out).
 */
static void *tracing_blob(const struct evlist *evlist, size_t *len)
{
	uint64_t *ids = calloc((size_t)evlist->nr, sizeof(*ids));
	char tracefs[512];
	void *blob = NULL;
	size_t n = 0;
	int ret;

	*len = 0;
	if (!ids)
		return NULL;
	for (int i = 0; i < evlist->nr; i++)
		if (evlist->evsel[i].attr.type == PERF_TYPE_TRACEPOINT)
			ids[n++] = evlist->evsel[i].attr.config;
	if (n) {
		ret = tracing_data__find_tracefs(tracefs, sizeof(tracefs));
		if (!ret)
			ret = tracing_data__build(tracefs, "/proc", ids, n, &blob, len);
		if (ret)
			pr_warn("cannot read the tracepoint formats: %s (perf script will not decode their fields; is tracefs mounted?)",
				strerror(-ret));
	}
	free(ids);
	if (!*len) {
		free(blob);
		return NULL;
	}
	return blob;
}

int output_meta__init(struct output *o)
{
	struct output_meta *rm = &o->rm;
	const struct evlist *evlist = o->src.evlist;
	const struct record_opts *opts = o->src.opts;
	const struct clock_ref *clk = o->src.clk;
	ssize_t n = readlink("/proc/self/exe", rm->exe, sizeof(rm->exe) - 1);
	struct writer_meta *meta = &rm->meta;

	o->have_meta = true;
	memset(meta, 0, sizeof(*meta));
	if (n > 0)
		rm->exe[n] = '\0';
	else
		snprintf(rm->exe, sizeof(rm->exe), "%s", o->src.argv[0]);
	meta->si = o->src.si;
	meta->events = o->wev;
	meta->nr_events = (uint32_t)evlist->nr;
	meta->exe = rm->exe;
	meta->argc = o->src.argc;
	meta->argv = o->src.argv;
	meta->version = PREC_VERSION;
	meta->use_clockid = clk->use;
	meta->clockid = clk->id;
	meta->clockid_res_ns = clk->res_ns;
	meta->clock_tod_ns = clk->tod_ns;
	meta->clock_clockid_ns = clk->clock_ns;
	meta->branch_stack = opts->branch_filter != 0;
	meta->compressed = opts->comp_level != 0;
	meta->comp_level = (uint32_t)opts->comp_level;
	meta->comp_mmap_len = (uint32_t)(opts->mmap_bytes + (uint64_t)sysconf(_SC_PAGESIZE));
	meta->tracing_data = tracing_blob(evlist, &meta->tracing_data_len);
	/* GROUP_DESC: every group of more than one event, leaders in order. */
	rm->groups = calloc((size_t)evlist->nr, sizeof(*rm->groups));
	if (!rm->groups)
		return -ENOMEM;
	for (int i = 0; i < evlist->nr; i++) {
		const struct evsel *evsel = &evlist->evsel[i];

		if (evsel->leader != i || evsel->nr_members < 2)
			continue;
		rm->groups[meta->nr_groups].name = evsel->group_name;
		rm->groups[meta->nr_groups].leader_idx = (uint32_t)i;
		rm->groups[meta->nr_groups].nr_members = (uint32_t)evsel->nr_members;
		meta->nr_groups++;
	}
	meta->groups = rm->groups;
	return 0;
}

void output_meta__exit(struct output_meta *rm)
{
	free(rm->groups);
	free((void *)rm->meta.tracing_data);
	rm->groups = NULL;
	rm->meta.tracing_data = NULL;
}

int output_meta__finish(struct output *o)
{
	struct writer_meta *meta = &o->rm.meta;
	struct dso_track *track = o->track;
	struct writer *w = o->w;

	meta->first_sample_time = o->file.first_time;
	meta->last_sample_time = o->file.last_time;
	if (meta->compressed) {
		uint64_t in, out;

		writer__compression_stats(w, &in, &out);
		/* perf rounds the ratio to the nearest integer. */
		meta->comp_ratio = out ? (uint32_t)((double)in / (double)out + 0.5) : 0;
	}
	if (track) {
		/* The hit set is complete: no more records will be written. */
		if (!dso_track__finish(track, &meta->buildids, &meta->nr_buildids))
			pr_verbose("build-ids of %u hit DSOs\n", meta->nr_buildids);
	}
	return writer__finish(w, meta);
}

enum dso_track_buildids output__buildids(const struct record_opts *opts)
{
	/* perf: --buildid-mmap sets no_buildid (the ids travel in MMAP2). */
	if (opts->no_buildid || opts->buildid_mmap)
		return DSO_TRACK_BUILDIDS_NONE;
	return opts->buildid_all ? DSO_TRACK_BUILDIDS_ALL : DSO_TRACK_BUILDIDS_HIT;
}

void output__cache_buildids(const struct writer_meta *meta)
{
	struct buildid_cache c;
	struct timespec t0, t1;
	char root[PATH_MAX];
	uint32_t n;

	if (!meta->nr_buildids)
		return;
	if (buildid_cache__root(root, sizeof(root))) {
		pr_verbose("build-id cache: its directory name is too long (set PERF_BUILDID_DIR)\n");
		return;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	buildid_cache__init(&c, root);
	n = buildid_cache__add_list(&c, meta->buildids, meta->nr_buildids);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	pr_verbose("build-id cache: %u of %u DSOs in %s (%.1f ms)\n", n, meta->nr_buildids, root,
		   (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6);
}
