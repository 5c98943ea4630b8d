// SPDX-License-Identifier: GPL-2.0-only
/*
 * A file's name changed while it is written (writer__rename for
 * --timestamp-filename, writer__rotate for --switch-output): it moves with
 * its lock, so that a second writer given the same path is refused before
 * and after the move, never finds the old file unlocked at the path, and
 * makes no .old of it; the rotation's next file is locked at the path; a
 * move that fails changes nothing.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "prec/writer.h"

static char dir[64], path[128], old[160], final[160];

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/prec-rotate.XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	snprintf(path, sizeof(path), "%s/perf.data", dir);
	snprintf(old, sizeof(old), "%s.old", path);
	snprintf(final, sizeof(final), "%s.2026010112000000", path);
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd);
}

static struct writer *begun(const char *name)
{
	struct writer *w = NULL;

	assert_int_equal(writer__open(&w, name), 0);
	assert_int_equal(writer__begin(w, NULL, 0), 0);
	return w;
}

static void test_rotate(void **state)
{
	struct writer *w = begun(path), *next = NULL, *x = NULL;

	(void)state;
	assert_int_equal(writer__rotate(w, final, &next), 0);
	assert_non_null(next);
	assert_string_equal(writer__path(w), final);
	assert_string_equal(writer__path(next), path);
	/* Both held: the ended file under its new name, the next at path. */
	assert_int_equal(writer__open(&x, path), -EBUSY);
	assert_int_equal(writer__open(&x, final), -EBUSY);
	assert_int_equal(access(old, F_OK), -1);
	assert_int_equal(writer__finish(w, NULL), 0);
	assert_int_equal(access(final, F_OK), 0);
	/* The ended file is free once finished; the next is still held. */
	assert_int_equal(writer__open(&x, path), -EBUSY);
	writer__abort(next);
	assert_int_equal(access(path, F_OK), -1);
	assert_int_equal(access(final, F_OK), 0);
}

static void test_rename(void **state)
{
	struct writer *w = begun(path), *x = NULL;

	(void)state;
	assert_int_equal(writer__rename(w, final), 0);
	assert_string_equal(writer__path(w), final);
	assert_int_equal(access(path, F_OK), -1);
	/* Held under its new name: a second writer there is refused. */
	assert_int_equal(writer__open(&x, final), -EBUSY);
	/* The path is free: a new writer takes it and makes no .old. */
	assert_int_equal(writer__open(&x, path), 0);
	assert_int_equal(access(old, F_OK), -1);
	writer__abort(x);
	/* Aborted, w removes its file by its new name. */
	writer__abort(w);
	assert_int_equal(access(final, F_OK), -1);
}

static void test_move_fails(void **state)
{
	struct writer *w = begun(path), *next = (struct writer *)&next, *x = NULL;
	char nowhere[200];

	(void)state;
	snprintf(nowhere, sizeof(nowhere), "%s/no-such-dir/perf.data.1", dir);
	assert_int_equal(writer__rotate(w, nowhere, &next), -ENOENT);
	assert_null(next);
	assert_int_equal(writer__rename(w, nowhere), -ENOENT);
	/* Nothing changed: w still has path, and holds it. */
	assert_string_equal(writer__path(w), path);
	assert_int_equal(writer__open(&x, path), -EBUSY);
	assert_int_equal(writer__finish(w, NULL), 0);
	assert_int_equal(access(path, F_OK), 0);
}

static void test_stream(void **state)
{
	struct writer *w = NULL, *next = NULL;
	int fds[2];

	(void)state;
	assert_int_equal(pipe(fds), 0);
	assert_int_equal(writer__open_pipe(&w, fds[1]), 0);
	assert_int_equal(writer__rename(w, final), -EINVAL);
	assert_int_equal(writer__rotate(w, final, &next), -EINVAL);
	assert_null(next);
	writer__abort(w);
	close(fds[0]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_rotate, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rename, setup, teardown),
		cmocka_unit_test_setup_teardown(test_move_fails, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stream, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
