// SPDX-License-Identifier: GPL-2.0-only
/*
 * Taking an output path (claim.h): perf's .old backup, and the locks that
 * keep two prec given the same -o from writing over each other.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <libgen.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "claim.h"

/* How long a claim waits for another prec's claim of the same directory:
 * a claim is a few renames and an open, so this is only ever reached when
 * something holds the directory's lock for another reason. */
#define CLAIM_WAIT_MS 2000

static void sleep_ms(long ms)
{
	struct timespec ts = { .tv_sec = 0, .tv_nsec = ms * 1000000L };

	nanosleep(&ts, NULL);
}

/* Whether name is one of the files a perf.data directory holds. */
static int dir__ours(const char *name)
{
	return !strcmp(name, "data") || !strncmp(name, "data.", 5);
}

/* Whether name is one of the files perf's kcore_dir holds. */
static int dir__kcore_ours(const char *name)
{
	return !strcmp(name, "kcore") || !strcmp(name, "kallsyms") || !strcmp(name, "modules");
}

/*
 * Removes the recording at path: a file, or a directory of perf's files
 * (only those, kcore_dir/ with its files included; anything else in it
 * stays and -EEXIST comes back). 0 when nothing is there any more.
 */
static int dir__remove(const char *path, bool kcore_dir)
{
	int (*ours)(const char *) = kcore_dir ? dir__kcore_ours : dir__ours;
	char name[PATH_MAX];
	struct dirent *de;
	struct stat st;
	DIR *dir;

	if (lstat(path, &st))
		return errno == ENOENT ? 0 : -errno;
	if (!S_ISDIR(st.st_mode))
		return unlink(path) ? -errno : 0;
	dir = opendir(path);
	if (!dir)
		return -errno;
	while ((de = readdir(dir))) {
		snprintf(name, sizeof(name), "%s/%s", path, de->d_name);
		if (!kcore_dir && !strcmp(de->d_name, "kcore_dir"))
			dir__remove(name, true);
		else if (ours(de->d_name))
			unlink(name);
	}
	closedir(dir);
	return rmdir(path) ? (errno == ENOTEMPTY ? -EEXIST : -errno) : 0;
}

int dir__remove_recording(const char *path)
{
	return dir__remove(path, false);
}

int claim__lock_dir(const char *path)
{
	char *copy = strdup(path);
	int fd;

	if (!copy)
		return -1;
	fd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	free(copy);
	if (fd < 0)
		return -1;
	for (int waited = 0; flock(fd, LOCK_EX | LOCK_NB); waited += 10) {
		if (errno != EWOULDBLOCK || waited >= CLAIM_WAIT_MS) {
			close(fd);
			return -1;
		}
		sleep_ms(10);
	}
	return fd;
}

/* -EBUSY when another writer holds the file or directory at path. */
static int held_by_another(const char *path, const struct stat *st)
{
	int fd, ret = 0;

	if (!S_ISREG(st->st_mode) && !S_ISDIR(st->st_mode))
		return 0;
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return 0; /* what cannot be opened, the claim's own steps refuse */
	if (flock(fd, LOCK_EX | LOCK_NB))
		ret = errno == EWOULDBLOCK ? -EBUSY : 0;
	close(fd);
	return ret;
}

bool claim__is_recording_dir(const char *path)
{
	char name[4096], magic[8];
	struct stat st;
	ssize_t n = 0;
	int fd;

	snprintf(name, sizeof(name), "%s/data", path);
	fd = open(name, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd >= 0) {
		n = fstat(fd, &st) || !S_ISREG(st.st_mode) ? 0 : read(fd, magic, sizeof(magic));
		close(fd);
	}
	if (n == (ssize_t)sizeof(magic) && !memcmp(magic, "PERFILE2", sizeof(magic)))
		return true;
	/* A recording cut short before its header: its stream files. */
	snprintf(name, sizeof(name), "%s/data.0", path);
	if (!stat(name, &st) && S_ISREG(st.st_mode))
		return true;
	snprintf(name, sizeof(name), "%s/kcore_dir", path);
	return !stat(name, &st) && S_ISDIR(st.st_mode);
}

/* Makes room at old for the earlier recording: an older recording there
 * (a file, a symlink, a recording's directory) goes; a directory that is
 * not a recording gives -EISDIR and anything else -EEXIST, both left. */
static int clear_old(const char *old)
{
	struct stat st;

	if (lstat(old, &st))
		return errno == ENOENT ? 0 : -errno;
	if (S_ISREG(st.st_mode) || S_ISLNK(st.st_mode))
		return unlink(old) ? -errno : 0;
	if (!S_ISDIR(st.st_mode))
		return -EEXIST;
	return claim__is_recording_dir(old) ? dir__remove_recording(old) : -EISDIR;
}

int claim__begin(struct claim *c, const char *path)
{
	c->oldpath = NULL;
	c->dir_fd = claim__lock_dir(path);
	return claim__take(c, path);
}

int claim__take(struct claim *c, const char *path)
{
	size_t len = strlen(path);
	struct stat st;
	int ret;

	c->oldpath = NULL;
	if (stat(path, &st))
		return 0;
	ret = held_by_another(path, &st);
	if (ret)
		return ret;
	if (S_ISDIR(st.st_mode)) {
		if (!claim__is_recording_dir(path))
			return -EISDIR;
	} else if (!S_ISREG(st.st_mode) || !st.st_size) {
		return 0; /* an empty file is taken over; a device is never moved */
	}
	c->oldpath = malloc(len + sizeof(".old"));
	if (!c->oldpath)
		return -ENOMEM;
	memcpy(c->oldpath, path, len);
	memcpy(c->oldpath + len, ".old", sizeof(".old"));
	ret = clear_old(c->oldpath);
	if (!ret && rename(path, c->oldpath))
		ret = -errno;
	if (ret) {
		free(c->oldpath);
		c->oldpath = NULL;
	}
	return ret;
}

int claim__lock(int fd)
{
	if (!flock(fd, LOCK_EX | LOCK_NB))
		return 0;
	/* Only another holder refuses: a filesystem without flock does not. */
	return errno == EWOULDBLOCK ? -EBUSY : 0;
}

void claim__undo(struct claim *c, const char *path)
{
	if (c->oldpath)
		rename(c->oldpath, path);
	free(c->oldpath);
	c->oldpath = NULL;
}

void claim__end(struct claim *c)
{
	if (c->dir_fd >= 0)
		close(c->dir_fd); /* and with it, its lock */
	c->dir_fd = -1;
	free(c->oldpath);
	c->oldpath = NULL;
}
