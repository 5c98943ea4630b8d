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
 * after it. When they do not fit, the data is cut back to the last record
 * that leaves them room (walked from the nearest of the boundaries the sink
 * keeps, SINK_MARK_STEP apart), and when that would cut more than the
 * marks reach, the file keeps its data with no features. Cut back rather
 * than a reserve: the room the features take (build-ids,
 * tracing data) is known only at the end, a reserve would cost every
 * recording space on the disk, and it would not help with EFBIG.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include "prec/event.h"
#include "prec/grow.h"
#include "prec/log.h"
#include "prec/mono_clock.h"
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

/* The coarse clock is a vDSO read: once per drain pass costs nothing. */
static uint64_t commit__now(void)
{
	return mono_clock__ns(true);
}

int writer_commit__maybe(struct writer *w, bool force)
{
	uint64_t now;
	int err;

	if (w->pipe || w->raw || !w->regular || w->sink.err)
		return 0;
	now = commit__now();
	if (!force && w->sink.good - w->committed < COMMIT_BYTES && now - w->commit_ns < COMMIT_NS)
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

/* writer__keep_tail's records at data bytes, after the data kept: 0, or
 * -errno with the data whole up to data. */
static int commit__tail(struct writer *w, uint64_t data)
{
	uint64_t off = w->header.data.offset + data;
	struct sink *s = &w->sink;
	int err;

	if (!w->tail_len)
		return 0;
	if (ftruncate(s->fd, (off_t)off))
		return -errno;
	err = sink__pwrite(s, w->tail, w->tail_len, off);
	if (!err && lseek(s->fd, (off_t)(off + w->tail_len), SEEK_SET) < 0)
		err = -errno;
	return err;
}

/* The data cut to data bytes, writer__keep_tail's records and the features
 * tried after it; *need says how many bytes the last two take (on entry:
 * what the last attempt measured, 0 the first time). 0, or -errno with the
 * data whole up to the cut and torn bytes after it. */
static int commit__cut_and_finish(struct writer *w, const struct writer_meta *meta, uint64_t data,
				  uint64_t *need)
{
	uint64_t feat_bits[HEADER_FEAT_BITS / 64] = { 0 };
	uint64_t off = w->header.data.offset + data + w->tail_len;
	uint64_t feat = *need > w->tail_len ? *need - w->tail_len : 0;
	struct sink *s = &w->sink;
	int err = commit__tail(w, data);

	/* The features' size is known only once they are made: the tail's
	 * room first, theirs at the next attempt. */
	*need = w->tail_len + feat;
	if (err)
		return err;
	if (ftruncate(s->fd, (off_t)off) || lseek(s->fd, (off_t)off, SEEK_SET) < 0)
		return -errno;
	s->err = 0;
	s->buf_len = 0;
	s->data_flushed = data + w->tail_len;
	err = features__write(s, meta, off, feat_bits, &feat);
	*need = w->tail_len + feat;
	if (!err)
		err = file_header__finish(&w->header, s, feat_bits);
	return err;
}

/* The file to read back: a stream's standard output is often opened
 * write-only (`> file`), so through its /proc name. */
static int commit__reader(const struct sink *s)
{
	char self[64];
	int fd;

	snprintf(self, sizeof(self), "/proc/self/fd/%d", s->fd);
	fd = open(self, O_RDONLY | O_CLOEXEC);
	return fd < 0 ? s->fd : fd;
}

/*
 * The last record boundary at or before end, walking the record headers
 * from from (a boundary), read back from fd; base is the file offset of
 * data byte 0. The walk stops at the first short read or at a header that
 * cannot be a record (size 0: a hole left by --aio; or one that reaches
 * past end: the torn end, or the room asked for).
 */
static uint64_t commit__walk(int fd, uint64_t base, uint64_t from, uint64_t end)
{
	uint8_t buf[64 * 1024];
	uint64_t pos = from;

	while (pos + sizeof(struct perf_event_header) <= end) {
		size_t want = (size_t)(end - pos < sizeof(buf) ? end - pos : sizeof(buf));
		ssize_t n = pread(fd, buf, want, (off_t)(base + pos));
		size_t off = 0;
		bool torn = false;

		if (n <= 0)
			break;
		while (off + sizeof(struct perf_event_header) <= (size_t)n) {
			const struct perf_event_header *h = (const void *)(buf + off);

			if (h->size < sizeof(*h) || pos + off + h->size > end) {
				torn = true;
				break;
			}
			if (off + h->size > (size_t)n)
				break; /* the rest of it in the next read */
			off += h->size;
		}
		pos += off;
		if (torn || !off)
			break; /* the torn end, or a short read with no whole record */
	}
	return pos;
}

/* A write that failed part way (a pass's spans, a full buffer) left whole
 * records after s->good, then a torn one: good moves past every whole one. */
static void commit__recover(struct sink *s, uint64_t base)
{
	int fd = commit__reader(s);

	sink__advance_good(s, commit__walk(fd, base, s->good, s->data_flushed));
	if (fd != s->fd)
		close(fd);
}

/*
 * The last record boundary under before that leaves need bytes for the
 * features ahead of the file's end as the failed attempt left it (the
 * bytes the disk or the size limit let in). The walk starts at the newest
 * mark at or under the target, or at the data's start; it never reads, nor
 * cuts back, more than the marks' reach (SINK_MARKS * SINK_MARK_STEP). 0
 * when there is no such boundary.
 */
static uint64_t commit__room(struct writer *w, uint64_t need, uint64_t before)
{
	const uint64_t reach = (uint64_t)SINK_MARKS * SINK_MARK_STEP;
	uint64_t base = w->header.data.offset, marks[SINK_MARKS], from = 0, target, cut;
	struct sink *s = &w->sink;
	unsigned int n = sink__marks(s, marks, SINK_MARKS);
	struct stat st;
	int fd;

	if (fstat(s->fd, &st) || (uint64_t)st.st_size < base + need + 1)
		return 0;
	target = (uint64_t)st.st_size - base - need;
	if (target >= before)
		target = before - 1;
	for (unsigned int i = 0; i < n; i++) {
		if (marks[i] <= target) {
			from = marks[i];
			break;
		}
	}
	if (s->good - target > reach || target - from > reach)
		return 0; /* more than the marks' reach: keep the data */
	fd = commit__reader(s);
	cut = commit__walk(fd, base, from, target);
	if (fd != s->fd)
		close(fd);
	return cut;
}

/* Whether a record cut away with the data takes something a reader needs
 * to name what stays: anything but samples, the ring's compressed bytes
 * (their samples and side-band together) and round markers. */
static bool commit__names(const struct perf_event_header *h)
{
	return h->type != PERF_RECORD_SAMPLE && h->type != PERF_RECORD_COMPRESSED &&
	       h->type != PERF_RECORD_FINISHED_ROUND;
}

/* The side-band records (commit__names) of the data in [from, to), read
 * back from fd, put ahead of the tail: a cut to make room drops samples,
 * never the maps and comms that name the samples before it (the late
 * side-band of a busy machine, written after many of them). 0 or -errno
 * (-ENOMEM: the tail as it was). */
static int commit__carry(struct writer *w, int fd, uint64_t from, uint64_t to)
{
	uint64_t base = w->header.data.offset, pos = from;
	uint8_t buf[64 * 1024];
	size_t len = 0, cap = 0;
	uint8_t *out = NULL;

	while (pos + sizeof(struct perf_event_header) <= to) {
		size_t want = (size_t)(to - pos < sizeof(buf) ? to - pos : sizeof(buf)), off = 0;
		ssize_t n = pread(fd, buf, want, (off_t)(base + pos));

		while (n > 0 && off + sizeof(struct perf_event_header) <= (size_t)n) {
			const struct perf_event_header *h = (const void *)(buf + off);

			if (h->size < sizeof(*h) || off + h->size > (size_t)n)
				break;
			if (commit__names(h)) {
				if (GROW(&out, &cap, len + h->size + w->tail_len, GROW_MEMORY)) {
					free(out);
					return -ENOMEM;
				}
				memcpy(out + len, h, h->size);
				len += h->size;
			}
			off += h->size;
		}
		if (!off)
			break; /* a short read, or a record past to: the walk's end */
		pos += off;
	}
	if (!len) {
		free(out);
		return 0;
	}
	if (w->tail_len)
		memcpy(out + len, w->tail, w->tail_len);
	free(w->tail);
	w->tail = out;
	w->tail_len += len;
	return 0;
}

/* commit__room for need bytes and the side-band of what it cuts, carried
 * ahead of the tail (commit__carry): the cut leaves room for both. 0 when
 * there is no such cut. */
static uint64_t commit__room_carrying(struct writer *w, uint64_t need, uint64_t before)
{
	uint64_t cut = 0, carried = w->tail_len;

	/* Each cut measured with what the last one carries: a few rounds, as
	 * the side-band is a small share of the data cut. */
	for (int round = 0; round < 4; round++) {
		uint64_t next = commit__room(w, need + (w->tail_len - carried), before);
		int fd;

		if (!next || next == cut)
			break;
		fd = commit__reader(&w->sink);
		if (commit__carry(w, fd, next, cut ? cut : before))
			pr_debug("no memory to keep the side-band of the data cut back\n");
		if (fd != w->sink.fd)
			close(fd);
		cut = next;
	}
	return cut;
}

/* The errors that say the file can take no more. */
static bool commit__no_room(int err)
{
	return err == -ENOSPC || err == -EFBIG || err == -EDQUOT;
}

int writer_commit__salvage(struct writer *w, const struct writer_meta *meta)
{
	struct sink *s = &w->sink;
	uint64_t need = 0, cut, intact;
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
	/*
	 * All the data and the features after it; when they do not fit, the
	 * data cut back to the last record that leaves them room, measured by
	 * what the failed attempt got in. An attempt writes only past its cut,
	 * so the data up to the last cut tried is whole whatever happens: a
	 * full disk's block rounding may make a second attempt fail too, and
	 * each measures again (at most four).
	 */
	intact = s->good;
	err = commit__cut_and_finish(w, meta, intact, &need);
	for (int tries = 1; commit__no_room(err) && tries < 4; tries++) {
		cut = commit__room_carrying(w, need, intact);
		if (!cut)
			break;
		intact = cut;
		err = commit__cut_and_finish(w, meta, intact, &need);
	}
	if (!err) {
		if (intact != s->good)
			pr_debug("%s: %llu bytes of data cut to make room for the features\n",
				 w->path, (unsigned long long)(s->good - intact));
		return 0;
	}
	/* No room for the features: the data that is whole, none of them;
	 * the tail after it when that fits. */
	if (ftruncate(s->fd, (off_t)(w->header.data.offset + intact)))
		return -errno;
	if (w->tail_len && !commit__tail(w, intact)) {
		intact += w->tail_len;
	} else if (w->tail_len && (cut = commit__room_carrying(w, w->tail_len, intact)) &&
		   !commit__tail(w, cut)) {
		intact = cut + w->tail_len;
	}
	if (ftruncate(s->fd, (off_t)(w->header.data.offset + intact)))
		return -errno;
	s->err = 0;
	return file_header__commit(&w->header, s, intact);
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
		err = features__write(s, meta, end, feat_bits, NULL);
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
