// SPDX-License-Identifier: GPL-2.0-only
/*
 * The -e grammar on a hybrid machine (tests/fixtures/sysinfo/hybrid: cpu_core
 * type 4 on CPUs 0-7, cpu_atom type 8 on CPUs 8-15): hardware, numeric, raw
 * and cache events one per core PMU, cpu_core/EVENT/, the PMU/NAME/ names,
 * the probe that drops a cache event a PMU lacks, and the groups split per
 * core PMU. The accepted rows are perf 6.1's, read with `perf evlist -v`
 * from `perf record` run over the fixture's PMUs (bind-mounted over
 * /sys/bus/event_source/devices in a mount namespace; the opens answered by
 * a software clock preloaded into perf): names, types, configs, modifier
 * bits. The groups are prec's (perf 6.1 keeps one group the kernel refuses).
 *
 * perf takes the core PMUs in the devices directory's order, which is the
 * file system's: the rows are written for cpu_atom first; where this
 * checkout lists cpu_core first, every row is checked with the two PMUs'
 * names, types and configs swapped (the fixture's two PMUs are alike for
 * every row here).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "recorder/events/parse_events.h"
#include "parse_events_expect.h"

static bool core_first; /* readdir lists cpu_core before cpu_atom here */

/* The configs the probe says no core PMU counts (0-terminated). */
static uint64_t unsupported[8];

static bool probe(const struct perf_event_attr *attr)
{
	for (int i = 0; unsupported[i]; i++)
		if (attr->type == PERF_TYPE_HW_CACHE && attr->config == unsupported[i])
			return false;
	return true;
}

static int setup_hybrid(void **state)
{
	char dir[4200];
	struct dirent *d;
	DIR *dp;
	int atom = -1, core = -1, n = 0;

	setup(state);
	fixture_path(sysfs, sizeof(sysfs), "sysinfo/hybrid/sys");
	fx.supported = probe;
	snprintf(dir, sizeof(dir), "%s/bus/event_source/devices", sysfs);
	dp = opendir(dir);
	if (!dp)
		return -1;
	while ((d = readdir(dp))) {
		if (!strcmp(d->d_name, "cpu_atom"))
			atom = n;
		if (!strcmp(d->d_name, "cpu_core"))
			core = n;
		n++;
	}
	closedir(dp);
	core_first = core >= 0 && core < atom;
	return atom < 0 || core < 0 ? -1 : 0;
}

/* s with every a and b swapped, into out. */
static void swap2(char *out, size_t size, const char *s, const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), n = 0;

	while (*s && n + 1 < size) {
		if (!strncmp(s, a, la) && n + lb < size) {
			memcpy(out + n, b, lb);
			n += lb;
			s += la;
		} else if (!strncmp(s, b, lb) && n + la < size) {
			memcpy(out + n, a, la);
			n += la;
			s += lb;
		} else {
			out[n++] = *s++;
		}
	}
	out[n] = '\0';
}

/* config=V with the core PMU type 8 or 4 in V's high bits: the other one's. */
static void config__swap(char *s, size_t size)
{
	char *c = strstr(s, "config=0x"), tail[256];
	unsigned long long v;
	char *end;

	if (!c)
		return;
	v = strtoull(c + 7, &end, 0);
	if (v >> 32 != 8 && v >> 32 != 4)
		return;
	v = (v & 0xffffffffULL) | (unsigned long long)(v >> 32 == 8 ? 4 : 8) << 32;
	snprintf(tail, sizeof(tail), "%s", end);
	snprintf(c, size - (size_t)(c - s), "config=%#llx%s", v, tail);
}

/* A row as this checkout's directory order has it (cpu_core first: swapped). */
static void row__for_order(const struct accept_row *r, struct accept_row *out, char (*bufs)[256])
{
	*out = *r;
	if (!core_first)
		return;
	for (int i = 0, b = 0; i <= r->nr; i++) {
		const char *texts[3] = { i ? r->ev[i - 1].name : r->str,
					 i ? r->ev[i - 1].desc : NULL, NULL };

		for (int t = 0; t < 2 && texts[t]; t++) {
			char tmp[256];

			swap2(tmp, sizeof(tmp), texts[t], "cpu_atom", "cpu_core");
			swap2(bufs[b], 256, tmp, "type=8", "type=4");
			config__swap(bufs[b], 256);
			if (!i)
				out->str = bufs[b];
			else if (!t)
				out->ev[i - 1].name = bufs[b];
			else
				out->ev[i - 1].desc = bufs[b];
			b++;
		}
	}
}

/* Every event of a core PMU counts on that PMU's CPUs, the others anywhere. */
static bool cpus__check(const char *str)
{
	struct event_specs specs = { 0 };
	struct prec_err e __attribute__((cleanup(prec_err__clear))) = PREC_ERR_INIT;
	bool ok = true;

	assert_int_equal(parse_events_ctx(&specs, str, &fx, &e), 0);
	for (int i = 0; i < specs.nr; i++) {
		const struct event_spec *s = &specs.v[i];
		const char *want = !s->pmu_name			    ? NULL :
				   !strcmp(s->pmu_name, "cpu_core") ? "0-7" :
				   !strcmp(s->pmu_name, "cpu_atom") ? "8-15" :
								      NULL;

		if (want ? !s->cpus || strcmp(s->cpus, want) : s->cpus != NULL) {
			print_error("'%s' event %d (%s): cpus '%s', want '%s'\n", str, i, s->name,
				    s->cpus ? s->cpus : "(none)", want ? want : "(none)");
			ok = false;
		}
	}
	event_specs__exit(&specs);
	return ok;
}

/* clang-format off */
static const struct accept_row rows[] = {
	{ "cycles", 2, {
		{ "cpu_atom/cycles/", "config=0x800000000 pmu=cpu_atom" },
		{ "cpu_core/cycles/", "config=0x400000000 pmu=cpu_core" },
	} },
	{ "cycles:u", 2, {
		{ "cpu_atom/cycles:u/", "config=0x800000000 ek=1 eh=1 pmu=cpu_atom" },
		{ "cpu_core/cycles:u/", "config=0x400000000 ek=1 eh=1 pmu=cpu_core" },
	} },
	{ "cycles:pp", 2, {
		{ "cpu_atom/cycles:pp/", "config=0x800000000 p=2 pmu=cpu_atom" },
		{ "cpu_core/cycles:pp/", "config=0x400000000 p=2 pmu=cpu_core" },
	} },
	{ "cycles:P", 2, {
		{ "cpu_atom/cycles:P/", "config=0x800000000 eG=0 P=1 pmu=cpu_atom" },
		{ "cpu_core/cycles:P/", "config=0x400000000 eG=0 P=1 pmu=cpu_core" },
	} },
	{ "instructions:ppp", 2, {
		{ "cpu_atom/instructions:ppp/", "config=0x800000001 p=3 pmu=cpu_atom" },
		{ "cpu_core/instructions:ppp/", "config=0x400000001 p=3 pmu=cpu_core" },
	} },
	{ "branches,cache-misses", 4, {
		{ "cpu_atom/branches/", "config=0x800000004 pmu=cpu_atom" },
		{ "cpu_core/branches/", "config=0x400000004 pmu=cpu_core" },
		{ "cpu_atom/cache-misses/", "config=0x800000003 pmu=cpu_atom" },
		{ "cpu_core/cache-misses/", "config=0x400000003 pmu=cpu_core" },
	} },
	{ "ref-cycles", 2, {
		{ "cpu_atom/ref-cycles/", "config=0x800000009 pmu=cpu_atom" },
		{ "cpu_core/ref-cycles/", "config=0x400000009 pmu=cpu_core" },
	} },
	{ "cpu-clock", 1, { { "cpu-clock", "type=1" } } },
	{ "1:0", 1, { { "1:0", "type=1" } } },
	/* perf 6.1 makes any numeric type but software a hardware event. */
	{ "0:0", 2, {
		{ "cpu_atom/0:0/", "config=0x800000000 pmu=cpu_atom" },
		{ "cpu_core/0:0/", "config=0x400000000 pmu=cpu_core" },
	} },
	{ "3:0", 2, {
		{ "cpu_atom/3:0/", "config=0x800000000 pmu=cpu_atom" },
		{ "cpu_core/3:0/", "config=0x400000000 pmu=cpu_core" },
	} },
	{ "0:0x500000001", 2, {
		{ "cpu_atom/0:0x500000001/", "config=0x800000001 pmu=cpu_atom" },
		{ "cpu_core/0:0x500000001/", "config=0x400000001 pmu=cpu_core" },
	} },
	/* 4 is PERF_TYPE_RAW: the PMU's type, config as written. */
	{ "4:0x3c", 2, {
		{ "cpu_atom/4:0x3c/", "type=8 config=0x3c pmu=cpu_atom" },
		{ "cpu_core/4:0x3c/", "type=4 config=0x3c pmu=cpu_core" },
	} },
	{ "r3c:u", 2, {
		{ "cpu_atom/r3c:u/", "type=8 config=0x3c ek=1 eh=1 pmu=cpu_atom" },
		{ "cpu_core/r3c:u/", "type=4 config=0x3c ek=1 eh=1 pmu=cpu_core" },
	} },
	{ "r500000003c", 2, {
		{ "cpu_atom/r500000003c/", "type=8 config=0x500000003c pmu=cpu_atom" },
		{ "cpu_core/r500000003c/", "type=4 config=0x500000003c pmu=cpu_core" },
	} },
	{ "L1-dcache-loads:u", 2, {
		{ "cpu_atom/L1-dcache-loads/", "type=3 config=0x800000000 ek=1 eh=1 pmu=cpu_atom" },
		{ "cpu_core/L1-dcache-loads/", "type=3 config=0x400000000 ek=1 eh=1 pmu=cpu_core" },
	} },
	{ "LLC-load-misses", 2, {
		{ "cpu_atom/LLC-load-misses/", "type=3 config=0x800010002 pmu=cpu_atom" },
		{ "cpu_core/LLC-load-misses/", "type=3 config=0x400010002 pmu=cpu_core" },
	} },
	{ "cycles/name=foo/", 2, {
		{ "cpu_atom/foo/", "config=0x800000000 pmu=cpu_atom" },
		{ "cpu_core/foo/", "config=0x400000000 pmu=cpu_core" },
	} },
	/* cpu_core/EVENT/: EVENT for that PMU alone, named from its text. */
	{ "cpu_core/cycles/", 1, { { "cpu_core/cycles/", "config=0x400000000 pmu=cpu_core" } } },
	{ "cpu_core/cycles/u", 1, {
		{ "cpu_core/cycles/", "config=0x400000000 ek=1 eh=1 pmu=cpu_core" },
	} },
	{ "cpu_core/cycles/pp", 1, {
		{ "cpu_core/cycles/", "config=0x400000000 p=2 pmu=cpu_core" },
	} },
	{ "cpu_core/cycles:u/", 1, {
		{ "cpu_core/cycles:u/", "config=0x400000000 ek=1 eh=1 pmu=cpu_core" },
	} },
	{ "cpu_core/cycles=1/", 1, { { "cpu_core/cycles/", "config=0x400000000 pmu=cpu_core" } } },
	{ "cpu_core/L1-dcache-loads/", 1, {
		{ "cpu_core/L1-dcache-loads/", "type=3 config=0x400000000 pmu=cpu_core" },
	} },
	{ "cpu_core/cpu-clock/", 1, { { "cpu-clock", "type=1" } } },
	/* An alias, event=, a raw term or name= is a plain PMU event. */
	{ "cpu_atom/cpu-cycles/", 1, { { "cpu_atom/cpu-cycles/", "type=8 config=0x3c pmu=cpu_atom" } } },
	{ "cpu_core/instructions/", 1, {
		{ "cpu_core/instructions/", "type=4 config=0xc0 pmu=cpu_core" },
	} },
	{ "cpu_core/event=0x3c/", 1, { { "cpu_core/event=0x3c/", "type=4 config=0x3c pmu=cpu_core" } } },
	{ "cpu_core/r3c/", 1, { { "cpu_core/r3c/", "type=4 config=0x3c pmu=cpu_core" } } },
	{ "cpu_atom/r3c/k", 1, {
		{ "cpu_atom/r3c/k", "type=8 config=0x3c eu=1 eh=1 eG=0 pmu=cpu_atom" },
	} },
	{ "cpu_core/event=0x3c,name=foo/", 1, { { "cpu_core/foo/", "type=4 config=0x3c pmu=cpu_core" } } },
	{ "cpu_core/name=x/", 1, { { "cpu_core/x/", "type=4 pmu=cpu_core" } } },
	{ "cpu_core/cycles/,cpu_atom/instructions/", 2, {
		{ "cpu_core/cycles/", "config=0x400000000 pmu=cpu_core" },
		{ "cpu_atom/instructions/", "type=8 config=0xc0 pmu=cpu_atom" },
	} },
	/* Groups: one per core PMU, the others with the first one's. */
	{ "{cycles,instructions}", 4, {
		{ "cpu_atom/cycles/", "config=0x800000000 pmu=cpu_atom N=2" },
		{ "cpu_atom/instructions/", "config=0x800000001 pmu=cpu_atom L=0" },
		{ "cpu_core/cycles/", "config=0x400000000 pmu=cpu_core N=2" },
		{ "cpu_core/instructions/", "config=0x400000001 pmu=cpu_core L=2" },
	} },
	{ "g{cycles,instructions}:D", 4, {
		{ "cpu_atom/cycles/", "config=0x800000000 D=1 pmu=cpu_atom N=2 gname=g" },
		{ "cpu_atom/instructions/", "config=0x800000001 pmu=cpu_atom L=0" },
		{ "cpu_core/cycles/", "config=0x400000000 D=1 pmu=cpu_core N=2 gname=g" },
		{ "cpu_core/instructions/", "config=0x400000001 pmu=cpu_core L=2" },
	} },
	{ "{cycles,instructions}:S", 4, {
		{ "cpu_atom/cycles/", "config=0x800000000 S=1 pmu=cpu_atom N=2" },
		{ "cpu_atom/instructions/", "config=0x800000001 S=1 pmu=cpu_atom L=0" },
		{ "cpu_core/cycles/", "config=0x400000000 S=1 pmu=cpu_core N=2" },
		{ "cpu_core/instructions/", "config=0x400000001 S=1 pmu=cpu_core L=2" },
	} },
	{ "{cycles,cpu-clock}", 3, {
		{ "cpu_atom/cycles/", "config=0x800000000 pmu=cpu_atom N=2" },
		{ "cpu-clock", "type=1 L=0" },
		{ "cpu_core/cycles/", "config=0x400000000 pmu=cpu_core" },
	} },
	{ "{cpu-clock,cycles}", 3, {
		{ "cpu-clock", "type=1 N=2" },
		{ "cpu_atom/cycles/", "config=0x800000000 pmu=cpu_atom L=0" },
		{ "cpu_core/cycles/", "config=0x400000000 pmu=cpu_core" },
	} },
	{ "{cycles,cpu_core/event=0xc0/}", 3, {
		{ "cpu_atom/cycles/", "config=0x800000000 pmu=cpu_atom" },
		{ "cpu_core/cycles/", "config=0x400000000 pmu=cpu_core N=2" },
		{ "cpu_core/event=0xc0/", "type=4 config=0xc0 pmu=cpu_core L=1" },
	} },
	/* One core PMU: a group as written. */
	{ "{cpu_core/cycles/,cpu_core/instructions/}", 2, {
		{ "cpu_core/cycles/", "config=0x400000000 pmu=cpu_core N=2" },
		{ "cpu_core/instructions/", "type=4 config=0xc0 pmu=cpu_core L=0" },
	} },
	{ "{cycles}", 2, {
		{ "cpu_atom/cycles/", "config=0x800000000 pmu=cpu_atom" },
		{ "cpu_core/cycles/", "config=0x400000000 pmu=cpu_core" },
	} },
};
/* clang-format on */

static void test_accepted(void **state)
{
	int failed = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		char bufs[16][256];
		struct accept_row r;

		row__for_order(&rows[i], &r, bufs);
		failed += !accept_row__check(&r);
		failed += !cpus__check(r.str);
	}
	assert_int_equal(failed, 0);
}

/* A plain alias of cpu_core alone: one event, named with its PMU (record__uniquify_name). */
static void test_alias_of_one_pmu(void **state)
{
	static const struct accept_row rows1[] = {
		{ "topdown-retiring:u",
		  1,
		  {
			  { "cpu_core/topdown-retiring:u/",
			    "type=4 config=0x8000 ek=1 eh=1 pmu=cpu_core" },
		  } },
		{ "cpu_core/topdown-retiring/",
		  1,
		  {
			  { "cpu_core/topdown-retiring/", "type=4 config=0x8000 pmu=cpu_core" },
		  } },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(rows1) / sizeof(rows1[0]); i++) {
		assert_true(accept_row__check(&rows1[i]));
		assert_true(cpus__check(rows1[i].str));
	}
}

/* The probe: a cache event only on the core PMUs that count it; on none, an error. */
static void test_cache_probe(void **state)
{
	struct event_specs specs = { 0 };
	struct prec_err e __attribute__((cleanup(prec_err__clear))) = PREC_ERR_INIT;

	(void)state;
	/* cpu_atom has no L1-dcache-load-misses (config 0x10000). */
	unsupported[0] = 0x800010000ULL;
	unsupported[1] = 0;
	assert_int_equal(parse_events_ctx(&specs, "L1-dcache-load-misses", &fx, &e), 0);
	assert_int_equal(specs.nr, 1);
	assert_string_equal(specs.v[0].name, "cpu_core/L1-dcache-load-misses/");
	assert_int_equal(specs.v[0].attr.config, 0x400010000ULL);
	assert_string_equal(specs.v[0].cpus, "0-7");
	event_specs__exit(&specs);

	/* Counted nowhere: dropped from a list, as perf drops it ... */
	unsupported[1] = 0x400010000ULL;
	assert_int_equal(parse_events_ctx(&specs, "L1-dcache-load-misses,cpu-clock", &fx, &e), 0);
	assert_int_equal(specs.nr, 1);
	assert_string_equal(specs.v[0].name, "cpu-clock");
	assert_int_equal(parse_events_ctx(&specs, "{L1-dcache-load-misses,cycles}", &fx, &e), 0);
	assert_int_equal(specs.nr, 3);
	assert_int_equal(specs.v[1].nr_members, 1);
	event_specs__exit(&specs);

	/* ... but an argument or a group left with nothing is refused, naming it. */
	assert_int_equal(parse_events_ctx(&specs, "L1-dcache-load-misses:u", &fx, &e), -EINVAL);
	assert_int_equal(specs.nr, 0);
	assert_non_null(strstr(prec_err__msg(&e),
			       "counts cache event 'L1-dcache-load-misses' at offset 0"));
	assert_non_null(strstr(prec_err__msg(&e), "cpu_atom"));
	assert_int_equal(parse_events_ctx(&specs, "cpu-clock,{L1-dcache-load-misses}", &fx, &e),
			 -EINVAL);
	assert_non_null(strstr(prec_err__msg(&e), "at offset 11"));
	/* Inside cpu_core/.../ it is then an unknown term, as in perf. */
	assert_int_equal(parse_events_ctx(&specs, "cpu_core/L1-dcache-load-misses/", &fx, &e),
			 -EINVAL);
	assert_non_null(strstr(prec_err__msg(&e),
			       "unknown term 'L1-dcache-load-misses' for PMU 'cpu_core'"));
	assert_int_equal(specs.nr, 0);
	unsupported[0] = 0;

	/* Without a probe (the side-band's -e, the fuzzer) every PMU counts it. */
	fx.supported = NULL;
	assert_int_equal(parse_events_ctx(&specs, "L1-dcache-load-misses", &fx, &e), 0);
	assert_int_equal(specs.nr, 2);
	fx.supported = probe;
	event_specs__exit(&specs);
}

/* What is not an event inside cpu_core/.../ is a term, with the term's error. */
static void test_inside_errors(void **state)
{
	static const char *const bad[] = {
		"cpu_core/foo/",   "cpu_core/cycles,period=1000/",
		"cpu_core/0:0/",   "cpu_core/cycles:x/",
		"cpu_core/r3c=5/",
	};
	struct event_specs specs = { 0 };
	struct prec_err e __attribute__((cleanup(prec_err__clear))) = PREC_ERR_INIT;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		prec_err__clear(&e);
		assert_int_equal(parse_events_ctx(&specs, bad[i], &fx, &e), -EINVAL);
		assert_int_equal(specs.nr, 0);
		assert_non_null(strstr(prec_err__msg(&e), "at offset"));
	}
	assert_int_equal(parse_events_ctx(&specs, "cpu_core/foo/", &fx, &e), -EINVAL);
	assert_non_null(strstr(prec_err__msg(&e), "unknown term 'foo' for PMU 'cpu_core'"));
}

/* --group's one group, split again per core PMU (event_specs__split_hybrid_groups). */
static void test_split_after_group(void **state)
{
	struct event_specs specs = { 0 };
	struct prec_err e __attribute__((cleanup(prec_err__clear))) = PREC_ERR_INIT;
	const char *first = core_first ? "cpu_core" : "cpu_atom";

	(void)state;
	assert_int_equal(parse_events_ctx(&specs, "cpu-clock,cycles,instructions", &fx, &e), 0);
	assert_int_equal(specs.nr, 5);
	for (int i = 0; i < specs.nr; i++)
		specs.v[i].leader = 0, specs.v[i].nr_members = 1;
	specs.v[0].nr_members = 5;
	assert_int_equal(event_specs__split_hybrid_groups(&specs, 0), 0);
	/* cpu-clock leads the first core PMU's group; the other PMU's events follow. */
	assert_string_equal(specs.v[0].name, "cpu-clock");
	assert_int_equal(specs.v[0].nr_members, 3);
	assert_string_equal(specs.v[1].pmu_name, first);
	assert_string_equal(specs.v[2].pmu_name, first);
	assert_int_equal(specs.v[1].leader, 0);
	assert_int_equal(specs.v[2].leader, 0);
	assert_int_equal(specs.v[3].leader, 3);
	assert_int_equal(specs.v[3].nr_members, 2);
	assert_int_equal(specs.v[4].leader, 3);
	assert_string_equal(specs.v[3].pmu_name, specs.v[4].pmu_name);
	assert_string_not_equal(specs.v[3].pmu_name, first);
	/* Nothing to split: as it was. */
	assert_int_equal(event_specs__split_hybrid_groups(&specs, 0), 0);
	assert_int_equal(specs.v[0].nr_members, 3);
	event_specs__exit(&specs);
}

/* Not hybrid: the same strings give one plain event, as before. */
static void test_not_hybrid(void **state)
{
	struct parse_events_ctx plain = { 0 };
	char root[4096];
	struct prec_err e __attribute__((cleanup(prec_err__clear))) = PREC_ERR_INIT;
	struct event_specs specs = { 0 };

	(void)state;
	fixture_path(root, sizeof(root), "pmu/sys");
	plain.sysfs = root;
	plain.tracefs = fx.tracefs;
	plain.supported = probe;
	assert_int_equal(parse_events_ctx(&specs, "{cycles,L1-dcache-loads,r3c,0:0}", &plain, &e),
			 0);
	assert_int_equal(specs.nr, 4);
	assert_string_equal(specs.v[0].name, "cycles");
	assert_int_equal(specs.v[0].attr.config, 0);
	assert_int_equal(specs.v[0].nr_members, 4);
	assert_string_equal(specs.v[1].name, "L1-dcache-loads");
	assert_int_equal(specs.v[2].attr.type, PERF_TYPE_RAW);
	for (int i = 0; i < specs.nr; i++) {
		assert_null(specs.v[i].pmu_name);
		assert_null(specs.v[i].cpus);
	}
	event_specs__exit(&specs);
}

int main(void)
{
	/* clang-format off */
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_accepted),
		cmocka_unit_test(test_alias_of_one_pmu),
		cmocka_unit_test(test_cache_probe),
		cmocka_unit_test(test_inside_errors),
		cmocka_unit_test(test_split_after_group),
		cmocka_unit_test(test_not_hybrid),
	};
	/* clang-format on */

	return cmocka_run_group_tests(tests, setup_hybrid, NULL);
}
