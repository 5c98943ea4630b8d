// SPDX-License-Identifier: GPL-2.0-only
/*
 * The perf.data directory of --threads and --kcore (prec/writer_dir.h):
 * the directory itself, perf's backup of an older recording to PATH.old,
 * the stream files data.N, which are writers with no header (writer_int.h's
 * raw), and --kcore's kcore_dir/ (its files are writer/kcore.c's).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "prec/writer_dir.h"
#include "sink.h"
#include "claim.h"
#include "writer_int.h"

#define KCORE_DIR "kcore_dir"

struct writer_dir {
	char *path;
	int fd; /* the directory, locked for as long as it is written (claim.h) */
	char *header; /* path/data */
	int max_stream; /* highest data.N created + 1, for abort */
};


int writer_dir__create(struct writer_dir **out, const char *path)
{
	struct claim c = { .dir_fd = -1 };
	struct writer_dir *d;
	int ret;

	*out = NULL;
	d = calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	d->path = strdup(path);
	if (!d->path || asprintf(&d->header, "%s/data", path) < 0) {
		d->header = NULL;
		writer_dir__delete(d);
		return -ENOMEM;
	}
	d->fd = -1;
	/* perf's .old backup, and no second writer (claim.h). */
	ret = claim__begin(&c, path);
	if (!ret && mkdir(path, S_IRWXU))
		ret = -errno;
	if (!ret) {
		d->fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		ret = d->fd < 0 ? -errno : claim__lock(d->fd);
		if (ret)
			rmdir(path);
	}
	if (ret) {
		claim__undo(&c, path);
		claim__end(&c);
		writer_dir__delete(d);
		return ret;
	}
	claim__end(&c);
	*out = d;
	return 0;
}

int writer_dir__open_header(struct writer_dir *d, struct writer **out)
{
	return writer__open_claimed(out, d->header);
}

int writer_dir__open_stream(struct writer_dir *d, int idx, struct writer **out)
{
	struct writer *w = calloc(1, sizeof(*w));
	struct stat st;
	int ret = -ENOMEM;

	*out = NULL;
	if (!w)
		return -ENOMEM;
	w->sink.fd = -1;
	if (asprintf(&w->path, "%s/data.%d", d->path, idx) < 0)
		w->path = NULL;
	if (!w->path || sink__init(&w->sink, -1))
		goto fail;
	w->sink.fd = open(w->path, O_CREAT | O_RDWR | O_TRUNC | O_CLOEXEC, 0600);
	if (w->sink.fd < 0 || fstat(w->sink.fd, &st)) {
		ret = -errno;
		goto fail;
	}
	if (idx >= d->max_stream)
		d->max_stream = idx + 1;
	w->raw = true;
	w->begun = true;
	w->regular = w->created = true;
	w->dev = st.st_dev;
	w->ino = st.st_ino;
	*out = w;
	return 0;
fail:
	writer__abort(w); /* nothing was created when there is no fd */
	return ret;
}

int writer_dir__make_kcore_dir(const struct writer_dir *d, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%s/" KCORE_DIR, d->path);

	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	return mkdir(buf, S_IRWXU) ? -errno : 0;
}

void writer_dir__abort(struct writer_dir *d)
{
	if (!d)
		return;
	dir__remove_recording(d->path);
	writer_dir__delete(d);
}

void writer_dir__delete(struct writer_dir *d)
{
	if (!d)
		return;
	if (d->fd >= 0)
		close(d->fd);
	free(d->path);
	free(d->header);
	free(d);
}
