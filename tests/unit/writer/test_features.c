// SPDX-License-Identifier: GPL-2.0-only
/*
 * Feature encoders one by one through features__encode_one: the byte layout
 * of each, what is left out when data is missing, and rollback on failure.
 * Then whole files for machines we do not have (a hybrid laptop, a
 * two-socket NUMA server), read back by stock perf when it is installed.
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
#include <unistd.h>

#include "prec/event.h"
#include "prec/sysinfo.h"
#include "prec/writer.h"
#include "writer/features.h"

#define PERF_BIN "/usr/bin/perf"

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

/* Every feature perf record writes has an encoder, except the ones still to
 * come (TRACING_DATA) and STAT, which only perf stat record
 * writes; the pipe-mode ones are perf 6.1's FEAT_OPR rows. */
static void test_table_rows(void **state)
{
	static const int file_only[] = { HEADER_TRACING_DATA, HEADER_BUILD_ID,
					 HEADER_BRANCH_STACK, HEADER_AUXTRACE,
					 HEADER_STAT,	      HEADER_CACHE,
					 HEADER_DIR_FORMAT,   HEADER_HYBRID_TOPOLOGY };

	(void)state;
	for (int id = 1; id < HEADER_LAST_FEATURE; id++) {
		bool synth = true;

		for (size_t i = 0; i < sizeof(file_only) / sizeof(file_only[0]); i++)
			synth &= file_only[i] != id;
		assert_int_equal(feat_ops[id].synth, synth);
		/* STAT is perf stat's: record never writes it. */
		if (id == HEADER_STAT)
			assert_null(feat_ops[id].write);
		else if (!feat_ops[id].write)
			fail_msg("feature %s has no encoder", feat_ops[id].name);
	}
	assert_false(feat_ops[HEADER_RESERVED].synth);
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

/* Every sysinfo-based feature of the topology and PMU sets is left out when
 * sysinfo found nothing, except PMU_MAPPINGS and PMU_CAPS: perf writes them
 * on every machine, with nr 0 when there is no PMU (with caps). */
static void test_empty_sysinfo_left_out(void **state)
{
	static const int ids[] = {
		HEADER_CPU_TOPOLOGY, HEADER_NUMA_TOPOLOGY, HEADER_CACHE,
		HEADER_MEM_TOPOLOGY, HEADER_CPU_PMU_CAPS,  HEADER_HYBRID_TOPOLOGY
	};
	struct sysinfo si;
	struct writer_meta with_si = { .si = &si };
	struct feat_sink s;

	(void)state;
	memset(&si, 0, sizeof(si));
	si.nr_cpus_avail = 4;
	si.nr_cpus_online = 4;
	feat_sink__init(&s);
	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		assert_int_equal(features__encode_one(ids[i], &with_si, &s), -ENOENT);
		assert_int_equal(features__encode_one(ids[i], NULL, &s), -ENOENT);
	}
	assert_int_equal(feat_sink__len(&s), 0);
	assert_int_equal(features__encode_one(HEADER_PMU_CAPS, NULL, &s), -ENOENT);
	assert_int_equal(features__encode_one(HEADER_PMU_CAPS, &with_si, &s), 0);
	assert_int_equal(feat_sink__len(&s), 4);
	assert_int_equal(u32_at(&s, 0), 0);
	assert_int_equal(features__encode_one(HEADER_PMU_MAPPINGS, NULL, &s), -ENOENT);
	assert_int_equal(features__encode_one(HEADER_PMU_MAPPINGS, &with_si, &s), 0);
	assert_int_equal(feat_sink__len(&s), 8);
	assert_int_equal(u32_at(&s, 4), 0);
	feat_sink__exit(&s);
}

/* ---- whole files, read back by stock perf ---- */

static const uint64_t ids_cpu[] = { 12, 13 };
static const uint64_t ids_task[] = { 14, 15 };
static struct perf_event_attr attr_cpu, attr_task;
static struct writer_event events[2];

/* As perf 6.1 sets up `-e cpu-clock,task-clock` for a workload. */
static void fill_attr(struct perf_event_attr *a, uint64_t config, int tracking)
{
	memset(a, 0, sizeof(*a));
	a->type = PERF_TYPE_SOFTWARE;
	a->size = sizeof(*a);
	a->config = config;
	a->sample_freq = 4000;
	a->freq = 1;
	a->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
			 PERF_SAMPLE_PERIOD;
	a->read_format = PERF_FORMAT_ID | PERF_FORMAT_LOST;
	a->disabled = 1;
	a->inherit = 1;
	a->enable_on_exec = 1;
	a->sample_id_all = 1;
	a->exclude_guest = 1;
	a->mmap = a->comm = a->task = a->mmap2 = a->comm_exec = (unsigned int)tracking;
}

static void fill_events(void)
{
	fill_attr(&attr_cpu, PERF_COUNT_SW_CPU_CLOCK, 1);
	fill_attr(&attr_task, PERF_COUNT_SW_TASK_CLOCK, 0);
	events[0] = (struct writer_event){ &attr_cpu, "cpu-clock", ids_cpu, 2 };
	events[1] = (struct writer_event){ &attr_task, "task-clock", ids_task, 2 };
}

static char *test_argv[] = { "prec", "record", "--", "true", NULL };

static void fill_base(struct sysinfo *si, struct writer_meta *m, uint32_t avail, uint32_t online)
{
	memset(si, 0, sizeof(*si));
	strcpy(si->hostname, "prec-test-host");
	strcpy(si->osrelease, "6.1.0-prec-test");
	strcpy(si->arch, "x86_64");
	si->nr_cpus_avail = avail;
	si->nr_cpus_online = online;
	si->cpudesc = "Test CPU";
	si->cpuid = "GenuineIntel,6,154,3";
	si->total_mem_kb = 32000000;
	memset(m, 0, sizeof(*m));
	m->si = si;
	m->exe = "/usr/local/bin/prec";
	m->argc = 4;
	m->argv = test_argv;
	m->version = "0.1.0";
	m->first_sample_time = 1000000000ULL;
	m->last_sample_time = 1500000000ULL;
}

/*
 * A 14-of-16-CPU hybrid laptop: six two-thread P-cores (CPUs 0-11, pmu
 * cpu_core), four E-cores (12-15, cpu_atom) of which 14 and 15 are offline,
 * one package, one die, one node; recorded with an event group, -k
 * monotonic, -z and -b.
 */
static char *lap_pkg[] = { "0-13" };
static char *lap_core[] = { "0-1", "2-3", "4-5", "6-7", "8-9", "10-11", "12", "13" };
static struct sysinfo_cpu lap_cpu[16];
static struct sysinfo_numa_node lap_node[] = { { 0, 16000000, 8000000, "0-13" } };
static uint64_t lap_bits[] = { ~0ULL, ~0ULL, 0xf0 }; /* blocks 0-127, 132-135 */
static struct sysinfo_mem_node lap_mem[] = { { 0, 136, lap_bits } };
static struct sysinfo_cache lap_caches[] = {
	{ 1, 64, 64, 12, "Data", "48K", "0-1" },
	{ 1, 64, 64, 8, "Instruction", "32K", "0-1" },
	{ 1, 64, 64, 8, "Data", "32K", "12" },
	{ 2, 64, 2048, 10, "Unified", "1280K", "0-1" },
	{ 2, 64, 4096, 16, "Unified", "2048K", "12-13" },
	{ 3, 64, 12288, 12, "Unified", "12288K", "0-13" },
};
static struct sysinfo_pmu_cap lap_core_caps[] = {
	{ "branches", "32" },
	{ "max_precise", "3" },
	{ "pmu_name", "alderlake_hybrid" },
};
static struct sysinfo_pmu_cap lap_atom_caps[] = {
	{ "branches", "32" },
	{ "pmu_name", "alderlake_hybrid" },
};
static struct sysinfo_pmu_cap lap_pt_caps[] = { { "psb_cyc", "1" } };
static struct sysinfo_pmu lap_pmus[] = {
	{ .name = "software", .type = 1 },
	{ .name = "cpu_core", .type = 4, .caps = lap_core_caps, .nr_caps = 3, .cpus = "0-11" },
	{ .name = "cpu_atom", .type = 10, .caps = lap_atom_caps, .nr_caps = 2, .cpus = "12-15" },
	{ .name = "intel_pt", .type = 9, .caps = lap_pt_caps, .nr_caps = 1 },
	{ .name = "tracepoint", .type = 2 },
	{ .name = "msr", .type = 11 },
};
static const struct writer_group lap_groups[] = { { NULL, 0, 2 } };

static void fill_laptop(struct sysinfo *si, struct writer_meta *m)
{
	fill_base(si, m, 16, 14);
	for (int i = 0; i < 16; i++) {
		if (i < 12)
			lap_cpu[i] = (struct sysinfo_cpu){ (i / 2) * 4, 0, 0 };
		else if (i < 14)
			lap_cpu[i] = (struct sysinfo_cpu){ 24 + i - 12, 0, 0 };
		else
			lap_cpu[i] = (struct sysinfo_cpu){ -1, -1, -1 };
	}
	si->topo = (struct sysinfo_topology){
		.package_cpus = lap_pkg,
		.nr_package = 1,
		.die_cpus = lap_pkg,
		.nr_die = 1,
		.core_cpus = lap_core,
		.nr_core = 8,
		.cpu = lap_cpu,
		.nr_cpu = 16,
	};
	si->numa = lap_node;
	si->nr_numa = 1;
	si->mem = (struct sysinfo_mem_topology){ 0x8000000, lap_mem, 1, true };
	si->caches = lap_caches;
	si->nr_caches = 6;
	si->caches_known = true;
	si->pmus = lap_pmus;
	si->nr_pmus = 6;
	m->groups = lap_groups;
	m->nr_groups = 1;
	m->use_clockid = true;
	m->clockid = 1; /* CLOCK_MONOTONIC */
	m->clockid_res_ns = 1;
	m->clock_tod_ns = 1700000000123456789ULL;
	m->clock_clockid_ns = 5000000001ULL;
	m->compressed = true;
	m->comp_level = 3;
	m->comp_ratio = 4;
	m->comp_mmap_len = 0x81000;
	m->branch_stack = true;
}

/*
 * A two-socket server: 4 cores x 2 threads per socket (CPU c and c+8 share a
 * core), CPUs 7 and 15 offline, no dies, two nodes with CPUs and a third
 * with memory only, a "cpu" PMU with caps.
 */
static char *srv_pkg[] = { "0-3,8-11", "4-6,12-14" };
static char *srv_core[] = { "0,8", "1,9", "2,10", "3,11", "4,12", "5,13", "6,14" };
static struct sysinfo_cpu srv_cpu[16];
static struct sysinfo_numa_node srv_nodes[] = {
	{ 0, 65000000, 60000000, "0-3,8-11" },
	{ 1, 66000000, 61000000, "4-6,12-14" },
	{ 2, 8000000, 7999000, "" },
};
static uint64_t srv_bits0[] = { 0xffffffffULL }; /* blocks 0-31 */
static uint64_t srv_bits1[] = { 0, 0xffffffffULL }; /* blocks 64-95 */
static struct sysinfo_mem_node srv_mem[] = {
	{ 0, 32, srv_bits0 },
	{ 1, 96, srv_bits1 },
	{ 2, 0, NULL },
};
static struct sysinfo_cache srv_caches[] = {
	{ 1, 64, 64, 8, "Data", "32K", "0,8" },
	{ 1, 64, 64, 8, "Instruction", "32K", "0,8" },
	{ 2, 64, 1024, 16, "Unified", "1024K", "0,8" },
	{ 3, 64, 32768, 11, "Unified", "22528K", "0-3,8-11" },
	{ 3, 64, 32768, 11, "Unified", "22528K", "4-6,12-14" },
};
static struct sysinfo_pmu_cap srv_cpu_caps[] = {
	{ "branches", "32" },
	{ "max_precise", "3" },
	{ "pmu_name", "skylake" },
};
static struct sysinfo_pmu srv_pmus[] = {
	{ .name = "cpu", .type = 4, .caps = srv_cpu_caps, .nr_caps = 3, .cpus = "0-6,8-14" },
	{ .name = "software", .type = 1 },
	{ .name = "uncore_imc_0", .type = 13 },
	{ .name = "tracepoint", .type = 2 },
	{ .name = "breakpoint", .type = 5 },
};

static void fill_server(struct sysinfo *si, struct writer_meta *m)
{
	fill_base(si, m, 16, 14);
	for (int i = 0; i < 16; i++) {
		if (i == 7 || i == 15)
			srv_cpu[i] = (struct sysinfo_cpu){ -1, -1, -1 };
		else
			srv_cpu[i] = (struct sysinfo_cpu){ i % 4, (i % 8) / 4, 0 };
	}
	si->topo = (struct sysinfo_topology){
		.package_cpus = srv_pkg,
		.nr_package = 2,
		.core_cpus = srv_core,
		.nr_core = 7,
		.cpu = srv_cpu,
		.nr_cpu = 16,
	};
	si->numa = srv_nodes;
	si->nr_numa = 3;
	si->mem = (struct sysinfo_mem_topology){ 0x8000000, srv_mem, 3, true };
	si->caches = srv_caches;
	si->nr_caches = 5;
	si->caches_known = true;
	si->pmus = srv_pmus;
	si->nr_pmus = 5;
}

/* Writes a small but complete recording with meta; returns the path
 * (static storage) or fails the test. */
static const char *write_file(const struct writer_meta *m)
{
	static char dir[64], path[128];
	struct perf_event_header round = { PERF_RECORD_FINISHED_ROUND, 0, 8 };
	struct {
		struct perf_event_header h;
		uint32_t pid, tid;
		char comm[16];
		uint32_t spid, stid;
		uint64_t time, id;
	} comm = {
		{ PERF_RECORD_COMM, 0, sizeof(comm) }, 42, 42, "workload", 42, 42, 1000000000ULL, 12
	};
	struct writer *w;

	strcpy(dir, "/tmp/prec-test-features-XXXXXX");
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/perf.data", dir);
	fill_events();
	assert_int_equal(writer__open(&w, path), 0);
	assert_int_equal(writer__begin(w, events, 2), 0);
	assert_int_equal(writer__write(w, &comm, sizeof(comm)), 0);
	assert_int_equal(writer__write(w, &round, sizeof(round)), 0);
	assert_int_equal(writer__finish(w, m), 0);
	return path;
}

static void remove_file(const char *path)
{
	char dir[128];

	assert_int_equal(unlink(path), 0);
	snprintf(dir, sizeof(dir), "%s", path);
	*strrchr(dir, '/') = '\0';
	assert_int_equal(rmdir(dir), 0);
}

static uint8_t *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	long end;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	end = ftell(f);
	assert_true(end >= 0);
	rewind(f);
	buf = malloc((size_t)end + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)end, f), (size_t)end);
	fclose(f);
	*len = (size_t)end;
	return buf;
}

/*
 * The feature table of the file: one section per bit set, exactly want_bits,
 * payloads back to back up to the end of the file. Returns the payload of
 * feature id (malloc'd copy, *n its size) when asked.
 */
static void check_table(const char *path, uint64_t want_bits)
{
	struct perf_file_header h;
	uint64_t end;
	size_t len;
	uint8_t *f = read_all(path, &len);
	int nr;

	memcpy(&h, f, sizeof(h));
	if (h.adds_features[0] != want_bits)
		fail_msg("feature bits %#llx, want %#llx", (unsigned long long)h.adds_features[0],
			 (unsigned long long)want_bits);
	for (int i = 1; i < HEADER_FEAT_BITS / 64; i++)
		assert_int_equal(h.adds_features[i], 0);
	nr = __builtin_popcountll(want_bits);
	end = h.data.offset + h.data.size + 16 * (uint64_t)nr;
	for (int i = 0; i < nr; i++) {
		struct perf_file_section sec;

		memcpy(&sec, f + h.data.offset + h.data.size + 16 * i, sizeof(sec));
		assert_int_equal(sec.offset, end);
		end += sec.size;
	}
	assert_int_equal(end, len);
	free(f);
}

/* Runs perf report --header-only -I; NULL when perf is not installed.
 * *err gets its stderr. Both malloc'd. */
static char *perf_header(const char *path, char **err)
{
	char cmd[512], errpath[160];
	size_t len;
	FILE *p;
	char *out;

	if (access(PERF_BIN, X_OK))
		return NULL;
	snprintf(errpath, sizeof(errpath), "%s.stderr", path);
	snprintf(cmd, sizeof(cmd), PERF_BIN " report --header-only -I -i '%s' 2>'%s'", path,
		 errpath);
	p = popen(cmd, "r");
	assert_non_null(p);
	out = calloc(1, 1 << 20);
	assert_non_null(out);
	len = fread(out, 1, (1 << 20) - 1, p);
	out[len] = '\0';
	pclose(p);
	*err = (char *)read_all(errpath, &len);
	(*err)[len] = '\0';
	unlink(errpath);
	return out;
}

/* Each expected line must be a whole line of out. */
static void assert_lines(const char *out, const char *const *lines)
{
	for (; *lines; lines++) {
		size_t n = strlen(*lines);
		const char *p = out;

		while ((p = strstr(p, *lines))) {
			if ((p == out || p[-1] == '\n') && (p[n] == '\n' || p[n] == '\0'))
				break;
			p += n;
		}
		if (!p)
			fail_msg("line \"%s\" not in:\n%s", *lines, out);
	}
}

static void assert_perf_clean(const char *err)
{
	if (strstr(err, "WARNING") || strstr(err, "failed") || strstr(err, "Error") ||
	    strstr(err, "error"))
		fail_msg("perf complained:\n%s", err);
}

#define BIT(id) (1ULL << (HEADER_##id))
/* What every file here has: the machine, the command, the events, the
 * times, and the features perf record always writes. */
#define BASE_BITS                                                                                 \
	(BIT(HOSTNAME) | BIT(OSRELEASE) | BIT(VERSION) | BIT(ARCH) | BIT(NRCPUS) | BIT(CPUDESC) | \
	 BIT(CPUID) | BIT(TOTAL_MEM) | BIT(CMDLINE) | BIT(EVENT_DESC) | BIT(SAMPLE_TIME) |        \
	 BIT(BPF_PROG_INFO) | BIT(BPF_BTF) | BIT(PMU_CAPS))
#define MACHINE_BITS                                                                           \
	(BASE_BITS | BIT(CPU_TOPOLOGY) | BIT(NUMA_TOPOLOGY) | BIT(PMU_MAPPINGS) | BIT(CACHE) | \
	 BIT(MEM_TOPOLOGY))

static void test_perf_reads_hybrid_laptop(void **state)
{
	static const char *const want[] = {
		"# nrcpus online : 14",
		"# nrcpus avail : 16",
		"# sibling sockets : 0-13",
		"# sibling dies    : 0-13",
		"# sibling threads : 0-1",
		"# sibling threads : 10-11",
		"# sibling threads : 12",
		"# sibling threads : 13",
		"# CPU 0: Core ID 0, Die ID 0, Socket ID 0",
		"# CPU 3: Core ID 4, Die ID 0, Socket ID 0",
		"# CPU 11: Core ID 20, Die ID 0, Socket ID 0",
		"# CPU 13: Core ID 25, Die ID 0, Socket ID 0",
		"# CPU 14: Core ID -1, Die ID -1, Socket ID -1",
		"# CPU 15: Core ID -1, Die ID -1, Socket ID -1",
		"# node0 meminfo  : total = 16000000 kB, free = 8000000 kB",
		"# node0 cpu list : 0-13",
		"# pmu mappings: software = 1, cpu_core = 4, cpu_atom = 10, intel_pt = 9, "
		"tracepoint = 2, msr = 11",
		"# group: {cpu-clock,task-clock}",
		"# contains samples with branch stack",
		"# CPU cache info:",
		"#  L1 Data                 48K [0-1]",
		"#  L1 Instruction          32K [0-1]",
		"#  L1 Data                 32K [12]",
		"#  L2 Unified            1280K [0-1]",
		"#  L2 Unified            2048K [12-13]",
		"#  L3 Unified           12288K [0-13]",
		"# memory nodes (nr 1, block size 0x8000000):",
		"#    0 [16G]: 0-127,132-135",
		"# clockid frequency: 1000 MHz",
		"# compressed : Zstd, level = 3, ratio = 4",
		"# clockid: monotonic (1)",
		"# hybrid cpu system:",
		"# cpu_core cpu list : 0-11",
		"# cpu_atom cpu list : 12-15",
		"# cpu_core pmu capabilities: branches=32, max_precise=3, pmu_name=alderlake_hybrid",
		"# cpu_atom pmu capabilities: branches=32, pmu_name=alderlake_hybrid",
		"# intel_pt pmu capabilities: psb_cyc=1",
		"# missing features: TRACING_DATA BUILD_ID AUXTRACE STAT DIR_FORMAT CPU_PMU_CAPS ",
		NULL,
	};
	struct sysinfo si;
	struct writer_meta m;
	const char *path;
	char *out, *err;

	(void)state;
	fill_laptop(&si, &m);
	path = write_file(&m);
	check_table(path, MACHINE_BITS | BIT(GROUP_DESC) | BIT(BRANCH_STACK) | BIT(CLOCKID) |
				  BIT(COMPRESSED) | BIT(CLOCK_DATA) | BIT(HYBRID_TOPOLOGY));
	out = perf_header(path, &err);
	if (out) {
		assert_perf_clean(err);
		assert_lines(out, want);
		assert_non_null(strstr(out, "\n# reference time: "));
		free(out);
		free(err);
	}
	remove_file(path);
}

static void test_perf_reads_two_socket_server(void **state)
{
	static const char *const want[] = {
		"# sibling sockets : 0-3,8-11",
		"# sibling sockets : 4-6,12-14",
		"# sibling threads : 0,8",
		"# sibling threads : 6,14",
		"# CPU 0: Core ID 0, Socket ID 0",
		"# CPU 5: Core ID 1, Socket ID 1",
		"# CPU 7: Core ID -1, Socket ID -1",
		"# CPU 12: Core ID 0, Socket ID 1",
		"# CPU 15: Core ID -1, Socket ID -1",
		"# node0 meminfo  : total = 65000000 kB, free = 60000000 kB",
		"# node0 cpu list : 0-3,8-11",
		"# node1 meminfo  : total = 66000000 kB, free = 61000000 kB",
		"# node1 cpu list : 4-6,12-14",
		"# node2 meminfo  : total = 8000000 kB, free = 7999000 kB",
		"# node2 cpu list : -1", /* how perf 6.1 prints an empty cpulist */
		"# pmu mappings: cpu = 4, software = 1, uncore_imc_0 = 13, tracepoint = 2, "
		"breakpoint = 5",
		"#  L1 Data                 32K [0,8]",
		"#  L3 Unified           22528K [0-3,8-11]",
		"#  L3 Unified           22528K [4-6,12-14]",
		"# memory nodes (nr 3, block size 0x8000000):",
		"#    0 [4G]: 0-31",
		"#    1 [4G]: 64-95",
		"# cpu pmu capabilities: branches=32, max_precise=3, pmu_name=skylake",
		"# missing features: TRACING_DATA BUILD_ID BRANCH_STACK GROUP_DESC AUXTRACE STAT "
		"CLOCKID DIR_FORMAT COMPRESSED CLOCK_DATA HYBRID_TOPOLOGY ",
		NULL,
	};
	struct sysinfo si;
	struct writer_meta m;
	const char *path;
	char *out, *err;

	(void)state;
	fill_server(&si, &m);
	path = write_file(&m);
	check_table(path, MACHINE_BITS | BIT(CPU_PMU_CAPS));
	out = perf_header(path, &err);
	if (out) {
		assert_perf_clean(err);
		assert_lines(out, want);
		/* no die lines without dies, no hybrid lines, no PMU_CAPS lines */
		assert_null(strstr(out, "sibling dies"));
		assert_null(strstr(out, "hybrid"));
		assert_null(strstr(out, "uncore_imc_0 pmu capabilities"));
		free(out);
		free(err);
	}
	remove_file(path);
}

/* Nothing known beyond the basics: the topology and PMU features are left
 * out cleanly (bits clear, table exact) and perf reads the rest. A cpu PMU
 * without caps/ still gets CPU_PMU_CAPS, as perf writes it. (A block size
 * without a listed node/ is not a MEM_TOPOLOGY: mem.known is false.) */
static void test_perf_reads_empty_parts(void **state)
{
	struct sysinfo_pmu cpu_only[] = { { .name = "cpu", .type = 4 } };
	struct sysinfo si;
	struct writer_meta m;
	const char *path;
	char *out, *err;

	(void)state;
	fill_base(&si, &m, 2, 2);
	si.pmus = cpu_only;
	si.nr_pmus = 1;
	si.mem.block_size = 0x8000000; /* but no nodes */
	path = write_file(&m);
	check_table(path, BASE_BITS | BIT(PMU_MAPPINGS) | BIT(CPU_PMU_CAPS));
	out = perf_header(path, &err);
	if (out) {
		static const char *const want[] = {
			"# pmu mappings: cpu = 4",
			"# cpu pmu capabilities: not available",
			"# missing features: TRACING_DATA BUILD_ID CPU_TOPOLOGY NUMA_TOPOLOGY "
			"BRANCH_STACK GROUP_DESC AUXTRACE STAT CACHE MEM_TOPOLOGY CLOCKID "
			"DIR_FORMAT COMPRESSED CLOCK_DATA HYBRID_TOPOLOGY ",
			NULL,
		};

		assert_perf_clean(err);
		assert_lines(out, want);
		free(out);
		free(err);
	}
	remove_file(path);
}

/*
 * A sysfs without cache directories, with node/ but no nodeN, and without any
 * event source (hidden under empty tmpfs mounts, say): perf 6.1 writes CACHE
 * with 0 entries, MEM_TOPOLOGY with 0 nodes and PMU_MAPPINGS with 0 PMUs, and
 * perf report prints them so. (With 0 mappings the reader fills in the PMUs
 * of the machine it runs on, so that line is not checked.)
 */
static void test_perf_reads_absent_dirs(void **state)
{
	struct sysinfo si;
	struct writer_meta m;
	const char *path;
	char *out, *err;

	(void)state;
	fill_base(&si, &m, 2, 2);
	si.caches_known = true;
	si.mem.known = true;
	si.mem.block_size = 0x8000000;
	path = write_file(&m);
	check_table(path, BASE_BITS | BIT(PMU_MAPPINGS) | BIT(CACHE) | BIT(MEM_TOPOLOGY));
	out = perf_header(path, &err);
	if (out) {
		static const char *const want[] = {
			"# CPU cache info:",
			"# memory nodes (nr 0, block size 0x8000000):",
			"# missing features: TRACING_DATA BUILD_ID CPU_TOPOLOGY NUMA_TOPOLOGY "
			"BRANCH_STACK GROUP_DESC AUXTRACE STAT CLOCKID DIR_FORMAT COMPRESSED "
			"CPU_PMU_CAPS CLOCK_DATA HYBRID_TOPOLOGY ",
			NULL,
		};

		assert_perf_clean(err);
		assert_lines(out, want);
		assert_null(strstr(out, "#  L"));
		assert_non_null(strstr(out, "\n# pmu mappings: "));
		free(out);
		free(err);
	}
	remove_file(path);
}

/* 4096 available CPUs, the last 96 offline: perf reads every id. */
static void test_perf_reads_4096_cpus(void **state)
{
	enum { NCPU = 4096, NONLINE = 4000, NCORE = NONLINE / 2 };
	static char *pkg[] = { "0-999,2000-2999", "1000-1999,3000-3999" };
	struct sysinfo_cpu *cpu = calloc(NCPU, sizeof(*cpu));
	char **core = calloc(NCORE, sizeof(*core));
	struct sysinfo si;
	struct writer_meta m;
	const char *path;
	char *out, *err;

	(void)state;
	assert_non_null(cpu);
	assert_non_null(core);
	for (int i = 0; i < NCORE; i++) {
		core[i] = malloc(32);
		assert_non_null(core[i]);
		snprintf(core[i], 32, "%d,%d", i, i + NCORE);
	}
	for (int i = 0; i < NCPU; i++)
		cpu[i] = i < NONLINE ? (struct sysinfo_cpu){ i % 1000, (i % NCORE) / 1000, 0 } :
				       (struct sysinfo_cpu){ -1, -1, -1 };
	fill_base(&si, &m, NCPU, NONLINE);
	si.topo = (struct sysinfo_topology){
		.package_cpus = pkg,
		.nr_package = 2,
		.core_cpus = core,
		.nr_core = NCORE,
		.cpu = cpu,
		.nr_cpu = NCPU,
	};
	path = write_file(&m);
	check_table(path, BASE_BITS | BIT(CPU_TOPOLOGY) | BIT(PMU_MAPPINGS));
	out = perf_header(path, &err);
	if (out) {
		static const char *const want[] = {
			"# nrcpus avail : 4096",
			"# sibling sockets : 1000-1999,3000-3999",
			"# sibling threads : 1999,3999",
			"# CPU 0: Core ID 0, Socket ID 0",
			"# CPU 3999: Core ID 999, Socket ID 1",
			"# CPU 4000: Core ID -1, Socket ID -1",
			"# CPU 4095: Core ID -1, Socket ID -1",
			NULL,
		};

		assert_perf_clean(err);
		assert_lines(out, want);
		free(out);
		free(err);
	}
	remove_file(path);
	for (int i = 0; i < NCORE; i++)
		free(core[i]);
	free(core);
	free(cpu);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_table_rows),
		cmocka_unit_test(test_unknown_ids),
		cmocka_unit_test(test_hostname_always),
		cmocka_unit_test(test_missing_sysinfo_left_out),
		cmocka_unit_test(test_nrcpus_order),
		cmocka_unit_test(test_total_mem),
		cmocka_unit_test(test_cmdline),
		cmocka_unit_test(test_event_desc),
		cmocka_unit_test(test_event_desc_rollback),
		cmocka_unit_test(test_sample_time),
		cmocka_unit_test(test_empty_sysinfo_left_out),
		cmocka_unit_test(test_perf_reads_hybrid_laptop),
		cmocka_unit_test(test_perf_reads_two_socket_server),
		cmocka_unit_test(test_perf_reads_empty_parts),
		cmocka_unit_test(test_perf_reads_absent_dirs),
		cmocka_unit_test(test_perf_reads_4096_cpus),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
