/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_WRITER_SINK_H
#define PREC_WRITER_SINK_H
/*
 * The writer's lowest layer: one fd, its first write error, and the buffer
 * the data section's small appends are batched in. writer.c, pipe.c,
 * file_header.c and features.c all write through it and it calls none of
 * them, so the writer's files form a tree with writer.c on top.
 */
#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

struct aio_queue;

/* Synthesis writes many small records; batch them into writes this large. */
#define SINK_BUF_SIZE (256 * 1024)

/* Record boundaries kept for a salvage, and their spacing: the features of
 * a recording that hit a full disk may cost it at most about
 * SINK_MARKS * SINK_MARK_STEP bytes of its newest data. */
#define SINK_MARKS 16
#define SINK_MARK_STEP (64 * 1024)

struct sink {
	int fd;
	/* First data write error: after it the data section is torn, so every
	 * later append fails with it instead of producing a corrupt file. */
	int err;
	uint64_t data_flushed; /* data bytes already in the file */
	/* Data bytes that end at a record boundary and are all written (or
	 * queued, with --aio): where a torn data section is cut. A short write
	 * that fails leaves data_flushed inside a record; good never is. */
	uint64_t good;
	/* Earlier record boundaries, at least SINK_MARK_STEP apart, newest at
	 * marks[(next_mark - 1) % SINK_MARKS]: how far a full disk's salvage
	 * may cut the data back to make room for the features. */
	uint64_t marks[SINK_MARKS];
	unsigned int nr_marks, next_mark;
	uint8_t *buf; /* SINK_BUF_SIZE bytes of data not yet written */
	size_t buf_len;
	/* --aio: sink__writev's spans are copied and written asynchronously at
	 * the file position, which moves past them at once; NULL: writev. */
	struct aio_queue *aio;
};

/* A sink on fd (not owned: sink__exit leaves it open). 0 or -ENOMEM. */
int sink__init(struct sink *s, int fd);

/* Frees the buffer; what is buffered is dropped. */
void sink__exit(struct sink *s);

/* len bytes at the file position, unbuffered and not counted as data (the
 * header, the feature sections), retrying EINTR and short writes. The buffer
 * must be flushed first. 0 or -errno, which s->err keeps. */
int sink__write_raw(struct sink *s, const void *buf, size_t len);

/* len bytes at offset off, the file position unmoved (the header patch).
 * 0 or -errno. */
int sink__pwrite(struct sink *s, const void *buf, size_t len, uint64_t off);

/* Appends len data bytes, buffered. 0 or -errno (s->err once one failed). */
int sink__append(struct sink *s, const void *buf, size_t len);

/* Writes out the buffered data. 0 or -errno. */
int sink__flush(struct sink *s);

/* cnt spans of data straight from the caller's memory, after what is
 * buffered, with as few syscalls as possible. 0 or -errno. */
int sink__writev(struct sink *s, const struct iovec *iov, int cnt);

/* Writes out the buffered data and waits for the asynchronous writes in
 * flight (--aio): everything is in the file. 0 or -errno. */
int sink__sync(struct sink *s);

/* Data bytes so far, buffered ones included. */
uint64_t sink__data_size(const struct sink *s);

/* good is a record boundary with every byte before it in the file: s->good
 * moves there, and it becomes a mark when SINK_MARK_STEP past the last. */
void sink__advance_good(struct sink *s, uint64_t good);

/* The record boundaries before s->good, newest first, into out (at most
 * max): the places a salvage may cut the data back to. Returns how many. */
unsigned int sink__marks(const struct sink *s, uint64_t *out, unsigned int max);

#endif
