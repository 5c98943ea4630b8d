// SPDX-License-Identifier: GPL-2.0-only
/*
 * openat-based readers for small /proc and /sys files, and the pure parsers
 * they feed. sysfs and procfs report sizes that are lies (4096 or 0), so we
 * read to EOF instead of trusting st_size.
 */
#include "fsread.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

/* Narrows [*sp, *sp + *lenp) to its non-blank middle. */
static void trim(const char **sp, size_t *lenp)
{
	const char *s = *sp;
	size_t len = *lenp;

	while (len && is_blank(*s)) {
		s++;
		len--;
	}
	while (len && is_blank(s[len - 1]))
		len--;
	*sp = s;
	*lenp = len;
}

int fsread__file(int dirfd, const char *path, char **bufp, size_t *lenp)
{
	size_t cap = 4096, len = 0;
	struct stat st;
	char *buf = NULL, *nbuf;
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

		/* Keep one byte for the NUL; grow until past the limit, then refuse. */
		if (len + 1 >= cap) {
			if (cap > FSREAD_MAX_SIZE) {
				err = -EFBIG;
				goto out;
			}
			cap *= 2;
			nbuf = realloc(buf, cap);
			if (!nbuf) {
				err = -ENOMEM;
				goto out;
			}
			buf = nbuf;
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

int fsread__line(int dirfd, const char *path, char *dst, size_t size)
{
	const char *nl;
	size_t len;
	char *buf;
	int err;

	if (!size)
		return -EOVERFLOW;
	dst[0] = '\0';
	err = fsread__file(dirfd, path, &buf, &len);
	if (err)
		return err;
	nl = memchr(buf, '\n', len);
	if (nl)
		len = (size_t)(nl - buf);
	err = copy_str(buf, len, dst, size);
	free(buf);
	return err;
}

int fsread__str(int dirfd, const char *path, char *dst, size_t size)
{
	const char *s;
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
	trim(&s, &len);
	err = copy_str(s, len, dst, size);
	free(buf);
	return err;
}

int fsread__u64(int dirfd, const char *path, unsigned int base, uint64_t *val)
{
	size_t len;
	char *buf;
	int err;

	err = fsread__file(dirfd, path, &buf, &len);
	if (err)
		return err;
	err = u64__parse(buf, len, base, val);
	free(buf);
	return err;
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

static int digit_value(char c, unsigned int base)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (base == 16 && c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (base == 16 && c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int u64__parse(const char *s, size_t len, unsigned int base, uint64_t *val)
{
	uint64_t v = 0;
	size_t i;

	if (base != 10 && base != 16)
		return -EINVAL;
	trim(&s, &len);
	if (base == 16 && len >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		s += 2;
		len -= 2;
	}
	if (!len)
		return -EINVAL;
	/* Validate every byte first so "99999999999999999999x" is garbage, not overflow. */
	for (i = 0; i < len; i++)
		if (digit_value(s[i], base) < 0)
			return -EINVAL;
	for (i = 0; i < len; i++) {
		unsigned int d = (unsigned int)digit_value(s[i], base);

		if (v > (UINT64_MAX - d) / base)
			return -ERANGE;
		v = v * base + d;
	}
	*val = v;
	return 0;
}

/*
 * Reads one CPU number at s[*pos]. Leading zeros are fine (the kernel's own
 * parser takes them); anything at or above CPULIST_CPU_LIMIT is refused before
 * it can overflow.
 */
static int cpulist__num(const char *s, size_t len, size_t *pos, uint32_t *cpu)
{
	uint32_t v = 0;
	size_t i = *pos;

	if (i >= len || s[i] < '0' || s[i] > '9')
		return -EINVAL;
	for (; i < len && s[i] >= '0' && s[i] <= '9'; i++) {
		v = v * 10 + (uint32_t)(s[i] - '0');
		if (v >= CPULIST_CPU_LIMIT)
			return -ERANGE;
	}
	*pos = i;
	*cpu = v;
	return 0;
}

/*
 * One pass over a trimmed list: validates it and finds the highest CPU; with
 * bits set, also marks every CPU. Run twice so the bitmap is sized exactly.
 */
static int cpulist__walk(const char *s, size_t len, uint64_t *bits, uint32_t *maxp)
{
	uint32_t a, b, max = 0;
	size_t pos = 0;
	int err;

	for (;;) {
		err = cpulist__num(s, len, &pos, &a);
		if (err)
			return err;
		b = a;
		if (pos < len && s[pos] == '-') {
			pos++;
			err = cpulist__num(s, len, &pos, &b);
			if (err)
				return err;
			if (b < a)
				return -EINVAL;
		}
		if (b > max)
			max = b;
		if (bits)
			for (uint32_t c = a; c <= b; c++)
				bits[c / 64] |= UINT64_C(1) << (c % 64);
		if (pos == len)
			break;
		if (s[pos] != ',')
			return -EINVAL;
		pos++;
	}
	*maxp = max;
	return 0;
}

int cpulist__parse(const char *s, size_t len, struct cpulist *cl)
{
	uint32_t max;
	uint64_t *bits;
	int err;

	memset(cl, 0, sizeof(*cl));
	trim(&s, &len);
	if (!len)
		return -ENODATA;
	err = cpulist__walk(s, len, NULL, &max);
	if (err)
		return err;
	bits = calloc(max / 64 + 1, sizeof(*bits));
	if (!bits)
		return -ENOMEM;
	err = cpulist__walk(s, len, bits, &max);
	if (err) { /* cannot happen: the first pass accepted the same bytes */
		free(bits);
		return err;
	}
	cl->bits = bits;
	cl->nr_bits = max + 1;
	return 0;
}

void cpulist__exit(struct cpulist *cl)
{
	if (!cl)
		return;
	free(cl->bits);
	cl->bits = NULL;
	cl->nr_bits = 0;
}

uint32_t cpulist__count(const struct cpulist *cl)
{
	uint32_t n = 0;

	if (!cl->bits)
		return 0;
	for (uint32_t w = 0; w < (cl->nr_bits + 63) / 64; w++)
		n += (uint32_t)__builtin_popcountll(cl->bits[w]);
	return n;
}

int cpulist__max(const struct cpulist *cl)
{
	/* nr_bits is highest + 1 by construction; an empty list has no bits. */
	return cl->bits && cl->nr_bits ? (int)cl->nr_bits - 1 : -1;
}

int cpulist__has(const struct cpulist *cl, uint32_t cpu)
{
	if (!cl->bits || cpu >= cl->nr_bits)
		return 0;
	return (cl->bits[cpu / 64] >> (cpu % 64)) & 1;
}

int cpulist__next(const struct cpulist *cl, uint32_t from)
{
	for (uint32_t c = from; c < cl->nr_bits; c++)
		if (cpulist__has(cl, c))
			return (int)c;
	return -1;
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
