// SPDX-License-Identifier: GPL-2.0-only
/* Tracefs event id files, events/<sys>/<name>/id (prec/tracefs.h): the one
 * parser and the one reader of them. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "prec/tracefs.h"

int tracefs__parse_id(const char *buf, size_t len, uint64_t *id)
{
	char text[32];
	unsigned long long v;
	char *end;

	/* The kernel writes "N\n"; one read of 31 bytes is all perf looks at. */
	if (!len)
		return -EINVAL;
	if (len > sizeof(text) - 1)
		len = sizeof(text) - 1;
	memcpy(text, buf, len);
	text[len] = '\0';
	if (text[0] < '0' || text[0] > '9')
		return -EINVAL;
	errno = 0;
	v = strtoull(text, &end, 10);
	while (*end == '\n' || *end == ' ')
		end++;
	if (errno || *end)
		return -EINVAL;
	*id = v;
	return 0;
}

int tracefs__read_id(int dirfd, const char *event_dir, uint64_t *id)
{
	char path[PATH_MAX], text[32];
	ssize_t n;
	int fd, err;

	if (snprintf(path, sizeof(path), "%s/id", event_dir) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	/* O_NONBLOCK: a FIFO planted in a fixture tree must not hang us. */
	fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return errno == ENOTDIR ? -ENOENT : -errno;
	do {
		n = read(fd, text, sizeof(text) - 1);
	} while (n < 0 && errno == EINTR);
	err = n < 0 ? -errno : 0;
	close(fd);
	return err ? err : tracefs__parse_id(text, (size_t)n, id);
}
