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
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "prec/log.h"
#include "prec/mono_clock.h"
#include "claim.h"

/*
 * Two claims of names in one directory exclude each other with a flag each
 * one sets: a read lock (fcntl, open file description) on one byte of the
 * directory, checked for others' after it is set (the flag protocol: of two
 * that set theirs at once, at least one sees the other, backs off for a
 * random few ms and tries again). Not the directory's flock: anyone may
 * hold that for any time (`flock DIR cmd`, a --threads recording's own
 * directory, which prec locks while writing it), and a claim must never
 * wait on it. The locks are the kernel's, on the directory's inode: every
 * namespace sees them, and they end with the process.
 */
/* The byte: "prec" in ASCII, where no program locking a directory by fcntl
 * would look, and where a foreign lock costs only a bounded, named wait. */
#define CLAIM_BYTE 0x70726563L
/* A claim is a few renames and an open: a wait this long means the other
 * claim is stopped, and the claim then goes on unlocked, saying so. */
#define CLAIM_WAIT_MS 2000
/* What a person notices: from here on, a wait is named. */
#define CLAIM_WORD_MS 200

static void sleep_ms(long ms)
{
	struct timespec ts = { .tv_sec = 0, .tv_nsec = ms * 1000000L };

	nanosleep(&ts, NULL);
}

/* This claim's flag set (F_RDLCK) or cleared (F_UNLCK): 0 or -errno. */
static int claim_flag(int fd, short type)
{
	struct flock fl = {
		.l_type = type, .l_whence = SEEK_SET, .l_start = CLAIM_BYTE, .l_len = 1
	};

	return fcntl(fd, F_OFD_SETLK, &fl) ? -errno : 0;
}

/* 1 when another claim's flag is set on the directory fd, 0 when none,
 * -errno. A write lock asked for conflicts with every read lock but ours. */
static int claim_others(int fd)
{
	struct flock fl = {
		.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = CLAIM_BYTE, .l_len = 1
	};

	if (fcntl(fd, F_OFD_GETLK, &fl))
		return -errno;
	return fl.l_type != F_UNLCK;
}

/* Waits for the other claims of the directory fd (dir, its name) to end:
 * 0 with this one's flag set, or -errno (-ETIMEDOUT past CLAIM_WAIT_MS). */
static int claim_wait(int fd, const char *dir)
{
	uint64_t start = mono_clock__ns(false), ms;
	unsigned int rnd = (unsigned int)getpid() ^ (unsigned int)start;
	bool named = false;
	int ret;

	for (;;) {
		ret = claim_flag(fd, F_RDLCK);
		if (!ret)
			ret = claim_others(fd);
		if (ret <= 0)
			return ret;
		claim_flag(fd, F_UNLCK);
		ms = mono_clock__elapsed_ns(start) / 1000000;
		if (ms >= CLAIM_WAIT_MS) {
			pr_warn("another prec's claim of a name in '%s' took over %d ms: going on without waiting for it",
				dir, CLAIM_WAIT_MS);
			return -ETIMEDOUT;
		}
		if (ms >= CLAIM_WORD_MS && !named) {
			pr_warn("waiting for another prec's claim of a name in '%s'", dir);
			named = true;
		}
		/* xorshift: two claims that met back off for different times. */
		rnd ^= rnd << 13;
		rnd ^= rnd >> 17;
		rnd ^= rnd << 5;
		sleep_ms(1 + rnd % 10);
	}
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
	const char *dir;
	int fd;

	if (!copy)
		return -1;
	dir = dirname(copy);
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	/* A filesystem without fcntl locks: the claim goes on unlocked. */
	if (fd >= 0 && claim_wait(fd, dir)) {
		close(fd);
		fd = -1;
	}
	free(copy);
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

/* Whether the directory path holds a recording perf or prec wrote. */
static bool claim__is_recording_dir(const char *path)
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
