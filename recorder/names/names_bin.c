// SPDX-License-Identifier: GPL-2.0-only
/*
 * Binaries kept by build-id while they are mapped. perf record reads a
 * DSO's build-id by its path at the end: a binary that lives only in a
 * container's mounts is not found, and one replaced during the recording
 * (a package upgrade's rename over it) gives the new file's id, so every
 * sample is named from the wrong file. Here the first mapping of each file
 * (device, inode) is read through the mapping itself: /proc/PID/map_files
 * (root, or CAP_CHECKPOINT_RESTORE), else its path inside the process's
 * root checked against the record's device and inode.
 *
 * Two halves: the reading one runs in the names reader (names_reader_int.h;
 * a binary on a filesystem that stopped answering stalls it, not the
 * recorder) and passes the descriptor back; the recorder's (names_int.h)
 * asks once per file, remembers the answers and holds the descriptors, at
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
#include "names/names_reader_int.h"
#include "prec/grow.h"
#include "prec/log.h"

/* ---- the reading half (in the reader) ---- */

/* Whether fd is the file the request named (its device and inode). */
static bool is_mapped_file(int fd, const struct names_bin_req *r)
{
	struct stat st;

	return !fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_ino == r->ino &&
	       major(st.st_dev) == r->maj && minor(st.st_dev) == r->min;
}

static int open_mapped(struct names_rd *rd, const struct names_bin_req *r, const char *name)
{
	char rel[32];
	int fd, root;

	fd = names_open__mapped(rd->proc_fd, r->pid, r->start, r->end, (uid_t)-1, 0);
	if (fd >= 0 && is_mapped_file(fd, r))
		return fd;
	if (fd >= 0)
		close(fd);
	snprintf(rel, sizeof(rel), "%u/root", r->pid);
	root = openat(rd->proc_fd, rel, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (root < 0)
		return -errno;
	fd = names_open__in_root(root, name);
	close(root);
	if (fd >= 0 && !is_mapped_file(fd, r)) {
		close(fd);
		return -ESTALE; /* the path holds another file now */
	}
	return fd;
}

void names_bin__read(struct names_rd *rd, uint32_t id, const struct names_bin_req *req,
		     const char *name)
{
	struct build_id bid = { 0 };
	int fd, err;

	names_rd__busy(rd, 0, name);
	rd->busy->bin = id;
	fd = open_mapped(rd, req, name);
	err = fd < 0 ? fd : buildid__read_fd(fd, &bid);
	names_rd__idle(rd);
	names_rd__send(rd, NAMES_BID, id, (uint64_t)(int64_t)err, 0, &bid, sizeof(bid),
		       err ? -1 : fd);
	if (fd >= 0)
		close(fd); /* the recorder has its own now */
	if (!err) {
		rd->cnt.bins++;
		rd->cnt_dirty = true;
	}
}

/* ---- the recorder's half ---- */

static struct names_bin *bin_find(struct names *n, const struct dso_track_mapping *m)
{
	for (uint32_t i = 0; i < n->nr_bins; i++) {
		struct names_bin *b = &n->bins[i];

		if (b->ino == m->ino && b->maj == m->maj && b->min == m->min &&
		    b->ino_generation == m->ino_generation)
			return b;
	}
	return NULL;
}

/* A new entry for m's file, its answer pending (under n->lock). */
static struct names_bin *bin_add(struct names *n, const struct dso_track_mapping *m)
{
	struct names_bin *b;

	if (n->nr_bins == NAMES_BINS_MAX ||
	    grow__array(&n->bins, &n->cap_bins, (size_t)n->nr_bins + 1, sizeof(*n->bins), 64,
			NAMES_BINS_MAX))
		return NULL;
	b = &n->bins[n->nr_bins];
	memset(b, 0, sizeof(*b));
	b->name = strdup(m->name);
	if (!b->name)
		return NULL;
	n->nr_bins++;
	b->maj = m->maj;
	b->min = m->min;
	b->ino = m->ino;
	b->ino_generation = m->ino_generation;
	b->err = -EINPROGRESS;
	b->fd = -1;
	return b;
}

int names_bin__bid(struct names *n, const struct dso_track_mapping *m, struct build_id *bid)
{
	struct names_bin_req req = {
		.pid = m->pid,
		.maj = m->maj,
		.min = m->min,
		.start = m->start,
		.end = m->start + m->len,
		.ino = m->ino,
		.ino_generation = m->ino_generation,
	};
	struct names_bin *b;
	uint32_t id;
	int err;

	if (!n->cfg.binaries || !m->has_ino || !m->ino || m->name[0] != '/')
		return -ENOENT;
	pthread_mutex_lock(&n->lock);
	b = bin_find(n, m);
	if (b) {
		err = b->err == -EINPROGRESS ? -EAGAIN : b->err;
		if (!err)
			*bid = b->bid;
		pthread_mutex_unlock(&n->lock);
		return err;
	}
	b = bin_add(n, m);
	id = b ? (uint32_t)(b - n->bins) + 1 : 0;
	if (b)
		b->req = req;
	pthread_mutex_unlock(&n->lock);
	if (!b)
		return -ENOMEM;
	/* Asked of the reader: its answer comes by the file's end. */
	names_link__send(n, NAMES_BIN, id, 0, 0, &req, sizeof(req), m->name);
	return -EAGAIN;
}

void names_bin__answer(struct names *n, uint32_t id, int err, const struct build_id *bid, int fd)
{
	struct names_bin *b;

	pthread_mutex_lock(&n->lock);
	b = id && id <= n->nr_bins ? &n->bins[id - 1] : NULL;
	if (!b || b->err != -EINPROGRESS) {
		pthread_mutex_unlock(&n->lock);
		if (fd >= 0)
			close(fd);
		return;
	}
	b->err = err;
	if (!err)
		b->bid = *bid;
	/* Descriptors are handed out lowest first: one this high means the
	 * recording's own (events, files) need the rest of the limit. */
	if (!err && fd >= 0 && n->fds_held < n->fds_max && (uint32_t)fd < n->fd_limit / 2) {
		b->fd = fd;
		snprintf(b->source, sizeof(b->source), "/proc/self/fd/%d", fd);
		n->fds_held++;
		n->st.bins_kept++;
		fd = -1;
	}
	pthread_mutex_unlock(&n->lock);
	if (fd >= 0)
		close(fd);
}

void names_bin__fail_pending(struct names *n, uint32_t id)
{
	pthread_mutex_lock(&n->lock);
	for (uint32_t i = 0; i < n->nr_bins; i++) {
		struct names_bin *b = &n->bins[i];

		if (b->err != -EINPROGRESS || (id && i + 1 != id))
			continue;
		b->err = -ETIMEDOUT;
		if (id)
			pr_warn("%s does not answer: its build-id is not read (perf report reads it by its path)",
				b->name);
	}
	pthread_mutex_unlock(&n->lock);
}

void names_bin__resend(struct names *n)
{
	for (uint32_t i = 0;; i++) {
		struct names_bin_req req;
		char *name = NULL;
		bool again;

		pthread_mutex_lock(&n->lock);
		if (i >= n->nr_bins) {
			pthread_mutex_unlock(&n->lock);
			break;
		}
		again = n->bins[i].err == -EINPROGRESS;
		req = n->bins[i].req;
		if (again)
			name = strdup(n->bins[i].name);
		pthread_mutex_unlock(&n->lock);
		if (name)
			names_link__send(n, NAMES_BIN, i + 1, 0, 0, &req, sizeof(req), name);
		free(name);
	}
}

int names_bin__by_name(struct names *n, const char *name, struct build_id *bid)
{
	int err = -ENOENT;

	pthread_mutex_lock(&n->lock);
	for (uint32_t i = 0; i < n->nr_bins && err; i++) {
		const struct names_bin *b = &n->bins[i];

		if ((b->err && b->err != -ETIMEDOUT) || strcmp(b->name, name))
			continue;
		err = b->err;
		if (!err)
			*bid = b->bid;
	}
	pthread_mutex_unlock(&n->lock);
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
	for (uint32_t i = 0; i < n->nr_bins; i++) {
		if (n->bins[i].fd >= 0)
			close(n->bins[i].fd);
		free(n->bins[i].name);
	}
	free(n->bins);
	n->bins = NULL;
	n->nr_bins = n->cap_bins = 0;
}
