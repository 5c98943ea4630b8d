// SPDX-License-Identifier: GPL-2.0-only
/*
 * --names-cache-max: prec's own entries in the build-id cache (its JIT
 * ELFs' directories, their path-named entries and .build-id links, as
 * buildid_cache.h lays them out) measured and pruned, oldest recording
 * first, never one still recording, never anything of perf's.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "prec/buildid_cache.h"
#include "prec/grow.h"

#define REC_PREFIX "prec-"
#define REC_NAME_MAX 48 /* "prec-" + a pid + "-" + a time, with room */
#define RECS_MAX (1u << 20) /* recordings looked at; more stay for next time */
#define TREE_DEPTH_MAX 8 /* the entries are 3 deep (NAME/jitted.so/SBUILDID/elf) */

struct rec {
	char name[REC_NAME_MAX];
	long long time;
	int pid;
	uint64_t bytes; /* its two trees and its links */
};

struct ino_key {
	dev_t dev;
	ino_t ino;
};

struct prune {
	const char *root;
	char real[PATH_MAX]; /* realpath(ROOT/jit): the entries' DSO names start so */
	int jit_fd, mirror_fd; /* ROOT/jit and ROOT/REAL; -1 when absent */
	uint64_t dirs_bytes; /* the two directories' own blocks */
	struct rec *recs;
	size_t nr, cap;
	/* the files of one recording linked more than once, to count them once */
	struct ino_key *seen;
	size_t nr_seen, seen_cap;
	struct buildid_cache_paths paths; /* one link's, for rec_links */
};

/* "prec-PID-TIME", both decimal without sign or leading junk: prec's. */
static bool rec_parse(const char *s, int *pid, long long *time)
{
	const char *p = s + strlen(REC_PREFIX);
	unsigned long long a = 0, b = 0;
	int na = 0, nb = 0;

	if (strncmp(s, REC_PREFIX, strlen(REC_PREFIX)) || strlen(s) >= REC_NAME_MAX)
		return false;
	for (; *p >= '0' && *p <= '9' && na < 10; p++, na++)
		a = a * 10 + (unsigned long long)(*p - '0');
	if (!na || *p++ != '-' || !a || a > INT_MAX)
		return false;
	for (; *p >= '0' && *p <= '9' && nb < 18; p++, nb++)
		b = b * 10 + (unsigned long long)(*p - '0');
	if (!nb || *p)
		return false;
	*pid = (int)a;
	*time = (long long)b;
	return true;
}

static DIR *dir_at(int at, const char *name)
{
	int fd = openat(at, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	DIR *d;

	if (fd < 0)
		return NULL;
	d = fdopendir(fd);
	if (!d)
		close(fd);
	return d;
}

static bool dot(const char *s)
{
	return !strcmp(s, ".") || !strcmp(s, "..");
}

/* The recordings named in the directory fd (ROOT/jit or its entries'). */
static int collect(struct prune *c, int fd)
{
	struct dirent *de;
	DIR *d;
	int err = 0;

	if (fd < 0)
		return 0;
	d = dir_at(fd, ".");
	if (!d)
		return -errno;
	while (!err && (de = readdir(d)) && c->nr < RECS_MAX) {
		struct rec *r;
		long long time;
		int pid;

		if (!rec_parse(de->d_name, &pid, &time))
			continue;
		err = GROW(&c->recs, &c->cap, c->nr + 1, RECS_MAX);
		if (err)
			break;
		r = &c->recs[c->nr++];
		memset(r, 0, sizeof(*r));
		snprintf(r->name, sizeof(r->name), "%s", de->d_name);
		r->pid = pid;
		r->time = time;
	}
	closedir(d);
	return err;
}

static int rec_cmp(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Sorted oldest first, each name once (it is in both directories). */
static void recs_sort(struct prune *c)
{
	size_t n = 0;

	if (c->nr)
		qsort(c->recs, c->nr, sizeof(*c->recs), rec_cmp);
	for (size_t i = 0; i < c->nr; i++)
		if (!n || strcmp(c->recs[n - 1].name, c->recs[i].name))
			c->recs[n++] = c->recs[i];
	c->nr = n;
}

/* st's blocks, unless it is a file of this recording already counted. */
static uint64_t blocks_once(struct prune *c, const struct stat *st)
{
	if (!S_ISDIR(st->st_mode) && st->st_nlink > 1) {
		for (size_t i = 0; i < c->nr_seen; i++)
			if (c->seen[i].dev == st->st_dev && c->seen[i].ino == st->st_ino)
				return 0;
		if (!GROW(&c->seen, &c->seen_cap, c->nr_seen + 1, GROW_MEMORY))
			c->seen[c->nr_seen++] = (struct ino_key){ st->st_dev, st->st_ino };
	}
	return (uint64_t)st->st_blocks * 512;
}

/*
 * The tree at (at, name), never followed when a link: its bytes added to
 * *bytes (remove false), or removed (remove true). 0, or the first -errno
 * (ENOENT is no error: someone else removed it).
 */
static int tree(struct prune *c, int at, const char *name, bool remove, uint64_t *bytes, int depth)
{
	struct dirent *de;
	struct stat st;
	int err = 0;
	DIR *d;

	if (fstatat(at, name, &st, AT_SYMLINK_NOFOLLOW))
		return errno == ENOENT ? 0 : -errno;
	if (!S_ISDIR(st.st_mode)) {
		if (!remove)
			*bytes += blocks_once(c, &st);
		else if (unlinkat(at, name, 0) && errno != ENOENT)
			return -errno;
		return 0;
	}
	if (depth >= TREE_DEPTH_MAX)
		return -ELOOP;
	d = dir_at(at, name);
	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while ((de = readdir(d))) {
		int e;

		if (dot(de->d_name))
			continue;
		e = tree(c, dirfd(d), de->d_name, remove, bytes, depth + 1);
		if (e && !err)
			err = e;
	}
	closedir(d);
	if (!remove)
		*bytes += blocks_once(c, &st);
	else if (!err && unlinkat(at, name, AT_REMOVEDIR) && errno != ENOENT)
		err = -errno;
	return err;
}

/* The .build-id link of the entry REAL/rec/elf/sbid, when it points there:
 * its bytes added, or it removed. */
static int one_link(struct prune *c, const char *rec, const char *elf, const char *sbid,
		    bool remove, uint64_t *bytes, uint32_t *removed)
{
	char dso[PATH_MAX], text[PATH_MAX];
	struct stat st;
	ssize_t n;

	if (snprintf(dso, sizeof(dso), "%s/%s/%s", c->real, rec, elf) >= (int)sizeof(dso) ||
	    buildid_cache__paths(c->root, dso, sbid, BUILDID_CACHE_ELF, &c->paths))
		return 0; /* no name the cache could have made */
	if (lstat(c->paths.link, &st) || !S_ISLNK(st.st_mode))
		return 0;
	n = readlink(c->paths.link, text, sizeof(text) - 1);
	if (n < 0)
		return 0;
	text[n] = '\0';
	if (strcmp(text, c->paths.target))
		return 0; /* another entry of that id (perf's, or an older one) */
	if (!remove) {
		*bytes += (uint64_t)st.st_blocks * 512;
		return 0;
	}
	if (unlink(c->paths.link))
		return errno == ENOENT ? 0 : -errno;
	(*removed)++;
	return 0;
}

/* Every link to an entry of rec (REAL/rec/ELF/SBUILDID). */
static int rec_links(struct prune *c, const char *rec, bool remove, uint64_t *bytes,
		     uint32_t *removed)
{
	struct dirent *de, *be;
	DIR *d, *e;
	int err = 0;

	if (c->mirror_fd < 0 || !(d = dir_at(c->mirror_fd, rec)))
		return 0;
	while ((de = readdir(d))) {
		if (dot(de->d_name) || !(e = dir_at(dirfd(d), de->d_name)))
			continue;
		while ((be = readdir(e))) {
			int r;

			if (dot(be->d_name))
				continue;
			r = one_link(c, rec, de->d_name, be->d_name, remove, bytes, removed);
			if (r && !err)
				err = r;
		}
		closedir(e);
	}
	closedir(d);
	return err;
}

/* rec's bytes: its two trees and its links (sizes are best effort). */
static void rec_size(struct prune *c, struct rec *r)
{
	uint32_t none = 0;

	c->nr_seen = 0;
	r->bytes = 0;
	if (c->jit_fd >= 0)
		(void)tree(c, c->jit_fd, r->name, false, &r->bytes, 0);
	if (c->mirror_fd >= 0)
		(void)tree(c, c->mirror_fd, r->name, false, &r->bytes, 0);
	(void)rec_links(c, r->name, false, &r->bytes, &none);
}

/* Links first, then the entries, then the ELFs: a removal cut short
 * leaves no link to nothing. */
static int rec_remove(struct prune *c, const struct rec *r, uint32_t *links)
{
	uint64_t none = 0;
	int err, e;

	err = rec_links(c, r->name, true, &none, links);
	if (c->mirror_fd >= 0 && (e = tree(c, c->mirror_fd, r->name, true, &none, 0)) && !err)
		err = e;
	if (c->jit_fd >= 0 && (e = tree(c, c->jit_fd, r->name, true, &none, 0)) && !err)
		err = e;
	return err;
}

static uint64_t dir_blocks(int fd)
{
	struct stat st;

	return fd >= 0 && !fstat(fd, &st) ? (uint64_t)st.st_blocks * 512 : 0;
}

/* ROOT/jit, REAL and ROOT/REAL opened (absent: -1). 0, or -ENOENT when
 * there is nothing of prec's, or another -errno. */
static int prune_open(struct prune *c, const char *root)
{
	char path[PATH_MAX];

	c->root = root;
	c->jit_fd = c->mirror_fd = -1;
	if (snprintf(path, sizeof(path), "%s/jit", root) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	/* Without ROOT/jit, entries left by a removal cut short are found
	 * under its would-be name. */
	if (!realpath(path, c->real)) {
		if (errno != ENOENT || !realpath(root, path))
			return -ENOENT;
		if (snprintf(c->real, sizeof(c->real), "%s/jit", path) >= (int)sizeof(c->real))
			return -ENAMETOOLONG;
	}
	/* These two may be links the user made; nothing below them is followed. */
	if (snprintf(path, sizeof(path), "%s/jit", root) < (int)sizeof(path))
		c->jit_fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (snprintf(path, sizeof(path), "%s%s", root, c->real) < (int)sizeof(path))
		c->mirror_fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (c->jit_fd < 0 && c->mirror_fd < 0)
		return -ENOENT;
	c->dirs_bytes = dir_blocks(c->jit_fd) + dir_blocks(c->mirror_fd);
	return 0;
}

static void prune_close(struct prune *c)
{
	if (c->jit_fd >= 0)
		close(c->jit_fd);
	if (c->mirror_fd >= 0)
		close(c->mirror_fd);
	free(c->recs);
	free(c->seen);
}

static bool pid_running(int pid)
{
	return !kill(pid, 0) || errno == EPERM;
}

int buildid_cache__prune_jit(const char *root, struct buildid_cache_prune *p)
{
	struct prune *c;
	uint64_t total;
	int err;

	p->recordings = p->removed = p->running = p->links_removed = 0;
	p->bytes_before = p->bytes_after = 0;
	if (!root || !*root || !p->max_bytes)
		return 0;
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	err = prune_open(c, root);
	if (!err)
		err = collect(c, c->jit_fd);
	if (!err)
		err = collect(c, c->mirror_fd);
	if (err) {
		prune_close(c);
		free(c);
		return err == -ENOENT ? 0 : err;
	}
	recs_sort(c);
	total = c->dirs_bytes;
	for (size_t i = 0; i < c->nr; i++) {
		rec_size(c, &c->recs[i]);
		total += c->recs[i].bytes;
	}
	p->recordings = (uint32_t)c->nr;
	p->bytes_before = total;
	for (size_t i = 0; i < c->nr; i++) {
		int e;

		if (pid_running(c->recs[i].pid)) {
			p->running++;
			continue;
		}
		if (total <= p->max_bytes)
			continue;
		e = rec_remove(c, &c->recs[i], &p->links_removed);
		if (!e) {
			total -= c->recs[i].bytes;
			p->removed++;
		} else if (!err) {
			err = e;
		}
	}
	p->bytes_after = total;
	prune_close(c);
	free(c);
	return err;
}
