// SPDX-License-Identifier: GPL-2.0-only
/*
 * The one size-limit policy (recorder/output/size_limit.c): what a file's
 * ring data may take after its front (--max-size, --switch-output=SIZE, the
 * smaller, the front that fills SIZE alone), the cut at a record boundary
 * for one share (exactly at the limit) and for several sharing the budget
 * (together within it, each taking grains), the late side-band's bytes off
 * the budget (as the walk makes them, and once written), the end between
 * passes and its line said once.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>
#include <string.h>

#include "prec/event.h"
#include "recorder/output/output_config.h"
#include "recorder/output/size_limit.h"

/* Feeds records of size bytes to sh's cut until one is cut; the bytes kept. */
static uint64_t keep_until_cut(struct size_share *sh, uint16_t size, int most)
{
	struct perf_event_header h = { .type = PERF_RECORD_SAMPLE, .size = size };
	uint64_t kept = 0;

	for (int i = 0; i < most; i++) {
		if (size_share__cut(sh, NULL, 0, &h) == DRAIN_CUT)
			return kept;
		kept += size;
	}
	return kept;
}

static void test_file_cap(void **state)
{
	struct output_config o = { 0 };
	struct size_limit sl = { 0 };

	(void)state;
	/* No limit: nothing to cut. */
	size_limit__begin_file(&sl, &o, 4096);
	assert_false(size_limit__active(&sl));
	assert_int_equal(sl.limit, 0);

	/* --max-size: what the front left. */
	o.max_size = 100000;
	size_limit__begin_file(&sl, &o, 4096);
	assert_true(size_limit__active(&sl));
	assert_int_equal(sl.limit, 100000 - 4096);

	/* --switch-output=SIZE smaller: it caps the file. */
	o.switch_size = 50000;
	size_limit__begin_file(&sl, &o, 4096);
	assert_int_equal(sl.limit, 50000 - 4096);

	/* A front that fills SIZE alone: whole passes until a sample, as perf. */
	size_limit__begin_file(&sl, &o, 60000);
	assert_int_equal(sl.limit, UINT64_MAX);

	/* A front that fills --max-size: the file is full at once. */
	o.switch_size = 0;
	size_limit__begin_file(&sl, &o, 200000);
	assert_int_equal(sl.limit, 1);

	/* Pipe mode has no --switch-output size cut. */
	o.max_size = 0;
	o.switch_size = 50000;
	o.pipe = true;
	size_limit__begin_file(&sl, &o, 100);
	assert_false(size_limit__active(&sl));
}

static void test_one_share_cuts_at_the_limit(void **state)
{
	struct output_config o = { .max_size = 1000000 };
	struct size_limit sl = { 0 };
	struct size_share sh;

	(void)state;
	size_limit__begin_file(&sl, &o, 0);
	size_share__init(&sh, &sl);
	/* 1000000 / 48 = 20833 records, 16 bytes left: the next one is cut. */
	assert_int_equal(keep_until_cut(&sh, 48, 100000), 20833 * 48);
	assert_true(sh.capped);
	assert_int_equal(size_share__between(&sh), DRAIN_END);
	assert_true(size_limit__reached(&sl));
	/* A smaller record still fits in what is left: exact, not by grains. */
	sh.capped = false;
	assert_int_equal(keep_until_cut(&sh, 8, 100), 16);
}

static void test_shares_stay_within(void **state)
{
	struct output_config o = { .max_size = 10 * SIZE_LIMIT_GRAIN + 123 };
	struct size_limit sl = { 0 };
	struct size_share sh[3];
	uint64_t kept = 0;
	bool cut[3] = { 0 };

	(void)state;
	size_limit__begin_file(&sl, &o, 0);
	for (int i = 0; i < 3; i++)
		size_share__init(&sh[i], &sl);
	/* Round robin, as three streams draining at once. */
	for (int round = 0; round < 100000 && !(cut[0] && cut[1] && cut[2]); round++) {
		for (int i = 0; i < 3; i++) {
			struct perf_event_header h = { .size = 1000 };

			if (cut[i])
				continue;
			if (size_share__cut(&sh[i], NULL, 0, &h) == DRAIN_CUT)
				cut[i] = true;
			else
				kept += h.size;
		}
	}
	assert_true(cut[0] && cut[1] && cut[2]);
	assert_true(kept <= o.max_size);
	/* Each share misses the limit by less than a grain. */
	assert_true(kept + 3 * SIZE_LIMIT_GRAIN > o.max_size);
	/* The first stream to see it ends; the others follow the flag. */
	assert_int_equal(size_share__between(&sh[0]), DRAIN_END);
	sh[1].capped = false;
	assert_int_equal(size_share__between(&sh[1]), DRAIN_END);
}

static void test_spend(void **state)
{
	struct output_config o = { .max_size = 100000 };
	struct size_limit sl = { 0 };
	struct size_share sh;

	(void)state;
	size_limit__begin_file(&sl, &o, 0);
	/* The late side-band took 99000 bytes of the data file. */
	size_limit__spend(&sl, 99000);
	size_share__init(&sh, &sl);
	assert_int_equal(keep_until_cut(&sh, 100, 1000), 1000);
	/* More than is left: nothing below zero, and the excess is what the
	 * limit line adds to the limit (the file is that much larger). */
	size_limit__spend(&sl, 1 << 20);
	assert_int_equal(atomic_load(&sl.budget), 0);
	assert_int_equal(atomic_load(&sl.over), 1 << 20); /* the share took the last 1000 */
	/* A new file starts with nothing over. */
	size_limit__begin_file(&sl, &o, 0);
	assert_int_equal(atomic_load(&sl.over), 0);
}

/* The background walk's bytes, told as made: the rings leave room for
 * them before they are written, and writing them takes nothing twice. */
static void test_made_before_written(void **state)
{
	struct output_config o = { .max_size = 10000 };
	struct size_limit sl = { 0 };
	struct size_share sh;

	(void)state;
	/* Made before the file began: its budget starts without them. */
	size_limit__made(&sl, 1000);
	size_limit__begin_file(&sl, &o, 0);
	size_share__init(&sh, &sl);
	assert_int_equal(keep_until_cut(&sh, 100, 1), 100);
	/* Made while the share holds room: the share's room goes first. */
	size_limit__made(&sl, 500);
	/* 10000 - 1000 - 500 - 100 kept: 84 more records of 100. */
	assert_int_equal(keep_until_cut(&sh, 100, 1000), 8400);
	assert_int_equal(atomic_load(&sl.ahead), 1500);
	/* Written now (with 16 bytes of markers the walk did not make): only
	 * those 16 are new, past the spent budget. */
	size_limit__spend(&sl, 1516);
	assert_int_equal(atomic_load(&sl.ahead), 0);
	assert_int_equal(atomic_load(&sl.over), 16);
}

/* Made after the budget is spent: past the limit, and counted once. */
static void test_made_late(void **state)
{
	struct output_config o = { .max_size = 4096 };
	struct size_limit sl = { 0 };
	struct size_share sh;

	(void)state;
	size_limit__begin_file(&sl, &o, 96);
	size_share__init(&sh, &sl);
	assert_int_equal(keep_until_cut(&sh, 40, 1000), 4000);
	size_limit__made(&sl, 80);
	assert_int_equal(size_share__between(&sh), DRAIN_END);
	assert_int_equal(atomic_load(&sl.over), 80);
	size_limit__spend(&sl, 80);
	assert_int_equal(atomic_load(&sl.over), 80);
	assert_int_equal(atomic_load(&sl.ahead), 0);
}

static void test_full(void **state)
{
	struct output_config o = { 0 };

	(void)state;
	assert_false(size_limit__full(&o, 1 << 30, true));
	o.max_size = 1000;
	assert_false(size_limit__full(&o, 999, false));
	assert_true(size_limit__full(&o, 1000, false));
	assert_true(size_limit__full(&o, 10, true));
	/* Cut at --switch-output's smaller SIZE: a rotation, not the end. */
	o.switch_size = 500;
	assert_false(size_limit__full(&o, 600, true));
	o.switch_size = 2000;
	assert_true(size_limit__full(&o, 600, true));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_file_cap),
		cmocka_unit_test(test_one_share_cuts_at_the_limit),
		cmocka_unit_test(test_shares_stay_within),
		cmocka_unit_test(test_spend),
		cmocka_unit_test(test_made_before_written),
		cmocka_unit_test(test_made_late),
		cmocka_unit_test(test_full),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
