// SPDX-License-Identifier: GPL-2.0-only
/*
 * The writer object, on top of the writer's files: creating the output file
 * (with perf's .old backup and the lock, claim.c) or taking the stream, the data writes (through
 * the sink, sink.c; compressed with compress.c), and the finish/abort ends
 * of its life. The layout of what goes in it lives in file_header.c,
 * features.c and pipe.c, which write to the sink and never call back here.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "prec/log.h"
#include "features.h"
#include "file_header.h"
#include "compress.h"
#include "pipe.h"
#include "aio.h"
#include "sink.h"
#include "claim.h"
#include "writer_int.h"

/*
 * Fails with the errno open() would give when the directory of path cannot
 * take a new file, so that writer__open renames nothing for a path that will
 * not be created anyway.
 */
static int writer__check_dir(const char *path)
{
	char *copy = strdup(path), *dir;
	struct stat st;
	int err = 0;

	if (!copy)
		return -ENOMEM;
	dir = dirname(copy);
	if (stat(dir, &st))
		err = -errno;
	else if (!S_ISDIR(st.st_mode))
		err = -ENOTDIR;
	/* AT_EACCESS: judge by the effective ids, as open() will. */
	else if (faccessat(AT_FDCWD, dir, W_OK | X_OK, AT_EACCESS))
		err = -errno;
	free(copy);
	return err;
}

/*
 * The kinds of file an output path may already be. A FIFO or a socket is never
 * opened: a FIFO with no reader would block, and a perf.data file is patched
 * at offset 0 when it ends, which a stream cannot take (-o - writes perf's
 * stream format instead): -ESPIPE. A block device is refused (-ENOTSUP): a
 * recording written over a disk is never what was meant. Regular files,
 * directories (open() refuses them) and character devices (/dev/null: the
 * recording is thrown away, as with perf) pass.
 */
static int writer__check_kind(mode_t mode)
{
	if (S_ISFIFO(mode) || S_ISSOCK(mode))
		return -ESPIPE;
	if (S_ISBLK(mode))
		return -ENOTSUP;
	return 0;
}

/* writer__open under c, a claim whose directory lock its caller took
 * (claim__lock_dir) and ends; with c NULL a file inside a directory the
 * writer already claimed (dir.c's data file). */
static int writer__open_at(struct writer **out, const char *path, struct claim *c)
{
	struct writer *w = NULL;
	struct stat st;
	bool created;
	int err;

	if (!out || !path || !*path)
		return -EINVAL;
	*out = NULL;
	w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	w->path = strdup(path);
	if (sink__init(&w->sink, -1) || !w->path) {
		err = -ENOMEM;
		goto out;
	}
	/* The directory matters only when a file is created or renamed in it:
	 * -o /dev/null needs no write access to /dev. */
	if (stat(path, &st) || (S_ISREG(st.st_mode) && st.st_size))
		err = writer__check_dir(path);
	else
		err = writer__check_kind(st.st_mode);
	if (err)
		goto out;
	/* perf's .old backup, and no second writer (claim.h). */
	err = c ? claim__take(c, path) : 0;
	if (err)
		goto out;
	/* Only a file this open creates may be removed by abort. */
	created = stat(path, &st) && errno == ENOENT;
	w->sink.fd = open(path, O_CREAT | O_RDWR | O_TRUNC | O_CLOEXEC | O_NOCTTY, 0600);
	if (w->sink.fd < 0) {
		err = -errno;
		goto out;
	}
	if (fstat(w->sink.fd, &st))
		err = -errno;
	/* Again on what was opened: the path may have changed since. A device
	 * that cannot seek (a terminal) cannot take the header at the end. */
	if (!err)
		err = writer__check_kind(st.st_mode);
	if (!err && !S_ISREG(st.st_mode) && lseek(w->sink.fd, 0, SEEK_CUR) < 0)
		err = -errno;
	if (!err && c && S_ISREG(st.st_mode))
		err = claim__lock(w->sink.fd);
	if (err) {
		close(w->sink.fd);
		w->sink.fd = -1;
		goto out;
	}
	w->regular = S_ISREG(st.st_mode);
	w->created = created && w->regular;
	w->dev = st.st_dev;
	w->ino = st.st_ino;
out:
	if (err) {
		/* Put the old file back: on error nothing may look renamed. */
		if (c)
			claim__undo(c, path);
		free(w->path);
		sink__exit(&w->sink);
		free(w);
		return err;
	}
	*out = w;
	return 0;
}

int writer__open(struct writer **out, const char *path)
{
	struct claim c = { .dir_fd = -1 };
	int err;

	if (!out || !path || !*path)
		return -EINVAL;
	c.dir_fd = claim__lock_dir(path);
	err = writer__open_at(out, path, &c);
	claim__end(&c);
	return err;
}

int writer__open_claimed(struct writer **out, const char *path)
{
	return writer__open_at(out, path, NULL);
}

/* The file w writes moves to final; w says its new name from now on. */
static int writer__move(struct writer *w, const char *final)
{
	char *name = strdup(final);

	if (!name)
		return -ENOMEM;
	if (rename(w->path, final)) {
		int err = -errno;

		free(name);
		return err;
	}
	free(w->path);
	w->path = name;
	return 0;
}

int writer__rename(struct writer *w, const char *final)
{
	if (!w || w->pipe || !final)
		return -EINVAL;
	return writer__move(w, final);
}

int writer__rotate(struct writer *w, const char *final, struct writer **next)
{
	struct claim c = { .dir_fd = -1 };
	char *path;
	int err;

	if (!next)
		return -EINVAL;
	*next = NULL;
	if (!w || w->pipe || !final)
		return -EINVAL;
	path = strdup(w->path);
	if (!path)
		return -ENOMEM;
	/* One claim of the directory from the move to the next file's lock:
	 * another prec's claim of path waits, then finds the new file held. */
	c.dir_fd = claim__lock_dir(path);
	err = writer__move(w, final);
	if (!err)
		err = writer__open_at(next, path, &c);
	claim__end(&c);
	free(path);
	return err;
}

int writer__open_pipe(struct writer **out, int fd)
{
	struct writer *w;
	struct stat st;

	if (!out || fd < 0)
		return -EINVAL;
	*out = NULL;
	/* A closed descriptor is found now, before anything is recorded. */
	if (fcntl(fd, F_GETFL) < 0)
		return -errno;
	w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	w->pipe = true;
	w->path = strdup("-");
	/* `-o - > file`: a full disk is cut back to a whole record there. */
	if (!fstat(fd, &st) && S_ISREG(st.st_mode)) {
		off_t pos = lseek(fd, 0, SEEK_CUR);

		w->pipe_file = pos >= 0;
		w->pipe_start = pos >= 0 ? (uint64_t)pos : 0;
	}
	if (sink__init(&w->sink, fd) || !w->path) {
		free(w->path);
		sink__exit(&w->sink);
		free(w);
		return -ENOMEM;
	}
	*out = w;
	return 0;
}

bool writer__is_pipe(const struct writer *w)
{
	return w && w->pipe;
}

int writer__begin(struct writer *w, const struct writer_event *events, uint32_t nr_events)
{
	int err;

	if (!w || w->begun)
		return -EINVAL;
	if (w->pipe) {
		w->begun = true; /* the stream's front goes through the buffer */
		err = pipe__begin(&w->sink, events, nr_events);
		if (err) {
			w->begun = false;
			return err;
		}
	} else {
		err = file_header__begin(&w->header, &w->sink, events, nr_events);
		if (err)
			return err;
	}
	w->events = events;
	w->nr_events = nr_events;
	w->begun = true;
	return 0;
}

/* meta, or no meta, with the events given to writer__begin where it names
 * none: EVENT_DESC describes the events the file holds unless told otherwise. */
static const struct writer_meta *writer__meta(const struct writer *w,
					      const struct writer_meta *meta,
					      struct writer_meta *with_events)
{
	if (meta && meta->events)
		return meta;
	if (meta)
		*with_events = *meta;
	else
		memset(with_events, 0, sizeof(*with_events));
	with_events->events = w->events;
	with_events->nr_events = w->nr_events;
	return with_events;
}

int writer__send_features(struct writer *w, const struct writer_meta *meta)
{
	struct writer_meta with_events;

	if (!w || !w->begun || !w->pipe || !meta)
		return -EINVAL;
	return pipe__features(&w->sink, writer__meta(w, meta, &with_events));
}

int writer__write(struct writer *w, const void *buf, size_t len)
{
	uint64_t good;
	int err;

	if (!w || !w->begun || (!buf && len))
		return -EINVAL;
	good = w->sink.good;
	err = sink__append(&w->sink, buf, len);
	/* A long front (the side-band of a busy machine) is flushed in parts:
	 * the header follows them too, so that a kill in the middle of it
	 * leaves whole records, not a data size of 0 over a torn one. */
	if (!err && w->sink.good != good)
		err = writer_commit__maybe(w, false);
	return err;
}

int writer__writev(struct writer *w, const struct iovec *iov, int cnt)
{
	if (!w || !w->begun || cnt < 0 || (!iov && cnt))
		return -EINVAL;
	return sink__writev(&w->sink, iov, cnt);
}

/* compressor__push's sink: each COMPRESSED record straight to the file
 * (through --aio's queue when there is one). */
static int writer__emit(void *arg, const void *rec, size_t len)
{
	struct iovec iov = { (void *)rec, len };

	return sink__writev(arg, &iov, 1);
}

int writer__writev_ring(struct writer *w, const struct iovec *iov, int cnt, bool marker)
{
	int data = cnt - (marker ? 1 : 0);
	int err;

	if (!w || !w->begun || cnt < 1 || !iov)
		return -EINVAL;
	if (!w->comp) {
		err = writer__writev(w, iov, cnt);
		return err ? err : writer_commit__maybe(w, false);
	}
	err = sink__flush(&w->sink);
	if (!err && data)
		err = compressor__push(w->comp, iov, data, writer__emit, &w->sink);
	if (err) {
		if (!w->sink.err)
			w->sink.err = err;
		return err;
	}
	/* The marker after the ring data goes as it is, as perf writes it. */
	err = marker ? writer__writev(w, iov + data, 1) : 0;
	return err ? err : writer_commit__maybe(w, false);
}

int writer__set_compression(struct writer *w, int level, uint32_t mmap_len)
{
	struct writer_meta comp = {
		.compressed = true,
		.comp_level = (uint32_t)level,
		.comp_mmap_len = mmap_len,
	};

	if (w->comp)
		return -EINVAL;
	w->comp = compressor__new(level);
	if (!w->comp)
		return -EINVAL;
	/* A file's COMPRESSED feature comes only at the end; perf cannot
	 * decompress without its buffer size, so the data says it first, as
	 * a stream does: a file cut short reads too (commit.c). */
	return w->pipe ? 0 : pipe__feature(&w->sink, HEADER_COMPRESSED, &comp);
}

int writer__set_aio(struct writer *w, int nr)
{
	if (!w || w->pipe || w->sink.aio)
		return -EINVAL;
	return aio_queue__new(&w->sink.aio, w->sink.fd, nr, AIO_BUF_SIZE, NULL);
}

void writer__compression_stats(const struct writer *w, uint64_t *in, uint64_t *out)
{
	*in = compressor__in_bytes(w->comp);
	*out = compressor__out_bytes(w->comp);
}

int writer__commit(struct writer *w)
{
	if (!w || !w->begun)
		return -EINVAL;
	return writer_commit__maybe(w, true);
}

int writer__checkpoint(struct writer *w, const struct writer_meta *meta)
{
	struct writer_meta with_events;

	if (!w || !w->begun || !meta)
		return -EINVAL;
	return writer_commit__checkpoint(w, writer__meta(w, meta, &with_events));
}

bool writer__failed(const struct writer *w)
{
	return w && w->sink.err;
}

uint64_t writer__data_size(const struct writer *w)
{
	return sink__data_size(&w->sink);
}

uint64_t writer__file_size(const struct writer *w)
{
	if (!w->begun)
		return 0;
	if (w->raw)
		return writer__data_size(w);
	return w->header.data.offset + writer__data_size(w);
}

const char *writer__path(const struct writer *w)
{
	return w->path;
}

static void writer__free(struct writer *w)
{
	free(w->tail);
	compressor__delete(w->comp);
	free(w->path);
	sink__exit(&w->sink);
	free(w);
}

int writer__keep_tail(struct writer *w, const void *buf, size_t len)
{
	void *copy;

	if (!w || w->pipe || w->raw || !w->regular || !w->sink.err)
		return -EINVAL;
	copy = len ? malloc(len) : NULL;
	if (len && !copy)
		return -ENOMEM;
	if (len)
		memcpy(copy, buf, len);
	free(w->tail);
	w->tail = copy;
	w->tail_len = len;
	return 0;
}

int writer__finish(struct writer *w, const struct writer_meta *meta)
{
	uint64_t feat_bits[HEADER_FEAT_BITS / 64] = { 0 };
	struct writer_meta with_events;
	int err;

	if (!w)
		return -EINVAL;
	if (!w->begun) {
		err = -EINVAL;
		goto out;
	}
	err = sink__sync(&w->sink);
	if (err)
		goto out;
	if (w->pipe) {
		/* The stream ends with the build-ids; nothing before it changes. */
		err = pipe__finish(&w->sink, meta);
		if (!err)
			err = sink__flush(&w->sink);
		if (!err && close(w->sink.fd) && errno != EINTR)
			err = -errno;
		w->sink.fd = -1;
		goto out;
	}
	if (w->raw)
		goto close; /* a directory's stream file: records only */
	/* The feature sections follow the data. */
	err = features__write(&w->sink, writer__meta(w, meta, &with_events),
			      w->header.data.offset + sink__data_size(&w->sink), feat_bits, NULL);
	if (err)
		goto out;
	err = file_header__finish(&w->header, &w->sink, feat_bits);
	if (err)
		goto out;
	/* A checkpoint's features may reach past these: not part of the file. */
	if (w->checkpointed) {
		off_t end = lseek(w->sink.fd, 0, SEEK_CUR);

		if (end < 0 || ftruncate(w->sink.fd, end))
			err = -errno;
		if (err)
			goto out;
	}
close:
	/* close() is where NFS and full disks report late write errors. */
	if (close(w->sink.fd))
		err = -errno;
	w->sink.fd = -1;
out:
	if (err && w->begun && (w->regular || w->pipe)) {
		/* What was recorded stays: whole records, a header that says
		 * them, the features when they fit. */
		int ret = writer_commit__salvage(w, writer__meta(w, meta, &with_events));

		if (ret)
			pr_debug("%s: cannot make what was written readable: %s\n", w->path,
				 strerror(-ret));
		if (w->sink.fd >= 0)
			close(w->sink.fd);
		writer__free(w);
		return err;
	}
	if (err) {
		writer__abort(w);
		return err;
	}
	writer__free(w);
	return 0;
}

/*
 * abort's undo, for a regular file only: the file this writer created goes,
 * by its name (the symlink's target when -o named a symlink), and only while
 * that name still holds this file; one that was there before (empty) is cut
 * back to empty. Nothing else is ever removed: not a FIFO or device given as
 * -o, not a file another program put at the path meanwhile.
 */
static void writer__undo(struct writer *w)
{
	const char *name = w->path;
	char *real = NULL;
	struct stat st;

	if (w->created) {
		if (!lstat(name, &st) && S_ISLNK(st.st_mode)) {
			real = realpath(name, NULL);
			name = real;
		}
		if (name && !lstat(name, &st) && S_ISREG(st.st_mode) && st.st_dev == w->dev &&
		    st.st_ino == w->ino) {
			if (!unlink(name)) {
				free(real);
				return;
			}
			pr_debug("removing %s: %s\n", name, strerror(errno));
		}
		free(real);
	}
	/* Not ours to remove, or no longer at its name: empty, never torn. */
	if (w->sink.fd >= 0 && ftruncate(w->sink.fd, 0))
		pr_debug("emptying %s: %s\n", w->path, strerror(errno));
}

void writer__abort(struct writer *w)
{
	if (!w)
		return;
	/* --aio: no write may land after the file is emptied or closed. */
	if (w->sink.aio)
		aio_queue__sync(w->sink.aio);
	/* A stream cannot be taken back: the reader sees it end early. */
	if (!w->pipe && w->regular)
		writer__undo(w);
	if (w->sink.fd >= 0)
		close(w->sink.fd);
	writer__free(w);
}
