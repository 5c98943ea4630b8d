/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_WRITER_INT_H
#define PREC_WRITER_INT_H
/*
 * The writer's insides, shared by writer.c (fd and buffering), file_header.c
 * (header/ids/attrs layout) and features.c (feature sections). Not public:
 * the recorder sees only include/prec/writer.h.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "prec/perf_file.h"
#include "prec/writer.h"

/* Synthesis writes many small records; batch them into writes this large. */
#define WRITER_BUF_SIZE (256 * 1024)

struct writer {
	int fd;
	char *path;
	/* First write error: after it the data section is torn, so every later
	 * write and finish fails with it instead of producing a corrupt file. */
	int err;
	bool begun;
	bool pipe; /* a stream (writer__open_pipe): nothing is patched or removed */
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
	uint64_t data_flushed; /* data-section bytes already in the file */
	uint8_t *buf; /* WRITER_BUF_SIZE bytes of not yet written data */
	size_t buf_len;
	void (*observer)(void *arg, const void *buf, size_t len); /* writer__set_observer */
	struct compressor *comp; /* -z: ring data compressed; NULL otherwise */
	void *observer_arg;
};

/* Writes len bytes at the current file position, unbuffered, retrying on
 * EINTR and short writes. The buffer must be flushed first. 0 or -errno. */
int writer__write_raw(struct writer *w, const void *buf, size_t len);
/* Writes len bytes at offset off without moving the file position. 0 or -errno. */
int writer__pwrite_raw(struct writer *w, const void *buf, size_t len, uint64_t off);
/* Writes out the buffered data bytes. 0 or -errno. */
int writer__flush(struct writer *w);
/* Appends len bytes to the data, buffered, without telling the observer. 0 or -errno. */
int writer__put(struct writer *w, const void *buf, size_t len);

#endif
