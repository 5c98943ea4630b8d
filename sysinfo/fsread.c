// SPDX-License-Identifier: GPL-2.0-only
/*
 * openat-based readers for small /proc and /sys files; the values go to the
 * pure parsers of base/ (prec/number.h, prec/cpulist.h). sysfs and procfs
 * report sizes that are lies (4096 or 0), so we read to EOF instead of
 * trusting st_size.
 */
#include "fsread.h"

#include "prec/cpulist.h"
#include "prec/grow.h"
#include "prec/number.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int fsread__file(int dirfd, const char *path, char **bufp, size_t *lenp)
{
	size_t cap = 4096, len = 0;
	struct stat st;
	char *buf = NULL;
	int fd, err = 0;

	*bufp = NULL;
	if (lenp)
		*lenp = 0;
	/* An absolute path would make openat ignore dirfd and escape the root. */
	while (*path == '/')
		path++;
	if (!*path)
		return -EINVAL;

	/* O_NONBLOCK: a FIFO planted in a fixture tree must not hang us. */
	fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0) {
		err = -errno;
		goto out;
	}
	if (S_ISDIR(st.st_mode)) {
		err = -EISDIR;
		goto out;
	}
	/* Devices and FIFOs are never /proc or /sys values; /dev/zero would never end. */
	if (!S_ISREG(st.st_mode)) {
		err = -EINVAL;
		goto out;
	}

	buf = malloc(cap);
	if (!buf) {
		err = -ENOMEM;
		goto out;
	}
	for (;;) {
		ssize_t n;

		/* Room for one more byte and the NUL: the limit, one byte to
		 * see the file is longer, the NUL; past that it is refused. */
		err = grow__array(&buf, &cap, len + 2, 1, 0, FSREAD_MAX_SIZE + 2);
		if (err) {
			err = err == -E2BIG ? -EFBIG : err;
			goto out;
		}
		n = read(fd, buf + len, cap - 1 - len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			err = -errno;
			goto out;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	if (len > FSREAD_MAX_SIZE) {
		err = -EFBIG;
		goto out;
	}
	buf[len] = '\0';
	*bufp = buf;
	buf = NULL;
	if (lenp)
		*lenp = len;
out:
	free(buf);
	close(fd);
	return err;
}

/* Copies s[0..len) into dst[size] as a C string; a NUL inside is garbage, not a terminator. */
static int copy_str(const char *s, size_t len, char *dst, size_t size)
{
	if (memchr(s, '\0', len))
		return -EINVAL;
	if (len >= size)
		return -EOVERFLOW;
	memcpy(dst, s, len);
	dst[len] = '\0';
	return 0;
}

/* How much of a file fsread__line and fsread__str keep. */
enum fsread_cut { CUT_FIRST_LINE, CUT_TRIM };

static int fsread__copy(int dirfd, const char *path, enum fsread_cut cut, char *dst, size_t size)
{
	const char *s, *nl;
	size_t len;
	char *buf;
	int err;

	if (!size)
		return -EOVERFLOW;
	dst[0] = '\0';
	err = fsread__file(dirfd, path, &buf, &len);
	if (err)
		return err;
	s = buf;
	if (cut == CUT_TRIM) {
		text__trim(&s, &len);
	} else {
		nl = memchr(buf, '\n', len);
		if (nl)
			len = (size_t)(nl - buf);
	}
	err = copy_str(s, len, dst, size);
	free(buf);
	return err;
}

int fsread__line(int dirfd, const char *path, char *dst, size_t size)
{
	return fsread__copy(dirfd, path, CUT_FIRST_LINE, dst, size);
}

int fsread__str(int dirfd, const char *path, char *dst, size_t size)
{
	return fsread__copy(dirfd, path, CUT_TRIM, dst, size);
}

int fsread__first_line(int rootfd, const char *path, char **line)
{
	size_t len;
	char *buf, *small;
	int err;

	*line = NULL;
	err = fsread__file(rootfd, path, &buf, &len);
	if (err)
		return err;
	if (!len) {
		free(buf);
		return -ENODATA;
	}
	/* buf is NUL-terminated; cut it and give back the rest of its 4 KiB. */
	len = strcspn(buf, "\n");
	buf[len] = '\0';
	small = realloc(buf, len + 1);
	*line = small ? small : buf;
	return 0;
}

/* Reads dirfd/path and hands it to u64__parse or, with val32, u32__parse. */
static int fsread__num(int dirfd, const char *path, unsigned int base, uint64_t *val,
		       uint32_t *val32)
{
	size_t len;
	char *buf;
	int err;

	err = fsread__file(dirfd, path, &buf, &len);
	if (err)
		return err;
	err = val32 ? u32__parse(buf, len, base, val32) : u64__parse(buf, len, base, val);
	free(buf);
	return err;
}

int fsread__u64(int dirfd, const char *path, unsigned int base, uint64_t *val)
{
	return fsread__num(dirfd, path, base, val, NULL);
}

int fsread__u32(int dirfd, const char *path, uint32_t *val)
{
	return fsread__num(dirfd, path, 10, NULL, val);
}

int fsread__cpulist(int dirfd, const char *path, struct cpulist *cl)
{
	size_t len;
	char *buf;
	int err;

	memset(cl, 0, sizeof(*cl));
	err = fsread__file(dirfd, path, &buf, &len);
	if (err)
		return err;
	err = cpulist__parse(buf, len, cl);
	free(buf);
	return err;
}

DIR *fsread__opendir(int dirfd, const char *path)
{
	int fd = openat(dirfd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *dir;

	if (fd < 0)
		return NULL;
	dir = fdopendir(fd);
	if (!dir) {
		int e = errno;

		close(fd);
		errno = e;
	}
	return dir;
}
