// SPDX-License-Identifier: GPL-2.0-only
/*
 * Tracepoint lookup for the -e grammar (tracefs itself is found by base's
 * tracefs__find, prec/mounts.h): ids from events/<sys>/<name>/id (read by base's
 * tracefs__read_id, prec/tracefs.h), globs walked as perf 6.1 walks them
 * (util/parse-events.c add_tracepoint_multi_*).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "prec/log.h"
#include "prec/tracefs.h"
#include "events/tracepoint.h"

bool tracepoint__is_glob(const char *s)
{
	return strpbrk(s, "*?") != NULL;
}

static bool is_plain_name(const char *name)
{
	return name[0] && strcmp(name, ".") && strcmp(name, "..") && !strchr(name, '/');
}

int tracepoint__parse_id(const char *buf, size_t len, uint64_t *id)
{
	return tracefs__parse_id(buf, len, id);
}

int tracepoint__id(const char *tracefs, const char *sys, const char *name, uint64_t *id)
{
	char path[PATH_MAX];
	int ret;

	if (!is_plain_name(sys) || !is_plain_name(name))
		return -ENOENT;
	if (snprintf(path, sizeof(path), "%s/events/%s/%s", tracefs, sys, name) >=
	    (int)sizeof(path))
		return -ENOENT;
	ret = tracefs__read_id(AT_FDCWD, path, id);
	return ret == -ENAMETOOLONG ? -ENOENT : ret;
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
