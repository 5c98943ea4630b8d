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
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "names/names_int.h"

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

int names_open__beneath(int dir_fd, const char *rel, uid_t uid, uint64_t max)
{
	int fd, err;

	fd = openat2_fd(dir_fd, rel, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY,
			RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS |
				RESOLVE_NO_XDEV);
	if (fd < 0)
		return fd;
	err = names_open__check(fd, uid, max);
	if (err) {
		close(fd);
		return err;
	}
	return fd;
}

int names_open__in_root(int root_fd, const char *path)
{
	int fd, err;

	fd = openat2_fd(root_fd, path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY,
			RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS);
	if (fd < 0)
		return fd;
	err = names_open__check(fd, (uid_t)-1, 0);
	if (err) {
		close(fd);
		return err;
	}
	return fd;
}

int names_open__dir_in_root(int root_fd, const char *path)
{
	return openat2_fd(root_fd, path, O_PATH | O_DIRECTORY | O_CLOEXEC,
			  RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS);
}
