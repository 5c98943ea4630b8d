#ifndef PREC_RECORDER_OUTPUT_META_H
#define PREC_RECORDER_OUTPUT_META_H
/*
 * What an output file says about the recording besides its records
 * (output_meta.c): the events with their ids, and the metadata its features
 * are made of, the build-ids of the DSOs its samples hit included. The
 * output (output.h) calls it; it knows nothing of the output.
 */
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "dsos/dso_track.h"
#include "prec/writer.h"

struct drain_stats;
struct evlist;
struct output_config;
struct sysinfo;

/* The -k clock's resolution and a reading beside the time of day (CLOCK_DATA). */
struct clock_ref {
	bool use;
	int id;
	uint64_t res_ns, tod_ns, clock_ns;
};

/* A file's metadata, with what it owns. */
struct output_meta {
	struct writer_meta meta;
	char exe[PATH_MAX];
	struct writer_group *groups;
	/* --threads -z: the stream files' compression, beside the writer's */
	uint64_t extra_in, extra_out;
};

/* The events as the file lists them, with the ids of the fds that opened:
 * *wev and *idbuf, the caller's to free (also on failure). 0 or -ENOMEM. */
int output_meta__list_events(const struct evlist *evlist, struct writer_event **wev,
			     uint64_t **idbuf);

/* Everything the features need that is known before the drain (all of it
 * but sample times, the compression ratio and the build-ids). 0 or -ENOMEM;
 * output_meta__exit in both cases. */
int output_meta__init(struct output_meta *m, const struct sysinfo *si,
		      const struct writer_event *wev, const struct evlist *evlist,
		      const struct clock_ref *clk, const struct output_config *cfg, int argc,
		      char **argv);

/* -z: the decompression buffer a reader needs (COMPRESSED's mmap_len): a
 * ring and a page. */
uint32_t output_meta__comp_mmap_len(const struct evlist *evlist);

/* Frees what m owns. */
void output_meta__exit(struct output_meta *m);

/* st's sample times, w's compression ratio and the build-ids of track's
 * hits (NULL: none) added to m, then writer__finish. Returns its result;
 * w is freed. */
int output_meta__finish(struct output_meta *m, struct writer *w, const struct drain_stats *st,
			struct dso_track *track);

/* Which build-ids a file lists: perf's -B, --buildid-all, --buildid-mmap. */
enum dso_track_buildids output_meta__buildids(const struct output_config *cfg);

/* perf record's build-id cache filled with the DSOs of meta's BUILD_ID list
 * (buildid_cache.h), with their debug files from cfg's --debuginfod servers,
 * then prec's JIT ELFs in it pruned to --names-cache-max
 * (buildid_cache__prune_jit); printed under -v, never an error (a prune
 * that failed is one warning). */
void output_meta__cache_buildids(const struct writer_meta *meta, const struct output_config *cfg);

/* --names-cache-max: prec's JIT ELFs in the build-id cache (written there
 * whether the cache is filled or not: -N, -B) pruned to the cap, once this
 * file's are in (they and any other running recording's stay). */
void output_meta__prune_names(const struct output_config *cfg);

#endif
