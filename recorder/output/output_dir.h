#ifndef PREC_RECORDER_OUTPUT_DIR_H
#define PREC_RECORDER_OUTPUT_DIR_H
/*
 * The output's --threads and --kcore part (output_dir.c), embedded in struct output
 * and called by output.c only: the perf.data directory and its data file,
 * the stream files data.N (one per drain stream, each written by its
 * stream's thread alone), their counts, and the undoing.
 */
#include <stdbool.h>
#include <stdint.h>

#include "drain/drain.h"

struct writer;
struct writer_dir;

struct output_dir {
	const char *path; /* the directory (not owned) */
	struct writer_dir *dir; /* NULL: not a directory output */
	struct writer **streams; /* [nr]; each NULL once finished */
	struct drain_stats *stats; /* what each stream wrote */
	int nr;
	uint64_t bytes; /* the data.N files' bytes */
	uint64_t in, out; /* and their compression (-z) */
};

/* Makes the directory path and opens its data file as *w. 0 or -errno,
 * printed. */
int output_dir__open(struct output_dir *od, const char *path, struct writer **w);

/* --kcore: PATH/kcore_dir with proc_dir's kcore, kallsyms and modules as
 * perf copies them (prec/kcore.h). 0 or -errno, printed. */
int output_dir__copy_kcore(struct output_dir *od, const char *proc_dir);

/* Creates the nr stream files (compressed at comp_level when > 0, with
 * mmap_len the COMPRESSED feature's buffer size). 0 or -errno (not printed). */
int output_dir__open_streams(struct output_dir *od, int nr, int comp_level, uint32_t mmap_len);

/* Stream i's writer (owned by od). */
struct writer *output_dir__stream(struct output_dir *od, int i);

/* Stream i's file is complete with what st counted: closed, its counts
 * kept (printed under -v). 0 or -errno. */
int output_dir__end_stream(struct output_dir *od, int i, const struct drain_stats *st,
			   bool compressed);

/* Whether a stream file holds records or failed a write: a recording that
 * fails from here on keeps what it has (output_dir__keep). */
bool output_dir__has_data(const struct output_dir *od);

/* A recording that failed after its streams recorded: each stream file is
 * closed at its last whole record, and the directory stays (its data file
 * is the output's to finish). */
void output_dir__keep(struct output_dir *od);

/* A failed recording: the stream files and the directory go. */
void output_dir__abort(struct output_dir *od);

/* Frees what od holds; unfinished stream files are removed. Accepts a
 * zeroed od. */
void output_dir__exit(struct output_dir *od);

#endif
