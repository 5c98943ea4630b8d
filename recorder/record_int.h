#ifndef PREC_RECORDER_RECORD_INT_H
#define PREC_RECORDER_RECORD_INT_H
/*
 * The orchestrator's helpers, by stage: record_prepare.c derives what the
 * validated options become on this machine, before any side effect; record_finish.c
 * turns what was recorded into the file's metadata and the summary.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <limits.h>
#include <sys/types.h>

#include "prec/dso_track.h"
#include "prec/writer.h"
#include "sideband_log.h"

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

/* record_prepare.c: what the final options become once the machine is known. */

struct evlist_config;

/* Whether perf's parser would have scanned the PMUs for these events. */
bool event_specs__scan_pmus(const struct event_specs *specs);

/* Every -e with its filters, then perf's checks. 0, or -EINVAL with one line in err. */
int event_specs__parse_options(struct event_specs *specs, const struct record_opts *opts,
			       char *err, size_t errlen);

/* -F as the kernel will take it (perf's warning when lowered); read once. */
uint64_t options__effective_freq(const struct record_opts *opts);

/* Ring data bytes per CPU for -m (rounded as perf, with its message) or the
 * default perf_event_mlock_kb allows; read once. */
size_t options__ring_bytes(const struct record_opts *opts);

/* The events' narrow config from the final options, the effective -F and
 * -G's directory fd (-1 none); the one place the evlist's settings come from. */
void evlist_config__init(struct evlist_config *cfg, const struct record_opts *opts, uint64_t freq,
			 int cgroup_fd);

/* The fix to suggest when the output cannot be created or written, one per
 * errno; a static buffer, valid until the next call. */
const char *output_path__hint(const char *output, int err);

/* When the side-band is synthesized (record_synth.c). */
enum synth_when {
	SYNTH_START, /* the first file's front */
	SYNTH_NEW_FILE, /* the front of a file --switch-output starts */
	SYNTH_TAIL, /* --tail-synthesize: after the data */
};

/* record_synth.c */


/* The side-band in perf's order (see record_synth.c). 0 or the writer's -errno. */
int record__synthesize(struct writer *w, const struct evlist *evlist, const struct sysinfo *si,
		       const struct record_opts *opts, pid_t pid, enum synth_when when);

/* Every thread of root and of its descendants in proc_dir, each process's
 * leader before its threads. 0 and *out (caller frees), or -errno. */
int proc__tree_tids(const char *proc_dir, pid_t root, pid_t **out, size_t *nr);

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

/* Which build-ids the file lists: perf's -B, --buildid-all, --buildid-mmap. */
enum dso_track_buildids record__buildids(const struct record_opts *opts);

/* perf record's build-id cache filled with the DSOs of meta's BUILD_ID list
 * (buildid_cache.h); said under -v, never an error. */
void record__cache_buildids(const struct writer_meta *meta);

/* record_switch.c: the output over the recording's life. */

struct clock_ref;
struct unwinder;
struct workload;

struct rec_ctx {
	const struct record_opts *opts;
	struct evlist *evlist;
	const struct sysinfo *si;
	struct writer_event *wev;
	const struct clock_ref *clk;
	struct workload *wl;
	struct drain *drain; /* NULL before the drain starts */
	struct unwinder *unw;
	int argc;
	char **argv;
	const char *output; /* the path (or "-") */
	struct writer *w; /* the file being written */
	struct dso_track *track; /* its build-id hit set */
	struct record_meta rm;
	bool have_meta;
	char final_name[PATH_MAX]; /* the last file's name, timestamp included */
	uint64_t file_bytes; /* the last file's data bytes */
	uint64_t comp_in, comp_out; /* and its compression */
	char **kept; /* --switch-max-files: rotated files, oldest first */
	int nr_kept;
	uint64_t next_switch_ms; /* --switch-output=TIME: CLOCK_MONOTONIC ms */
	uint64_t wakeups_at_switch;
	uint64_t samples_at_file_start; /* the summary counts the last file's */
	struct sideband_log sblog; /* --switch-output: replayed into each new file */
	bool size_limit; /* --max-size was reached */
	int err; /* a rotation that failed (said when -ECANCELED) */
};

/* After writer__open: begin, a stream's features, the tracker, the side-band,
 * compression. 0 or -errno. */
int record__begin_file(struct rec_ctx *c, enum synth_when when);

/* Overwrite rings, tail side-band, (at exit) lost samples, then the features
 * and the timestamped name; c->w is finished and gone. 0 or -errno. */
int record__end_file(struct rec_ctx *c, bool at_exit);

/* After a drain pass: --max-size (1: stop), --switch-output rotation (on
 * switch_requested, a size or a period). 0 go on, 1 stop, -1 failed (c->err). */
int record__output_check(struct rec_ctx *c, bool switch_requested);

/* --max-size and --switch-output=SIZE: the ring bytes the current file may
 * still take, for the drain to cut at a record boundary. */
void record__set_cap(struct rec_ctx *c);

/* Frees what the context holds. */
void rec_ctx__exit(struct rec_ctx *c);

#endif
