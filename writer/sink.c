// SPDX-License-Identifier: GPL-2.0-only
/* The fd and data buffer every part of the writer writes through (sink.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "aio.h"
#include "prec/write_all.h"
#include "sink.h"

#ifndef IOV_MAX
#define IOV_MAX 1024
#endif

int sink__init(struct sink *s, int fd)
{
	memset(s, 0, sizeof(*s));
	s->fd = fd;
	s->buf = malloc(SINK_BUF_SIZE);
	return s->buf ? 0 : -ENOMEM;
}

void sink__exit(struct sink *s)
{
	aio_queue__delete(s->aio); /* the writes in flight still use the fd */
	s->aio = NULL;
	free(s->buf);
	s->buf = NULL;
	s->buf_len = 0;
}

void sink__advance_good(struct sink *s, uint64_t good)
{
	uint64_t last = s->nr_marks ? s->marks[(s->next_mark + SINK_MARKS - 1) % SINK_MARKS] : 0;

	s->good = good;
	if (s->good - last < SINK_MARK_STEP)
		return;
	s->marks[s->next_mark] = s->good;
	s->next_mark = (s->next_mark + 1) % SINK_MARKS;
	if (s->nr_marks < SINK_MARKS)
		s->nr_marks++;
}

/* Everything written so far ends at a record boundary: the callers write
 * whole records per call (a wrapped ring record is two spans of one call). */
static void sink__set_good(struct sink *s)
{
	sink__advance_good(s, s->data_flushed);
}

/* fd__write_all, with s's first error kept. *done: the bytes written, also
 * when it fails part way (a full disk takes the first of them), so that the
 * data count says what the file holds. */
static int sink__write_counted(struct sink *s, const void *buf, size_t len, size_t *done)
{
	int err;

	*done = 0;
	if (s->err)
		return s->err;
	err = fd__write_all(s->fd, buf, len, done);
	if (err)
		s->err = err;
	return err;
}

int sink__write_raw(struct sink *s, const void *buf, size_t len)
{
	size_t done;

	return sink__write_counted(s, buf, len, &done);
}

int sink__pwrite(struct sink *s, const void *buf, size_t len, uint64_t off)
{
	return fd__pwrite_all(s->fd, buf, len, off);
}

/* len data bytes written now (a record too big or too late to buffer).
 * 0 or -errno. */
static int sink__write_data(struct sink *s, const void *buf, size_t len)
{
	size_t done;
	int err = sink__write_counted(s, buf, len, &done);

	s->data_flushed += done;
	return err;
}

int sink__flush(struct sink *s)
{
	int err;

	if (!s->buf_len)
		return s->err;
	err = sink__write_data(s, s->buf, s->buf_len);
	if (!err) {
		s->buf_len = 0;
		sink__set_good(s);
	}
	return err;
}

int sink__append(struct sink *s, const void *buf, size_t len)
{
	int err;

	if (s->err)
		return s->err;
	if (len > SINK_BUF_SIZE - s->buf_len) {
		err = sink__flush(s);
		if (err)
			return err;
	}
	/* Too big to be worth a copy: it is one write either way. */
	if (len >= SINK_BUF_SIZE) {
		err = sink__write_data(s, buf, len);
		if (!err)
			sink__set_good(s);
		return err;
	}
	if (len) {
		memcpy(s->buf + s->buf_len, buf, len);
		s->buf_len += len;
	}
	return 0;
}

/* --aio: the spans queued at the file position, which moves past them now
 * so that the next plain write lands after them. */
static int sink__writev_async(struct sink *s, const struct iovec *iov, int cnt)
{
	off_t pos = lseek(s->fd, 0, SEEK_CUR);
	size_t len = 0;
	int err;

	for (int i = 0; i < cnt; i++)
		len += iov[i].iov_len;
	err = pos < 0 ? -errno : aio_queue__writev(s->aio, iov, cnt, (uint64_t)pos);
	if (!err && lseek(s->fd, pos + (off_t)len, SEEK_SET) < 0)
		err = -errno;
	if (err) {
		s->err = err;
		return err;
	}
	/* Not good yet: only a sync knows these bytes are in the file. */
	s->data_flushed += len;
	return 0;
}

int sink__sync(struct sink *s)
{
	int err = sink__flush(s);

	if (s->aio && aio_queue__sync(s->aio) && !err)
		err = s->aio->err;
	if (err && !s->err)
		s->err = err;
	if (!err && s->aio)
		sink__set_good(s);
	return err;
}

int sink__writev(struct sink *s, const struct iovec *iov, int cnt)
{
	int i = 0, err;

	/* Records must land in order: what is buffered goes first. */
	err = sink__flush(s);
	if (err)
		return err;
	if (s->aio)
		return sink__writev_async(s, iov, cnt);
	while (i < cnt) {
		int n = cnt - i < IOV_MAX ? cnt - i : IOV_MAX;
		ssize_t done = writev(s->fd, iov + i, n);
		size_t left;

		if (done < 0) {
			if (errno == EINTR)
				continue;
			s->err = -errno;
			return s->err;
		}
		s->data_flushed += (uint64_t)done;
		left = (size_t)done;
		/* Skip the spans written whole (and empty ones). */
		while (i < cnt && left >= iov[i].iov_len) {
			left -= iov[i].iov_len;
			i++;
		}
		if (i == cnt)
			break;
		if (left) {
			/* A short write stopped inside iov[i]: finish that span
			 * with plain writes, then go on with writev. The caller's
			 * array is const, so it is never adjusted in place. */
			err = sink__write_data(s, (const char *)iov[i].iov_base + left,
					       iov[i].iov_len - left);
			if (err)
				return err;
			i++;
		} else if (done == 0) {
			s->err = -EIO; /* no progress and no errno: do not spin */
			return s->err;
		}
	}
	sink__set_good(s);
	return 0;
}

uint64_t sink__data_size(const struct sink *s)
{
	return s->data_flushed + s->buf_len;
}

unsigned int sink__marks(const struct sink *s, uint64_t *out, unsigned int max)
{
	unsigned int n = 0;

	for (unsigned int k = 1; k <= s->nr_marks && n < max; k++) {
		uint64_t m = s->marks[(s->next_mark + SINK_MARKS - k) % SINK_MARKS];

		if (m < s->good)
			out[n++] = m;
	}
	return n;
}
