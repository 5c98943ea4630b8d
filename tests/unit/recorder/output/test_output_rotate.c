// SPDX-License-Identifier: GPL-2.0-only
/*
 * When the output ends a file and what the ended files are called
 * (recorder/output/output_rotate.c): --max-size against --switch-output=SIZE, the
 * signal, the period, a stream that never rotates; perf's timestamped names
 * and --switch-max-files, on files in a temp dir.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "recorder/options/options.h"
#include "recorder/record.h"
#include "recorder/output/output_rotate.h"

static void test_check_sizes(void **state)
{
	struct output_rotate r = { 0 };
	struct record_opts o = { 0 };

	(void)state;
	/* No limit, no signal: nothing to do, whatever the size. */
	assert_int_equal(output_rotate__check(&r, &o, 1 << 30, false, false, true), OUTPUT_GO_ON);
	assert_int_equal(output_rotate__check(&r, &o, 0, false, true, true), OUTPUT_ROTATE);

	/* --max-size: reached by the size, or by the cut made short of it. */
	o.max_size = 1000;
	assert_int_equal(output_rotate__check(&r, &o, 999, false, false, true), OUTPUT_GO_ON);
	assert_int_equal(output_rotate__check(&r, &o, 1000, false, false, true), OUTPUT_FULL);
	assert_int_equal(output_rotate__check(&r, &o, 990, true, false, true), OUTPUT_FULL);
	/* Full wins over a pending SIGUSR2. */
	assert_int_equal(output_rotate__check(&r, &o, 1000, false, true, true), OUTPUT_FULL);

	/* With a smaller --switch-output=SIZE the cut is the switch's. */
	o.switch_size = 500;
	assert_int_equal(output_rotate__check(&r, &o, 490, true, false, true), OUTPUT_ROTATE);
	assert_int_equal(output_rotate__check(&r, &o, 500, false, false, true), OUTPUT_ROTATE);
	assert_int_equal(output_rotate__check(&r, &o, 400, false, false, true), OUTPUT_GO_ON);
	/* A file with no sample yet (its front alone filled SIZE) goes on to
	 * take one; the cut still rotates. */
	assert_int_equal(output_rotate__check(&r, &o, 700, false, false, false), OUTPUT_GO_ON);
	assert_int_equal(output_rotate__check(&r, &o, 490, true, false, false), OUTPUT_ROTATE);
	/* A larger one: the cut is --max-size's. */
	o.switch_size = 2000;
	assert_int_equal(output_rotate__check(&r, &o, 990, true, false, true), OUTPUT_FULL);

	/* A stream cannot rotate: the switch size is no cut there, --max-size is. */
	o.pipe_output = true;
	o.switch_size = 500;
	assert_int_equal(output_rotate__check(&r, &o, 600, false, true, true), OUTPUT_GO_ON);
	assert_int_equal(output_rotate__check(&r, &o, 990, true, false, true), OUTPUT_FULL);
	output_rotate__exit(&r);
}

static void test_check_period(void **state)
{
	struct output_rotate r = { 0 };
	struct record_opts o = { .switch_time_ms = 200 };
	struct timespec nap = { 0, 250 * 1000000L };

	(void)state;
	/* The first pass starts the period; it ends 200 ms later, and again. */
	assert_int_equal(output_rotate__check(&r, &o, 0, false, false, true), OUTPUT_GO_ON);
	assert_int_equal(output_rotate__check(&r, &o, 0, false, false, true), OUTPUT_GO_ON);
	nanosleep(&nap, NULL);
	assert_int_equal(output_rotate__check(&r, &o, 0, false, false, true), OUTPUT_ROTATE);
	assert_int_equal(output_rotate__check(&r, &o, 0, false, false, true), OUTPUT_GO_ON);
	nanosleep(&nap, NULL);
	assert_int_equal(output_rotate__check(&r, &o, 0, false, false, true), OUTPUT_ROTATE);
	output_rotate__exit(&r);
}

static void touch(const char *path)
{
	int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0600);

	assert_true(fd >= 0);
	close(fd);
}

static int count_files(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	assert_non_null(d);
	while ((de = readdir(d)))
		n += de->d_name[0] != '.';
	closedir(d);
	return n;
}

static void test_names(void **state)
{
	struct output_rotate r = { 0 };
	struct record_opts o = { .switch_output = true, .timestamp_filename = true,
				 .switch_max_files = 2 };
	char dir[] = "/tmp/prec-test-rotate-XXXXXX", path[128], names[4][160];
	size_t base;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/perf.data", dir);
	base = strlen(path);
	for (int i = 0; i < 4; i++) {
		touch(path);
		output_rotate__name(&r, &o, path, false, names[i], sizeof(names[i]));
		/* "<path>.YYYYmmddHHMMSScc", ".N" after it when taken */
		assert_memory_equal(names[i], path, base);
		assert_int_equal(names[i][base], '.');
		assert_true(strlen(names[i]) >= base + 17);
		assert_int_equal(access(path, F_OK), -1);
		assert_int_equal(access(names[i], F_OK), 0);
	}
	/* --switch-max-files=2: the two newest are kept, the rest removed (a
	 * removed name may be taken again within the same hundredth). */
	assert_int_equal(r.nr_kept, 2);
	assert_string_equal(r.kept[0], names[2]);
	assert_string_equal(r.kept[1], names[3]);
	assert_int_equal(count_files(dir), 2);

	/* At exit without --timestamp-filename, and for a stream: the path. */
	o.timestamp_filename = false;
	touch(path);
	output_rotate__name(&r, &o, path, true, names[0], sizeof(names[0]));
	assert_string_equal(names[0], path);
	assert_int_equal(access(path, F_OK), 0);
	o.timestamp_filename = true;
	o.pipe_output = true;
	output_rotate__name(&r, &o, "-", false, names[0], sizeof(names[0]));
	assert_string_equal(names[0], "-");

	unlink(path);
	unlink(names[2]);
	unlink(names[3]);
	assert_int_equal(rmdir(dir), 0);
	output_rotate__exit(&r);
	assert_null(r.kept);
	output_rotate__exit(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_check_sizes),
		cmocka_unit_test(test_check_period),
		cmocka_unit_test(test_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
