// SPDX-License-Identifier: GPL-2.0-only
/*
 * A recording that does not end in order still leaves a file perf reads.
 *
 * While the data grows, the header on disk is rewritten now and then with
 * the size of the data that ends at the last whole record (the sink's
 * good), no feature bits: a kill -9, a crash, or a power loss after the
 * page cache reached the disk leaves a file perf reads up to that commit,
 * without a warning. No feature bit, because perf reads the feature table
 * at data.offset + data.size, exactly where the next data goes: a table
 * there would be overwritten as soon as the recording goes on, leaving a
 * window in which the header points at garbage. What a reader needs from
 * the features to read the data (-z's COMPRESSED: the decompression
 * buffer's size) is carried in the data instead, as a HEADER_FEATURE record
 * ahead of the first COMPRESSED record (writer.c), as a stream does.
 *
 * When a write fails (ENOSPC, EFBIG, EDQUOT) or the end cannot finish, the
 * salvage cuts the data at the last whole record and writes the features
 * after it. When they do not fit, the data is cut back to an earlier record
 * boundary (the sink keeps a few, SINK_MARK_STEP apart) until they do, and
 * when none makes room the file keeps all its data with no features. Cut
 * back rather than a reserve: the room the features take (build-ids,
 * tracing data) is known only at the end, a reserve would cost every
 * recording space on the disk, and it would not help with EFBIG.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "prec/event.h"
#include "prec/log.h"
#include "aio.h"
#include "features.h"
#include "file_header.h"
#include "sink.h"
#include "writer_int.h"

/* How often the header follows the data: cheap enough to be invisible in
 * the drain's CPU time (two pwrites of 104 bytes a second), close enough
 * that a kill loses little. Half the output's one-second drain tick, so
 * that each tick's pass commits what it took. */
#define COMMIT_BYTES (4ull << 20)
#define COMMIT_NS 500000000ull

static uint64_t commit__now(void)
{
	struct timespec ts;

	/* The coarse clock is a vDSO read: once per drain pass costs nothing. */
	clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

int writer_commit__maybe(struct writer *w, bool force)
{
	uint64_t now;
	int err;

	if (w->pipe || w->raw || !w->regular || w->sink.err)
		return 0;
	now = commit__now();
	if (!force && w->sink.good - w->committed < COMMIT_BYTES &&
	    now - w->commit_ns < COMMIT_NS)
		return 0;
	w->commit_ns = now;
	/* Forced: what is buffered goes in first. --aio: a header may only
	 * count bytes that are in the file. */
	err = force || w->sink.aio ? sink__sync(&w->sink) : 0;
	if (err || w->sink.good == w->committed)
		return err;
	err = file_header__commit(&w->header, &w->sink, w->sink.good);
	if (!err)
		w->committed = w->sink.good;
	return err;
}

/* The data cut to data bytes and the features tried after it. 0, or -errno
 * with the file cut there. */
static int commit__cut_and_finish(struct writer *w, const struct writer_meta *meta,
				  uint64_t data)
{
	uint64_t feat_bits[HEADER_FEAT_BITS / 64] = { 0 };
	uint64_t off = w->header.data.offset + data;
	struct sink *s = &w->sink;
	int err;

	if (ftruncate(s->fd, (off_t)off) || lseek(s->fd, (off_t)off, SEEK_SET) < 0)
		return -errno;
	s->err = 0;
	s->buf_len = 0;
	s->data_flushed = data;
	err = features__write(s, meta, off, feat_bits);
	if (!err)
		err = file_header__finish(&w->header, s, feat_bits);
	return err;
}

/*
 * A write that failed part way (a pass's spans, a full buffer) left whole
 * records after s->good, then a torn one: walk the record headers written
 * since, read back from the file, and move good past every whole one. base
 * is the file offset of data byte 0. Reads stop at the first short read or
 * at a header that cannot be a record (size 0: a hole left by --aio; or
 * one that reaches past what was written: the torn end).
 */
static void commit__recover(struct sink *s, uint64_t base)
{
	uint8_t buf[64 * 1024];
	uint64_t pos = s->good;
	char self[64];
	int fd;

	/* A stream's standard output is often opened write-only (`> file`):
	 * read it through its /proc name. */
	snprintf(self, sizeof(self), "/proc/self/fd/%d", s->fd);
	fd = open(self, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		fd = s->fd;

	while (pos + sizeof(struct perf_event_header) <= s->data_flushed) {
		size_t want = (size_t)(s->data_flushed - pos < sizeof(buf) ? s->data_flushed - pos :
									    sizeof(buf));
		ssize_t n = pread(fd, buf, want, (off_t)(base + pos));
		size_t off = 0;

		if (n <= 0)
			break;
		bool torn = false;

		while (off + sizeof(struct perf_event_header) <= (size_t)n) {
			const struct perf_event_header *h = (const void *)(buf + off);

			if (h->size < sizeof(*h) || pos + off + h->size > s->data_flushed) {
				torn = true;
				break;
			}
			if (off + h->size > (size_t)n)
				break; /* the rest of it in the next read */
			off += h->size;
		}
		pos += off;
		sink__advance_good(s, pos);
		if (torn || !off)
			break; /* the torn end, or a short read with no whole record */
	}
	if (fd != s->fd)
		close(fd);
}

int writer_commit__salvage(struct writer *w, const struct writer_meta *meta)
{
	struct sink *s = &w->sink;
	uint64_t cut[1 + SINK_MARKS];
	unsigned int n;
	int err;

	/* Every write in flight lands before the file is cut. */
	if (s->aio)
		aio_queue__sync(s->aio);
	/* An end that failed elsewhere (EMFILE): the records still go in. */
	if (!s->err)
		sink__flush(s);
	if (w->regular || w->pipe_file)
		commit__recover(s, w->pipe ? w->pipe_start : w->raw ? 0 : w->header.data.offset);
	if (w->pipe) {
		/* A reader gets whole records only: a stream into a regular
		 * file is cut back to the last one; a pipe just ends. */
		if (w->pipe_file && ftruncate(s->fd, (off_t)(w->pipe_start + s->good)))
			return -errno;
		return 0;
	}
	if (!w->regular)
		return -ESPIPE; /* a device keeps what it took */
	if (w->raw)
		return ftruncate(s->fd, (off_t)s->good) ? -errno : 0;
	cut[0] = s->good;
	n = 1 + sink__marks(s, cut + 1, SINK_MARKS);
	for (unsigned int i = 0; i < n; i++) {
		err = commit__cut_and_finish(w, meta, cut[i]);
		if (!err) {
			if (i)
				pr_debug("%s: %llu bytes of data cut to make room for the features\n",
					 w->path, (unsigned long long)(cut[0] - cut[i]));
			return 0;
		}
	}
	/* No room for the features anywhere: all the data, none of them. */
	if (ftruncate(s->fd, (off_t)(w->header.data.offset + cut[0])))
		return -errno;
	s->err = 0;
	return file_header__commit(&w->header, s, cut[0]);
}

int writer_commit__checkpoint(struct writer *w, const struct writer_meta *meta)
{
	uint64_t feat_bits[HEADER_FEAT_BITS / 64] = { 0 };
	struct sink *s = &w->sink;
	uint64_t end;
	int err;

	if (w->pipe || w->raw || !w->regular)
		return 0;
	err = sink__sync(s);
	end = w->header.data.offset + sink__data_size(s);
	if (!err)
		err = features__write(s, meta, end, feat_bits);
	if (!err)
		err = file_header__finish(&w->header, s, feat_bits);
	/* The next data goes where the features are: finish writes them again. */
	if (!err && lseek(s->fd, (off_t)end, SEEK_SET) < 0)
		err = -errno;
	if (!err) {
		w->committed = sink__data_size(s);
		w->checkpointed = true;
	}
	return err;
}
