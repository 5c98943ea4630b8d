// SPDX-License-Identifier: GPL-2.0-only
/*
 * base/mounts.c: the /proc/mounts line parser, the lookups by type and
 * option, the tracefs rule (tracefs, else debugfs/tracing), hostile lines
 * (no fields, overlong, broken escapes, no newline), and the live finders.
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
#include <unistd.h>

#include "prec/mounts.h"

static void test_split(void **state)
{
	struct mounts_entry e;

	(void)state;
	assert_int_equal(mounts__split("dev /d type a,b 0 0", 19, &e), 0);
	assert_int_equal(e.dev_len, 3);
	assert_memory_equal(e.dir, "/d", 2);
	assert_int_equal(e.type_len, 4);
	assert_int_equal(e.opts_len, 3);
	/* tabs separate too; the options may be missing */
	assert_int_equal(mounts__split("x\t/t\ttracefs", 12, &e), 0);
	assert_int_equal(e.opts_len, 0);
	assert_int_equal(mounts__split("x /t", 4, &e), -EINVAL);
	assert_int_equal(mounts__split("", 0, &e), -EINVAL);
	assert_int_equal(mounts__split("   \t ", 5, &e), -EINVAL);
	/* length-bounded: the bytes past len are not part of the line */
	assert_int_equal(mounts__split("a b cdef", 5, &e), 0);
	assert_int_equal(e.type_len, 1);
}

static void test_unescape(void **state)
{
	char buf[16];

	(void)state;
	assert_int_equal(mounts__unescape("/a\\040b", 7, "", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/a b");
	/* not an escape: cut short, out of range, not octal */
	assert_int_equal(mounts__unescape("/t\\01", 5, "", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/t\\01");
	assert_int_equal(mounts__unescape("\\400", 4, "", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "\\400");
	assert_int_equal(mounts__unescape("\\08a", 4, "", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "\\08a");
	assert_int_equal(mounts__unescape("/d", 2, "/tracing", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/d/tracing");
	assert_int_equal(mounts__unescape("/dddddddd", 9, "/tracing", buf, sizeof(buf)),
			 -ENAMETOOLONG);
	assert_int_equal(mounts__unescape("0123456789abcdef", 16, "", buf, sizeof(buf)),
			 -ENAMETOOLONG);
	assert_int_equal(mounts__unescape("", 0, "", buf, 0), -ENAMETOOLONG);
	assert_int_equal(mounts__unescape("", 0, "", buf, 1), 0);
	assert_string_equal(buf, "");
}

static void test_find(void **state)
{
	static const char text[] = "sysfs /sys sysfs rw 0 0\n"
				   "cgroup /c/cpu cgroup rw,cpu 0 0\n"
				   "cgroup2 /sys/fs/cgroup cgroup2 rw 0 0\n"
				   "cgroup /c/perf cgroup rw,perf_event,xattr 0 0\n"
				   "hugetlbfs /dev/huge\\040pages hugetlbfs rw 0 0";
	char buf[64];

	(void)state;
	assert_int_equal(mounts__find(text, "sysfs", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/sys");
	assert_int_equal(mounts__find(text, "cgroup", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/c/cpu");
	assert_int_equal(mounts__find(text, "hugetlbfs", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/dev/huge pages");
	assert_int_equal(mounts__find(text, "cgroup3", buf, sizeof(buf)), -ENOENT);
	assert_int_equal(mounts__find(text, "cgroup", buf, 4), -ENAMETOOLONG);
	/* by option: a whole item only */
	assert_int_equal(
		mounts__find_opt(text, "cgroup", "perf_event", "cgroup2", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/c/perf");
	assert_int_equal(mounts__find_opt(text, "cgroup", "perf", NULL, buf, sizeof(buf)), -ENOENT);
	assert_int_equal(mounts__find_opt(text, "cgroup", "perf", "cgroup2", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/sys/fs/cgroup");
	assert_int_equal(mounts__find_opt(text, "cgroup", "xattr", NULL, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/c/perf");
	assert_int_equal(mounts__find("", "x", buf, sizeof(buf)), -ENOENT);
	assert_int_equal(mounts__find(NULL, "x", buf, sizeof(buf)), -ENOENT);
}

/* Garbage lines are skipped, never read past their end. */
static void test_hostile(void **state)
{
	static const char *const texts[] = {
		"\n\n\n",
		"a\nb c\n d \n",
		"x /t\\", /* a backslash at the very end */
		"x /t\\0 tracefs",
		"x /t\\\\\\\\ tracefs2",
		",,,, ,,,, ,,,, ,,,,",
		"\t\t\t\t",
	};
	char *big;
	char buf[64];

	(void)state;
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		int ret = mounts__tracefs(texts[i], buf, sizeof(buf), NULL);

		if (ret != -ENOENT && !(i == 3 && ret == 0))
			fail_msg("text %zu: %d", i, ret);
	}
	assert_int_equal(mounts__tracefs("x /t\\0 tracefs", buf, sizeof(buf), NULL), 0);
	assert_string_equal(buf, "/t\\0");

	/* An overlong line: a mount point far past any buffer. */
	big = malloc(1 << 20);
	assert_non_null(big);
	memset(big, 'a', (1 << 20) - 1);
	big[0] = 'x';
	big[1] = ' ';
	big[2] = '/';
	memcpy(big + (1 << 20) - 10, " tracefs ", 9);
	big[(1 << 20) - 1] = '\0';
	assert_int_equal(mounts__tracefs(big, buf, sizeof(buf), NULL), -ENAMETOOLONG);
	free(big);
}

static void test_tracefs_rule(void **state)
{
	static const struct {
		const char *text;
		int ret;
		const char *want;
		bool debugfs;
	} cases[] = {
		{ "sysfs /sys sysfs rw 0 0\nnone /sys/kernel/tracing tracefs rw,relatime 0 0\n", 0,
		  "/sys/kernel/tracing", false },
		/* debugfs only: its tracing/ directory */
		{ "debugfs /sys/kernel/debug debugfs rw 0 0\n", 0, "/sys/kernel/debug/tracing",
		  true },
		/* tracefs wins over an earlier debugfs */
		{ "debugfs /sys/kernel/debug debugfs rw 0 0\ntracefs /t tracefs rw 0 0", 0, "/t",
		  false },
		/* the first tracefs mount */
		{ "a /one tracefs rw 0 0\nb /two tracefs rw 0 0\n", 0, "/one", false },
		{ "none /my\\040trace tracefs rw 0 0\n", 0, "/my trace", false },
		{ "proc /proc proc rw 0 0\n", -ENOENT, "", false },
		{ "", -ENOENT, "", false },
		{ "garbage\n\n  \ntracefs\n", -ENOENT, "", false },
		/* a type that only starts like one */
		{ "x /x tracefs2 rw 0 0\ny /y debugfsx rw 0 0\n", -ENOENT, "", false },
		{ "none /a/very/long/mount/point/for/the/tracefs tracefs rw 0 0\n", -ENAMETOOLONG,
		  NULL, false },
		{ "debugfs /a/very/long/debugfs/dir debugfs rw 0 0\n", -ENAMETOOLONG, NULL, true },
	};
	char buf[32];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		bool debugfs = !cases[i].debugfs;
		int ret = mounts__tracefs(cases[i].text, buf, sizeof(buf), &debugfs);

		if (ret != cases[i].ret)
			fail_msg("case %zu: %d, want %d", i, ret, cases[i].ret);
		if (cases[i].want && strcmp(buf, cases[i].want))
			fail_msg("case %zu: \"%s\", want \"%s\"", i, buf, cases[i].want);
		if (ret != -ENOENT && debugfs != cases[i].debugfs)
			fail_msg("case %zu: via_debugfs %d", i, debugfs);
	}
	assert_int_equal(mounts__tracefs(NULL, buf, sizeof(buf), NULL), -EINVAL);
	assert_int_equal(mounts__tracefs("", buf, 0, NULL), -EINVAL);
}

static void test_read(void **state)
{
	char path[] = "/tmp/prec-mounts-XXXXXX";
	char *text;
	int fd;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "a /b c d 0 0\n", 13), 13);
	close(fd);
	assert_int_equal(mounts__read(path, &text), 0);
	assert_string_equal(text, "a /b c d 0 0\n");
	free(text);
	unlink(path);
	assert_int_equal(mounts__read(path, &text), -ENOENT);
	assert_null(text);
}

static void test_live(void **state)
{
	char buf[4096], path[4200];
	int ret;

	(void)state;
	assert_int_equal(sysfs__find(buf, sizeof(buf)), 0);
	assert_true(buf[0] == '/');
	ret = tracefs__find(buf, sizeof(buf));
	if (ret == -ENOENT)
		skip();
	assert_int_equal(ret, 0);
	snprintf(path, sizeof(path), "%s/events", buf);
	if (access(path, F_OK) && errno != EACCES)
		fail_msg("%s: no events/", buf);
	assert_int_equal(tracefs__find(buf, 4), -ENAMETOOLONG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_split),	     cmocka_unit_test(test_unescape),
		cmocka_unit_test(test_find),	     cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_tracefs_rule), cmocka_unit_test(test_read),
		cmocka_unit_test(test_live),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
