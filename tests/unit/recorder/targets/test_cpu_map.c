// SPDX-License-Identifier: GPL-2.0-only
/*
 * cpu_map__parse: the kernel's cpu list syntax ("0-3,8,10-11", as in
 * /sys/devices/system/cpu/online), sorted and deduplicated; hostile lists
 * rejected with the documented errno and nothing allocated.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "recorder/targets/cpu_map.h"

#define MAX_CPUS 16

struct accept_row {
	const char *list;
	int nr;
	int cpu[MAX_CPUS];
};

static const struct accept_row accept_rows[] = {
	{ "0", 1, { 0 } },
	{ "7", 1, { 7 } },
	{ "0-3", 4, { 0, 1, 2, 3 } },
	{ "0-0", 1, { 0 } },
	{ "2-2", 1, { 2 } },
	{ "0-3,8,10-11", 7, { 0, 1, 2, 3, 8, 10, 11 } },
	{ "1,0", 2, { 0, 1 } },
	{ "3,1,2,1,3", 3, { 1, 2, 3 } },
	{ "0-3,2-5", 6, { 0, 1, 2, 3, 4, 5 } },
	{ "8-9,0-1", 4, { 0, 1, 8, 9 } },
	{ "0-1\n", 2, { 0, 1 } },
	{ "5\n", 1, { 5 } },
	{ "0,2,4,6\n", 4, { 0, 2, 4, 6 } },
	{ "007", 1, { 7 } },
	{ "65535", 1, { 65535 } },
	{ "65534-65535", 2, { 65534, 65535 } },
	{ "1,65535,0", 3, { 0, 1, 65535 } },
	/* perf's -C reads one trailing comma as the end of the list */
	{ "1,", 1, { 1 } },
	{ "0-1,\n", 2, { 0, 1 } },
};

struct reject_row {
	const char *list;
	int ret;
};

static const struct reject_row reject_rows[] = {
	{ "", -EINVAL },
	{ "\n", -EINVAL },
	{ "1-", -EINVAL },
	{ "-1", -EINVAL },
	{ "3-1", -EINVAL },
	{ "a", -EINVAL },
	{ "0x1", -EINVAL },
	{ "1,,2", -EINVAL },
	{ ",1", -EINVAL },
	{ ",", -EINVAL },
	{ "1,,", -EINVAL },
	{ "1-2-3", -EINVAL },
	{ "1--2", -EINVAL },
	{ " 1", -EINVAL },
	{ "1 ", -EINVAL },
	{ "1, 2", -EINVAL },
	{ "1;2", -EINVAL },
	{ "+1", -EINVAL },
	{ "1.5", -EINVAL },
	{ "0-3,a", -EINVAL },
	{ "65536", -ERANGE },
	{ "0-65536", -ERANGE },
	{ "1,70000", -ERANGE },
	{ "99999999999", -ERANGE },
	{ "99999999999999999999999999", -ERANGE },
};

static bool accept_row__check(size_t i, const struct accept_row *r)
{
	struct cpu_map *map = NULL;
	bool ok = true;
	int ret = cpu_map__parse(&map, r->list);

	if (ret || !map) {
		print_error("row %zu '%s': ret %d map %p\n", i, r->list, ret, (void *)map);
		return false;
	}
	if (map->nr != r->nr) {
		print_error("row %zu '%s': nr %d, want %d\n", i, r->list, map->nr, r->nr);
		ok = false;
	} else {
		for (int c = 0; c < r->nr; c++) {
			if (map->cpu[c] != r->cpu[c]) {
				print_error("row %zu '%s': cpu[%d] = %d, want %d\n", i, r->list, c,
					    map->cpu[c], r->cpu[c]);
				ok = false;
			}
		}
	}
	cpu_map__delete(map);
	return ok;
}

static void test_accepted_table(void **state)
{
	int failed = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(accept_rows) / sizeof(accept_rows[0]); i++)
		failed += !accept_row__check(i, &accept_rows[i]);
	assert_int_equal(failed, 0);
}

static void test_rejected_table(void **state)
{
	int failed = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(reject_rows) / sizeof(reject_rows[0]); i++) {
		const struct reject_row *r = &reject_rows[i];
		struct cpu_map *sentinel = (struct cpu_map *)&failed;
		struct cpu_map *map = sentinel;
		int ret;

		ret = cpu_map__parse(&map, r->list);
		if (ret != r->ret || map != sentinel) {
			print_error("row %zu '%s': ret %d (want %d), *out %s\n", i, r->list, ret,
				    r->ret, map == sentinel ? "untouched" : "written");
			failed++;
			if (!ret && map != sentinel)
				cpu_map__delete(map);
		}
	}
	assert_int_equal(failed, 0);
}

/* The list ends at the first newline, as a sysfs read gives it. */
static void test_stops_at_newline(void **state)
{
	struct cpu_map *map = NULL;

	(void)state;
	assert_int_equal(cpu_map__parse(&map, "1\n2"), 0);
	assert_int_equal(map->nr, 1);
	assert_int_equal(map->cpu[0], 1);
	cpu_map__delete(map);
}

/* The widest map: every possible CPU once. */
static void test_full_range(void **state)
{
	struct cpu_map *map = NULL;

	(void)state;
	assert_int_equal(cpu_map__parse(&map, "0-65535"), 0);
	assert_int_equal(map->nr, 65536);
	for (int c = 0; c < 65536; c++)
		assert_int_equal(map->cpu[c], c);
	cpu_map__delete(map);

	assert_int_equal(cpu_map__parse(&map, "65535,0-65535,0"), 0);
	assert_int_equal(map->nr, 65536);
	cpu_map__delete(map);
}

/* The machine's own online list: non-empty, ascending, no duplicates. */
static void test_online(void **state)
{
	struct cpu_map *map = NULL;
	int ret;

	(void)state;
	ret = cpu_map__online(&map);
	if (ret == -ENOENT)
		skip(); /* no sysfs in this sandbox */
	assert_int_equal(ret, 0);
	assert_true(map->nr >= 1);
	for (int c = 1; c < map->nr; c++)
		assert_true(map->cpu[c] > map->cpu[c - 1]);
	cpu_map__delete(map);
}

/* cpu_map__merge: the union, ascending, the -1 of "any CPU" left out;
 * NULL or empty sides (--per-thread has no CPU ring). */
static void test_merge(void **state)
{
	static const struct {
		const char *a, *b; /* NULL: no map; "any": the single -1 */
		int nr;
		int cpu[8];
	} t[] = {
		{ "0-3", "0-3", 4, { 0, 1, 2, 3 } },
		{ "1", "0-3", 4, { 0, 1, 2, 3 } },
		{ "0,2,4", "1,3", 5, { 0, 1, 2, 3, 4 } },
		{ "5-6", "0", 3, { 0, 5, 6 } },
		{ NULL, "0-1", 2, { 0, 1 } },
		{ "2", NULL, 1, { 2 } },
		{ NULL, NULL, 0, { 0 } },
		{ "any", "0-1", 2, { 0, 1 } },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct cpu_map *a = NULL, *b = NULL, *m = NULL;

		if (t[i].a && !strcmp(t[i].a, "any")) {
			a = malloc(sizeof(*a) + sizeof(int));
			assert_non_null(a);
			a->nr = 1;
			a->cpu[0] = -1;
		} else if (t[i].a) {
			assert_int_equal(cpu_map__parse(&a, t[i].a), 0);
		}
		if (t[i].b)
			assert_int_equal(cpu_map__parse(&b, t[i].b), 0);
		assert_int_equal(cpu_map__merge(&m, a, b), 0);
		assert_int_equal(m->nr, t[i].nr);
		for (int c = 0; c < m->nr; c++)
			assert_int_equal(m->cpu[c], t[i].cpu[c]);
		cpu_map__delete(a);
		cpu_map__delete(b);
		cpu_map__delete(m);
	}
}

/* A map from a list, "any" for the single -1 of --per-thread, NULL for NULL. */
static struct cpu_map *map_of(const char *list)
{
	struct cpu_map *m = NULL;

	if (list && !strcmp(list, "any")) {
		m = malloc(sizeof(*m) + sizeof(int));
		assert_non_null(m);
		m->nr = 1;
		m->cpu[0] = -1;
	} else if (list) {
		assert_int_equal(cpu_map__parse(&m, list), 0);
	}
	return m;
}

/* cpu_map__for_term: an event's cpu= list against the online CPUs and -C's. */
static void test_for_term(void **state)
{
	static const struct {
		const char *list, *online, *recorded;
		int ret, bad, nr;
		int cpu[4];
	} t[] = {
		{ "0", "0-1", "0-1", 0, -1, 1, { 0 } },
		{ "2,0", "0-3", NULL, 0, -1, 2, { 0, 2 } }, /* merged, sorted */
		{ "0,0", "0-3", "any", 0, -1, 1, { 0 } },
		{ "1,3", "0-3", "1-2", 0, -1, 1, { 1 } }, /* -C intersects */
		{ "0", "0-3", "1-2", -ENOENT, -1, 0, { 0 } },
		{ "5", "0-1", "0-1", -ENODEV, 5, 0, { 0 } },
		{ "0,2", "0-1,3", "0-3", -ENODEV, 2, 0, { 0 } }, /* a hole: 2 is offline */
		{ "0,,1", "0-1", NULL, -EINVAL, -1, 0, { 0 } },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct cpu_map *online = map_of(t[i].online), *rec = map_of(t[i].recorded);
		struct cpu_map *m = NULL;
		int bad = -1;

		assert_int_equal(cpu_map__for_term(&m, t[i].list, online, rec, &bad), t[i].ret);
		assert_int_equal(bad, t[i].bad);
		if (!t[i].ret) {
			assert_int_equal(m->nr, t[i].nr);
			for (int c = 0; c < m->nr; c++)
				assert_int_equal(m->cpu[c], t[i].cpu[c]);
		}
		cpu_map__delete(m);
		cpu_map__delete(online);
		cpu_map__delete(rec);
	}
}

static void test_delete_null(void **state)
{
	(void)state;
	cpu_map__delete(NULL);
}

int main(void)
{
	/* clang-format off */
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_accepted_table),
		cmocka_unit_test(test_rejected_table),
		cmocka_unit_test(test_stops_at_newline),
		cmocka_unit_test(test_full_range),
		cmocka_unit_test(test_online),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_for_term),
		cmocka_unit_test(test_delete_null),
	};
	/* clang-format on */

	return cmocka_run_group_tests(tests, NULL, NULL);
}
