// SPDX-License-Identifier: GPL-2.0-only
/* Thread lists for -p, -t, -u and the workload (prec/thread_map.h). */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "targets/thread_map.h"

static struct thread_map *thread_map__alloc(int nr)
{
	struct thread_map *map = malloc(sizeof(*map) + (size_t)nr * sizeof(pid_t));

	if (map)
		map->nr = 0;
	return map;
}

static int thread_map__push(struct thread_map **map, int *cap, pid_t pid)
{
	for (int i = 0; i < (*map)->nr; i++)
		if ((*map)->pid[i] == pid)
			return 0;
	if ((*map)->nr == *cap) {
		/* Not grow__array: the pids are the map's flexible array, one
		 * allocation with its header. Distinct pids (above) keep it
		 * under the kernel's pid limit. */
		int ncap = *cap * 2;
		struct thread_map *m = realloc(*map, sizeof(*m) + (size_t)ncap * sizeof(pid_t));

		if (!m)
			return -ENOMEM;
		*map = m;
		*cap = ncap;
	}
	(*map)->pid[(*map)->nr++] = pid;
	return 0;
}

struct thread_map *thread_map__new_one(pid_t pid)
{
	struct thread_map *map = thread_map__alloc(1);

	if (map) {
		map->nr = 1;
		map->pid[0] = pid;
	}
	return map;
}

int thread_map__parse(struct thread_map **out, const char *list)
{
	int cap = 8, ret = 0;
	struct thread_map *map = thread_map__alloc(cap);
	const char *p = list;

	if (!map)
		return -ENOMEM;
	if (!*p)
		ret = -EINVAL;
	while (!ret && *p) {
		char *end;
		long v;

		if (*p < '0' || *p > '9') {
			ret = -EINVAL;
			break;
		}
		errno = 0;
		v = strtol(p, &end, 10);
		if (errno || v <= 0 || v > 0x3fffffff || (*end && *end != ',')) {
			ret = -EINVAL;
			break;
		}
		ret = thread_map__push(&map, &cap, (pid_t)v);
		p = end;
		if (*p == ',') {
			p++;
			if (!*p)
				ret = -EINVAL;
		}
	}
	if (ret) {
		free(map);
		return ret;
	}
	*out = map;
	return 0;
}

/* Appends every tid under proc_dir/PID/task; -ESRCH when the process is gone. */
static int add_tasks(struct thread_map **map, int *cap, const char *proc_dir, pid_t pid)
{
	char path[512];
	struct dirent *de;
	DIR *d;
	int ret = 0, found = 0;

	snprintf(path, sizeof(path), "%s/%d/task", proc_dir, (int)pid);
	d = opendir(path);
	if (!d)
		return -ESRCH;
	while (!ret && (de = readdir(d))) {
		char *end;
		long tid = strtol(de->d_name, &end, 10);

		if (*end || tid <= 0)
			continue;
		ret = thread_map__push(map, cap, (pid_t)tid);
		found = 1;
	}
	closedir(d);
	if (!ret && !found)
		ret = -ESRCH;
	return ret;
}

static int new_from_list(struct thread_map **out, const char *list, const char *proc_dir,
			 pid_t *bad, int tasks)
{
	struct thread_map *ids, *map;
	int cap = 16, ret;

	ret = thread_map__parse(&ids, list);
	if (ret)
		return ret;
	map = thread_map__alloc(cap);
	if (!map) {
		free(ids);
		return -ENOMEM;
	}
	for (int i = 0; !ret && i < ids->nr; i++) {
		char path[512];
		struct stat st;

		if (tasks) {
			ret = add_tasks(&map, &cap, proc_dir, ids->pid[i]);
		} else {
			/* A thread is found under any process's task/ as /proc/TID. */
			snprintf(path, sizeof(path), "%s/%d", proc_dir, (int)ids->pid[i]);
			ret = stat(path, &st) ? -ESRCH : thread_map__push(&map, &cap, ids->pid[i]);
		}
		if (ret == -ESRCH)
			*bad = ids->pid[i];
	}
	free(ids);
	if (ret) {
		free(map);
		return ret;
	}
	*out = map;
	return 0;
}

int thread_map__new_pids(struct thread_map **out, const char *list, const char *proc_dir,
			 pid_t *bad)
{
	return new_from_list(out, list, proc_dir, bad, 1);
}

int thread_map__new_tids(struct thread_map **out, const char *list, const char *proc_dir,
			 pid_t *bad)
{
	return new_from_list(out, list, proc_dir, bad, 0);
}

int thread_map__new_uid(struct thread_map **out, uid_t uid, const char *proc_dir, pid_t skip)
{
	int cap = 64, ret = 0;
	struct thread_map *map = thread_map__alloc(cap);
	struct dirent *de;
	DIR *d;

	if (!map)
		return -ENOMEM;
	d = opendir(proc_dir);
	if (!d) {
		free(map);
		return -errno;
	}
	while (!ret && (de = readdir(d))) {
		char path[512];
		struct stat st;
		char *end;
		long pid = strtol(de->d_name, &end, 10);

		if (*end || pid <= 0 || pid == skip)
			continue;
		snprintf(path, sizeof(path), "%s/%ld", proc_dir, pid);
		/* /proc/PID belongs to the process's effective uid, as perf checks. */
		if (stat(path, &st) || st.st_uid != uid)
			continue;
		ret = add_tasks(&map, &cap, proc_dir, (pid_t)pid);
		if (ret == -ESRCH)
			ret = 0; /* gone while we looked: not ours to report */
	}
	closedir(d);
	if (!ret && !map->nr)
		ret = -ESRCH;
	if (ret) {
		free(map);
		return ret;
	}
	*out = map;
	return 0;
}

pid_t thread_map__task_of(const struct thread_map *map, const char *proc_dir, pid_t pid)
{
	char path[512];
	struct dirent *de;
	pid_t found = 0;
	DIR *d;

	/* pid's own tasks are few (prec's, before its threads start): the
	 * map is searched once for each. */
	snprintf(path, sizeof(path), "%s/%d/task", proc_dir, (int)pid);
	d = opendir(path);
	if (!d)
		return 0;
	while (!found && (de = readdir(d))) {
		char *end;
		long tid = strtol(de->d_name, &end, 10);

		for (int i = 0; !*end && tid > 0 && !found && i < map->nr; i++)
			if (map->pid[i] == (pid_t)tid)
				found = (pid_t)tid;
	}
	closedir(d);
	return found;
}

void thread_map__delete(struct thread_map *map)
{
	free(map);
}
