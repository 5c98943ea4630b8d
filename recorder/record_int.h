#ifndef PREC_RECORDER_RECORD_INT_H
#define PREC_RECORDER_RECORD_INT_H
/*
 * The orchestrator's helpers, by stage: record_prepare.c checks and derives
 * everything from the command line before any side effect; record_finish.c
 * turns what was recorded into the file's metadata and the summary.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <limits.h>

#include "prec/writer.h"

struct dso_track;
struct drain;
struct drain_stats;
struct event_specs;
struct evlist;
struct record_opts;
struct sysinfo;
struct writer;
struct writer_event;

/* The -k clock's resolution and a reading beside the time of day (CLOCK_DATA). */
struct clock_ref {
	bool use;
	int id;
	uint64_t res_ns, tod_ns, clock_ns;
};

/* record_prepare.c */

/* Whether perf's parser would have scanned the PMUs for these events. */
bool events_scan_pmus(const struct event_specs *specs);

/* Every -e with its filters, then perf's checks. 0, or -EINVAL with one line in err. */
int parse_all_events(struct event_specs *specs, const struct record_opts *opts, char *err,
		     size_t errlen);

/* -F as the kernel will take it (perf's warning when lowered). */
uint64_t effective_freq(const struct record_opts *opts);

/* Ring data bytes per CPU for -m (rounded as perf, with its message) or the default. */
size_t ring_bytes(const struct record_opts *opts);

/* The fix to suggest when the output file cannot be created. */
const char *output_hint(const char *output, int err);

/* record_finish.c */

/* The events as the file lists them; ids in *idbuf (caller frees). 0 or -ENOMEM. */
int fill_events(struct writer_event *out, const struct evlist *evlist, uint64_t **idbuf);

/* Reads the overwrite events' backward rings into w, counted in fwd. 0 or -errno. */
int drain_backward(struct evlist *evlist, struct writer *w, struct drain *fwd);

/* perf's two summary lines (and the loss warnings) on stderr. */
void print_summary(const struct drain_stats *st, uint64_t bytes, const char *path,
		   uint64_t comp_in, uint64_t comp_out);

/* The file's metadata, with what it owns. */
struct record_meta {
	struct writer_meta meta;
	char exe[PATH_MAX];
	struct writer_group *groups;
};

/* Everything the features need that is known before the drain (all of it
 * but sample times, the compression ratio and the build-ids). 0 or -ENOMEM;
 * record_meta__exit in both cases. */
int record_meta__init(struct record_meta *rm, const struct sysinfo *si,
		     const struct writer_event *wev, const struct evlist *evlist,
		     const struct clock_ref *clk, const struct record_opts *opts, int argc,
		     char **argv);
void record_meta__exit(struct record_meta *rm);

/* What the drain learnt added to rm, then writer__finish. Returns its
 * result; w is freed. */
int finish(struct writer *w, struct record_meta *rm, const struct drain_stats *st,
	   struct dso_track *track);

#endif
