// SPDX-License-Identifier: GPL-2.0-only
/*
 * When the output ends a file and what the ended files are called
 * (recorder/output/output_rotate.c): --max-size against --switch-output=SIZE, the
 * signal, the period, a stream that never rotates; perf's timestamped names
 * and --switch-max-files, on files in a temp dir, each renamed while its
 * writer has it (the next one opened at the path as it moves).
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

#include "recorder/output/output_config.h"
#include "recorder/entry.h"
#include "recorder/output/output_rotate.h"
#include "prec/writer.h"

static void test_check_sizes(void **state)
{
	struct output_rotate r = { 0 };
	struct output_config o = { 0 };

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
	o.pipe = true;
	o.switch_size = 500;
	assert_int_equal(output_rotate__check(&r, &o, 600, false, true, true), OUTPUT_GO_ON);
	assert_int_equal(output_rotate__check(&r, &o, 990, true, false, true), OUTPUT_FULL);
	output_rotate__exit(&r);
}

static void test_check_period(void **state)
{
	struct output_rotate r = { 0 };
	struct output_config o = { .switch_time_ms = 200 };
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

/* A writer at name with its front written, as the output has one. */
static struct writer *begun(const char *name)
{
	struct writer *w = NULL;

	assert_int_equal(writer__open(&w, name), 0);
	assert_int_equal(writer__begin(w, NULL, 0), 0);
	return w;
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
	struct output_config o = { .switch_output = true,
				   .timestamp_filename = true,
				   .switch_max_files = 2 };
	char dir[] = "/tmp/prec-test-rotate-XXXXXX", path[128], data[128], names[4][160];
	struct writer *w, *next = NULL;
	size_t base;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/perf.data", dir);
	base = strlen(path);
	w = begun(path);
	for (int i = 0; i < 4; i++) {
		assert_int_equal(
			output_rotate__name(&r, &o, w, path, &next, names[i], sizeof(names[i])), 0);
		/* "<path>.YYYYmmddHHMMSScc", ".N" after it when taken */
		assert_memory_equal(names[i], path, base);
		assert_int_equal(names[i][base], '.');
		assert_true(strlen(names[i]) >= base + 17);
		assert_string_equal(writer__path(w), names[i]);
		assert_string_equal(writer__path(next), path);
		assert_int_equal(access(names[i], F_OK), 0);
		assert_int_equal(writer__finish(w, NULL), 0);
		output_rotate__ended(&r, &o, false, path, names[i]);
		w = next;
		assert_int_equal(writer__begin(w, NULL, 0), 0);
	}
	assert_int_equal(r.rotations, 4);
	/* --switch-max-files=2: the two newest are kept, the rest removed (a
	 * removed name may be taken again within the same hundredth); the
	 * file at path is the next one, still written. */
	assert_int_equal(r.nr_kept, 2);
	assert_string_equal(r.kept[0], names[2]);
	assert_string_equal(r.kept[1], names[3]);
	assert_int_equal(count_files(dir), 3);

	/* At exit without --timestamp-filename: the path, nothing moved. */
	o.timestamp_filename = false;
	assert_int_equal(output_rotate__name(&r, &o, w, path, NULL, names[0], sizeof(names[0])), 0);
	assert_string_equal(names[0], path);
	assert_string_equal(writer__path(w), path);
	/* With it: the timestamped name, taken while the file is written. */
	o.timestamp_filename = true;
	assert_int_equal(output_rotate__name(&r, &o, w, path, NULL, names[0], sizeof(names[0])), 0);
	assert_string_not_equal(names[0], path);
	assert_string_equal(writer__path(w), names[0]);
	assert_int_equal(access(path, F_OK), -1);
	assert_int_equal(writer__finish(w, NULL), 0);
	output_rotate__ended(&r, &o, true, path, names[0]);
	assert_int_equal(r.rotations, 4);
	assert_int_equal(r.nr_kept, 2);
	assert_string_equal(r.kept[1], names[0]);
	unlink(names[3]); /* gone from the list: removed past the limit */
	/* A directory's data file (not at path) keeps its name. */
	snprintf(data, sizeof(data), "%s/data", dir);
	w = begun(data);
	assert_int_equal(output_rotate__name(&r, &o, w, path, NULL, names[1], sizeof(names[1])), 0);
	assert_string_equal(names[1], path);
	assert_string_equal(writer__path(w), data);
	writer__abort(w);
	/* A stream: "-" at exit. */
	o.pipe = true;
	assert_int_equal(writer__open_pipe(&w, dup(STDERR_FILENO)), 0);
	assert_int_equal(output_rotate__name(&r, &o, w, "-", NULL, names[1], sizeof(names[1])), 0);
	assert_string_equal(names[1], "-");
	writer__abort(w);

	unlink(names[0]);
	unlink(names[2]);
	assert_int_equal(count_files(dir), 0);
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
