// SPDX-License-Identifier: GPL-2.0-only
/*
 * Opening what a traced process offers (names_int.h): its perf map, its
 * jitdump, a binary by its path. The process may be hostile (a container's
 * root is its owner's to arrange), so a path is resolved with openat2 inside
 * the process's root, a link is never followed out of it, only regular
 * files are read, a FIFO cannot block, and a map must be owned by root or
 * by the process's user: perf report's own rule for perf maps.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "names/names_reader_int.h"

static int openat2_fd(int dir_fd, const char *path, uint64_t flags, uint64_t resolve)
{
	struct open_how how = { .flags = flags, .resolve = resolve };
	long fd = syscall(SYS_openat2, dir_fd, path, &how, sizeof(how));

	return fd < 0 ? -errno : (int)fd;
}

int names_open__check(int fd, uid_t uid, uint64_t max)
{
	struct stat st;

	if (fstat(fd, &st))
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -EINVAL;
	if (uid != (uid_t)-1 && st.st_uid && st.st_uid != uid)
		return -EPERM;
	if (max && (uint64_t)st.st_size > max)
		return -EFBIG;
	return 0;
}

/*
 * path below dir_fd resolved as resolve says, checked as names_open__check
 * before it is opened for reading: the first open is O_PATH, which runs no
 * driver's or filesystem's open (a device node never sees us), and the
 * read handle is that very file, reopened through /proc/self/fd.
 */
static int open_checked(int dir_fd, const char *path, uint64_t resolve, uid_t uid, uint64_t max)
{
	char self[32];
	int pfd, fd = -1, err;

	pfd = openat2_fd(dir_fd, path, O_PATH | O_CLOEXEC, resolve);
	if (pfd < 0)
		return pfd;
	err = names_open__check(pfd, uid, max);
	if (!err) {
		snprintf(self, sizeof(self), "/proc/self/fd/%d", pfd);
		fd = open(self, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
		err = fd < 0 ? -errno : 0;
	}
	close(pfd);
	return err ? err : fd;
}

int names_open__beneath(int dir_fd, const char *rel, uid_t uid, uint64_t max)
{
	return open_checked(dir_fd, rel,
			    RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS |
				    RESOLVE_NO_XDEV,
			    uid, max);
}

int names_open__in_root(int root_fd, const char *path)
{
	return open_checked(root_fd, path, RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS, (uid_t)-1, 0);
}

int names_open__dir_in_root(int root_fd, const char *path)
{
	return openat2_fd(root_fd, path, O_PATH | O_DIRECTORY | O_CLOEXEC,
			  RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS);
}

int names_open__mapped(int proc_fd, uint32_t pid, uint64_t start, uint64_t end, uid_t uid,
		       uint64_t max)
{
	char rel[80];

	snprintf(rel, sizeof(rel), "%u/map_files/%llx-%llx", pid, (unsigned long long)start,
		 (unsigned long long)end);
	/* The entry is the kernel's link to what was mapped: followed. */
	return open_checked(proc_fd, rel, 0, uid, max);
}
