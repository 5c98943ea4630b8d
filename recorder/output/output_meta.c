// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the output writes about the recording besides the records
 * (output_meta.h): the events with their ids and the metadata the features
 * are made of, the build-ids of the hit DSOs included.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "prec/buildid_cache.h"
#include "dsos/dso_track.h"
#include "evlist/evlist.h"
#include "prec/log.h"
#include "prec/mono_clock.h"
#include "output/output_config.h"
#include "prec/tracing_data.h"
#include "prec/version.h"
#include "prec/writer.h"
#include "drain/drain.h"
#include "output/output_meta.h"

/*
 * The events as the file lists them, with the ids of the fds that opened
 * (a thread that exited before opening has none).
 */
int output_meta__list_events(const struct evlist *evlist, struct writer_event **wev,
			     uint64_t **idbuf)
{
	size_t total = 0, n = 0;
	struct writer_event *out;
	uint64_t *ids;

	for (int i = 0; i < evlist->nr; i++)
		total += (size_t)evlist->evsel[i].nr_cpus * (size_t)evlist->evsel[i].nr_threads;
	out = calloc((size_t)evlist->nr ? (size_t)evlist->nr : 1, sizeof(*out));
	ids = calloc(total ? total : 1, sizeof(*ids));
	*wev = out;
	*idbuf = ids;
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

/*
 * perf's tracing data for the tracepoint events, so readers can decode their
 * raw fields. Returns the blob (caller frees) or NULL when there are no
 * tracepoints or it cannot be built (printed once; the feature is left out).
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
		ret = tracefs__find(tracefs, sizeof(tracefs));
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

int output_meta__init(struct output_meta *rm, const struct sysinfo *si,
		      const struct writer_event *wev, const struct evlist *evlist,
		      const struct clock_ref *clk, const struct output_config *cfg, int argc,
		      char **argv)
{
	ssize_t n = readlink("/proc/self/exe", rm->exe, sizeof(rm->exe) - 1);
	struct writer_meta *meta = &rm->meta;

	memset(meta, 0, sizeof(*meta));
	if (n > 0)
		rm->exe[n] = '\0';
	else
		snprintf(rm->exe, sizeof(rm->exe), "%s", argv[0]);
	meta->si = si;
	meta->events = wev;
	meta->nr_events = (uint32_t)evlist->nr;
	meta->exe = rm->exe;
	meta->argc = argc;
	meta->argv = argv;
	meta->version = PREC_VERSION;
	meta->use_clockid = clk->use;
	meta->clockid = clk->id;
	meta->clockid_res_ns = clk->res_ns;
	meta->clock_tod_ns = clk->tod_ns;
	meta->clock_clockid_ns = clk->clock_ns;
	meta->branch_stack = cfg->branch_stack;
	meta->compressed = cfg->comp_level != 0;
	meta->comp_level = (uint32_t)cfg->comp_level;
	meta->comp_mmap_len = output_meta__comp_mmap_len(evlist);
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

uint32_t output_meta__comp_mmap_len(const struct evlist *evlist)
{
	return (uint32_t)(evlist->ring_bytes + (size_t)sysconf(_SC_PAGESIZE));
}

void output_meta__exit(struct output_meta *rm)
{
	free(rm->groups);
	free((void *)rm->meta.tracing_data);
	rm->groups = NULL;
	rm->meta.tracing_data = NULL;
}

int output_meta__finish(struct output_meta *rm, struct writer *w, const struct drain_stats *st,
			struct dso_track *track)
{
	struct writer_meta *meta = &rm->meta;

	meta->first_sample_time = st->first_time;
	meta->last_sample_time = st->last_time;
	if (meta->compressed) {
		uint64_t in, out;

		writer__compression_stats(w, &in, &out);
		in += rm->extra_in;
		out += rm->extra_out;
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

enum dso_track_buildids output_meta__buildids(const struct output_config *cfg)
{
	/* perf: --buildid-mmap sets no_buildid (the ids travel in MMAP2). */
	if (cfg->no_buildid || cfg->buildid_mmap)
		return DSO_TRACK_BUILDIDS_NONE;
	return cfg->buildid_all ? DSO_TRACK_BUILDIDS_ALL : DSO_TRACK_BUILDIDS_HIT;
}

void output_meta__prune_names(const struct output_config *cfg)
{
	struct buildid_cache_prune p = { .max_bytes = cfg->names_cache_max };
	uint64_t t0 = mono_clock__ns(false);
	char root[PATH_MAX];
	int err;

	if (cfg->pipe || !cfg->keep_names || !cfg->names_cache_max ||
	    buildid_cache__root(cfg->buildid_dir, root, sizeof(root)))
		return;
	err = buildid_cache__prune_jit(root, &p);
	if (err)
		pr_warn("the build-id cache's JIT ELFs could not all be pruned to --names-cache-max: %s (see %s/jit)",
			strerror(-err), root);
	if (!p.recordings)
		return;
	pr_verbose(
		"build-id cache: prec's JIT ELFs of %u recordings, %.2f MB; %u oldest removed (%u links), %.2f MB left, cap %.2f MB (%.1f ms)\n",
		p.recordings, (double)p.bytes_before / 1e6, p.removed, p.links_removed,
		(double)p.bytes_after / 1e6, (double)p.max_bytes / 1e6,
		(double)mono_clock__elapsed_ns(t0) / 1e6);
	if (p.bytes_after > p.max_bytes)
		pr_verbose(
			"build-id cache: over --names-cache-max: %u recordings still running keep theirs\n",
			p.running);
}

void output_meta__cache_buildids(const struct writer_meta *meta, const struct output_config *cfg)
{
	struct buildid_cache c;
	uint64_t t0;
	char root[PATH_MAX];
	uint32_t n;

	if (buildid_cache__root(cfg->buildid_dir, root, sizeof(root))) {
		if (meta->nr_buildids)
			pr_verbose(
				"build-id cache: its directory name is too long (set PERF_BUILDID_DIR)\n");
		return;
	}
	if (meta->nr_buildids) {
		t0 = mono_clock__ns(false);
		buildid_cache__init(&c, root);
		/* --debuginfod's servers (options__validate resolved perf's "system"). */
		c.debuginfod_urls = cfg->debuginfod_urls;
		n = buildid_cache__add_list(&c, meta->buildids, meta->nr_buildids);
		pr_verbose("build-id cache: %u of %u DSOs in %s (%.1f ms)\n", n, meta->nr_buildids,
			   root, (double)mono_clock__elapsed_ns(t0) / 1e6);
	}
}
