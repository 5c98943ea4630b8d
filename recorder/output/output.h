#ifndef PREC_RECORDER_OUTPUT_H
#define PREC_RECORDER_OUTPUT_H
/*
 * Where the records go over a recording's life, as one object: it opens the
 * file or the stream, begins each file (the header and attrs, a stream's
 * features, the file's build-id tracker, the side-band at its front,
 * compression), and between drain passes applies --max-size and rotates for
 * --switch-output (a signal, a size, a period; --switch-max-files,
 * timestamped names); --overwrite's snapshots go in at each file's end; it
 * finishes the last file (tail side-band, lost samples, build-ids of the hit
 * DSOs, features, the final name) and prints the summary.
 *
 * The engine's streams (drain/streams.h) know nothing of files: the output
 * says what their drains are configured with (output__drain_config), and
 * gives each stream's drain its writer and the same hooks (the size cut,
 * size_limit.h; the build-id tracker and the unwinder, stream_track.h; the
 * counts), a tick and a between-pass step. The one stream of a recording
 * without --threads writes the file itself, so its hooks also keep
 * --switch-output's side-band log and its between-pass step rotates; with
 * --threads each stream writes its own data.N of a perf.data directory.
 *
 *   output__open -> output__begin -> output__begin_streams
 *   -> output__drain_config -> streams__init -> output__attach_streams
 *   -> streams__run ... -> output__end_stream
 *   (each) -> output__finish -> output__summary; output__abort on a
 *   failure; output__exit always.
 *
 * Files, each calling only those below it: output_streams.c (--threads'
 * stream files; each stream's drain: its config, writer, hooks, tick and
 * step), output.c (the life of each file, its between-pass step,
 * the snapshot), then
 * output_synth.c (the side-band at a file's front, in the background),
 * output_summary.c (the summary), then
 * size_limit.c (--max-size), stream_track.c (each stream's trackers),
 * output_dir.c (--threads: the perf.data directory and its stream files),
 * output_rotate.c (when a file ends and its name), output_meta.c (events and
 * metadata) and output_hint.c (the fixes named for errors).
 */
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "prec/writer.h"
#include "drain/drain.h"
#include "live/status_line.h"
#include "output/output_config.h"
#include "output/output_dir.h"
#include "output/output_hint.h"
#include "output/output_meta.h"
#include "output/output_rotate.h"
#include "output/sideband_log.h"
#include "output/size_limit.h"
#include "output/stream_track.h"
#include "synth/sideband.h"
#include "synth/synthesize.h"

struct dso_track;
struct names;
struct names_hook;
struct synth_bg;
struct evlist;
struct synth_config;
struct streams;
struct sysinfo;
struct unwinder;
struct wake;

/* What the output reads and does not own; every pointer valid until
 * output__exit. */
struct output_src {
	const struct output_config *cfg; /* the options the output reads (output_config.h) */
	const struct synth_config *synth; /* the side-band's (synth/synth_config.h) */
	struct evlist *evlist; /* opened and mapped */
	const struct sysinfo *si;
	const struct clock_ref *clk;
	int argc; /* the command line, for CMDLINE */
	char **argv;
	pid_t pid; /* the forked command, or -1 */
	/* Each stream of the engine writes its own data.N of a perf.data
	 * directory (--threads); false: the one stream writes the file. */
	bool stream_files;
	struct wake *wake; /* the main loop's (drain/wake.h), poked by the background side-band */
	/* Whether a rotation (or an --overwrite snapshot) was asked for since
	 * the last call, taking the request; asked between passes. NULL: never
	 * (the recorder's SIGUSR2, signals.h). */
	bool (*take_switch)(void);
	/* --off-cpu (bpf/off_cpu.h): its direct samples go out on the first
	 * stream, its summed ones last in the last file. NULL: none. */
	struct off_cpu *off_cpu;
};

struct output {
	struct output_src src;
	const char *path; /* the path (or "-") */
	struct writer_event *wev; /* the events as the files list them (owned) */
	uint64_t *idbuf; /* their ids (owned) */
	struct unwinder *unw; /* --unwind=record, or NULL (not owned) */
	struct drain *drain; /* the stream's drain that writes the file, or NULL */
	struct writer *w; /* the file being written */
	struct dso_track *track; /* its build-id hit set */
	struct synth_out sout; /* w, with track as the tap: the side-band's way */
	struct output_meta rm;
	bool have_meta;
	struct drain_stats file; /* what went into the current file */
	struct drain_stats total; /* and into all of them (the summary's losses) */
	char final_name[PATH_MAX]; /* the last file's name, timestamp included */
	uint64_t file_bytes; /* the last file's data bytes */
	uint64_t comp_in, comp_out; /* and its compression */
	uint64_t comp_done; /* the compressed bytes of the files ended before it */
	struct output_rotate rot; /* when files end, and their names */
	uint64_t wakeups_at_switch;
	struct sideband_log sblog; /* --switch-output: replayed into each new file */
	struct size_limit size; /* --max-size / --switch-output=SIZE: the file's budget */
	struct size_share *shares; /* each stream's part of it (owned) */
	int nr_shares;
	struct stream_tracks tracks; /* each stream's build-id tracker and unwinder */
	/* --threads: path is a perf.data directory, w its data file, and
	 * each drain stream writes its own data.N. */
	struct output_dir dir;
	/* The first file's side-band still being synthesized (synth/
	 * background.h): written between passes once done, FINISHED_ROUND
	 * held back until then; NULL when none runs. */
	struct synth_bg *bg;
	/* The pids the drains saw samples of while it runs (synth/hints.h),
	 * read first by its walk and kept when a full file is cut; each
	 * stream's hook that tells them (output_synth.c). NULL: none. */
	struct synth_hints *hints;
	struct output_hint_hook *hhooks;
	/* The names kept for after the processes are gone (names/names.h):
	 * NULL when off; each stream's hook (names_hook.h). */
	struct names *names;
	struct names_hook *nhooks;
};

/*
 * Opens the output at src->cfg->path ("-": the stream on standard output) and lists
 * the events with their ids (o->wev, for unwinder__setup). 0, or -errno
 * after saying why on stderr (all but -ENOMEM); output__exit in both cases.
 */
int output__open(struct output *o, const struct output_src *src);

/* The first file's front: header and attrs, a stream's features, the
 * tracker, the side-band, compression. unw: --unwind=record's, or NULL.
 * 0 or -errno (-E2BIG: too many ids for a pipe record); not reported, but
 * -ECANCELED (the names layer could not start: printed). */
int output__begin(struct output *o, struct unwinder *unw);

/* The last part of the begin, once the engine's number of streams nr is
 * known: with stream_files, the directory's nr stream files data.N
 * (compressed with -z) and their trackers, then the data file's features
 * (DIR_FORMAT, without which perf cannot read the directory), so that a
 * recording killed from here on reads whole; nothing without. 0 or -errno
 * (not reported). */
int output__begin_streams(struct output *o, int nr);

/* What every stream's drain starts with (after output__begin): the
 * file's writer (none with stream_files: each stream's own is given by
 * output__attach_streams), whether passes end in FINISHED_ROUND, and
 * --buildid-mmap's. The other members of c are left as they are. */
void output__drain_config(const struct output *o, struct drain_config *c);

/* Each stream of ss gets its writer (with stream_files its data.N, made
 * by output__begin_streams for as many streams), its hooks, its tick and
 * its between-pass step (rotation and limits); with stream_files the main
 * loop's stream 0 also takes the background side-band in
 * (output__between). Nothing is written. 0 or -errno (not reported). */
int output__attach_streams(struct output *o, struct streams *ss);

/* The end of the last file: overwrite rings, tail side-band, lost samples,
 * features and build-ids, its final name. 0, or -errno (not reported); the file
 * keeps what was written (writer__finish), and output__abort keeps it. */
int output__finish(struct output *o);

/* perf's summary lines (and the loss warnings) on stderr. */
void output__summary(struct output *o);

/* A failed recording. Once ring data went in or a write failed part way,
 * what was recorded stays, made readable (writer__finish: the last whole
 * record, the features when they fit; --threads: its stream files too);
 * before that (the command could not run) the file being written is
 * removed. A stream ends, cut at its last whole record when it is a file. */
void output__abort(struct output *o);

/* A recording that never began (its output or streams could not be set
 * up): the file or directory goes, whatever was written into it. */
void output__discard(struct output *o);

/* output.c, for output_streams.c: the file's metadata from what the output
 * was given (o->rm, o's to free from here on). 0 or -ENOMEM. */
int output__meta(struct output *o);

/* output.c, for output_streams.c: a drain's pass counted for the current
 * file and the whole run (a drain hook's on_pass; arg the output). */
void output__count_pass(void *arg, const struct drain_stats *pass);

/* Where the events' non-sample records carry their sample_id TIME: bytes
 * before the record's end (dso_track_layout's id_time_back); 0: none. */
int output__id_time_back(const struct output *o);

/* output.c, for output_streams.c: the file's drain's between-pass step
 * (arg the output): --max-size ends the recording (DRAIN_END),
 * --switch-output ends this file and begins the next. A drain_next or
 * -errno (-ECANCELED: printed). */
int output__between_pass(void *arg);

/* output_synth.c, for output.c: whether the file begun at when gets its
 * side-band in the background (not --tail-synthesize, nor events without
 * TIME, whose samples readers resolve as they read them). */
bool output__synth_later(const struct output *o, enum synth_when when);

/* output_synth.c, for output.c: the background side-band into the file
 * once the workers are done, then FINISHED_INIT and the round held back.
 * Waits for the workers. 0 or -errno. */
int output__synth_join(struct output *o);

/* output_synth.c, for output.c: the first file's side-band: its quick
 * front now, the rest started in the background (output__synth_join).
 * 0 or -errno. */
int output__synth_start(struct output *o);

/* output_synth.c, for output.c: stream i's drain d tells the background
 * walk the pids of its samples while it runs, and passes often meanwhile
 * so that they come early. 0 or -errno (-ENOMEM, -ENOSPC). */
int output__attach_hints(struct output *o, int i, struct drain *d);

/* output_synth.c, for output.c: a file whose write failed (the file size
 * limit, a full disk) with the background side-band not in yet keeps of it
 * what its samples need: the kernel's part and the sampled processes' maps,
 * the data cut back to make room (writer__keep_tail). Nothing else. */
void output__synth_keep(struct output *o);

/* output_synth.c, for output.c: frees the hints and their hooks. */
void output__synth_exit(struct output *o);

/* --threads: the main loop's between-pass step (arg the output; stream
 * 0's drain): the background side-band, once ready, into the data file and
 * to the streams. 0 or -errno (a write's). */
int output__between(void *arg);

/* Before output__finish, for each stream of the engine: with
 * stream_files, stream i's file is complete with what st counted (added to
 * the file's and the run's counts); else nothing (its passes counted as
 * they came). 0 or -errno. */
int output__end_stream(struct output *o, int i, const struct drain_stats *st);

/* Whether --max-size ended the recording: it is complete, on purpose. */
bool output__size_reached(const struct output *o);

/* What the status line shows of the output (live/status_line.h). */
void output__status(const struct output *o, struct status_output *so);

/* Frees what o holds. Accepts an o never opened (zeroed). */
void output__exit(struct output *o);

#endif
