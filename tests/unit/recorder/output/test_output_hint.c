// SPDX-License-Identifier: GPL-2.0-only
/*
 * The fix named for an output that cannot be created or written
 * (recorder/output/output_hint.c): a user's own directory is recorded
 * into, not moved; the file size limit names `ulimit -f`; a path on proc and a
 * relative path in a deleted current directory are named as such; a
 * missing directory names mkdir; a path that went away while it was taken
 * blames no filesystem; a held output names the holder's pid.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output/output_hint.h"

static char dir[64], name[128];

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/prec-hint.XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd);
}

static void test_own_directory(void **state)
{
	char want[256];
	const char *h;

	(void)state;
	snprintf(name, sizeof(name), "%s/mine", dir);
	assert_int_equal(mkdir(name, 0700), 0);
	h = output__hint(name, -EISDIR);
	assert_non_null(strstr(h, "holds no recording"));
	/* Inside it, as a file or a directory of its own: never the
	 * directory itself. */
	snprintf(want, sizeof(want), "record into it with -o %s/perf.data, or choose another path",
		 name);
	assert_non_null(strstr(h, want));
}

static void test_old_in_the_way(void **state)
{
	char old[160];

	(void)state;
	snprintf(name, sizeof(name), "%s/perf.data", dir);
	snprintf(old, sizeof(old), "%s.old", name);
	assert_int_equal(mkdir(old, 0700), 0);
	assert_non_null(strstr(output__hint(name, -EISDIR), "where the previous"));
	assert_non_null(strstr(output__hint(name, -EISDIR), "is a directory"));
}

static void test_limits(void **state)
{
	(void)state;
	snprintf(name, sizeof(name), "%s/perf.data", dir);
	assert_non_null(strstr(output__hint(name, -EFBIG), "'ulimit -f unlimited'"));
	assert_non_null(strstr(output__hint(name, -ENOSPC), "df -h"));
}

static void test_places(void **state)
{
	char cwd[PATH_MAX], gone[160];

	(void)state;
	assert_non_null(strstr(output__hint("/proc/version", -EIO), "is on proc,"));
	assert_non_null(strstr(output__hint("/proc/prec.data", -ENOENT), "is on proc,"));
	assert_non_null(strstr(output__hint("/sys/kernel/prec.data", -EACCES), "is on sysfs,"));
	/* A missing directory, then one that exists: no filesystem blamed. */
	snprintf(name, sizeof(name), "%s/no/perf.data", dir);
	assert_non_null(strstr(output__hint(name, -ENOENT), "mkdir -p"));
	snprintf(name, sizeof(name), "%s/perf.data", dir);
	assert_non_null(strstr(output__hint(name, -ENOENT), "removed or renamed it"));
	/* A relative path in a deleted current directory; an absolute one is
	 * not concerned. */
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	snprintf(gone, sizeof(gone), "%s/gone", dir);
	assert_int_equal(mkdir(gone, 0700), 0);
	assert_int_equal(chdir(gone), 0);
	assert_int_equal(rmdir(gone), 0);
	assert_non_null(strstr(output__hint("perf.data", -ENOENT),
			       "the current directory was deleted: cd to a directory that exists"));
	assert_null(strstr(output__hint(name, -ENOENT), "current directory"));
	assert_int_equal(chdir(cwd), 0);
}

static void test_busy(void **state)
{
	char want[64];
	int fd;

	(void)state;
	snprintf(name, sizeof(name), "%s/perf.data", dir);
	fd = open(name, O_CREAT | O_RDWR, 0600);
	assert_true(fd >= 0);
	assert_int_equal(flock(fd, LOCK_EX | LOCK_NB), 0);
	snprintf(want, sizeof(want), "process %d is recording into it", (int)getpid());
	assert_non_null(strstr(output__hint(name, -EBUSY), want));
	close(fd);
	assert_non_null(strstr(output__hint(name, -EBUSY), "another process is recording"));
}

/* Two hints naming two places stay apart: no buffer is shared. */
static void test_own_buffers(void **state)
{
	char a[160], b[160], ha[OUTPUT_HINT_MAX], hb[OUTPUT_HINT_MAX];
	const char *x, *y;

	(void)state;
	snprintf(a, sizeof(a), "%s/first", dir);
	snprintf(b, sizeof(b), "%s/second", dir);
	assert_int_equal(mkdir(a, 0700), 0);
	assert_int_equal(mkdir(b, 0700), 0);
	x = output__hint_into(a, -EISDIR, ha, sizeof(ha));
	y = output__hint_into(b, -EISDIR, hb, sizeof(hb));
	assert_ptr_equal(x, ha);
	assert_ptr_equal(y, hb);
	assert_non_null(strstr(x, "/first/perf.data"));
	assert_non_null(strstr(y, "/second/perf.data"));
	/* Too small a buffer cuts the text, never past its end. */
	hb[8] = 'X';
	assert_ptr_equal(output__hint_into(b, -EISDIR, hb, 8), hb);
	assert_int_equal(strlen(hb), 7);
	assert_int_equal(hb[8], 'X');
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_own_directory, setup, teardown),
		cmocka_unit_test_setup_teardown(test_old_in_the_way, setup, teardown),
		cmocka_unit_test_setup_teardown(test_limits, setup, teardown),
		cmocka_unit_test_setup_teardown(test_places, setup, teardown),
		cmocka_unit_test_setup_teardown(test_busy, setup, teardown),
		cmocka_unit_test_setup_teardown(test_own_buffers, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
