// SPDX-License-Identifier: GPL-2.0-only
/*
 * Tracepoint lookup for the -e grammar: tracefs wherever /proc/mounts says
 * it is, ids from events/<sys>/<name>/id, globs walked as perf 6.1 walks
 * them (util/parse-events.c add_tracepoint_multi_*).
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "prec/log.h"
#include "prec/tracepoint.h"

/* Copies a mount point field, decoding the kernel's \ooo escapes. */
static int copy_unescaped(const char *s, size_t len, char *buf, size_t size)
{
	size_t o = 0;

	for (size_t i = 0; i < len; i++) {
		char c = s[i];

		if (c == '\\' && i + 3 < len && s[i + 1] >= '0' && s[i + 1] <= '3' &&
		    s[i + 2] >= '0' && s[i + 2] <= '7' && s[i + 3] >= '0' && s[i + 3] <= '7') {
			c = (char)((s[i + 1] - '0') * 64 + (s[i + 2] - '0') * 8 + (s[i + 3] - '0'));
			i += 3;
		}
		if (o + 1 >= size)
			return -ENAMETOOLONG;
		buf[o++] = c;
	}
	if (!size)
		return -ENAMETOOLONG;
	buf[o] = '\0';
	return 0;
}

int mounts__find(const char *text, const char *fstype, char *buf, size_t size)
{
	const char *line = text;

	while (line && *line) {
		const char *eol = strchr(line, '\n');
		const char *end = eol ? eol : line + strlen(line);
		const char *f[3];
		size_t flen[3];
		const char *p = line;
		int n = 0;

		while (n < 3 && p < end) {
			while (p < end && (*p == ' ' || *p == '\t'))
				p++;
			if (p >= end)
				break;
			f[n] = p;
			while (p < end && *p != ' ' && *p != '\t')
				p++;
			flen[n] = (size_t)(p - f[n]);
			n++;
		}
		if (n == 3 && flen[2] == strlen(fstype) && !strncmp(f[2], fstype, flen[2]))
			return copy_unescaped(f[1], flen[1], buf, size);
		line = eol ? eol + 1 : NULL;
	}
	return -ENOENT;
}

/* /proc/mounts in one buffer (it is small), or NULL. */
static char *read_mounts(void)
{
	FILE *f = fopen("/proc/mounts", "re");
	char *text = NULL;
	size_t len = 0;
	char chunk[4096];
	size_t n;

	if (!f)
		return NULL;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0) {
		char *t = realloc(text, len + n + 1);

		if (!t) {
			free(text);
			fclose(f);
			return NULL;
		}
		text = t;
		memcpy(text + len, chunk, n);
		len += n;
		text[len] = '\0';
	}
	fclose(f);
	return text;
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
	char *mounts = read_mounts();
	char mnt[PATH_MAX];

	if (mounts && !mounts__find(mounts, "tracefs", buf, size)) {
		free(mounts);
		return 0;
	}
	if (mounts && !mounts__find(mounts, "debugfs", mnt, sizeof(mnt))) {
		free(mounts);
		mounts = NULL;
		if (snprintf(buf, size, "%s/tracing", mnt) < (int)size && has_events_dir(buf))
			return 0;
	}
	free(mounts);
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
	char *mounts = read_mounts();
	int ret = mounts ? mounts__find(mounts, "sysfs", buf, size) : -ENOENT;

	free(mounts);
	if (ret)
		snprintf(buf, size, "/sys");
	return 0;
}

bool tracepoint__is_glob(const char *s)
{
	return strpbrk(s, "*?") != NULL;
}

static bool is_plain_name(const char *name)
{
	return name[0] && strcmp(name, ".") && strcmp(name, "..") && !strchr(name, '/');
}

static int read_id(const char *path, uint64_t *id)
{
	char text[32];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;
	unsigned long long v;
	char *end;

	if (fd < 0)
		return errno == ENOTDIR ? -ENOENT : -errno;
	n = read(fd, text, sizeof(text) - 1);
	close(fd);
	if (n <= 0)
		return n < 0 ? -errno : -EINVAL;
	text[n] = '\0';
	if (!isdigit((unsigned char)text[0]))
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

int tracepoint__id(const char *tracefs, const char *sys, const char *name, uint64_t *id)
{
	char path[PATH_MAX];

	if (!is_plain_name(sys) || !is_plain_name(name))
		return -ENOENT;
	if (snprintf(path, sizeof(path), "%s/events/%s/%s/id", tracefs, sys, name) >=
	    (int)sizeof(path))
		return -ENOENT;
	return read_id(path, id);
}

/* A directory's subdirectory names matching glob, in directory order. */
struct names {
	char **v;
	int nr;
};

static void names__exit(struct names *n)
{
	for (int i = 0; i < n->nr; i++)
		free(n->v[i]);
	free(n->v);
	n->v = NULL;
	n->nr = 0;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int list_dirs(const char *path, const char *glob, bool sorted, struct names *out)
{
	DIR *dp = opendir(path);
	struct dirent *d;

	out->v = NULL;
	out->nr = 0;
	if (!dp)
		return -errno;
	while ((d = readdir(dp))) {
		char sub[PATH_MAX];
		struct stat st;
		char **v;

		/* perf skips ".", "..", enable, filter, header_page, header_event:
		 * of those only the dot entries are directories. */
		if (d->d_name[0] == '.' || fnmatch(glob, d->d_name, 0))
			continue;
		if (d->d_type != DT_DIR) {
			if (d->d_type != DT_UNKNOWN && d->d_type != DT_LNK)
				continue;
			if (snprintf(sub, sizeof(sub), "%s/%s", path, d->d_name) >=
				    (int)sizeof(sub) ||
			    stat(sub, &st) || !S_ISDIR(st.st_mode))
				continue;
		}
		v = realloc(out->v, (out->nr + 1) * sizeof(*v));
		if (!v || !(v[out->nr] = strdup(d->d_name))) {
			if (v)
				out->v = v;
			closedir(dp);
			names__exit(out);
			return -ENOMEM;
		}
		out->v = v;
		out->nr++;
	}
	closedir(dp);
	if (sorted && out->nr > 1)
		qsort(out->v, out->nr, sizeof(*out->v), name_cmp);
	return 0;
}

int tracepoints__for_each(const char *tracefs, const char *sys_glob, const char *name_glob,
			  bool sorted, tracepoint_fn fn, void *arg)
{
	char path[PATH_MAX];
	struct names systems;
	int found = 0;
	int ret;

	if (snprintf(path, sizeof(path), "%s/events", tracefs) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	ret = list_dirs(path, sys_glob, sorted, &systems);
	if (ret)
		return ret;
	for (int s = 0; s < systems.nr && !ret; s++) {
		char sys_path[PATH_MAX];
		struct names events;

		if (snprintf(sys_path, sizeof(sys_path), "%s/%s", path, systems.v[s]) >=
		    (int)sizeof(sys_path))
			continue;
		ret = list_dirs(sys_path, name_glob, sorted, &events);
		if (ret == -ENOMEM)
			break;
		if (ret) {
			ret = 0; /* a system we may not read is skipped, not fatal */
			continue;
		}
		for (int e = 0; e < events.nr && !ret; e++) {
			uint64_t id;

			if (tracepoint__id(tracefs, systems.v[s], events.v[e], &id))
				continue;
			found++;
			ret = fn(arg, systems.v[s], events.v[e], id);
		}
		names__exit(&events);
	}
	names__exit(&systems);
	return ret ? ret : found;
}
