// SPDX-License-Identifier: GPL-2.0-only
/*
 * Tracepoint lookup for -e sys:name: tracefs found through /proc/mounts
 * text (escapes, debugfs), ids from the fixture tracefs
 * (tests/fixtures/pmu/tracing) and the live one, and globs walked as perf
 * 6.1 walks them (directory order; entries without an id skipped).
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

#include "recorder/events/tracepoint.h"
#include "tests/unit/fixture_path.h"

static char tracefs[4096];

static int setup(void **state)
{
	(void)state;
	fixture_path(tracefs, sizeof(tracefs), "pmu/tracing");
	return 0;
}

static void test_mounts(void **state)
{
	static const char mounts[] = "sysfs /sys sysfs rw,nosuid,nodev,noexec,relatime 0 0\n"
				     "proc /proc proc rw,nosuid,nodev,noexec,relatime 0 0\n"
				     "debugfs /sys/kernel/debug debugfs rw,relatime 0 0\n"
				     "none /mnt/trace\\040dir tracefs rw,relatime 0 0\n"
				     "none /sys/kernel/tracing tracefs rw,relatime 0 0\n";
	char buf[256], tiny[8];

	(void)state;
	assert_int_equal(mounts__find(mounts, "tracefs", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/mnt/trace dir"); /* the first one, \040 decoded */
	assert_int_equal(mounts__find(mounts, "debugfs", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/sys/kernel/debug");
	assert_int_equal(mounts__find(mounts, "sysfs", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/sys");
	assert_int_equal(mounts__find(mounts, "cgroup2", buf, sizeof(buf)), -ENOENT);
	assert_int_equal(mounts__find(mounts, "trace", buf, sizeof(buf)), -ENOENT);
	assert_int_equal(mounts__find(mounts, "tracefs", tiny, sizeof(tiny)), -ENAMETOOLONG);
	assert_int_equal(mounts__find("", "tracefs", buf, sizeof(buf)), -ENOENT);
	/* no trailing newline, tabs, a short line, a dangling escape */
	assert_int_equal(mounts__find("short\nx\t/t\\01\ttracefs", "tracefs", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/t\\01");
	assert_int_equal(mounts__find("x /a\\101b tracefs", "tracefs", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/aAb");
}

static void test_live_roots(void **state)
{
	char buf[4096];
	struct stat st;

	(void)state;
	assert_int_equal(sysfs__find(buf, sizeof(buf)), 0);
	assert_int_equal(stat(buf, &st), 0);
	if (tracefs__find(buf, sizeof(buf)) == 0) {
		char events[4200];

		snprintf(events, sizeof(events), "%s/events", buf);
		assert_int_equal(stat(events, &st), 0);
	}
}

static void test_id(void **state)
{
	uint64_t id = 0;

	(void)state;
	assert_int_equal(tracepoint__id(tracefs, "sched", "sched_switch", &id), 0);
	assert_int_equal(id, 316);
	assert_int_equal(tracepoint__id(tracefs, "irq", "softirq_entry", &id), 0);
	assert_int_equal(id, 124);
	assert_int_equal(tracepoint__id(tracefs, "sched", "nosuch", &id), -ENOENT);
	assert_int_equal(tracepoint__id(tracefs, "nosuch", "sched_switch", &id), -ENOENT);
	assert_int_equal(tracepoint__id(tracefs, "broken", "no_id", &id), -ENOENT);
	assert_int_equal(tracepoint__id(tracefs, "broken", "bad_id", &id), -EINVAL);
	assert_int_equal(tracepoint__id(tracefs, "broken", "huge_id", &id), -EINVAL);
	/* names that would leave the system's directory */
	assert_int_equal(tracepoint__id(tracefs, "sched", "..", &id), -ENOENT);
	assert_int_equal(tracepoint__id(tracefs, "..", "pmu", &id), -ENOENT);
	assert_int_equal(tracepoint__id(tracefs, "sched/sched_switch", "id", &id), -ENOENT);
	assert_int_equal(tracepoint__id(tracefs, "", "x", &id), -ENOENT);
	/* a file where a system should be */
	assert_int_equal(tracepoint__id(tracefs, "enable", "x", &id), -ENOENT);
	assert_int_equal(tracepoint__id("/nonexistent", "sched", "sched_switch", &id), -ENOENT);
	assert_false(tracepoint__is_glob("sched_switch"));
	assert_false(tracepoint__is_glob("sched_[sw]witch")); /* perf: only * and ? */
	assert_true(tracepoint__is_glob("sched_*"));
	assert_true(tracepoint__is_glob("sched_switc?"));
}

struct seen {
	char names[32][64];
	uint64_t ids[32];
	int nr;
	int stop_at;
};

static int collect(void *arg, const char *sys, const char *name, uint64_t id)
{
	struct seen *s = arg;

	if (s->nr == s->stop_at)
		return -42;
	snprintf(s->names[s->nr], sizeof(s->names[0]), "%s:%s", sys, name);
	s->ids[s->nr++] = id;
	return 0;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(a, b);
}

/* Walks and returns the matches sorted (directory order is the file system's). */
static int walk(struct seen *s, const char *sys, const char *name, bool sorted)
{
	int ret;

	memset(s, 0, sizeof(*s));
	s->stop_at = -1;
	ret = tracepoints__for_each(tracefs, sys, name, sorted, collect, s);
	if (!sorted && s->nr > 1)
		qsort(s->names, s->nr, sizeof(s->names[0]), name_cmp);
	return ret;
}

static void test_globs(void **state)
{
	struct seen s;

	(void)state;
	assert_int_equal(walk(&s, "sched", "*", false), 5);
	assert_string_equal(s.names[0], "sched:sched_process_exec");
	assert_string_equal(s.names[4], "sched:sched_waking");
	assert_int_equal(walk(&s, "sched", "sched_wak*", false), 2);
	assert_string_equal(s.names[0], "sched:sched_wakeup");
	assert_string_equal(s.names[1], "sched:sched_waking");
	assert_int_equal(walk(&s, "sched", "sched_wak?ng", false), 1);
	assert_int_equal(walk(&s, "sched", "sched_[sw]*", false), 3);
	assert_int_equal(walk(&s, "s*", "*_openat", false), 2);
	assert_string_equal(s.names[0], "syscalls:sys_enter_openat");
	/* a system glob with a plain name: only the systems that have it */
	assert_int_equal(walk(&s, "*", "sched_switch", false), 1);
	assert_int_equal(s.ids[0], 316);
	/* broken entries (no id, a bad id) are skipped; files are not systems */
	assert_int_equal(walk(&s, "broken", "*", false), 0);
	assert_int_equal(walk(&s, "*", "*", false), 9);
	assert_int_equal(walk(&s, "nosuch*", "*", false), 0);
	assert_int_equal(walk(&s, "sched", "nosuch*", false), 0);
	assert_int_equal(walk(&s, "enable", "*", false), 0);
	/* sorted: by system, then name */
	assert_int_equal(walk(&s, "*", "*", true), 9);
	for (int i = 1; i < s.nr; i++)
		assert_true(strcmp(s.names[i - 1], s.names[i]) < 0);
	/* the callback's non-zero return stops the walk */
	memset(&s, 0, sizeof(s));
	s.stop_at = 2;
	assert_int_equal(tracepoints__for_each(tracefs, "*", "*", true, collect, &s), -42);
	assert_int_equal(s.nr, 2);
	/* no events directory */
	memset(&s, 0, sizeof(s));
	s.stop_at = -1;
	assert_int_equal(tracepoints__for_each("/nonexistent", "*", "*", false, collect, &s),
			 -ENOENT);
}

static void test_live(void **state)
{
	char root[4096], path[4200];
	struct seen s;
	uint64_t id;
	FILE *f;
	char text[32];

	(void)state;
	if (tracefs__find(root, sizeof(root)))
		skip();
	snprintf(path, sizeof(path), "%s/events/sched/sched_switch/id", root);
	f = fopen(path, "r");
	if (!f)
		skip();
	assert_non_null(fgets(text, sizeof(text), f));
	fclose(f);
	assert_int_equal(tracepoint__id(root, "sched", "sched_switch", &id), 0);
	assert_int_equal(id, strtoull(text, NULL, 10));
	memset(&s, 0, sizeof(s));
	s.stop_at = -1;
	assert_true(tracepoints__for_each(root, "sched", "sched_sw*", false, collect, &s) >= 1);
}

int main(void)
{
	/* clang-format off */
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mounts),
		cmocka_unit_test(test_live_roots),
		cmocka_unit_test(test_id),
		cmocka_unit_test(test_globs),
		cmocka_unit_test(test_live),
	};
	/* clang-format on */

	return cmocka_run_group_tests(tests, setup, NULL);
}
