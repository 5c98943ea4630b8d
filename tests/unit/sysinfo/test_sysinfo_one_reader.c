// SPDX-License-Identifier: GPL-2.0-only
/*
 * The sysinfo readers other layers call instead of reading the file or
 * syscall themselves: the online CPU list (a fixture root and the live
 * one), -k's clock, whether a PMU exists, whether any BPF program is loaded.
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
#include <time.h>
#include <unistd.h>

#include "prec/bpf.h"
#include "prec/clock.h"
#include "prec/mono_clock.h"
#include "prec/pmu.h"
#include "prec/sysinfo.h"
#include "sysinfo/sysinfo_int.h"
#include "sysinfo/fsread.h"
#include "tests/unit/fixture_path.h"

/* The fixture tree sysinfo/name (+ suffix). */
static void fixture(char *buf, size_t len, const char *name, const char *suffix)
{
	fixture_path(buf, len, "sysinfo/%s%s", name, suffix);
}

static void test_online_fixture(void **state)
{
	char root[PATH_MAX];
	struct cpulist cl;
	int rootfd;

	(void)state;
	fixture(root, sizeof(root), "offline-cpu", "");
	rootfd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	assert_true(rootfd >= 0);
	/* Its online list is "0" beside a present cpu1. */
	assert_int_equal(cpu__online(rootfd, &cl), 0);
	assert_int_equal(cpulist__count(&cl), 1);
	assert_int_equal(cpulist__max(&cl), 0);
	cpulist__exit(&cl);
	close(rootfd);
	/* A root without the file: the read error, nothing parsed. */
	rootfd = open("/tmp", O_PATH | O_DIRECTORY | O_CLOEXEC);
	assert_true(rootfd >= 0);
	assert_int_equal(cpu__online(rootfd, &cl), -ENOENT);
	close(rootfd);
}

static void test_online_live(void **state)
{
	struct cpulist cl;
	char *text = NULL;

	(void)state;
	assert_int_equal(sysinfo__cpus_online(&text), 0);
	assert_non_null(text);
	assert_null(strchr(text, '\n')); /* the first line, without its newline */
	assert_int_equal(cpulist__parse(text, strlen(text), &cl), 0);
	assert_int_equal(cpulist__count(&cl), (uint32_t)sysconf(_SC_NPROCESSORS_ONLN));
	cpulist__exit(&cl);
	free(text);
}

static void test_clock_now(void **state)
{
	uint64_t a, b, c = 0;

	(void)state;
	a = mono_clock__ns(false);
	assert_int_equal(clock__now_ns(CLOCK_MONOTONIC, &b), 0);
	c = mono_clock__ns(false);
	assert_true(a <= b && b <= c);
	c = 5;
	assert_int_equal(clock__now_ns(-12345, &c), -EINVAL);
	assert_int_equal(c, 5); /* untouched on failure */
}

static void test_pmu_exists(void **state)
{
	char sysfs[PATH_MAX];

	(void)state;
	fixture(sysfs, sizeof(sysfs), "offline-cpu", "/sys");
	assert_true(pmu__exists(sysfs, "software"));
	assert_true(pmu__exists(sysfs, "tracepoint"));
	assert_false(pmu__exists(sysfs, "cpu"));
	assert_false(pmu__exists(sysfs, "cpu_core"));
	assert_false(pmu__exists("/nonexistent", "software"));
}

static void test_bpf_none_loaded(void **state)
{
	(void)state;
	/* Which answer depends on the machine and privilege; the call is
	 * answered, twice the same when nothing loads in between. */
	assert_int_equal(sysinfo__bpf_none_loaded(), sysinfo__bpf_none_loaded());
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_online_fixture),
		cmocka_unit_test(test_online_live),
		cmocka_unit_test(test_clock_now),
		cmocka_unit_test(test_pmu_exists),
		cmocka_unit_test(test_bpf_none_loaded),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
