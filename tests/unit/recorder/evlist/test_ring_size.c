// SPDX-License-Identifier: GPL-2.0-only
/* The rings' default size from the events' expected rate (recorder/evlist/ring_size.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "recorder/evlist/ring_size.h"

#define PAGE 4096u
#define MIB (1024u * 1024u)

/* perf's default: mlock_kb less a page, rounded down to a power of two. */
static void test_perf_default(void **state)
{
	(void)state;
	assert_int_equal(ring_size__perf_default(PAGE, 516), 512 * 1024);
	assert_int_equal(ring_size__perf_default(PAGE, 1024), 512 * 1024);
	assert_int_equal(ring_size__perf_default(PAGE, 1028), 1024 * 1024);
	assert_int_equal(ring_size__perf_default(PAGE, 8), PAGE);
	assert_int_equal(ring_size__perf_default(PAGE, 0), PAGE);
	assert_int_equal(ring_size__perf_default(16384, 516), 256 * 1024);
}

static struct perf_event_attr dwarf_clock(uint64_t period)
{
	struct perf_event_attr a = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_period = period,
		.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			       PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD |
			       PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER,
		.sample_regs_user = 0xff0fff, /* x86-64's 20 user registers */
		.sample_stack_user = 8192,
		.exclude_callchain_user = 1,
	};
	return a;
}

/* The estimate adds each field once: dwarf's stack copy dominates. */
static void test_sample_bytes(void **state)
{
	struct perf_event_attr a = dwarf_clock(100000);
	struct perf_event_attr plain = { .sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID };

	(void)state;
	assert_int_equal(ring_size__sample_bytes(&plain), 8 + 16);
	/* header, 5 u64s, kernel chain (8 + 16 * 8), regs (8 + 20 * 8), stack (16 + 8192) */
	assert_int_equal(ring_size__sample_bytes(&a), 8 + 40 + 136 + 168 + 8208);
	a.sample_max_stack = 4;
	assert_int_equal(ring_size__sample_bytes(&a), 8 + 40 + 40 + 168 + 8208);
	plain.sample_type |= PERF_SAMPLE_BRANCH_STACK | PERF_SAMPLE_RAW | PERF_SAMPLE_READ;
	assert_int_equal(ring_size__sample_bytes(&plain), 8 + 16 + (16 + 24 * 32) + (4 + 64) + 32);
}

/* A frequency is a rate; a clock's period is a time; a count's is neither. */
static void test_rate(void **state)
{
	struct perf_event_attr a = dwarf_clock(20000);
	struct perf_event_attr f = { .type = PERF_TYPE_HARDWARE, .freq = 1, .sample_freq = 4000 };
	struct perf_event_attr c = { .type = PERF_TYPE_HARDWARE, .sample_period = 100000 };
	struct perf_event_attr pf = { .type = PERF_TYPE_SOFTWARE,
				      .config = PERF_COUNT_SW_PAGE_FAULTS,
				      .sample_period = 1 };
	struct perf_event_attr none = { .type = PERF_TYPE_SOFTWARE,
					.config = PERF_COUNT_SW_CPU_CLOCK };

	(void)state;
	assert_int_equal(ring_size__rate(&a), 50000);
	a.config = PERF_COUNT_SW_TASK_CLOCK;
	assert_int_equal(ring_size__rate(&a), 50000);
	assert_int_equal(ring_size__rate(&f), 4000);
	assert_int_equal(ring_size__rate(&c), 0);
	assert_int_equal(ring_size__rate(&pf), 0);
	assert_int_equal(ring_size__rate(&none), 0); /* -n: no samples */
}

/* Slow events keep perf's size; fast ones get RING_SIZE_WINDOW_MS of data,
 * up to the caps, and only when the memory may be locked. */
static void test_pick(void **state)
{
	struct ring_size_in in = {
		.page = PAGE,
		.mlock_kb = 516,
		.may_lock_more = 1,
		.mem_total_kb = 24ull << 20,
		.nr_rings = 2,
	};

	(void)state;
	assert_int_equal(ring_size__pick(&in), 512 * 1024); /* rate unknown */
	in.bytes_per_sec = 4000 * 100; /* -F 4000 of small samples */
	assert_int_equal(ring_size__pick(&in), 512 * 1024);
	in.bytes_per_sec = 10000ull * 8560; /* dwarf at 10 kHz: 3.4 MB in 40 ms */
	assert_int_equal(ring_size__pick(&in), 4 * MIB);
	in.bytes_per_sec = 50000ull * 8560; /* 17 MB wanted: the per-ring cap */
	assert_int_equal(ring_size__pick(&in), RING_SIZE_MAX_BYTES);
	in.nr_rings = 256; /* 24 GiB / 32 / 256 rings = 3 MiB each: 2 MiB */
	assert_int_equal(ring_size__pick(&in), 2 * MIB);
	in.mem_total_kb = 1024; /* a tiny machine: never below perf's */
	assert_int_equal(ring_size__pick(&in), 512 * 1024);
	in.mem_total_kb = 0; /* unknown memory: the per-ring cap only */
	assert_int_equal(ring_size__pick(&in), RING_SIZE_MAX_BYTES);
	in.may_lock_more = 0; /* past perf_event_mlock_kb the map would fail */
	assert_int_equal(ring_size__pick(&in), 512 * 1024);
	in.mlock_kb = 132;
	assert_int_equal(ring_size__pick(&in), 128 * 1024);
}

/* The fix for rings past the locked-memory allowance: computed, one line. */
static void test_mlock_hint(void **state)
{
	struct ring_mlock_in in = { .data_bytes = 4 * MIB,
				    .page = PAGE,
				    .nr_rings = 2,
				    .nr_cpus = 2,
				    .mlock_kb = 516,
				    .memlock_kb = 0,
				    .memlock_hard_kb = 0 };
	char buf[512];
	const char *h;

	(void)state;
	/* `ulimit -l 0` (hard too): 2 x (4096 + 4) KiB against 2 x 516. */
	h = ring_size__mlock_hint(&in, buf, sizeof(buf));
	assert_non_null(strstr(h, "2 rings need 8200 KiB"));
	assert_non_null(strstr(h, "'sudo sysctl -w kernel.perf_event_mlock_kb=4100'"));
	/* 2 x (512 + 4) KiB is exactly the allowance. */
	assert_non_null(strstr(h, "-m 512K"));
	assert_null(strchr(h, '\n'));
	/* A hard limit with room: the user raises it alone, no root. */
	in.memlock_kb = 64;
	in.memlock_hard_kb = UINT64_MAX;
	in.is_root = 1;
	h = ring_size__mlock_hint(&in, buf, sizeof(buf));
	assert_non_null(strstr(h, "'ulimit -l 7168'"));
	assert_null(strstr(h, "sysctl"));
	/* Unlimited memlock: no smaller -m to offer. */
	in.memlock_kb = UINT64_MAX;
	h = ring_size__mlock_hint(&in, buf, sizeof(buf));
	assert_null(strstr(h, "-m "));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_perf_default), cmocka_unit_test(test_sample_bytes),
		cmocka_unit_test(test_rate),	     cmocka_unit_test(test_pick),
		cmocka_unit_test(test_mlock_hint),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
