// SPDX-License-Identifier: GPL-2.0-only
/*
 * parse_events: the -e grammar. Accepted strings are compared against a
 * whole expected perf_event_attr (so a stray bit fails too); rejected ones
 * must leave the specs exactly as they were (all or nothing). The modifier
 * rules and the names are perf 6.1's (checked against `perf record -e X` and
 * `perf evlist -v` on the same strings).
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

#include "recorder/events/parse_events.h"

#define HW PERF_TYPE_HARDWARE
#define SW PERF_TYPE_SOFTWARE

/* One accepted single-event string and the attr bits it must produce. */
struct accept_row {
	const char *str;
	uint32_t type;
	uint64_t config;
	unsigned eu, ek, eh, eH, eG, eI;
	unsigned precise;
	bool precise_max;
	unsigned pinned, exclusive;
};

/* clang-format off */
static const struct accept_row accept_rows[] = {
	/* str                         type cfg  eu ek eh eH eG eI  p  P      D  e */
	{ "cpu-clock",                 SW,  0,   0, 0, 0, 0, 1, 0,  0, false, 0, 0 },
	{ "cpu-clock:u",               SW,  0,   0, 1, 1, 0, 1, 0,  0, false, 0, 0 },
	{ "cpu-clock:k",               SW,  0,   1, 0, 1, 0, 0, 0,  0, false, 0, 0 },
	{ "cpu-clock:h",               SW,  0,   1, 1, 0, 0, 0, 0,  0, false, 0, 0 },
	{ "cpu-clock:uk",              SW,  0,   0, 0, 1, 0, 1, 0,  0, false, 0, 0 },
	{ "cpu-clock:ku",              SW,  0,   0, 0, 1, 0, 1, 0,  0, false, 0, 0 },
	{ "cpu-clock:kh",              SW,  0,   1, 0, 0, 0, 0, 0,  0, false, 0, 0 },
	{ "cpu-clock:ukh",             SW,  0,   0, 0, 0, 0, 1, 0,  0, false, 0, 0 },
	{ "cpu-clock:H",               SW,  0,   0, 0, 0, 0, 1, 0,  0, false, 0, 0 },
	{ "cpu-clock:G",               SW,  0,   0, 0, 0, 1, 0, 0,  0, false, 0, 0 },
	{ "cpu-clock:GH",              SW,  0,   0, 0, 0, 0, 0, 0,  0, false, 0, 0 },
	{ "cpu-clock:HG",              SW,  0,   0, 0, 0, 0, 0, 0,  0, false, 0, 0 },
	{ "cpu-clock:uG",              SW,  0,   0, 1, 1, 1, 0, 0,  0, false, 0, 0 },
	{ "cpu-clock:Gu",              SW,  0,   0, 1, 1, 1, 0, 0,  0, false, 0, 0 },
	{ "cpu-clock:kG",              SW,  0,   1, 0, 1, 1, 0, 0,  0, false, 0, 0 },
	{ "cpu-clock:Hp",              SW,  0,   0, 0, 0, 0, 1, 0,  1, false, 0, 0 },
	{ "cpu-clock:Gp",              SW,  0,   0, 0, 0, 1, 0, 0,  1, false, 0, 0 },
	{ "cpu-clock:pG",              SW,  0,   0, 0, 0, 1, 0, 0,  1, false, 0, 0 },
	{ "cpu-clock:I",               SW,  0,   0, 0, 0, 0, 0, 1,  0, false, 0, 0 },
	{ "cpu-clock:D",               SW,  0,   0, 0, 0, 0, 0, 0,  0, false, 1, 0 },
	{ "cpu-clock:e",               SW,  0,   0, 0, 0, 0, 0, 0,  0, false, 0, 1 },
	{ "cpu-clock:De",              SW,  0,   0, 0, 0, 0, 0, 0,  0, false, 1, 1 },
	{ "cpu-clock:S",               SW,  0,   0, 0, 0, 0, 0, 0,  0, false, 0, 0 },
	{ "cpu-clock:W",               SW,  0,   0, 0, 0, 0, 0, 0,  0, false, 0, 0 },
	{ "cpu-clock:b",               SW,  0,   0, 0, 0, 0, 0, 0,  0, false, 0, 0 },
	{ "cpu-clock:uS",              SW,  0,   0, 1, 1, 0, 1, 0,  0, false, 0, 0 },
	{ "cgroup-switches",           SW, 11,   0, 0, 0, 0, 1, 0,  0, false, 0, 0 },
	{ "duration_time",             SW,  9,   0, 0, 0, 0, 1, 0,  0, false, 0, 0 },
	{ "user_time:u",               SW,  9,   0, 1, 1, 0, 1, 0,  0, false, 0, 0 },
	{ "cpu-clock:upp",             SW,  0,   0, 1, 1, 0, 1, 0,  2, false, 0, 0 },
	{ "cpu-clock:ppp",             SW,  0,   0, 0, 0, 0, 1, 0,  3, false, 0, 0 },
	{ "cpu-clock:pP",              SW,  0,   0, 0, 0, 0, 1, 0,  1, true,  0, 0 },
	{ "cpu-clock:ukhGHpppPDIe",    SW,  0,   0, 0, 0, 0, 0, 1,  3, true,  1, 1 },
	{ "cycles",                    HW,  0,   0, 0, 0, 0, 1, 0,  0, false, 0, 0 },
	{ "cycles:p",                  HW,  0,   0, 0, 0, 0, 1, 0,  1, false, 0, 0 },
	{ "cycles:pp",                 HW,  0,   0, 0, 0, 0, 1, 0,  2, false, 0, 0 },
	{ "cycles:ppp",                HW,  0,   0, 0, 0, 0, 1, 0,  3, false, 0, 0 },
	{ "cycles:P",                  HW,  0,   0, 0, 0, 0, 0, 0,  0, true,  0, 0 },
	{ "cycles:uP",                 HW,  0,   0, 1, 1, 0, 1, 0,  0, true,  0, 0 },
	{ "cycles:kpp",                HW,  0,   1, 0, 1, 0, 1, 0,  2, false, 0, 0 },
	{ "cpu-cycles",                HW,  0,   0, 0, 0, 0, 1, 0,  0, false, 0, 0 },
	{ "instructions",              HW,  1,   0, 0, 0, 0, 1, 0,  0, false, 0, 0 },
	{ "instructions:u",            HW,  1,   0, 1, 1, 0, 1, 0,  0, false, 0, 0 },
	{ "cache-references",          HW,  2,   0, 0, 0, 0, 1, 0,  0, false, 0, 0 },
	{ "cache-misses",              HW,  3,   0, 0, 0, 0, 1, 0,  0, false, 0, 0 },
	{ "branch-instructions",       HW,  4,   0, 0, 0, 0, 1, 0,  0, false, 0, 0 },
	{ "branches",                  HW,  4,   0, 0, 0, 0, 1, 0,  0, false, 0, 0 },
	{ "branch-misses",             HW,  5,   0, 0, 0, 0, 1, 0,  0, false, 0, 0 },
	{ "bus-cycles",                HW,  6,   0, 0, 0, 0, 1, 0,  0, false, 0, 0 },
	{ "stalled-cycles-frontend",   HW,  7,   0, 0, 0, 0, 1, 0,  0, false, 0, 0 },
	{ "idle-cycles-frontend",      HW,  7,   0, 0, 0, 0, 1, 0,  0, false, 0, 0 },
	{ "stalled-cycles-backend",    HW,  8,   0, 0, 0, 0, 1, 0,  0, false, 0, 0 },
	{ "idle-cycles-backend",       HW,  8,   0, 0, 0, 0, 1, 0,  0, false, 0, 0 },
	{ "ref-cycles",                HW,  9,   0, 0, 0, 0, 1, 0,  0, false, 0, 0 },
	{ "task-clock",                SW,  1,   0, 0, 0, 0, 1, 0,  0, false, 0, 0 },
	{ "task-clock:k",              SW,  1,   1, 0, 1, 0, 0, 0,  0, false, 0, 0 },
	{ "page-faults",               SW,  2,   0, 0, 0, 0, 1, 0,  0, false, 0, 0 },
	{ "faults",                    SW,  2,   0, 0, 0, 0, 1, 0,  0, false, 0, 0 },
	{ "context-switches",          SW,  3,   0, 0, 0, 0, 1, 0,  0, false, 0, 0 },
	{ "cs",                        SW,  3,   0, 0, 0, 0, 1, 0,  0, false, 0, 0 },
	{ "cpu-migrations",            SW,  4,   0, 0, 0, 0, 1, 0,  0, false, 0, 0 },
	{ "migrations",                SW,  4,   0, 0, 0, 0, 1, 0,  0, false, 0, 0 },
	{ "minor-faults",              SW,  5,   0, 0, 0, 0, 1, 0,  0, false, 0, 0 },
	{ "major-faults",              SW,  6,   0, 0, 0, 0, 1, 0,  0, false, 0, 0 },
	{ "alignment-faults",          SW,  7,   0, 0, 0, 0, 1, 0,  0, false, 0, 0 },
	{ "emulation-faults",          SW,  8,   0, 0, 0, 0, 1, 0,  0, false, 0, 0 },
	{ "dummy",                     SW,  9,   0, 0, 0, 0, 1, 0,  0, false, 0, 0 },
	{ "dummy:u",                   SW,  9,   0, 1, 1, 0, 1, 0,  0, false, 0, 0 },
};
/* clang-format on */

static void expected_attr(const struct accept_row *r, struct perf_event_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->type = r->type;
	a->size = sizeof(*a);
	a->config = r->config;
	a->exclude_user = r->eu;
	a->exclude_kernel = r->ek;
	a->exclude_hv = r->eh;
	a->exclude_host = r->eH;
	a->exclude_guest = r->eG;
	a->exclude_idle = r->eI;
	a->precise_ip = r->precise;
	a->pinned = r->pinned;
	a->exclusive = r->exclusive;
}

/* Checks one row; prints what differs and returns false on a mismatch. */
static bool accept_row__check(size_t i, const struct accept_row *r)
{
	struct event_specs specs = { 0 };
	struct perf_event_attr want;
	struct prec_err e __attribute__((cleanup(prec_err__clear))) = PREC_ERR_INIT;
	int ret = parse_events(&specs, r->str, &e);
	bool ok = false;

	if (ret != 0 || specs.nr != 1) {
		print_error("row %zu '%s': ret %d nr %d err '%s' (expected 0, 1 event)\n", i,
			    r->str, ret, specs.nr, prec_err__msg(&e));
		goto out;
	}
	const struct perf_event_attr *a = &specs.v[0].attr;

	expected_attr(r, &want);
	if (strcmp(specs.v[0].name, r->str) || specs.v[0].precise_max != r->precise_max ||
	    specs.v[0].name_from_attr || memcmp(a, &want, sizeof(want))) {
		print_error("row %zu '%s': name '%s' type %u config %llu u%u k%u h%u H%u G%u I%u "
			    "p%u P%d D%u e%u (expected u%u k%u h%u H%u G%u I%u p%u P%d D%u e%u)\n",
			    i, r->str, specs.v[0].name, a->type, (unsigned long long)a->config,
			    a->exclude_user, a->exclude_kernel, a->exclude_hv, a->exclude_host,
			    a->exclude_guest, a->exclude_idle, a->precise_ip,
			    specs.v[0].precise_max, a->pinned, a->exclusive, r->eu, r->ek, r->eh,
			    r->eH, r->eG, r->eI, r->precise, r->precise_max, r->pinned,
			    r->exclusive);
		goto out;
	}
	ok = true;
out:
	event_specs__exit(&specs);
	if (specs.v || specs.nr)
		ok = false;
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

/* One rejected -e argument and a piece of what err must say (NULL: anything). */
struct reject_row {
	const char *str;
	const char *err_has;
};

static const struct reject_row reject_rows[] = {
	{ "", "empty" },
	{ "nosuch", "nosuch" },
	{ "cycle", "cycle" },
	{ "cpu-clockx", "cpu-clockx" },
	{ "CPU-CLOCK", "CPU-CLOCK" },
	{ "cpu-clock ", NULL },
	{ " cpu-clock", NULL },
	{ "cpu-clock:", "cpu-clock:" },
	{ "cpu-clock:z", "'z'" },
	{ "cpu-clock:B", "'B'" },
	{ "cpu-clock:U", "'U'" },
	{ "cpu-clock: u", "' '" },
	{ "cpu-clock:u:k", "':'" },
	{ "cpu-clock:pppp", "ppp" },
	{ "cpu-clock:ppppp", "ppp" },
	{ "cpu-clock:upppp", "ppp" },
	{ "cpu-clock:Z", "'Z'" },
	{ "cpu-clock:uSx", "'x'" },
	{ ",", "empty" },
	{ ",,", "empty" },
	{ "cpu-clock,", "empty" },
	{ ",cpu-clock", "empty" },
	{ "cpu-clock,,task-clock", "empty" },
	{ "task-clock,nosuch", "nosuch" },
	{ "task-clock,cpu-clock:z", "'z'" },
	{ "task-clock,faults,", "empty" },
	{ "{cpu-clock", "unbalanced '{'" },
	{ "{cpu-clock,task-clock", "unbalanced '{'" },
	{ "cpu-clock,{task-clock", "unbalanced '{'" },
	{ "cpu-clock}", "unbalanced '}'" },
	{ "nosuchpmu/event=1/", "unknown PMU 'nosuchpmu'" },
	{ "cpu-clock/u", "missing closing '/'" },
	{ "task-clock,nosuchpmu/cycles/", "nosuchpmu" },
	{ "cpu-clock:u/", "'/'" },
	{ "software/foo=1/", "unknown term 'foo' for PMU 'software'" },
	{ ":u", NULL },
	{ ":", NULL },
	{ "-", NULL },
};

/*
 * perf's check_modifier(): a modifier other than 'p' may appear only once
 * ("Bad modifier" from perf 6.1 for every row here).
 */
static const struct reject_row repeat_rows[] = {
	{ "cpu-clock:uu", NULL },
	{ "cpu-clock:kk", NULL },
	{ "cpu-clock:hh", NULL },
	{ "cpu-clock:upu", NULL },
	{ "cpu-clock:GG", NULL },
	{ "cpu-clock:HpH", NULL },
	{ "cpu-clock:DD", NULL },
	{ "cpu-clock:ee", NULL },
	{ "cpu-clock:II", NULL },
	{ "cycles:PP", NULL },
	{ "cpu-clock:SS", NULL },
	{ "cpu-clock:WuW", NULL },
	{ "cpu-clock:bb", NULL },
	{ "task-clock,cpu-clock:uu", NULL },
};

static bool reject_row__check(size_t i, const struct reject_row *r)
{
	struct event_specs specs = { 0 };
	struct perf_event_attr before;
	struct prec_err e __attribute__((cleanup(prec_err__clear))) = PREC_ERR_INIT;
	bool ok = false;
	int ret;

	/* A spec from an earlier -e that a failure must not touch. */
	if (parse_events(&specs, "task-clock:u", &e) || specs.nr != 1) {
		print_error("row %zu: setup failed: %s\n", i, prec_err__msg(&e));
		goto out;
	}
	before = specs.v[0].attr;
	prec_err__clear(&e);
	ret = parse_events(&specs, r->str, &e);
	if (ret != -EINVAL) {
		print_error("row %zu '%s': ret %d, expected -EINVAL (nr %d)\n", i, r->str, ret,
			    specs.nr);
		goto out;
	}
	if (specs.nr != 1 || strcmp(specs.v[0].name, "task-clock:u") ||
	    memcmp(&specs.v[0].attr, &before, sizeof(before))) {
		print_error("row %zu '%s': the specs changed on failure (nr %d)\n", i, r->str,
			    specs.nr);
		goto out;
	}
	if (!prec_err__is_set(&e) || strchr(prec_err__msg(&e), '\n')) {
		print_error("row %zu '%s': err '%s' is not one non-empty line\n", i, r->str,
			    prec_err__msg(&e));
		goto out;
	}
	if (r->err_has && !strstr(prec_err__msg(&e), r->err_has)) {
		print_error("row %zu '%s': err '%s' lacks '%s'\n", i, r->str, prec_err__msg(&e),
			    r->err_has);
		goto out;
	}
	ok = true;
out:
	event_specs__exit(&specs);
	return ok;
}

static void test_rejected_table(void **state)
{
	int failed = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(reject_rows) / sizeof(reject_rows[0]); i++)
		failed += !reject_row__check(i, &reject_rows[i]);
	assert_int_equal(failed, 0);
}

/*
 * The contract says err is one line (main prints it after "prec: "), so a
 * control character from the argument must not be echoed raw into it.
 */
static void test_err_is_one_line(void **state)
{
	static const char *const rows[] = {
		"cpu-clock\n", "cpu-clock:\n", "nosuch\nevent", "cpu-clock,\n", "cpu-clock:u\r",
	};
	int failed = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct event_specs specs = { 0 };
		struct prec_err e __attribute__((cleanup(prec_err__clear))) = PREC_ERR_INIT;
		int ret = parse_events(&specs, rows[i], &e);

		if (ret != -EINVAL || specs.nr != 0 || !prec_err__is_set(&e) ||
		    strpbrk(prec_err__msg(&e), "\n\r")) {
			print_error(
				"row %zu: ret %d nr %d err '%s' (expected -EINVAL, 0, one line)\n",
				i, ret, specs.nr, prec_err__msg(&e));
			failed++;
		}
		event_specs__exit(&specs);
	}
	assert_int_equal(failed, 0);
}

static void test_rejected_repeated_modifiers(void **state)
{
	int failed = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(repeat_rows) / sizeof(repeat_rows[0]); i++)
		failed += !reject_row__check(i, &repeat_rows[i]);
	assert_int_equal(failed, 0);
}

static void test_comma_list(void **state)
{
	struct event_specs specs = { 0 };
	struct prec_err e __attribute__((cleanup(prec_err__clear))) = PREC_ERR_INIT;

	(void)state;
	assert_int_equal(parse_events(&specs, "cpu-clock,task-clock,faults", &e), 0);
	assert_int_equal(specs.nr, 3);
	assert_string_equal(specs.v[0].name, "cpu-clock");
	assert_string_equal(specs.v[1].name, "task-clock");
	assert_string_equal(specs.v[2].name, "faults");
	assert_int_equal(specs.v[0].attr.type, PERF_TYPE_SOFTWARE);
	assert_int_equal(specs.v[0].attr.config, PERF_COUNT_SW_CPU_CLOCK);
	assert_int_equal(specs.v[1].attr.config, PERF_COUNT_SW_TASK_CLOCK);
	assert_int_equal(specs.v[2].attr.config, PERF_COUNT_SW_PAGE_FAULTS);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(specs.v[i].attr.exclude_guest, 1);
		assert_int_equal(specs.v[i].attr.exclude_kernel, 0);
	}

	/* A second -e appends; each element keeps its own modifiers. */
	assert_int_equal(parse_events(&specs, "cycles:u,instructions:k", &e), 0);
	assert_int_equal(specs.nr, 5);
	assert_string_equal(specs.v[3].name, "cycles:u");
	assert_string_equal(specs.v[4].name, "instructions:k");
	assert_int_equal(specs.v[3].attr.type, PERF_TYPE_HARDWARE);
	assert_int_equal(specs.v[3].attr.config, PERF_COUNT_HW_CPU_CYCLES);
	assert_int_equal(specs.v[3].attr.exclude_kernel, 1);
	assert_int_equal(specs.v[3].attr.exclude_user, 0);
	assert_int_equal(specs.v[3].attr.exclude_guest, 1);
	assert_int_equal(specs.v[4].attr.config, PERF_COUNT_HW_INSTRUCTIONS);
	assert_int_equal(specs.v[4].attr.exclude_kernel, 0);
	assert_int_equal(specs.v[4].attr.exclude_user, 1);
	assert_int_equal(specs.v[4].attr.exclude_guest, 0);

	/* A failing third -e keeps all five; a fourth good one appends again. */
	assert_int_equal(parse_events(&specs, "dummy,cs,nosuch", &e), -EINVAL);
	assert_int_equal(specs.nr, 5);
	assert_string_equal(specs.v[4].name, "instructions:k");
	assert_int_equal(parse_events(&specs, "cs", &e), 0);
	assert_int_equal(specs.nr, 6);
	assert_string_equal(specs.v[5].name, "cs");
	assert_int_equal(specs.v[5].attr.config, PERF_COUNT_SW_CONTEXT_SWITCHES);

	/* The same event twice is two events, as in perf. */
	assert_int_equal(parse_events(&specs, "cs,cs", &e), 0);
	assert_int_equal(specs.nr, 8);
	event_specs__exit(&specs);
	assert_int_equal(specs.nr, 0);
	/* exit twice and on an empty set is harmless */
	event_specs__exit(&specs);
}

static void test_err_whole(void **state)
{
	struct event_specs specs = { 0 };
	struct prec_err e __attribute__((cleanup(prec_err__clear))) = PREC_ERR_INIT;

	(void)state;
	assert_int_equal(parse_events(&specs, "nosuch-event-with-a-long-name", &e), -EINVAL);
	/* the whole line, the name the user typed in it; NULL takes the code only */
	assert_non_null(strstr(prec_err__msg(&e), "'nosuch-event-with-a-long-name'"));
	assert_int_equal(e.code, -EINVAL);
	assert_int_equal(parse_events(&specs, "nosuch-event-with-a-long-name", NULL), -EINVAL);
	assert_int_equal(specs.nr, 0);
	event_specs__exit(&specs);
}

static void test_add_default(void **state)
{
	const struct default_event_env intel = { .can_profile_kernel = true };
	struct event_specs specs = { 0 };
	struct perf_event_attr want;
	struct prec_err e __attribute__((cleanup(prec_err__clear))) = PREC_ERR_INIT;
	char name[64];

	(void)state;
	assert_int_equal(parse_events__add_default(&specs, &intel), 0);
	assert_int_equal(specs.nr, 1);
	/* perf 6.1 names it before it knows the precise level, and keeps it. */
	assert_string_equal(specs.v[0].name, "cycles");
	assert_true(specs.v[0].precise_max);
	assert_true(specs.v[0].name_from_attr);
	assert_null(specs.v[0].pmu_name);
	assert_null(specs.v[0].cpus);
	memset(&want, 0, sizeof(want));
	want.type = PERF_TYPE_HARDWARE;
	want.config = PERF_COUNT_HW_CPU_CYCLES;
	want.size = sizeof(want);
	want.precise_ip = 3;
	want.exclude_guest = 1;
	assert_memory_equal(&specs.v[0].attr, &want, sizeof(want));

	/* After the fallback to cpu-clock, the name perf 6.1 gives it. */
	assert_int_equal(event_name__from_attr(name, sizeof(name), "cpu-clock", &specs.v[0].attr),
			 (int)strlen("cpu-clock:pppH"));
	assert_string_equal(name, "cpu-clock:pppH");

	/* The default appends after -e events too. */
	assert_int_equal(parse_events(&specs, "faults", &e), 0);
	assert_int_equal(parse_events__add_default(&specs, &intel), 0);
	assert_int_equal(specs.nr, 3);
	assert_string_equal(specs.v[1].name, "faults");
	assert_string_equal(specs.v[2].name, "cycles");
	assert_true(specs.v[2].name_from_attr);
	assert_false(specs.v[1].name_from_attr);
	event_specs__exit(&specs);
}

/*
 * arch_evsel__fixup_new_cycles: on AMD (the caller's answer, perf's cpuid
 * test: tests/unit/test_vendor.c) the default event clears exclude_guest,
 * and only the default event.
 */
static void test_add_default_by_vendor(void **state)
{
	static const struct {
		bool amd;
		unsigned exclude_guest;
		const char *fallback_name; /* after cycles -> cpu-clock */
	} rows[] = {
		{ false, 1, "cpu-clock:pppH" },
		{ true, 0, "cpu-clock:ppp" },
	};
	char name[64];
	struct prec_err e __attribute__((cleanup(prec_err__clear))) = PREC_ERR_INIT;

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct default_event_env env = { .amd = rows[i].amd,
						       .can_profile_kernel = true };
		struct event_specs specs = { 0 };

		assert_int_equal(parse_events__add_default(&specs, &env), 0);
		assert_int_equal(specs.v[0].attr.exclude_guest, rows[i].exclude_guest);
		assert_int_equal(specs.v[0].attr.exclude_host, 0);
		assert_string_equal(specs.v[0].name, "cycles");
		event_name__from_attr(name, sizeof(name), "cpu-clock", &specs.v[0].attr);
		assert_string_equal(name, rows[i].fallback_name);
		event_specs__exit(&specs);
	}
	/* An explicit cycles or cpu-clock keeps exclude_guest on every vendor. */
	for (size_t i = 0; i < 2; i++) {
		struct event_specs specs = { 0 };

		assert_int_equal(parse_events(&specs, i ? "cycles" : "cpu-clock", &e), 0);
		assert_int_equal(specs.v[0].attr.exclude_guest, 1);
		event_specs__exit(&specs);
	}
}

/* evsel__new_cycles: user only from the start when the kernel may not be profiled. */
static void test_add_default_unprivileged(void **state)
{
	static const bool amd[] = { false, true };
	static const char *const want[] = { "cpu-clock:uhpppH", "cpu-clock:uhppp" };
	char name[64];

	(void)state;
	for (int i = 0; i < 2; i++) {
		const struct default_event_env env = { .amd = amd[i] };
		struct event_specs specs = { 0 };

		assert_int_equal(parse_events__add_default(&specs, &env), 0);
		assert_string_equal(specs.v[0].name, "cycles:u");
		assert_int_equal(specs.v[0].attr.exclude_kernel, 1);
		assert_int_equal(specs.v[0].attr.exclude_hv, 0); /* perf leaves it */
		assert_int_equal(specs.v[0].attr.exclude_user, 0);
		/* What perf record 6.1 names it after the cpu-clock fallback. */
		event_name__from_attr(name, sizeof(name), "cpu-clock", &specs.v[0].attr);
		assert_string_equal(name, want[i]);
		event_specs__exit(&specs);
	}
}

/* evlist__add_default_hybrid: one cycles per hybrid PMU, its type in config's high bits. */
static void test_add_default_hybrid(void **state)
{
	static const struct default_event_pmu pmus[] = {
		{ .name = "cpu_atom", .type = 10, .cpus = "16-23" },
		{ .name = "cpu_core", .type = 4, .cpus = "0-15" },
	};
	const struct default_event_env env = { .can_profile_kernel = true,
					       .hybrid = pmus,
					       .nr_hybrid = 2 };
	struct event_specs specs = { 0 };

	(void)state;
	assert_int_equal(parse_events__add_default(&specs, &env), 0);
	assert_int_equal(specs.nr, 2);
	for (int i = 0; i < 2; i++) {
		const struct event_spec *s = &specs.v[i];
		char want[64];

		/* record__uniquify_name's "cpu_core/cycles/" */
		snprintf(want, sizeof(want), "%s/cycles/", pmus[i].name);
		assert_string_equal(s->name, want);
		assert_string_equal(s->pmu_name, pmus[i].name);
		assert_string_equal(s->cpus, pmus[i].cpus);
		assert_int_equal(s->attr.type, PERF_TYPE_HARDWARE);
		assert_true(s->attr.config == (PERF_COUNT_HW_CPU_CYCLES | (uint64_t)pmus[i].type << 32));
		assert_int_equal(s->attr.exclude_guest, 1);
		assert_int_equal(s->attr.precise_ip, 3);
		assert_true(s->precise_max);
		assert_int_equal(s->leader, i);
		assert_int_equal(s->nr_members, 1);
	}
	event_specs__exit(&specs);

	/* Unprivileged: perf wraps the user-only name as it is. */
	{
		struct default_event_env user = env;

		user.can_profile_kernel = false;
		assert_int_equal(parse_events__add_default(&specs, &user), 0);
		assert_string_equal(specs.v[1].name, "cpu_core/cycles:u/");
		assert_int_equal(specs.v[1].attr.exclude_kernel, 1);
		event_specs__exit(&specs);
	}
}

/* An attr described by its bits, and the name perf derives from it. */
struct name_row {
	unsigned eu, ek, eh, eH, eG, precise;
	const char *want;
};

/* clang-format off */
static const struct name_row name_rows[] = {
	/* eu ek eh eH eG  p   name */
	{ 0, 0, 0, 0, 1, 0, "cpu-clock" },
	{ 0, 0, 0, 0, 1, 3, "cpu-clock:pppH" },
	{ 0, 0, 0, 0, 1, 2, "cpu-clock:ppH" },
	{ 0, 0, 0, 0, 1, 1, "cpu-clock:pH" },
	{ 0, 0, 0, 0, 0, 3, "cpu-clock:ppp" },
	{ 0, 1, 1, 0, 1, 0, "cpu-clock:uH" },
	{ 0, 1, 1, 0, 0, 0, "cpu-clock:u" },
	{ 1, 0, 1, 0, 0, 0, "cpu-clock:k" },
	{ 1, 0, 1, 0, 1, 0, "cpu-clock:kH" },
	{ 1, 1, 0, 0, 0, 0, "cpu-clock:h" },
	{ 0, 0, 1, 0, 1, 0, "cpu-clock:kuH" },
	{ 1, 0, 0, 0, 1, 0, "cpu-clock:khH" },
	{ 1, 0, 1, 0, 1, 1, "cpu-clock:kpH" },
	{ 0, 1, 1, 0, 1, 2, "cpu-clock:uppH" },
	{ 0, 1, 1, 1, 0, 0, "cpu-clock:uG" },
	{ 0, 0, 0, 1, 0, 0, "cpu-clock:G" },
	{ 0, 0, 0, 0, 0, 0, "cpu-clock:HG" },
	{ 0, 0, 0, 1, 1, 0, "cpu-clock" },
	{ 0, 0, 0, 1, 1, 3, "cpu-clock:ppp" },
	{ 1, 1, 1, 0, 1, 0, "cpu-clock:H" },
};
/* clang-format on */

static void test_name_from_attr(void **state)
{
	int failed = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(name_rows) / sizeof(name_rows[0]); i++) {
		const struct name_row *r = &name_rows[i];
		struct perf_event_attr a;
		char buf[64];
		int n;

		memset(&a, 0, sizeof(a));
		a.type = PERF_TYPE_SOFTWARE;
		a.config = PERF_COUNT_SW_CPU_CLOCK;
		a.exclude_user = r->eu;
		a.exclude_kernel = r->ek;
		a.exclude_hv = r->eh;
		a.exclude_host = r->eH;
		a.exclude_guest = r->eG;
		a.precise_ip = r->precise;
		memset(buf, 'X', sizeof(buf));
		n = event_name__from_attr(buf, sizeof(buf), "cpu-clock", &a);
		if (strcmp(buf, r->want) || n != (int)strlen(r->want)) {
			print_error("row %zu: got '%s' (%d), want '%s'\n", i, buf, n, r->want);
			failed++;
		}
	}
	assert_int_equal(failed, 0);
}

/* The names perf gives the strings users write, through the parser. */
static void test_name_from_parsed(void **state)
{
	/* clang-format off */
	static const struct {
		const char *str;
		const char *want;
	} rows[] = {
		{ "cpu-clock", "cpu-clock" },
		{ "cpu-clock:u", "cpu-clock:uH" },
		{ "cpu-clock:k", "cpu-clock:k" },
		{ "cpu-clock:pp", "cpu-clock:ppH" },
		{ "cpu-clock:ppp", "cpu-clock:pppH" },
		{ "cpu-clock:G", "cpu-clock:G" },
		{ "cpu-clock:H", "cpu-clock" },
		{ "cpu-clock:upp", "cpu-clock:uppH" },
		{ "cpu-clock:Gp", "cpu-clock:pG" },
	};
	/* clang-format on */

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct event_specs specs = { 0 };
		char buf[64];
		struct prec_err e __attribute__((cleanup(prec_err__clear))) = PREC_ERR_INIT;

		assert_int_equal(parse_events(&specs, rows[i].str, &e), 0);
		event_name__from_attr(buf, sizeof(buf), "cpu-clock", &specs.v[0].attr);
		if (strcmp(buf, rows[i].want))
			print_error("'%s': got '%s', want '%s'\n", rows[i].str, buf, rows[i].want);
		assert_string_equal(buf, rows[i].want);
		event_specs__exit(&specs);
	}
}

static void test_name_from_attr_truncates(void **state)
{
	struct perf_event_attr a;
	char buf[5];

	(void)state;
	memset(&a, 0, sizeof(a));
	a.exclude_guest = 1;
	a.precise_ip = 2;
	memset(buf, 'X', sizeof(buf));
	/* Like snprintf: the full length comes back, the buffer is cut and terminated. */
	assert_int_equal(event_name__from_attr(buf, sizeof(buf), "cpu-clock", &a),
			 (int)strlen("cpu-clock:ppH"));
	assert_string_equal(buf, "cpu-");
}

static void test_symbol_names(void **state)
{
	(void)state;
	assert_string_equal(event_name__symbol(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK),
			    "cpu-clock");
	assert_string_equal(event_name__symbol(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK),
			    "task-clock");
	assert_string_equal(event_name__symbol(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS),
			    "page-faults");
	assert_string_equal(event_name__symbol(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES),
			    "context-switches");
	assert_string_equal(event_name__symbol(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY), "dummy");
	assert_string_equal(event_name__symbol(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS),
			    "instructions");
	assert_string_equal(event_name__symbol(PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES),
			    "ref-cycles");
	assert_null(event_name__symbol(PERF_TYPE_SOFTWARE, 1000));
	assert_null(event_name__symbol(PERF_TYPE_TRACEPOINT, 0));
	assert_null(event_name__symbol(PERF_TYPE_RAW, 0));
}

static void test_print_known(void **state)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	(void)state;
	assert_non_null(f);
	parse_events__print_known(f);
	fclose(f);
	assert_non_null(strstr(text, "  cpu-clock  [Software event]\n"));
	assert_non_null(strstr(text, "  cpu-cycles OR cycles  [Hardware event]\n"));
	assert_non_null(strstr(text, "  page-faults OR faults  [Software event]\n"));
	free(text);
}

int main(void)
{
	/* clang-format off */
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_accepted_table),
		cmocka_unit_test(test_rejected_table),
		cmocka_unit_test(test_rejected_repeated_modifiers),
		cmocka_unit_test(test_err_is_one_line),
		cmocka_unit_test(test_comma_list),
		cmocka_unit_test(test_err_whole),
		cmocka_unit_test(test_add_default),
		cmocka_unit_test(test_add_default_by_vendor),
		cmocka_unit_test(test_add_default_unprivileged),
		cmocka_unit_test(test_add_default_hybrid),
		cmocka_unit_test(test_name_from_attr),
		cmocka_unit_test(test_name_from_parsed),
		cmocka_unit_test(test_name_from_attr_truncates),
		cmocka_unit_test(test_symbol_names),
		cmocka_unit_test(test_print_known),
	};
	/* clang-format on */

	return cmocka_run_group_tests(tests, NULL, NULL);
}
