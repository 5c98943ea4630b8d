// SPDX-License-Identifier: GPL-2.0-only
/*
 * Feature encoders one by one through features__encode_one: the byte layout
 * of each, what is left out when data is missing, and rollback on failure.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "prec/sysinfo.h"
#include "writer/features.h"

static uint32_t u32_at(const struct feat_sink *s, size_t off)
{
	uint32_t v;

	memcpy(&v, (const uint8_t *)feat_sink__data(s) + off, sizeof(v));
	return v;
}

static uint64_t u64_at(const struct feat_sink *s, size_t off)
{
	uint64_t v;

	memcpy(&v, (const uint8_t *)feat_sink__data(s) + off, sizeof(v));
	return v;
}

static const char *str_at(const struct feat_sink *s, size_t off)
{
	return (const char *)feat_sink__data(s) + off + 4;
}

static void test_table(void **state)
{
	(void)state;
	for (int id = 1; id < HEADER_LAST_FEATURE; id++)
		assert_non_null(feat_ops[id].name);
	assert_string_equal(feat_ops[HEADER_HOSTNAME].name, "HOSTNAME");
	assert_string_equal(feat_ops[HEADER_PMU_CAPS].name, "PMU_CAPS");
	assert_non_null(feat_ops[HEADER_HOSTNAME].write);
}

static void test_unknown_ids(void **state)
{
	struct feat_sink s;

	(void)state;
	feat_sink__init(&s);
	assert_int_equal(features__encode_one(0, NULL, &s), -ENOENT);
	assert_int_equal(features__encode_one(-1, NULL, &s), -ENOENT);
	assert_int_equal(features__encode_one(HEADER_LAST_FEATURE, NULL, &s), -ENOENT);
	assert_int_equal(features__encode_one(255, NULL, &s), -ENOENT);
	assert_int_equal(features__encode_one(HEADER_CPU_TOPOLOGY, NULL, &s), -ENOENT);
	assert_int_equal(feat_sink__len(&s), 0);
	feat_sink__exit(&s);
}

/* HOSTNAME is written even with nothing known: perf's endianness probe. */
static void test_hostname_always(void **state)
{
	struct sysinfo si;
	struct writer_meta m = { .si = &si };
	struct feat_sink s;

	(void)state;
	memset(&si, 0, sizeof(si));
	feat_sink__init(&s);
	assert_int_equal(features__encode_one(HEADER_HOSTNAME, NULL, &s), 0);
	assert_int_equal(feat_sink__len(&s), 68);
	assert_int_equal(u32_at(&s, 0), 64);
	assert_string_equal(str_at(&s, 0), "");
	assert_int_equal(features__encode_one(HEADER_HOSTNAME, &m, &s), 0);
	assert_int_equal(feat_sink__len(&s), 136);
	strcpy(si.hostname, "h");
	assert_int_equal(features__encode_one(HEADER_HOSTNAME, &m, &s), 0);
	assert_string_equal(str_at(&s, 136), "h");
	feat_sink__exit(&s);
}

/* Every sysinfo-based feature but HOSTNAME is left out when unknown. */
static void test_missing_sysinfo_left_out(void **state)
{
	static const int ids[] = { HEADER_OSRELEASE, HEADER_VERSION, HEADER_ARCH,
				   HEADER_NRCPUS,    HEADER_CPUDESC, HEADER_CPUID,
				   HEADER_TOTAL_MEM, HEADER_CMDLINE, HEADER_EVENT_DESC };
	struct sysinfo si;
	struct writer_meta with_si = { .si = &si }, no_si = { 0 };
	struct feat_sink s;

	(void)state;
	memset(&si, 0, sizeof(si));
	si.nr_cpus_avail = 4; /* online unknown: NRCPUS still left out */
	feat_sink__init(&s);
	assert_int_equal(feat_sink__put_u32(&s, 0xabcd), 0);
	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		assert_int_equal(features__encode_one(ids[i], &with_si, &s), -ENOENT);
		assert_int_equal(features__encode_one(ids[i], &no_si, &s), -ENOENT);
		assert_int_equal(features__encode_one(ids[i], NULL, &s), -ENOENT);
	}
	assert_int_equal(feat_sink__len(&s), 4);
	feat_sink__exit(&s);
}

/* Available first, then online (perf prints them the other way round). */
static void test_nrcpus_order(void **state)
{
	struct sysinfo si = { .nr_cpus_avail = 4, .nr_cpus_online = 2 };
	struct writer_meta m = { .si = &si };
	struct feat_sink s;

	(void)state;
	feat_sink__init(&s);
	assert_int_equal(features__encode_one(HEADER_NRCPUS, &m, &s), 0);
	assert_int_equal(feat_sink__len(&s), 8);
	assert_int_equal(u32_at(&s, 0), 4);
	assert_int_equal(u32_at(&s, 4), 2);
	feat_sink__exit(&s);
}

static void test_total_mem(void **state)
{
	struct sysinfo si = { .total_mem_kb = 24684084 };
	struct writer_meta m = { .si = &si };
	struct feat_sink s;

	(void)state;
	feat_sink__init(&s);
	assert_int_equal(features__encode_one(HEADER_TOTAL_MEM, &m, &s), 0);
	assert_int_equal(feat_sink__len(&s), 8);
	assert_int_equal(u64_at(&s, 0), 24684084);
	feat_sink__exit(&s);
}

static char *argv4[] = { "prec", "record", "--", "true", NULL };

static void test_cmdline(void **state)
{
	struct writer_meta m = { .exe = "/opt/prec", .argc = 4, .argv = argv4 };
	struct feat_sink s;

	(void)state;
	feat_sink__init(&s);
	assert_int_equal(features__encode_one(HEADER_CMDLINE, &m, &s), 0);
	assert_int_equal(feat_sink__len(&s), 4 + 4 * 68);
	assert_int_equal(u32_at(&s, 0), 4);
	assert_string_equal(str_at(&s, 4), "/opt/prec");
	assert_string_equal(str_at(&s, 4 + 68), "record");
	assert_string_equal(str_at(&s, 4 + 3 * 68), "true");
	feat_sink__exit(&s);

	/* argc 1: the path alone */
	m.argc = 1;
	feat_sink__init(&s);
	assert_int_equal(features__encode_one(HEADER_CMDLINE, &m, &s), 0);
	assert_int_equal(feat_sink__len(&s), 4 + 68);
	assert_int_equal(u32_at(&s, 0), 1);
	feat_sink__exit(&s);

	/* argc larger than argv: stop at the NULL */
	m.argc = 100;
	feat_sink__init(&s);
	assert_int_equal(features__encode_one(HEADER_CMDLINE, &m, &s), 0);
	assert_int_equal(u32_at(&s, 0), 4);
	feat_sink__exit(&s);

	/* no exe: argv[0] stands in; neither: left out */
	m = (struct writer_meta){ .argc = 2, .argv = argv4 };
	feat_sink__init(&s);
	assert_int_equal(features__encode_one(HEADER_CMDLINE, &m, &s), 0);
	assert_int_equal(u32_at(&s, 0), 2);
	assert_string_equal(str_at(&s, 4), "prec");
	m = (struct writer_meta){ .argc = -3, .argv = NULL };
	assert_int_equal(features__encode_one(HEADER_CMDLINE, &m, &s), -ENOENT);
	m = (struct writer_meta){ .exe = "/p", .argc = -3, .argv = NULL };
	assert_int_equal(features__encode_one(HEADER_CMDLINE, &m, &s), 0);
	assert_int_equal(u32_at(&s, 4 + 2 * 68), 1);
	feat_sink__exit(&s);
}

static void test_event_desc(void **state)
{
	struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE, .size = 64, .config = 1 };
	uint64_t ids[] = { 14, 15 };
	size_t namelen = 10 * 1024;
	char *name = malloc(namelen + 1);
	struct writer_event ev[2] = { { &a, name, ids, 2 }, { &a, NULL, NULL, 0 } };
	struct writer_meta m = { .events = ev, .nr_events = 2 };
	struct perf_event_attr got;
	struct feat_sink s;
	size_t off;

	(void)state;
	assert_non_null(name);
	memset(name, 'n', namelen);
	name[namelen] = '\0';
	feat_sink__init(&s);
	assert_int_equal(features__encode_one(HEADER_EVENT_DESC, &m, &s), 0);
	assert_int_equal(u32_at(&s, 0), 2);
	assert_int_equal(u32_at(&s, 4), 128);
	memcpy(&got, (const uint8_t *)feat_sink__data(&s) + 8, 128);
	assert_int_equal(got.size, 128); /* forced, whatever the caller said */
	assert_int_equal(got.config, 1);
	off = 8 + 128;
	assert_int_equal(u32_at(&s, off), 2);
	assert_int_equal(u32_at(&s, off + 4), 10240 + 64);
	assert_int_equal(strlen(str_at(&s, off + 4)), namelen);
	off += 4 + 4 + 10240 + 64;
	assert_int_equal(u64_at(&s, off), 14);
	assert_int_equal(u64_at(&s, off + 8), 15);
	off += 16;
	/* the second event: no name, no ids */
	off += 128;
	assert_int_equal(u32_at(&s, off), 0);
	assert_int_equal(u32_at(&s, off + 4), 64);
	assert_int_equal(feat_sink__len(&s), off + 4 + 68);
	feat_sink__exit(&s);
	free(name);
}

/* A bad event in the middle: the whole feature is rolled back. */
static void test_event_desc_rollback(void **state)
{
	struct perf_event_attr a = { .size = sizeof(a) };
	uint64_t id = 1;
	struct writer_event ev[2] = { { &a, "ok", &id, 1 }, { NULL, "bad", &id, 1 } };
	struct writer_meta m = { .events = ev, .nr_events = 2 };
	struct feat_sink s;

	(void)state;
	feat_sink__init(&s);
	assert_int_equal(feat_sink__put_u64(&s, 99), 0);
	assert_int_equal(features__encode_one(HEADER_EVENT_DESC, &m, &s), -EINVAL);
	assert_int_equal(feat_sink__len(&s), 8);
	assert_int_equal(feat_sink__err(&s), 0);
	ev[1].attr = &a;
	ev[1].ids = NULL; /* nr_ids 1 without ids */
	assert_int_equal(features__encode_one(HEADER_EVENT_DESC, &m, &s), -EINVAL);
	assert_int_equal(feat_sink__len(&s), 8);
	feat_sink__exit(&s);
}

/* Written even as zeros: what perf record does for a file without samples. */
static void test_sample_time(void **state)
{
	struct writer_meta m = { .first_sample_time = 5, .last_sample_time = 9 };
	struct feat_sink s;

	(void)state;
	feat_sink__init(&s);
	assert_int_equal(features__encode_one(HEADER_SAMPLE_TIME, NULL, &s), 0);
	assert_int_equal(feat_sink__len(&s), 16);
	assert_int_equal(u64_at(&s, 0), 0);
	assert_int_equal(u64_at(&s, 8), 0);
	assert_int_equal(features__encode_one(HEADER_SAMPLE_TIME, &m, &s), 0);
	assert_int_equal(u64_at(&s, 16), 5);
	assert_int_equal(u64_at(&s, 24), 9);
	feat_sink__exit(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_unknown_ids),
		cmocka_unit_test(test_hostname_always),
		cmocka_unit_test(test_missing_sysinfo_left_out),
		cmocka_unit_test(test_nrcpus_order),
		cmocka_unit_test(test_total_mem),
		cmocka_unit_test(test_cmdline),
		cmocka_unit_test(test_event_desc),
		cmocka_unit_test(test_event_desc_rollback),
		cmocka_unit_test(test_sample_time),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
