// SPDX-License-Identifier: GPL-2.0-only
/*
 * Binaries kept by build-id while they are mapped (names_int.h). perf record
 * reads a DSO's build-id by its path at the end: a binary that lives only in
 * a container's mounts is not found, and one replaced during the recording
 * (a package upgrade's rename over it) gives the new file's id, so every
 * sample is named from the wrong file. Here the first mapping of each file
 * (device, inode) is read through the mapping itself: /proc/PID/map_files
 * (root, or CAP_CHECKPOINT_RESTORE), else its path inside the process's root
 * checked against the record's device and inode. The descriptor is held, at
 * most fds_max of them, so that the build-id cache copies the very bytes
 * that were mapped whatever the path holds at the end.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "names/names_int.h"
#include "prec/grow.h"

static bool same_file(const struct names_bin *b, const struct dso_track_mapping *m)
{
	return b->ino == m->ino && b->maj == m->maj && b->min == m->min &&
	       b->ino_generation == m->ino_generation;
}

/* Whether fd is the file the record named (its device and inode). */
static bool is_mapped_file(int fd, const struct dso_track_mapping *m)
{
	struct stat st;

	return !fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_ino == m->ino &&
	       major(st.st_dev) == m->maj && minor(st.st_dev) == m->min;
}

static int open_mapped(struct names *n, const struct dso_track_mapping *m)
{
	char rel[32];
	int fd, root;

	fd = names_open__mapped(n->proc_fd, m->pid, m->start, m->start + m->len, (uid_t)-1, 0);
	if (fd >= 0 && is_mapped_file(fd, m))
		return fd;
	if (fd >= 0)
		close(fd);
	snprintf(rel, sizeof(rel), "%u/root", m->pid);
	root = openat(n->proc_fd, rel, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (root < 0)
		return -errno;
	fd = names_open__in_root(root, m->name);
	close(root);
	if (fd >= 0 && !is_mapped_file(fd, m)) {
		close(fd);
		return -ESTALE; /* the path holds another file now */
	}
	return fd;
}

static struct names_bin *bin_find(struct names *n, const struct dso_track_mapping *m)
{
	for (uint32_t i = 0; i < n->nr_bins; i++)
		if (same_file(&n->bins[i], m))
			return &n->bins[i];
	return NULL;
}

/* Remembers what was learnt of m's file (under n->lock); fd is kept or
 * closed. */
static void bin_add(struct names *n, const struct dso_track_mapping *m, int err,
		    const struct build_id *bid, int fd)
{
	struct names_bin *b;

	if (bin_find(n, m) || n->nr_bins == NAMES_BINS_MAX)
		goto close;
	if (grow__array(&n->bins, &n->cap_bins, (size_t)n->nr_bins + 1, sizeof(*n->bins), 64,
			NAMES_BINS_MAX))
		goto close;
	b = &n->bins[n->nr_bins++];
	memset(b, 0, sizeof(*b));
	b->maj = m->maj;
	b->min = m->min;
	b->ino = m->ino;
	b->ino_generation = m->ino_generation;
	b->err = err;
	b->fd = -1;
	if (!err) {
		b->bid = *bid;
		n->st.bins++;
	}
	/* Descriptors are handed out lowest first: one this high means the
	 * recording's own (events, files) need the rest of the limit. */
	if (!err && fd >= 0 && n->fds_held < n->fds_max && (uint32_t)fd < n->fd_limit / 2) {
		b->fd = fd;
		snprintf(b->source, sizeof(b->source), "/proc/self/fd/%d", fd);
		n->fds_held++;
		n->st.bins_kept++;
		return;
	}
close:
	if (fd >= 0)
		close(fd);
}

int names_bin__bid(struct names *n, const struct dso_track_mapping *m, struct build_id *bid)
{
	struct names_bin *b;
	struct build_id got;
	int fd, err;

	if (!n->cfg.binaries || !m->has_ino || !m->ino || m->name[0] != '/')
		return -ENOENT;
	pthread_mutex_lock(&n->lock);
	b = bin_find(n, m);
	err = b ? b->err : 0;
	if (b && !err)
		*bid = b->bid;
	pthread_mutex_unlock(&n->lock);
	if (b)
		return err;
	/* Outside the lock: the reads are the slow part. */
	fd = open_mapped(n, m);
	err = fd < 0 ? fd : buildid__read_fd(fd, &got);
	pthread_mutex_lock(&n->lock);
	bin_add(n, m, err, &got, fd);
	pthread_mutex_unlock(&n->lock);
	if (!err)
		*bid = got;
	return err;
}

const char *names_bin__source(struct names *n, const struct build_id *bid)
{
	const char *src = NULL;

	pthread_mutex_lock(&n->lock);
	for (uint32_t i = 0; i < n->nr_bins && !src; i++) {
		const struct names_bin *b = &n->bins[i];

		if (b->fd >= 0 && b->bid.size == bid->size &&
		    !memcmp(b->bid.data, bid->data, bid->size))
			src = b->source;
	}
	pthread_mutex_unlock(&n->lock);
	return src;
}

void names_bin__exit(struct names *n)
{
	for (uint32_t i = 0; i < n->nr_bins; i++)
		if (n->bins[i].fd >= 0)
			close(n->bins[i].fd);
	free(n->bins);
	n->bins = NULL;
	n->nr_bins = n->cap_bins = 0;
}
