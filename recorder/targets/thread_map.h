/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_THREAD_MAP_H
#define PREC_THREAD_MAP_H
/* The threads events are opened for: tids, or the single -1 of system-wide. */
#include <sys/types.h>

struct thread_map {
	int nr;
	pid_t pid[]; /* thread ids; -1 means "any thread" (system-wide) */
};

/* A map of one entry (a forked workload's pid, or -1 for any). NULL on ENOMEM. */
struct thread_map *thread_map__new_one(pid_t pid);

/*
 * Parses a comma list of positive ids ("12,34"). Pure. Returns 0 and a map in
 * list order without duplicates, or -EINVAL for a malformed list.
 */
int thread_map__parse(struct thread_map **out, const char *list);

/*
 * -p: every thread of each listed process, from proc_dir/PID/task. Returns 0,
 * -ESRCH with *bad set when a process does not exist, -EINVAL for a bad list.
 */
int thread_map__new_pids(struct thread_map **out, const char *list, const char *proc_dir,
			 pid_t *bad);

/* -t: the listed threads, each checked in proc_dir. Same returns as new_pids. */
int thread_map__new_tids(struct thread_map **out, const char *list, const char *proc_dir,
			 pid_t *bad);

/*
 * -u: every thread of every process owned by uid, but those of process skip
 * (prec's own: its drain and side-band threads are not the user's workload;
 * 0 skips none). Returns 0, or -ESRCH when the user runs no other process.
 */
int thread_map__new_uid(struct thread_map **out, uid_t uid, const char *proc_dir, pid_t skip);

/*
 * The first thread of map that is a task of process pid (one listed in
 * proc_dir/PID/task), or 0 when none is (or pid is gone).
 */
pid_t thread_map__task_of(const struct thread_map *map, const char *proc_dir, pid_t pid);

/* Frees a map; accepts NULL. */
void thread_map__delete(struct thread_map *map);

#endif
