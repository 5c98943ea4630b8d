/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_WRITER_INT_H
#define PREC_WRITER_INT_H
/*
 * The writer object's insides (writer.c). file_header.c, pipe.c and
 * features.c never see it: they get the sink (sink.h) and what they write,
 * so the writer's files call each other one way. Not public: the recorder
 * sees only include/prec/writer.h.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "prec/perf_file.h"
#include "prec/writer.h"
#include "sink.h"

struct writer {
	struct sink sink; /* the fd, the first write error, the data buffer */
	char *path;
	bool begun;
	bool pipe; /* a stream (writer__open_pipe): nothing is patched or removed */
	bool raw; /* a stream file of a directory (dir.c): records only, no header */
	/* What abort may undo. Only a regular file is ever removed or cut, and
	 * only the one this writer opened (dev, ino): created is set when the
	 * open made it, so abort unlinks it; a regular file that was there
	 * (empty, or perf would have kept it as .old) is cut back to empty. A
	 * device such as /dev/null is left alone. */
	bool regular;
	bool created;
	dev_t dev;
	ino_t ino;
	struct perf_file_header header; /* as written at begin; patched at finish */
	const struct writer_event *events; /* from writer__begin, not owned */
	uint32_t nr_events;
	struct compressor *comp; /* -z: ring data compressed; NULL otherwise */
	/* A file: the data size the header on disk says, and when it was
	 * written (CLOCK_MONOTONIC_COARSE ns); commit.c keeps it close to the
	 * data so that a recording killed mid-way reads. */
	uint64_t committed;
	uint64_t commit_ns;
	/* A stream into a regular file (`-o - > file`): where the stream began
	 * in it, so that a write that fails is cut back to a whole record. */
	bool pipe_file;
	uint64_t pipe_start;
	/* writer_commit__checkpoint wrote features that finish may leave
	 * behind its own: the file is cut at their end. */
	bool checkpointed;
	/* writer__keep_tail's records, for the salvage (owned; NULL: none). */
	void *tail;
	size_t tail_len;
};

/* writer__open for a file inside a directory its writer claimed (dir.c):
 * nothing moved aside, nothing locked. */
int writer__open_claimed(struct writer **out, const char *path);

/* commit.c: a file's header rewritten with the data size that ends at the
 * last whole record written, when force (what is buffered is written
 * first), or when COMMIT_BYTES of data or COMMIT_NS have passed since the
 * last time (never for a stream or a directory's stream file). 0 or
 * -errno. */
int writer_commit__maybe(struct writer *w, bool force);

/* commit.c: what a write failure (a full disk, the file size limit) or an
 * end that could not finish leaves of w made readable: the data cut at the
 * last whole record; for a file, the features after it when they fit (the
 * data cut back to an earlier record boundary, at most SINK_MARKS of them,
 * until they do) and the header rewritten. w stays open. 0 when the file
 * reads, else -errno. */
int writer_commit__salvage(struct writer *w, const struct writer_meta *meta);

/* commit.c: writer__checkpoint's work. 0 or -errno. */
int writer_commit__checkpoint(struct writer *w, const struct writer_meta *meta);

#endif
