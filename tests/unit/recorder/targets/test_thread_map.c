// SPDX-License-Identifier: GPL-2.0-only
/*
 * -u's thread list leaves prec's own process out (thread_map__new_uid's
 * skip), and thread_map__task_of finds a listed thread that belongs to a
 * given process (prec's, for -p/-t naming prec itself): over a /proc tree
 * built here, with one process of another owner.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "recorder/targets/thread_map.h"

struct proc_tree {
	char dir[32];
};

/* dir/PID/task/TID for each tid; the PID directory owned by uid. */
static void add_process(const char *dir, uid_t uid, pid_t pid, const pid_t *tids, int nr)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%d", dir, (int)pid);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/%d/task", dir, (int)pid);
	assert_int_equal(mkdir(path, 0755), 0);
	for (int i = 0; i < nr; i++) {
		snprintf(path, sizeof(path), "%s/%d/task/%d", dir, (int)pid, (int)tids[i]);
		assert_int_equal(mkdir(path, 0755), 0);
	}
	snprintf(path, sizeof(path), "%s/%d", dir, (int)pid);
	assert_int_equal(chown(path, uid, (gid_t)-1), 0);
}

static int setup(void **state)
{
	struct proc_tree *t = calloc(1, sizeof(*t));
	const pid_t user[] = { 100, 101 }, prec[] = { 200, 201, 202 }, other[] = { 300 };
	char path[64];

	if (!t)
		return -1;
	snprintf(t->dir, sizeof(t->dir), "/tmp/prec-tmap.XXXXXX");
	if (!mkdtemp(t->dir))
		return -1;
	*state = t;
	if (geteuid())
		return 0; /* the owners cannot be made: each test skips */
	add_process(t->dir, 1000, 100, user, 2);
	add_process(t->dir, 1000, 200, prec, 3);
	add_process(t->dir, 2000, 300, other, 1);
	/* Not processes: names that are not pids. */
	snprintf(path, sizeof(path), "%s/self", t->dir);
	mkdir(path, 0755);
	return 0;
}

static int teardown(void **state)
{
	struct proc_tree *t = *state;
	char cmd[64];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", t->dir);
	if (system(cmd))
		return -1;
	free(t);
	return 0;
}

static int has(const struct thread_map *m, pid_t tid)
{
	for (int i = 0; i < m->nr; i++)
		if (m->pid[i] == tid)
			return 1;
	return 0;
}

static void test_uid_skips_self(void **state)
{
	struct proc_tree *t = *state;
	struct thread_map *m = NULL;

	if (geteuid())
		skip();
	/* No skip: every thread of uid 1000's two processes. */
	assert_int_equal(thread_map__new_uid(&m, 1000, t->dir, 0), 0);
	assert_int_equal(m->nr, 5);
	thread_map__delete(m);
	/* prec is process 200: none of its three threads. */
	assert_int_equal(thread_map__new_uid(&m, 1000, t->dir, 200), 0);
	assert_int_equal(m->nr, 2);
	assert_true(has(m, 100) && has(m, 101));
	assert_false(has(m, 200) || has(m, 201) || has(m, 202));
	thread_map__delete(m);
	/* The user runs nothing but prec: -ESRCH, as for no process. */
	m = NULL;
	assert_int_equal(thread_map__new_uid(&m, 2000, t->dir, 300), -ESRCH);
	assert_null(m);
}

static void test_task_of(void **state)
{
	struct proc_tree *t = *state;
	struct thread_map *m = NULL;

	if (geteuid())
		skip();
	assert_int_equal(thread_map__parse(&m, "100,300"), 0);
	assert_int_equal(thread_map__task_of(m, t->dir, 200), 0);
	thread_map__delete(m);
	/* -t naming one of prec's threads, not its leader. */
	assert_int_equal(thread_map__parse(&m, "300,202"), 0);
	assert_int_equal(thread_map__task_of(m, t->dir, 200), 202);
	thread_map__delete(m);
	/* -p of prec: its threads, the leader among them. */
	assert_int_equal(thread_map__new_pids(&m, "200", t->dir, &(pid_t){ 0 }), 0);
	assert_int_not_equal(thread_map__task_of(m, t->dir, 200), 0);
	thread_map__delete(m);
	/* A process that is gone: none. */
	assert_int_equal(thread_map__parse(&m, "1"), 0);
	assert_int_equal(thread_map__task_of(m, t->dir, 999), 0);
	thread_map__delete(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_uid_skips_self),
		cmocka_unit_test(test_task_of),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
