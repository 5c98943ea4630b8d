/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_WRITER_AIO_H
#define PREC_WRITER_AIO_H
/*
 * --aio: the data section's spans written asynchronously (POSIX aio_write,
 * as perf record), so the drain hands the rings back to the kernel as soon
 * as their bytes are copied, not when the disk has taken them. A queue owns
 * nr blocks of buf_size bytes; each span set is copied into the next block
 * (several when it is larger) and written at an explicit file offset, so the
 * order in which writes complete never changes the file. A short write is
 * resumed from where it stopped; the first error is kept and returned by
 * every later call, as the sink does. The aio calls come through struct
 * aio_ops so that tests can make them short or failing.
 */
#include <aio.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

/* The aio calls the queue makes (aio_write, aio_error, aio_return, aio_suspend). */
struct aio_ops {
	int (*write)(struct aiocb *cb);
	int (*error)(const struct aiocb *cb);
	ssize_t (*result)(struct aiocb *cb);
	int (*suspend)(const struct aiocb *const list[], int nr, const struct timespec *timeout);
};

struct aio_block {
	struct aiocb cb;
	uint8_t *buf; /* buf_size bytes */
	bool busy; /* a write of it is in flight */
};

struct aio_queue {
	int fd;
	int nr; /* blocks, 1..PREC_AIO_MAX in prec; any number here */
	size_t buf_size;
	struct aio_block *blk;
	int next; /* the block the next copy goes to: blocks are reused in turn */
	int err; /* first error (-errno); every later call returns it */
	const struct aio_ops *ops;
	uint64_t writes; /* aio_write calls, resumptions included */
};

/* Each --aio block holds this much: a pass larger than that takes several. */
#define AIO_BUF_SIZE (1024u * 1024)

/* A queue of nr blocks of buf_size bytes writing to fd (not owned); ops
 * NULL means libc's. 0, -EINVAL (nr or buf_size 0) or -ENOMEM. */
int aio_queue__new(struct aio_queue **out, int fd, int nr, size_t buf_size,
		   const struct aio_ops *ops);

/* Copies the cnt spans and queues their write at offset off, waiting for a
 * block when all are in flight. 0 or -errno (then q->err). */
int aio_queue__writev(struct aio_queue *q, const struct iovec *iov, int cnt, uint64_t off);

/* Waits until every queued write is in the file. 0 or the first -errno. */
int aio_queue__sync(struct aio_queue *q);

/* Waits for the writes in flight, then frees q; accepts NULL. */
void aio_queue__delete(struct aio_queue *q);

#endif
