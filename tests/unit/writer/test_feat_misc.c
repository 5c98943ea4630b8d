// SPDX-License-Identifier: GPL-2.0-only
/*
 * The features a record option turns on (GROUP_DESC, BRANCH_STACK, AUXTRACE,
 * CLOCKID, DIR_FORMAT, COMPRESSED, CLOCK_DATA; STAT never): the exact bytes,
 * first against sections perf 6.1 itself wrote on the development VM (perf
 * record -z -k monotonic_raw -e '{cpu-clock,task-clock}'), then each rule of
 * record__init_features() that leaves one out.
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

#include "writer/features.h"
#include "feat_expect.h"

/* ---- sections perf 6.1 wrote on the development VM ---- */

/* clang-format off */
/* GROUP_DESC, 80 bytes */
static const char vm_group_desc[] =
	"01000000400000007b616e6f6e5f67726f75707d000000000000000000000000"
	"0000000000000000000000000000000000000000000000000000000000000000"
	"00000000000000000000000002000000";

/* CLOCKID, 8 bytes */
static const char vm_clockid[] =
	"0100000000000000";

/* COMPRESSED, 20 bytes */
static const char vm_compressed[] =
	"0000000001000000010000000300000000100800";

/* CLOCK_DATA, 24 bytes */
static const char vm_clock_data[] =
	"0100000004000000b8c90826d16bea18c11d1cd7fb010000";
/* clang-format on */

/* The options of that perf record run, as the recorder would pass them. */
static const struct writer_group vm_groups[] = { { NULL, 0, 2 } };

static void fill_vm(struct writer_meta *m)
{
	memset(m, 0, sizeof(*m));
	m->nr_events = 2;
	m->groups = vm_groups;
	m->nr_groups = 1;
	m->use_clockid = true;
	m->clockid = 4; /* CLOCK_MONOTONIC_RAW */
	m->clockid_res_ns = 1;
	m->clock_tod_ns = 1795365947491011000ULL;
	m->clock_clockid_ns = 2181157363137ULL;
	m->compressed = true;
	m->comp_level = 1;
	m->comp_ratio = 3;
	m->comp_mmap_len = 0x81000; /* 129 pages */
}

/* The same options, the same bytes as perf record's file. */
static void test_vm_golden(void **state)
{
	static const struct {
		int id;
		const char *hex;
	} want[] = {
		{ HEADER_GROUP_DESC, vm_group_desc },
		{ HEADER_CLOCKID, vm_clockid },
		{ HEADER_COMPRESSED, vm_compressed },
		{ HEADER_CLOCK_DATA, vm_clock_data },
	};
	struct writer_meta m;

	(void)state;
	fill_vm(&m);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		struct tbuf t = unhex(want[i].hex);

		assert_feature(want[i].id, &m, &t);
		free(t.b);
	}
	/* not asked for in that run */
	assert_left_out(HEADER_BRANCH_STACK, &m, -ENOENT);
	assert_left_out(HEADER_AUXTRACE, &m, -ENOENT);
	assert_left_out(HEADER_DIR_FORMAT, &m, -ENOENT);
}

/* Every option off (or no meta at all): none of these features. */
static void test_all_off(void **state)
{
	static const int ids[] = { HEADER_BRANCH_STACK, HEADER_GROUP_DESC, HEADER_AUXTRACE,
				   HEADER_STAT,		HEADER_CLOCKID,	   HEADER_DIR_FORMAT,
				   HEADER_COMPRESSED,	HEADER_CLOCK_DATA, HEADER_TRACING_DATA,
				   HEADER_BUILD_ID };
	struct writer_meta m = { 0 };

	(void)state;
	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		assert_left_out(ids[i], &m, -ENOENT);
		assert_left_out(ids[i], NULL, -ENOENT);
	}
	/* STAT is perf stat record's: never written, whatever is set */
	fill_vm(&m);
	m.branch_stack = true;
	m.dir_version = 1;
	assert_left_out(HEADER_STAT, &m, -ENOENT);
}

/* ---- GROUP_DESC ---- */

static void test_group_desc(void **state)
{
	static const struct writer_group g[] = {
		{ "grp", 0, 3 }, /* {a,b,c} named */
		{ NULL, 3, 1 }, /* a leader alone: no group to perf */
		{ NULL, 4, 2 }, /* {e,f} */
	};
	struct writer_meta m = { .groups = g, .nr_groups = 3, .nr_events = 6 };
	struct tbuf t = { 0 };

	(void)state;
	tb_u32(&t, 2);
	tb_str(&t, "grp");
	tb_u32(&t, 0);
	tb_u32(&t, 3);
	tb_str(&t, "{anon_group}");
	tb_u32(&t, 4);
	tb_u32(&t, 2);
	assert_feature(HEADER_GROUP_DESC, &m, &t);
	/* the events are not known to this encoder call: no range check */
	m.nr_events = 0;
	assert_feature(HEADER_GROUP_DESC, &m, &t);
	free(t.b);

	/* only single-event "groups": nothing to describe */
	m = (struct writer_meta){ .groups = g + 1, .nr_groups = 1, .nr_events = 6 };
	assert_left_out(HEADER_GROUP_DESC, &m, -ENOENT);
	m = (struct writer_meta){ .groups = NULL, .nr_groups = 2 };
	assert_left_out(HEADER_GROUP_DESC, &m, -ENOENT);
}

/* Groups perf's reader could not rebuild are refused, not written. */
static void test_group_desc_invalid(void **state)
{
	static const struct writer_group past_end[] = { { NULL, 4, 3 } };
	static const struct writer_group overlap[] = { { NULL, 0, 3 }, { NULL, 2, 2 } };
	static const struct writer_group backwards[] = { { NULL, 3, 2 }, { NULL, 0, 2 } };
	static const struct writer_group wrap[] = { { NULL, 0xffffffffu, 2 } };
	struct writer_meta m = { .nr_events = 6 };

	(void)state;
	m.groups = past_end;
	m.nr_groups = 1;
	assert_left_out(HEADER_GROUP_DESC, &m, -EINVAL);
	m.groups = overlap;
	m.nr_groups = 2;
	assert_left_out(HEADER_GROUP_DESC, &m, -EINVAL);
	m.groups = backwards;
	assert_left_out(HEADER_GROUP_DESC, &m, -EINVAL);
	m.groups = wrap;
	m.nr_groups = 1;
	assert_left_out(HEADER_GROUP_DESC, &m, -EINVAL);
}

/* ---- BRANCH_STACK, AUXTRACE, DIR_FORMAT, CLOCKID, CLOCK_DATA, COMPRESSED ---- */

/* Present and empty: the section table entry is the whole message. */
static void test_branch_stack(void **state)
{
	struct writer_meta m = { .branch_stack = true };
	struct feat_sink s;

	(void)state;
	feat_sink__init(&s);
	assert_int_equal(features__encode_one(HEADER_BRANCH_STACK, &m, &s), 0);
	assert_int_equal(feat_sink__len(&s), 0);
	feat_sink__exit(&s);
}

static void test_auxtrace(void **state)
{
	static const struct writer_auxtrace_entry e[] = { { 4096, 65536 + 48 }, { 200000, 48 } };
	struct writer_meta m = { .auxtrace = e, .nr_auxtrace = 2 };
	struct tbuf t = { 0 };

	(void)state;
	tb_u64(&t, 2);
	tb_u64(&t, 4096);
	tb_u64(&t, 65536 + 48);
	tb_u64(&t, 200000);
	tb_u64(&t, 48);
	assert_feature(HEADER_AUXTRACE, &m, &t);
	free(t.b);
	m.auxtrace = NULL;
	assert_left_out(HEADER_AUXTRACE, &m, -ENOENT);
}

static void test_dir_format(void **state)
{
	struct writer_meta m = { .dir_version = 1 };
	struct tbuf t = { 0 };

	(void)state;
	tb_u64(&t, 1);
	assert_feature(HEADER_DIR_FORMAT, &m, &t);
	free(t.b);
}

/* -k without a known resolution: CLOCK_DATA alone, as perf record does. */
static void test_clock(void **state)
{
	struct writer_meta m;
	struct tbuf t = { 0 };

	(void)state;
	fill_vm(&m);
	m.clockid = 11; /* CLOCK_TAI */
	m.clockid_res_ns = 0;
	assert_left_out(HEADER_CLOCKID, &m, -ENOENT);
	tb_u32(&t, 1);
	tb_u32(&t, 11);
	tb_u64(&t, m.clock_tod_ns);
	tb_u64(&t, m.clock_clockid_ns);
	assert_feature(HEADER_CLOCK_DATA, &m, &t);
	free(t.b);

	/* a dynamic (negative) clock id goes out as its u32 bits */
	m.clockid = -6;
	t = (struct tbuf){ 0 };
	tb_u32(&t, 1);
	tb_u32(&t, 0xfffffffau);
	tb_u64(&t, m.clock_tod_ns);
	tb_u64(&t, m.clock_clockid_ns);
	assert_feature(HEADER_CLOCK_DATA, &m, &t);
	free(t.b);

	/* a resolution without -k means nothing */
	m.use_clockid = false;
	m.clockid_res_ns = 1;
	assert_left_out(HEADER_CLOCKID, &m, -ENOENT);
	assert_left_out(HEADER_CLOCK_DATA, &m, -ENOENT);
}

static void test_compressed(void **state)
{
	struct writer_meta m = {
		.compressed = true, .comp_level = 22, .comp_ratio = 0, .comp_mmap_len = 0x1001000
	};
	struct tbuf t = { 0 };

	(void)state;
	tb_u32(&t, 0); /* version */
	tb_u32(&t, 1); /* zstd */
	tb_u32(&t, 22);
	tb_u32(&t, 0);
	tb_u32(&t, 0x1001000);
	assert_feature(HEADER_COMPRESSED, &m, &t);
	free(t.b);
	m.compressed = false;
	assert_left_out(HEADER_COMPRESSED, &m, -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vm_golden),    cmocka_unit_test(test_all_off),
		cmocka_unit_test(test_group_desc),   cmocka_unit_test(test_group_desc_invalid),
		cmocka_unit_test(test_branch_stack), cmocka_unit_test(test_auxtrace),
		cmocka_unit_test(test_dir_format),   cmocka_unit_test(test_clock),
		cmocka_unit_test(test_compressed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
