// SPDX-License-Identifier: GPL-2.0-only
/*
 * /proc/mounts (prec/mounts.h): the one line parser, the lookups by type
 * that the event parser, the tracing-data feature, the cgroup target and the
 * side-band synthesis need, and the one tracefs finder. Lines are parsed in
 * place, never copied whole, so a hostile line costs nothing but a scan.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "prec/grow.h"
#include "prec/log.h"
#include "prec/mounts.h"

/* The mounts table of a big container host is a few hundred KiB. */
#define MOUNTS_MAX (16u << 20)

static bool is_sep(char c)
{
	return c == ' ' || c == '\t';
}

int mounts__split(const char *line, size_t len, struct mounts_entry *e)
{
	const char **f[4] = { &e->dev, &e->dir, &e->type, &e->opts };
	size_t *flen[4] = { &e->dev_len, &e->dir_len, &e->type_len, &e->opts_len };
	size_t i = 0;

	for (int k = 0; k < 4; k++) {
		while (i < len && is_sep(line[i]))
			i++;
		*f[k] = line + i;
		while (i < len && !is_sep(line[i]))
			i++;
		*flen[k] = (size_t)(line + i - *f[k]);
		if (!*flen[k] && k < 3)
			return -EINVAL;
	}
	return 0;
}

static bool is_octal(char c, char max)
{
	return c >= '0' && c <= max;
}

int mounts__unescape(const char *s, size_t len, const char *suffix, char *buf, size_t size)
{
	size_t o = 0, slen = strlen(suffix);

	for (size_t i = 0; i < len; i++) {
		char c = s[i];

		if (c == '\\' && i + 3 < len && is_octal(s[i + 1], '3') &&
		    is_octal(s[i + 2], '7') && is_octal(s[i + 3], '7')) {
			c = (char)((s[i + 1] - '0') << 6 | (s[i + 2] - '0') << 3 |
				   (s[i + 3] - '0'));
			i += 3;
		}
		if (o + 1 >= size)
			return -ENAMETOOLONG;
		buf[o++] = c;
	}
	if (o + slen + 1 > size)
		return -ENAMETOOLONG;
	memcpy(buf + o, suffix, slen + 1);
	return 0;
}

/*
 * Calls fn for each line of the NUL-terminated mounts text that has at least
 * three fields, in order; a non-zero return from fn stops the walk and is
 * returned. Returns 0 after the last line.
 */
static int mounts__for_each(const char *text, int (*fn)(void *arg, const struct mounts_entry *e),
			    void *arg)
{
	while (text && *text) {
		const char *nl = strchr(text, '\n');
		size_t n = nl ? (size_t)(nl - text) : strlen(text);
		struct mounts_entry e;
		int r;

		if (!mounts__split(text, n, &e)) {
			r = fn(arg, &e);
			if (r)
				return r;
		}
		text += n + (nl ? 1 : 0);
	}
	return 0;
}

static bool field_is(const char *f, size_t len, const char *want)
{
	return want && len == strlen(want) && !memcmp(f, want, len);
}

/* Is opt a whole item of the comma list opts[0..len)? */
static bool has_option(const char *opts, size_t len, const char *opt)
{
	size_t ol = strlen(opt);

	for (size_t i = 0; i < len;) {
		size_t l = 0;

		while (i + l < len && opts[i + l] != ',')
			l++;
		if (l == ol && !memcmp(opts + i, opt, ol))
			return true;
		i += l + 1;
	}
	return false;
}

struct find_state {
	const char *fstype, *opt, *fallback_type;
	const char *fb; /* the first fallback_type mount point, escaped */
	size_t fb_len;
	char *buf;
	size_t size;
};

/* 1: found (buf filled), 0: go on, or -ENAMETOOLONG. */
static int find_one(void *arg, const struct mounts_entry *e)
{
	struct find_state *st = arg;

	if (field_is(e->type, e->type_len, st->fstype) &&
	    (!st->opt || has_option(e->opts, e->opts_len, st->opt))) {
		int err = mounts__unescape(e->dir, e->dir_len, "", st->buf, st->size);

		return err ? err : 1;
	}
	if (!st->fb && field_is(e->type, e->type_len, st->fallback_type)) {
		st->fb = e->dir;
		st->fb_len = e->dir_len;
	}
	return 0;
}

int mounts__find_opt(const char *text, const char *fstype, const char *opt,
		     const char *fallback_type, char *buf, size_t size)
{
	struct find_state st = { fstype, opt, fallback_type, NULL, 0, buf, size };
	int r = mounts__for_each(text, find_one, &st);

	if (r)
		return r < 0 ? r : 0;
	if (st.fb)
		return mounts__unescape(st.fb, st.fb_len, "", buf, size);
	return -ENOENT;
}

int mounts__find(const char *text, const char *fstype, char *buf, size_t size)
{
	return mounts__find_opt(text, fstype, NULL, NULL, buf, size);
}

int mounts__read(const char *path, char **text)
{
	size_t len = 0, cap = 4096;
	char *buf = malloc(cap);
	int fd, err = 0;

	*text = NULL;
	if (!buf)
		return -ENOMEM;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0) {
		err = -errno;
		free(buf);
		return err;
	}
	for (;;) {
		ssize_t n;

		/* Room for one more byte and the NUL, at most MOUNTS_MAX. */
		err = grow__array(&buf, &cap, len + 2, 1, 0, MOUNTS_MAX);
		if (err) {
			err = err == -E2BIG ? -EFBIG : err;
			break;
		}
		n = read(fd, buf + len, cap - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			err = -errno;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	if (err) {
		free(buf);
		return err;
	}
	buf[len] = '\0';
	*text = buf;
	return 0;
}

int mounts__tracefs(const char *text, char *buf, size_t size, bool *via_debugfs)
{
	struct find_state st = { "tracefs", NULL, "debugfs", NULL, 0, buf, size };
	int r;

	if (via_debugfs)
		*via_debugfs = false;
	if (!text || !buf || !size)
		return -EINVAL;
	buf[0] = '\0';
	r = mounts__for_each(text, find_one, &st);
	if (r)
		return r < 0 ? r : 0;
	if (!st.fb)
		return -ENOENT;
	if (via_debugfs)
		*via_debugfs = true;
	return mounts__unescape(st.fb, st.fb_len, "/tracing", buf, size);
}

static bool has_events_dir(const char *root)
{
	char path[PATH_MAX];
	struct stat st;

	if (snprintf(path, sizeof(path), "%s/events", root) >= (int)sizeof(path))
		return false;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int tracefs__find(char *buf, size_t size)
{
	static const char *const fallbacks[] = { "/sys/kernel/tracing",
						 "/sys/kernel/debug/tracing" };
	bool via_debugfs;
	char *text;
	int err;

	if (!buf || !size)
		return -EINVAL;
	if (!mounts__read("/proc/mounts", &text)) {
		err = mounts__tracefs(text, buf, size, &via_debugfs);
		free(text);
		/* A tracefs mount counts as is: its events/ is root-only (0700). */
		if (err == -ENAMETOOLONG || (!err && (!via_debugfs || has_events_dir(buf))))
			return err;
	}
	for (size_t i = 0; i < sizeof(fallbacks) / sizeof(fallbacks[0]); i++) {
		if (has_events_dir(fallbacks[i]) &&
		    snprintf(buf, size, "%s", fallbacks[i]) < (int)size)
			return 0;
	}
	/* Nowhere: mount it where perf 6.1 does (tracefs__mount), as it does,
	 * when permitted. A fresh machine often boots without it. */
	if (mount("nodev", fallbacks[0], "tracefs", 0, NULL) == 0) {
		if (has_events_dir(fallbacks[0]) &&
		    snprintf(buf, size, "%s", fallbacks[0]) < (int)size) {
			pr_verbose("tracefs was not mounted: mounted it on %s\n", fallbacks[0]);
			return 0;
		}
		return -ENOENT;
	}
	pr_verbose("tracefs is not mounted and mounting it on %s failed: %s\n", fallbacks[0],
		   strerror(errno));
	return -ENOENT;
}

int sysfs__find(char *buf, size_t size)
{
	char *text;
	int ret = mounts__read("/proc/mounts", &text);

	if (!ret) {
		ret = mounts__find(text, "sysfs", buf, size);
		free(text);
	}
	if (ret)
		snprintf(buf, size, "/sys");
	return 0;
}
