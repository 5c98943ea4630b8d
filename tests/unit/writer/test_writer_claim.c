// SPDX-License-Identifier: GPL-2.0-only
/*
 * Taking an output path (writer/claim.c through writer__open and
 * writer_dir__create): a recording's directory moves to .old and a user's
 * own directory does not; while one writer has the path, a second is
 * refused with -EBUSY and nothing of the first's moves; once the first is
 * gone, the second takes the path and the first's recording becomes .old.
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
#include "prec/writer_dir.h"

static char dir[64], path[128], old[160];

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/prec-claim.XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	snprintf(path, sizeof(path), "%s/perf.data", dir);
	snprintf(old, sizeof(old), "%s.old", path);
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd);
}

static void put(const char *name, const char *text)
{
	FILE *f = fopen(name, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static bool is_dir(const char *name)
{
	struct stat st;

	return !stat(name, &st) && S_ISDIR(st.st_mode);
}

static void test_recording_dir_moves(void **state)
{
	char name[200];
	struct writer *w;

	(void)state;
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(name, sizeof(name), "%s/data", path);
	put(name, "PERFILE2 and the rest");
	assert_int_equal(writer__open(&w, path), 0);
	assert_true(is_dir(old));
	writer__abort(w);
	/* abort put nothing back over .old, and removed only its own file */
	assert_true(is_dir(old));
	assert_int_equal(access(path, F_OK), -1);
}

static void test_own_dir_stays(void **state)
{
	char name[200];
	struct writer *w;
	struct writer_dir *d;

	(void)state;
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(name, sizeof(name), "%s/notes", path);
	put(name, "mine");
	assert_int_equal(writer__open(&w, path), -EISDIR);
	assert_int_equal(writer_dir__create(&d, path), -EISDIR);
	assert_int_equal(access(name, F_OK), 0);
	assert_int_equal(access(old, F_OK), -1);
}

static void test_second_writer_refused(void **state)
{
	struct writer *w, *w2;
	struct writer_dir *d, *d2;

	(void)state;
	assert_int_equal(writer__open(&w, path), 0);
	assert_int_equal(writer__begin(w, NULL, 0), 0);
	assert_int_equal(writer__open(&w2, path), -EBUSY);
	assert_int_equal(writer_dir__create(&d2, path), -EBUSY);
	assert_int_equal(access(old, F_OK), -1);
	assert_int_equal(writer__finish(w, NULL), 0);
	/* The first is done: the next takes the path, the first becomes .old. */
	assert_int_equal(writer_dir__create(&d, path), 0);
	assert_int_equal(access(old, F_OK), 0);
	assert_false(is_dir(old));
	assert_int_equal(writer__open(&w2, path), -EBUSY);
	writer_dir__abort(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_recording_dir_moves, setup, teardown),
		cmocka_unit_test_setup_teardown(test_own_dir_stays, setup, teardown),
		cmocka_unit_test_setup_teardown(test_second_writer_refused, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
