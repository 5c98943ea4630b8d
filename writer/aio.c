// SPDX-License-Identifier: GPL-2.0-only
/* The asynchronous data writes of --aio (aio.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "aio.h"

static int libc_error(const struct aiocb *cb)
{
	return aio_error(cb);
}

static const struct aio_ops libc_ops = {
	.write = aio_write,
	.error = libc_error,
	.result = aio_return,
	.suspend = aio_suspend,
};

int aio_queue__new(struct aio_queue **out, int fd, int nr, size_t buf_size,
		   const struct aio_ops *ops)
{
	struct aio_queue *q;

	*out = NULL;
	if (nr < 1 || !buf_size)
		return -EINVAL;
	q = calloc(1, sizeof(*q));
	if (!q)
		return -ENOMEM;
	q->fd = fd;
	q->nr = nr;
	q->buf_size = buf_size;
	q->ops = ops ? ops : &libc_ops;
	q->blk = calloc((size_t)nr, sizeof(*q->blk));
	for (int i = 0; q->blk && i < nr; i++) {
		q->blk[i].buf = malloc(buf_size);
		if (!q->blk[i].buf) {
			aio_queue__delete(q);
			return -ENOMEM;
		}
	}
	if (!q->blk) {
		free(q);
		return -ENOMEM;
	}
	*out = q;
	return 0;
}

/* Starts b's write of its remaining bytes; -errno when it cannot start. */
static int aio_queue__start(struct aio_queue *q, struct aio_block *b)
{
	b->cb.aio_fildes = q->fd;
	b->cb.aio_sigevent.sigev_notify = SIGEV_NONE;
	for (;;) {
		q->writes++;
		if (!q->ops->write(&b->cb)) {
			b->busy = true;
			return 0;
		}
		/* EAGAIN: the library is out of resources for a moment. */
		if (errno != EAGAIN)
			return -errno;
	}
}

/*
 * Looks at b's write: 0 while it is in flight (a short write resumed counts
 * as in flight), 1 once it is done, -errno when it failed.
 */
static int aio_queue__check(struct aio_queue *q, struct aio_block *b)
{
	int e = q->ops->error(&b->cb);
	ssize_t n;

	if (e == EINPROGRESS)
		return 0;
	n = q->ops->result(&b->cb);
	if (n < 0 || e) {
		b->busy = false;
		return -(e ? e : EIO);
	}
	if ((size_t)n == b->cb.aio_nbytes) {
		b->busy = false;
		return 1;
	}
	if (n == 0) { /* no progress and no error: do not spin */
		b->busy = false;
		return -EIO;
	}
	b->cb.aio_buf = (uint8_t *)b->cb.aio_buf + n;
	b->cb.aio_nbytes -= (size_t)n;
	b->cb.aio_offset += n;
	b->busy = false;
	return aio_queue__start(q, b);
}

/* Waits until b is free. 0 or its write's -errno (kept in q->err). */
static int aio_queue__wait(struct aio_queue *q, struct aio_block *b)
{
	while (b->busy) {
		const struct aiocb *list[1] = { &b->cb };
		int r = aio_queue__check(q, b);

		if (r < 0) {
			if (!q->err)
				q->err = r;
			return r;
		}
		if (r == 1 || !b->busy)
			break;
		/* EINTR and EAGAIN (the timeout) just look again. */
		q->ops->suspend(list, 1, NULL);
	}
	return 0;
}

int aio_queue__writev(struct aio_queue *q, const struct iovec *iov, int cnt, uint64_t off)
{
	int i = 0;
	size_t done = 0; /* of iov[i] */

	if (q->err)
		return q->err;
	while (i < cnt) {
		struct aio_block *b = &q->blk[q->next];
		size_t fill = 0;
		int err = aio_queue__wait(q, b);

		if (err)
			return err;
		for (; i < cnt && fill < q->buf_size; done = 0, i++) {
			size_t n = iov[i].iov_len - done;

			if (n > q->buf_size - fill)
				n = q->buf_size - fill;
			memcpy(b->buf + fill, (const uint8_t *)iov[i].iov_base + done, n);
			fill += n;
			done += n;
			if (done < iov[i].iov_len)
				break; /* the block is full inside this span */
		}
		if (!fill)
			break;
		memset(&b->cb, 0, sizeof(b->cb));
		b->cb.aio_buf = b->buf;
		b->cb.aio_nbytes = fill;
		b->cb.aio_offset = (off_t)off;
		err = aio_queue__start(q, b);
		if (err) {
			q->err = err;
			return err;
		}
		off += fill;
		q->next = (q->next + 1) % q->nr;
	}
	return 0;
}

int aio_queue__sync(struct aio_queue *q)
{
	for (int i = 0; i < q->nr; i++)
		aio_queue__wait(q, &q->blk[i]);
	return q->err;
}

void aio_queue__delete(struct aio_queue *q)
{
	if (!q)
		return;
	for (int i = 0; q->blk && i < q->nr; i++) {
		aio_queue__wait(q, &q->blk[i]);
		free(q->blk[i].buf);
	}
	free(q->blk);
	free(q);
}
