// SPDX-License-Identifier: GPL-2.0-only
/* The write-all loop (prec/write_all.h): short writes and EINTR, handled in
 * one place for the output file, the build-id cache and the kcore copy. */
#include <errno.h>
#include <sys/types.h>
#include <unistd.h>

#include "prec/write_all.h"

/* off < 0: write(2) at fd's offset; else pwrite(2) at off. */
static int write_loop(int fd, const void *buf, size_t len, int64_t off, size_t *done)
{
	const char *p = buf;
	size_t dummy;

	if (!done)
		done = &dummy;
	*done = 0;
	while (len) {
		ssize_t n = off < 0 ? write(fd, p, len) :
				      pwrite(fd, p, len, (off_t)off + (off_t)*done);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0) /* no progress and no errno: do not spin */
			return -EIO;
		p += n;
		len -= (size_t)n;
		*done += (size_t)n;
	}
	return 0;
}

int fd__write_all(int fd, const void *buf, size_t len, size_t *done)
{
	return write_loop(fd, buf, len, -1, done);
}

int fd__pwrite_all(int fd, const void *buf, size_t len, uint64_t off)
{
	/* Past INT64_MAX no file offset exists: pwrite's own EINVAL. */
	if (off > (uint64_t)INT64_MAX)
		return -EINVAL;
	return write_loop(fd, buf, len, (int64_t)off, NULL);
}
