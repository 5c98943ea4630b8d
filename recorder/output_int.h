#ifndef PREC_RECORDER_OUTPUT_INT_H
#define PREC_RECORDER_OUTPUT_INT_H
/* What the output's files (output.h) share; not for the rest of the recorder. */
#include <stdbool.h>

#include "prec/dso_track.h"
#include "output.h"
#include "synth/sideband.h"

struct record_opts;

/* output.c */

/* After the writer is open: begin, a stream's features, the tracker, the
 * side-band, compression, the size cut. 0 or -errno. */
int output__begin_file(struct output *o, enum synth_when when);

/* Overwrite rings, tail side-band, (at exit) lost samples, then the features
 * and the timestamped name; o->w is finished and gone. 0 or -errno. */
int output__end_file(struct output *o, bool at_exit);

/* The drain hook of --unwind=record (none without an unwinder), for the
 * live drain and the overwrite rings' alike. 0 or -ENOSPC. */
int output__add_unwind_hook(struct output *o, struct drain *d);

/* output_rotate.c */

/* The ended file's final name in o->final_name: renamed with a timestamp
 * when rotated (or at exit, --timestamp-filename); --switch-max-files. */
void output__name_file(struct output *o, bool at_exit);

/* The drain's after_pass (arg: the output): --max-size (DRAIN_END),
 * --switch-output's rotation. A drain_next or -errno (-ECANCELED: said). */
int output__after_pass(void *arg);

/* --max-size and --switch-output=SIZE: the ring bytes the current file may
 * still take, counted down by the cut hook. */
void output__set_cap(struct output *o);

/* output_meta.c */

/* The events as the file lists them, with the ids of the fds that opened,
 * into o->wev and o->idbuf. 0 or -ENOMEM. */
int output__list_events(struct output *o);

/* Everything the features need that is known before the drain (all of it
 * but sample times, the compression ratio and the build-ids), into o->rm.
 * 0 or -ENOMEM; o->have_meta is set either way. */
int output_meta__init(struct output *o);

/* Frees what m owns. */
void output_meta__exit(struct output_meta *m);

/* What the drain learnt added to o->rm, then writer__finish. Returns its
 * result; o->w is freed. */
int output_meta__finish(struct output *o);

/* Which build-ids the file lists: perf's -B, --buildid-all, --buildid-mmap. */
enum dso_track_buildids output__buildids(const struct record_opts *opts);

/* perf record's build-id cache filled with the DSOs of meta's BUILD_ID list
 * (buildid_cache.h); said under -v, never an error. */
void output__cache_buildids(const struct writer_meta *meta);

/* --overwrite: pauses the backward rings and writes what they hold into
 * the current file, counted like the rest. 0 or -errno. */
int output__snapshot(struct output *o);

/* The drain hook that counts a pass into the file's and the total stats. */
void output__count_pass(void *arg, const struct drain_stats *pass);

#endif
