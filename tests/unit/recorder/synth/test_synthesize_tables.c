// SPDX-License-Identifier: GPL-2.0-only
/*
 * The synthesized records that describe the recording itself: COMM,
 * THREAD_MAP, CPU_MAP (every form perf reads, and its limits) and ID_INDEX
 * (split as perf 6.1 splits it, in (cpu, thread) order), each through a
 * real writer into a temp file and compared byte for byte with records
 * built here by hand (synth_expect.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "recorder/targets/cpu_map.h"
#include "prec/event.h"
#include "recorder/evlist/evlist.h"
#include "recorder/targets/thread_map.h"
#include "prec/writer.h"
#include "recorder/synth/synthesize.h"
#include "synth_expect.h"

/* ---- COMM, THREAD_MAP, CPU_MAP, ID_INDEX ---- */

struct comm_row {
	const char *comm;
	size_t id_hdr_size;
	const char *want_comm; /* as stored (at most 15 chars) */
	uint16_t want_size;
};

static const struct comm_row comm_rows[] = {
	{ "true", 24, "true", 48 },
	{ "true", 0, "true", 24 },
	{ "", 0, "", 24 },
	{ "sevench", 0, "sevench", 24 },
	{ "eightchr", 0, "eightchr", 32 },
	{ "abcdefghijklmno", 8, "abcdefghijklmno", 40 },
	{ "abcdefghijklmnop", 8, "abcdefghijklmno", 40 },
	{ "a-very-long-command-name-indeed", 48, "a-very-long-com", 80 },
};

static void test_comm(void **state)
{
	struct tw *t = *state;
	uint8_t got[2048];
	size_t n, off = 0;
	int failed = 0;

	for (size_t i = 0; i < sizeof(comm_rows) / sizeof(comm_rows[0]); i++)
		assert_int_equal(synth__comm(SYNTH_OUT(t->w), 4242, 4243, comm_rows[i].comm,
					     comm_rows[i].id_hdr_size),
				 0);
	n = tw_data(t, got, sizeof(got));
	for (size_t i = 0; i < sizeof(comm_rows) / sizeof(comm_rows[0]); i++) {
		const struct comm_row *r = &comm_rows[i];
		uint8_t want[128];
		uint32_t type = PERF_RECORD_COMM;
		uint16_t misc = 0;
		uint32_t pid = 4242, tid = 4243;

		memset(want, 0, sizeof(want));
		memcpy(want, &type, 4);
		memcpy(want + 4, &misc, 2);
		memcpy(want + 6, &r->want_size, 2);
		memcpy(want + 8, &pid, 4);
		memcpy(want + 12, &tid, 4);
		memcpy(want + 16, r->want_comm, strlen(r->want_comm));
		if (off + r->want_size > n || memcmp(got + off, want, r->want_size)) {
			uint16_t sz = 0;

			if (off + 8 <= n)
				memcpy(&sz, got + off + 6, 2);
			print_error("row %zu ('%s'): record differs (size %u, want %u)\n", i,
				    r->comm, sz, r->want_size);
			failed++;
			break; /* the rest is misaligned */
		}
		off += r->want_size;
	}
	assert_int_equal(failed, 0);
	assert_int_equal(off, n);
}

static void test_comm_too_big(void **state)
{
	struct tw *t = *state;

	assert_int_equal(synth__comm(SYNTH_OUT(t->w), 1, 1, "x", 4096), -E2BIG);
	assert_int_equal(writer__data_size(t->w), 0);
}

static void test_thread_map(void **state)
{
	struct tw *t = *state;
	uint8_t got[64], want[40];
	uint32_t type = PERF_RECORD_THREAD_MAP;
	uint16_t misc = 0, size = 40;
	uint64_t nr = 1, pid = 31337;

	assert_int_equal(synth__thread_map(SYNTH_OUT(t->w), 31337), 0);
	assert_int_equal(tw_data(t, got, sizeof(got)), 40);
	memset(want, 0, sizeof(want));
	memcpy(want, &type, 4);
	memcpy(want + 4, &misc, 2);
	memcpy(want + 6, &size, 2);
	memcpy(want + 8, &nr, 8);
	memcpy(want + 16, &pid, 8);
	/* comm[16] stays zero, as perf writes it */
	assert_memory_equal(got, want, 40);
}

struct cpu_map_row {
	const char *cpus;
	uint16_t want_size;
	uint16_t nr;
	uint16_t cpu[8];
};

static const struct cpu_map_row cpu_map_rows[] = {
	{ "0", 16, 1, { 0 } },
	{ "0-1", 16, 2, { 0, 1 } },
	{ "0-2", 24, 3, { 0, 1, 2 } },
	{ "0-2,5", 24, 4, { 0, 1, 2, 5 } },
	{ "3,7,300,65535", 24, 4, { 3, 7, 300, 65535 } },
	{ "0-4", 24, 5, { 0, 1, 2, 3, 4 } },
	{ "0-5", 24, 6, { 0, 1, 2, 3, 4, 5 } },
	/* from 7 CPUs below 64 on, the mask is no bigger: test_cpu_map_forms */
};

static void test_cpu_map(void **state)
{
	struct tw *t = *state;
	uint8_t got[512];
	size_t n, off = 0;
	int failed = 0;

	for (size_t i = 0; i < sizeof(cpu_map_rows) / sizeof(cpu_map_rows[0]); i++) {
		struct evlist evlist;

		memset(&evlist, 0, sizeof(evlist));
		assert_int_equal(cpu_map__parse(&evlist.cpus, cpu_map_rows[i].cpus), 0);
		assert_int_equal(synth__cpu_map(SYNTH_OUT(t->w), &evlist), 0);
		cpu_map__delete(evlist.cpus);
	}
	n = tw_data(t, got, sizeof(got));
	for (size_t i = 0; i < sizeof(cpu_map_rows) / sizeof(cpu_map_rows[0]); i++) {
		const struct cpu_map_row *r = &cpu_map_rows[i];
		uint8_t want[64];
		uint32_t type = PERF_RECORD_CPU_MAP;
		uint16_t zero = 0;

		memset(want, 0, sizeof(want));
		memcpy(want, &type, 4);
		memcpy(want + 4, &zero, 2);
		memcpy(want + 6, &r->want_size, 2);
		memcpy(want + 8, &zero, 2); /* u16 type: 0, the cpu list form */
		memcpy(want + 10, &r->nr, 2);
		memcpy(want + 12, r->cpu, r->nr * sizeof(uint16_t));
		if (off + r->want_size > n || memcmp(got + off, want, r->want_size)) {
			print_error("row %zu ('%s'): record differs\n", i, r->cpus);
			failed++;
			break;
		}
		off += r->want_size;
	}
	assert_int_equal(failed, 0);
	assert_int_equal(off, n);
}

/* A CPU_MAP record built by hand: header, then the payload bytes. */
static size_t build_cpu_map(uint8_t *buf, uint16_t size, const void *payload, size_t n)
{
	uint32_t type = PERF_RECORD_CPU_MAP;
	uint16_t misc = 0;

	memset(buf, 0, size);
	memcpy(buf, &type, 4);
	memcpy(buf + 4, &misc, 2);
	memcpy(buf + 6, &size, 2);
	memcpy(buf + 8, payload, n);
	return size;
}

static void test_cpu_map_forms(void **state)
{
	static const int seven[] = { 0, 1, 2, 3, 4, 5, 6 }, evens[] = { 0, 2, 4, 6, 8, 10, 12 },
			 range[] = { 4, 5, 6, 7 }, any_range[] = { -1, 0, 1 }, any[] = { -1 },
			 high[] = { 1, 64, 65535 },
			 two_words[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 64 };
	/* type, then the form's fields, little endian as on this machine */
	static const uint8_t mask64_seven[] = { 1, 0,	 1, 0, 8, 0, 0, 0, 0,
						0, 0x7f, 0, 0, 0, 0, 0, 0, 0 };
	static const uint8_t mask32_evens[] = { 1, 0, 1, 0, 4, 0, 0x55, 0x15, 0, 0 };
	static const uint8_t range_4_7[] = { 2, 0, 0, 0, 4, 0, 7, 0 };
	static const uint8_t range_any[] = { 2, 0, 1, 0, 0, 0, 1, 0 };
	static const uint8_t list_any[] = { 0, 0, 1, 0, 0xff, 0xff };
	static const uint8_t list_high[] = { 0, 0, 3, 0, 1, 0, 64, 0, 0xff, 0xff };
	static const uint8_t mask64_two[] = { 1, 0, 2, 0, 8, 0,	   0, 0, 0, 0, 0xff, 0x03, 0,
					      0, 0, 0, 0, 0, 0x01, 0, 0, 0, 0, 0,    0,	   0 };
	struct tw *t = *state;
	uint8_t got[512], want[512];
	size_t n, wn = 0;

	/* perf 5.x: the list unless {nr, long_size, longs} is smaller */
	assert_int_equal(synth__cpu_map_cpus(SYNTH_OUT(t->w), seven, 7, SYNTH_CPU_MAP_COMPAT), 0);
	wn += build_cpu_map(want + wn, 32, mask64_seven, sizeof(mask64_seven));
	assert_int_equal(synth__cpu_map_cpus(SYNTH_OUT(t->w), any, 1, SYNTH_CPU_MAP_COMPAT), 0);
	wn += build_cpu_map(want + wn, 16, list_any, sizeof(list_any));
	assert_int_equal(synth__cpu_map_cpus(SYNTH_OUT(t->w), high, 3, SYNTH_CPU_MAP_COMPAT), 0);
	wn += build_cpu_map(want + wn, 24, list_high, sizeof(list_high));
	assert_int_equal(synth__cpu_map_cpus(SYNTH_OUT(t->w), two_words, 11, SYNTH_CPU_MAP_COMPAT),
			 0);
	wn += build_cpu_map(want + wn, 40, mask64_two, sizeof(mask64_two));
	/* perf 6.1: a range when consecutive, else list or 32-bit mask */
	assert_int_equal(synth__cpu_map_cpus(SYNTH_OUT(t->w), range, 4, SYNTH_CPU_MAP_PERF61), 0);
	wn += build_cpu_map(want + wn, 16, range_4_7, sizeof(range_4_7));
	assert_int_equal(synth__cpu_map_cpus(SYNTH_OUT(t->w), any_range, 3, SYNTH_CPU_MAP_PERF61),
			 0);
	wn += build_cpu_map(want + wn, 16, range_any, sizeof(range_any));
	assert_int_equal(synth__cpu_map_cpus(SYNTH_OUT(t->w), evens, 7, SYNTH_CPU_MAP_PERF61), 0);
	wn += build_cpu_map(want + wn, 24, mask32_evens, sizeof(mask32_evens));
	assert_int_equal(synth__cpu_map_cpus(SYNTH_OUT(t->w), any, 1, SYNTH_CPU_MAP_PERF61), 0);
	wn += build_cpu_map(want + wn, 16, list_any, sizeof(list_any));
	/* the list, when the mask would be bigger (or -1 is present) */
	assert_int_equal(synth__cpu_map_cpus(SYNTH_OUT(t->w), high, 3, SYNTH_CPU_MAP_PERF61), 0);
	wn += build_cpu_map(want + wn, 24, list_high, sizeof(list_high));
	n = tw_data(t, got, sizeof(got));
	assert_int_equal(n, wn);
	assert_memory_equal(got, want, wn);
}

static void test_cpu_map_limits(void **state)
{
	static const int bad1[] = { 1, 0 }, bad2[] = { 0, 0 }, bad3[] = { 0, -1 },
			 bad4[] = { 65536 }, bad5[] = { -2 }, bad6[] = { -1, -1 };
	struct tw *t = *state;
	struct evlist evlist;
	uint8_t *got = malloc(65536);
	uint64_t w;

	assert_non_null(got);
	assert_int_equal(synth__cpu_map_cpus(SYNTH_OUT(t->w), bad1, 0, SYNTH_CPU_MAP_COMPAT),
			 -EINVAL);
	assert_int_equal(synth__cpu_map_cpus(SYNTH_OUT(t->w), bad1, 2, SYNTH_CPU_MAP_COMPAT),
			 -EINVAL);
	assert_int_equal(synth__cpu_map_cpus(SYNTH_OUT(t->w), bad2, 2, SYNTH_CPU_MAP_PERF61),
			 -EINVAL);
	assert_int_equal(synth__cpu_map_cpus(SYNTH_OUT(t->w), bad3, 2, SYNTH_CPU_MAP_COMPAT),
			 -EINVAL);
	assert_int_equal(synth__cpu_map_cpus(SYNTH_OUT(t->w), bad4, 1, SYNTH_CPU_MAP_COMPAT),
			 -EINVAL);
	assert_int_equal(synth__cpu_map_cpus(SYNTH_OUT(t->w), bad5, 1, SYNTH_CPU_MAP_COMPAT),
			 -EINVAL);
	assert_int_equal(synth__cpu_map_cpus(SYNTH_OUT(t->w), bad6, 2, SYNTH_CPU_MAP_PERF61),
			 -EINVAL);
	assert_int_equal(writer__data_size(t->w), 0);

	/* Every u16 CPU: too many for a list, 1024 words of mask (8216 bytes). */
	memset(&evlist, 0, sizeof(evlist));
	assert_int_equal(cpu_map__parse(&evlist.cpus, "0-65535"), 0);
	assert_int_equal(synth__cpu_map(SYNTH_OUT(t->w), &evlist), 0);
	cpu_map__delete(evlist.cpus);
	assert_int_equal(tw_data(t, got, 65536), 8216);
	assert_int_equal(got[8], 1); /* mask */
	assert_int_equal(got[10] | got[11] << 8, 1024);
	for (int i = 0; i < 1024; i++) {
		memcpy(&w, got + 18 + 8 * i, 8);
		assert_true(w == ~0ULL);
	}
	free(got);
}

static void test_id_index(void **state)
{
	struct tw *t = *state;
	uint64_t ids0[2] = { 10, 11 }, ids1[2] = { 20, 21 };
	struct evsel evsel[2];
	struct evlist evlist;
	uint8_t got[256];
	uint64_t want[2 + 4 * 4];
	struct perf_event_header h = { .type = PERF_RECORD_ID_INDEX, .misc = 0, .size = 144 };
	const uint64_t entries[4][4] = {
		{ 10, 0, 0, 555 },
		{ 11, 1, 3, 555 },
		{ 20, 0, 0, 555 },
		{ 21, 1, 3, 555 },
	};

	memset(evsel, 0, sizeof(evsel));
	memset(&evlist, 0, sizeof(evlist));
	evsel[0].id = ids0;
	evsel[1].id = ids1;
	evlist.evsel = evsel;
	evlist.nr = 2;
	assert_int_equal(cpu_map__parse(&evlist.cpus, "0,3"), 0);
	assert_int_equal(synth__id_index(SYNTH_OUT(t->w), &evlist, 555), 0);
	cpu_map__delete(evlist.cpus);

	memcpy(&want[0], &h, 8);
	want[1] = 4;
	memcpy(&want[2], entries, sizeof(entries));
	assert_int_equal(tw_data(t, got, sizeof(got)), 144);
	assert_memory_equal(got, want, 144);
}

/* perf 6.1 puts at most 1364 entries in a record; ids of 0 (not open) are
 * left out. */
static void test_id_index_split(void **state)
{
	struct tw *t = *state;
	struct evsel evsel;
	struct evlist evlist;
	uint64_t *ids = calloc(2048, sizeof(*ids));
	uint8_t *got = malloc(2 * 65536);
	uint64_t nr, e[4];
	uint16_t size;

	assert_non_null(ids);
	assert_non_null(got);
	for (int i = 0; i < 2048; i++)
		ids[i] = 1000 + (uint64_t)i;
	ids[5] = 0;
	memset(&evsel, 0, sizeof(evsel));
	memset(&evlist, 0, sizeof(evlist));
	evsel.id = ids;
	evlist.evsel = &evsel;
	evlist.nr = 1;

	assert_int_equal(cpu_map__parse(&evlist.cpus, "0-2047"), 0);
	assert_int_equal(synth__id_index(SYNTH_OUT(t->w), &evlist, -1), 0);
	cpu_map__delete(evlist.cpus);
	/* 2047 open ids: 1364 + 683 */
	assert_int_equal(tw_data(t, got, 2 * 65536), 16 + 1364 * 32 + 16 + 683 * 32);
	memcpy(&size, got + 6, 2);
	memcpy(&nr, got + 8, 8);
	assert_int_equal(size, 16 + 1364 * 32);
	assert_int_equal(nr, 1364);
	memcpy(e, got + 16 + 5 * 32, 32); /* the sixth entry is CPU 6's */
	assert_int_equal(e[0], 1006);
	assert_int_equal(e[1], 6);
	assert_int_equal(e[2], 6);
	assert_int_equal(e[3], ~0ULL); /* tid -1 */
	memcpy(&size, got + size + 6, 2);
	memcpy(&nr, got + 16 + 1364 * 32 + 8, 8);
	assert_int_equal(size, 16 + 683 * 32);
	assert_int_equal(nr, 683);
	memcpy(e, got + 2 * 16 + 1364 * 32 + 682 * 32, 32);
	assert_int_equal(e[0], 1000 + 2047);
	assert_int_equal(e[2], 2047);

	/* nothing open, nothing written */
	memset(ids, 0, 2048 * sizeof(*ids));
	assert_int_equal(cpu_map__parse(&evlist.cpus, "0-3"), 0);
	assert_int_equal(synth__id_index(SYNTH_OUT(t->w), &evlist, -1), 0);
	cpu_map__delete(evlist.cpus);
	assert_int_equal(writer__data_size(t->w), 16 + 1364 * 32 + 16 + 683 * 32);
	free(got);
	free(ids);
}

/* Events opened per (cpu, thread): entries in that order, the thread map's
 * tids; with --per-thread (cpu -1) the ring index is the thread's. */
static void test_id_index_threads(void **state)
{
	struct tw *t = *state;
	uint64_t ids[4] = { 10, 11, 12, 13 }, pt_ids[2] = { 20, 21 };
	struct thread_map *threads = malloc(sizeof(*threads) + 2 * sizeof(pid_t));
	struct evsel evsel;
	struct evlist evlist;
	uint64_t got[2 * (2 + 4 * 4)];
	const uint64_t want[4][4] = {
		{ 10, 0, 1, 700 },
		{ 11, 0, 1, 701 },
		{ 12, 1, 3, 700 },
		{ 13, 1, 3, 701 },
	};
	const uint64_t want_pt[2][4] = {
		{ 20, 0, ~0ULL, 700 },
		{ 21, 1, ~0ULL, 701 },
	};

	assert_non_null(threads);
	threads->nr = 2;
	threads->pid[0] = 700;
	threads->pid[1] = 701;
	memset(&evsel, 0, sizeof(evsel));
	memset(&evlist, 0, sizeof(evlist));
	evsel.id = ids;
	evsel.nr_cpus = 2;
	evsel.nr_threads = 2;
	evlist.evsel = &evsel;
	evlist.nr = 1;
	evlist.threads = threads;
	assert_int_equal(cpu_map__parse(&evlist.cpus, "1,3"), 0);
	assert_int_equal(synth__id_index(SYNTH_OUT(t->w), &evlist, 555), 0);
	cpu_map__delete(evlist.cpus);

	evlist.cpus = malloc(sizeof(*evlist.cpus) + sizeof(int));
	assert_non_null(evlist.cpus);
	evlist.cpus->nr = 1;
	evlist.cpus->cpu[0] = -1;
	evsel.id = pt_ids;
	evsel.nr_cpus = 1;
	assert_int_equal(synth__id_index(SYNTH_OUT(t->w), &evlist, 555), 0);
	free(evlist.cpus);
	free(threads);

	assert_int_equal(tw_data(t, (uint8_t *)got, sizeof(got)), 16 + 4 * 32 + 16 + 2 * 32);
	assert_int_equal(got[1], 4);
	assert_memory_equal(&got[2], want, sizeof(want));
	assert_int_equal(got[2 + 16 + 1], 2);
	assert_memory_equal(&got[2 + 16 + 2], want_pt, sizeof(want_pt));
}

static void test_thread_map_n(void **state)
{
	struct tw *t = *state;
	const pid_t tids[3] = { 100, -1, 102 };
	const char *const comms[3] = { "a", NULL, "a-name-longer-than-sixteen" };
	pid_t *many = calloc(2730, sizeof(*many));
	uint8_t got[256], want[88];
	uint32_t type = PERF_RECORD_THREAD_MAP;
	uint16_t size = 88;
	uint64_t v;

	assert_non_null(many);
	assert_int_equal(synth__thread_map_n(SYNTH_OUT(t->w), tids, comms, 3), 0);
	assert_int_equal(tw_data(t, got, sizeof(got)), 88);
	memset(want, 0, sizeof(want));
	memcpy(want, &type, 4);
	memcpy(want + 6, &size, 2);
	v = 3;
	memcpy(want + 8, &v, 8);
	v = 100;
	memcpy(want + 16, &v, 8);
	want[24] = 'a';
	v = ~0ULL;
	memcpy(want + 40, &v, 8);
	v = 102;
	memcpy(want + 64, &v, 8);
	memcpy(want + 72, "a-name-longer-t", 15); /* NUL-terminated in 16 */
	assert_memory_equal(got, want, 88);

	assert_int_equal(synth__thread_map_n(SYNTH_OUT(t->w), tids, NULL, 0), -EINVAL);
	assert_int_equal(synth__thread_map_n(SYNTH_OUT(t->w), many, NULL, 2729), 0);
	assert_int_equal(writer__data_size(t->w), 88 + 16 + 2729 * 24);
	free(many);
}

/* Walks the THREAD_MAP records from off: each within the u16 size, nr
 * matching it; their threads in order must be 1..want, and one comm named. */
static size_t thread_map_walk(const uint8_t *got, size_t n, size_t want, size_t named,
			      uint16_t *sizes, size_t max_sizes)
{
	size_t off = 0, seen = 0, recs = 0;

	while (off + 16 <= n) {
		uint32_t type;
		uint16_t size;
		uint64_t nr;

		memcpy(&type, got + off, 4);
		memcpy(&size, got + off + 6, 2);
		memcpy(&nr, got + off + 8, 8);
		assert_int_equal(type, PERF_RECORD_THREAD_MAP);
		assert_int_equal(size, 16 + nr * 24);
		assert_true(off + size <= n);
		for (uint64_t i = 0; i < nr; i++) {
			const uint8_t *e = got + off + 16 + i * 24;
			uint64_t pid;

			memcpy(&pid, e, 8);
			assert_int_equal(pid, seen + 1);
			assert_int_equal(e[8] != 0, seen == named);
			seen++;
		}
		assert_true(recs < max_sizes);
		sizes[recs++] = size;
		off += size;
	}
	assert_int_equal(off, n);
	assert_int_equal(seen, want);
	return recs;
}

/* A map of any size: perf 6.1 wraps the u16 size past 2729 threads (a
 * record of garbage, or of size 0 at 2730); prec splits it. */
static void test_thread_map_many(void **state)
{
	static const struct {
		size_t nr, recs, last;
	} rows[] = {
		{ 2730, 2, 1 },
		{ 3000, 2, 271 },
		{ 5458, 2, 2729 },
		{ 10000, 4, 1813 },
	};
	struct tw *t = *state;
	/* every row's records, one after the other */
	size_t cap = 16 * 10 + (2730 + 3000 + 5458 + 10000) * 24, base = 0;
	uint8_t *got = malloc(cap);
	pid_t *tids = calloc(10000, sizeof(*tids));
	const char **comms = calloc(10000, sizeof(*comms));

	assert_non_null(got);
	assert_non_null(tids);
	assert_non_null(comms);
	for (size_t i = 0; i < 10000; i++)
		tids[i] = (pid_t)(i + 1);
	comms[2729] = "second-record"; /* the first of the second record */
	for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		uint16_t sizes[8];
		size_t n, recs;

		assert_int_equal(synth__thread_map_n(SYNTH_OUT(t->w), tids, comms, rows[r].nr), 0);
		n = tw_data(t, got, cap);
		recs = thread_map_walk(got + base, n - base, rows[r].nr, 2729, sizes, 8);
		assert_int_equal(recs, rows[r].recs);
		for (size_t i = 0; i + 1 < recs; i++)
			assert_int_equal(sizes[i], 16 + 2729 * 24);
		assert_int_equal(sizes[recs - 1], 16 + rows[r].last * 24);
		base = n;
	}
	free(comms);
	free(tids);
	free(got);
}

#define TW(fn) cmocka_unit_test_setup_teardown(fn, tw_setup, tw_teardown)

int main(void)
{
	/* clang-format off */
	const struct CMUnitTest tests[] = {
		TW(test_comm),
		TW(test_comm_too_big),
		TW(test_thread_map),
		TW(test_cpu_map),
		TW(test_cpu_map_forms),
		TW(test_cpu_map_limits),
		TW(test_id_index),
		TW(test_id_index_split),
		TW(test_id_index_threads),
		TW(test_thread_map_n),
		TW(test_thread_map_many),
	};
	/* clang-format on */

	return cmocka_run_group_tests(tests, NULL, NULL);
}
