// SPDX-License-Identifier: GPL-2.0-only
/*
 * sysinfo__sysctl: the one reader of /proc/sys values, over a scratch root:
 * signed numbers, blanks, garbage, missing files, overlong names; and the
 * live reader's default.
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

#include "prec/sysinfo.h"

static char root[] = "/tmp/prec-sysctl-XXXXXX";

static void put(const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/proc/sys/kernel/v", root);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_values(void **state)
{
	static const struct {
		const char *text;
		int ret;
		int64_t val;
	} cases[] = {
		{ "2\n", 0, 2 },
		{ "-1\n", 0, -1 },
		{ "  512 \n", 0, 512 },
		{ "100000\n", 0, 100000 },
		{ "9223372036854775807", 0, INT64_MAX },
		{ "-9223372036854775807", 0, -INT64_MAX },
		{ "9223372036854775808", -ERANGE, 0 },
		{ "99999999999999999999", -ERANGE, 0 },
		{ "", -EINVAL, 0 },
		{ "\n", -EINVAL, 0 },
		{ "-", -EINVAL, 0 },
		{ "- 5", -EINVAL, 0 },
		{ "--5", -EINVAL, 0 },
		{ "+5", -EINVAL, 0 },
		{ "0x10", -EINVAL, 0 },
		{ "1 2", -EINVAL, 0 },
		{ "abc", -EINVAL, 0 },
	};
	int rootfd = open(root, O_PATH | O_DIRECTORY);

	(void)state;
	assert_true(rootfd >= 0);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int64_t v = 12345;
		int ret;

		put(cases[i].text);
		ret = sysinfo__sysctl(rootfd, "kernel/v", &v);
		if (ret != cases[i].ret || (!ret && v != cases[i].val) || (ret && v != 12345))
			fail_msg("\"%s\": %d %lld", cases[i].text, ret, (long long)v);
	}
	assert_int_equal(sysinfo__sysctl(rootfd, "kernel/missing", &(int64_t){ 0 }), -ENOENT);
	assert_int_equal(sysinfo__sysctl(rootfd, "kernel", &(int64_t){ 0 }), -EISDIR);
	{
		char name[400];

		memset(name, 'a', sizeof(name) - 1);
		name[sizeof(name) - 1] = '\0';
		assert_int_equal(sysinfo__sysctl(rootfd, name, &(int64_t){ 0 }), -ENAMETOOLONG);
	}
	close(rootfd);
}

static void test_live(void **state)
{
	(void)state;
	assert_int_equal(sysinfo__sysctl_or("kernel/no_such_sysctl_here", -77), -77);
	if (access("/proc/sys/kernel/perf_event_max_sample_rate", R_OK))
		skip();
	assert_true(sysinfo__sysctl_or("kernel/perf_event_max_sample_rate", -1) >= 0);
}

static int setup(void **state)
{
	char path[256];

	(void)state;
	if (!mkdtemp(root))
		return -1;
	snprintf(path, sizeof(path), "%s/proc", root);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/proc/sys", root);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/proc/sys/kernel", root);
	return mkdir(path, 0755);
}

static int teardown(void **state)
{
	char cmd[300];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_live),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
