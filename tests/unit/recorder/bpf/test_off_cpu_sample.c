// SPDX-License-Identifier: GPL-2.0-only
/*
 * --off-cpu's samples as perf 6.1 lays them out (off_cpu_sample.c), and its
 * offcpu-time event (event_specs__add_off_cpu): field by field.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <linux/perf_event.h>

#include "recorder/bpf/off_cpu_sample.h"
#include "recorder/events/parse_events.h"

static const uint64_t frames[] = { 0x7f0000001234, 0x55550000abcd, 0x555500001000 };

static struct off_cpu_sample sample(int nr_frames)
{
	return (struct off_cpu_sample){ .pid = 1235,
					.tgid = 1234,
					.period = 400000000,
					.time = 99,
					.cpu = 3,
					.cgroup_id = 77,
					.frames = frames,
					.nr_frames = nr_frames };
}

static void every_field(void **state)
{
	uint64_t buf[64];
	struct off_cpu_sample s = sample(3);
	const struct perf_event_header *h = (const void *)buf;
	size_t n = off_cpu_sample__encode(buf, sizeof(buf), OFF_CPU_SAMPLE_TYPES, 42, &s);

	(void)state;
	/* header, id, ip, tid, time, id, cpu, period, nr, ctx, 3 frames, cgroup */
	assert_int_equal(n, 14 * 8);
	assert_int_equal(h->type, PERF_RECORD_SAMPLE);
	assert_int_equal(h->misc, PERF_RECORD_MISC_USER);
	assert_int_equal(h->size, n);
	assert_int_equal(buf[1], 42);
	assert_int_equal(buf[2], frames[0]); /* IP: the first frame */
	assert_int_equal(buf[3], (uint64_t)1235 << 32 | 1234); /* pid 1234, tid 1235 */
	assert_int_equal(buf[4], 99);
	assert_int_equal(buf[5], 42);
	assert_int_equal(buf[6], 3);
	assert_int_equal(buf[7], 400000000);
	assert_int_equal(buf[8], 4); /* the frames and the context mark */
	assert_int_equal(buf[9], PERF_CONTEXT_USER);
	assert_memory_equal(&buf[10], frames, sizeof(frames));
	assert_int_equal(buf[13], 77);
}

/* perf 6.1's default layout for the event: what a recording without -a
 * writes (IDENTIFIER, IP, TID, TIME, PERIOD, CALLCHAIN). */
static void default_layout(void **state)
{
	uint64_t buf[64];
	struct off_cpu_sample s = sample(2);
	uint64_t st = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
		      PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN;
	size_t n = off_cpu_sample__encode(buf, sizeof(buf), st, 7, &s);

	(void)state;
	assert_int_equal(n, 10 * 8);
	assert_int_equal(buf[4], 99);
	assert_int_equal(buf[5], 400000000);
	assert_int_equal(buf[6], 3);
	assert_int_equal(buf[7], PERF_CONTEXT_USER);
	assert_int_equal(buf[9], frames[1]);
}

/* No stack: IP 0 and a callchain of the context mark alone, as perf. */
static void no_stack(void **state)
{
	uint64_t buf[64];
	struct off_cpu_sample s = sample(0);
	size_t n = off_cpu_sample__encode(buf, sizeof(buf), PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN,
					  1, &s);

	(void)state;
	assert_int_equal(n, 4 * 8);
	assert_int_equal(buf[1], 0);
	assert_int_equal(buf[2], 1);
	assert_int_equal(buf[3], PERF_CONTEXT_USER);
}

/* A layout perf 6.1 cannot write (RAW, READ...) or a buffer too small: 0. */
static void refused(void **state)
{
	uint64_t buf[64];
	struct off_cpu_sample s = sample(3);

	(void)state;
	assert_int_equal(off_cpu_sample__encode(buf, sizeof(buf), PERF_SAMPLE_IP | PERF_SAMPLE_RAW,
						1, &s),
			 0);
	assert_int_equal(off_cpu_sample__encode(buf, sizeof(buf), PERF_SAMPLE_READ, 1, &s), 0);
	assert_int_equal(off_cpu_sample__encode(buf, 8 * 8, OFF_CPU_SAMPLE_TYPES, 1, &s), 0);
}

/* perf's off_cpu_config: bpf-output named offcpu-time, callchain, period 1. */
static void the_event(void **state)
{
	struct event_specs specs = { 0 };
	const struct event_spec *spec;
	struct prec_err e __attribute__((cleanup(prec_err__clear))) = PREC_ERR_INIT;

	(void)state;
	assert_int_equal(event_specs__add_off_cpu(&specs), 0);
	assert_int_equal(specs.nr, 1);
	spec = &specs.v[0];
	assert_string_equal(spec->name, "offcpu-time");
	assert_int_equal(spec->attr.type, PERF_TYPE_SOFTWARE);
	assert_int_equal(spec->attr.config, PERF_COUNT_SW_BPF_OUTPUT);
	assert_int_equal(spec->attr.sample_type, PERF_SAMPLE_CALLCHAIN);
	assert_int_equal(spec->attr.sample_period, 1);
	assert_true(spec->attr.freq);
	assert_true(event_spec__is_off_cpu(spec));
	event_specs__exit(&specs);
	/* A bpf-output of another name is the user's own. */
	assert_int_equal(parse_events(&specs, "bpf-output", &e), 0);
	assert_false(event_spec__is_off_cpu(&specs.v[0]));
	event_specs__exit(&specs);
}

/* The LOST_SAMPLES of the blocks lost: the count, then the id where the
 * trailer has it (TID, TIME, CPU zero); hostile types and room refused. */
static void lost_record(void **state)
{
	uint64_t buf[OFF_CPU_LOST_MAX_BYTES / 8];
	const struct perf_event_header *h = (const void *)buf;
	uint64_t all = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
		       PERF_SAMPLE_ID | PERF_SAMPLE_CPU;
	size_t n;

	(void)state;
	memset(buf, 0xff, sizeof(buf));
	n = off_cpu_sample__lost(buf, sizeof(buf), all, 42, 7);
	assert_int_equal(n, 7 * 8);
	assert_int_equal(h->type, PERF_RECORD_LOST_SAMPLES);
	assert_int_equal(h->size, n);
	assert_int_equal(buf[1], 7);
	assert_int_equal(buf[2], 0); /* TID */
	assert_int_equal(buf[3], 0); /* TIME */
	assert_int_equal(buf[4], 42); /* ID */
	assert_int_equal(buf[5], 0); /* CPU */
	assert_int_equal(buf[6], 42); /* IDENTIFIER, last */
	assert_int_equal(off_cpu_sample__lost(buf, sizeof(buf), PERF_SAMPLE_ID, 9, 1), 3 * 8);
	assert_int_equal(buf[2], 9);
	assert_int_equal(off_cpu_sample__lost(buf, sizeof(buf), PERF_SAMPLE_REGS_USER, 9, 1), 0);
	assert_int_equal(off_cpu_sample__lost(buf, OFF_CPU_LOST_MAX_BYTES - 8, all, 9, 1), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_field), cmocka_unit_test(default_layout),
		cmocka_unit_test(no_stack),    cmocka_unit_test(refused),
		cmocka_unit_test(the_event),   cmocka_unit_test(lost_record),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
