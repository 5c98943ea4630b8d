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
};

#endif
