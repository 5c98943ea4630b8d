// SPDX-License-Identifier: GPL-2.0-only
/*
 * PMU_MAPPINGS, CPU_PMU_CAPS, HYBRID_TOPOLOGY and PMU_CAPS: the exact bytes,
 * first against sections perf 6.1 itself wrote on the development VM (perf
 * record; no PMU there has caps), then each selection rule (which PMU is
 * "cpu", which are hybrid, in what order) and what is left out.
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

#include "prec/sysinfo.h"
#include "writer/features.h"
#include "feat_expect.h"

/* ---- sections perf 6.1 wrote on the development VM ---- */

/* clang-format off */
/* PMU_MAPPINGS, 364 bytes */
static const char vm_pmu_mappings[] =
	"050000000100000040000000736f667477617265000000000000000000000000"
	"0000000000000000000000000000000000000000000000000000000000000000"
	"00000000000000000000000008000000400000007570726f6265000000000000"
	"0000000000000000000000000000000000000000000000000000000000000000"
	"0000000000000000000000000000000000000000050000004000000062726561"
	"6b706f696e740000000000000000000000000000000000000000000000000000"
	"0000000000000000000000000000000000000000000000000000000002000000"
	"400000007472616365706f696e74000000000000000000000000000000000000"
	"0000000000000000000000000000000000000000000000000000000000000000"
	"0000000009000000400000006d73720000000000000000000000000000000000"
	"0000000000000000000000000000000000000000000000000000000000000000"
	"000000000000000000000000";

/* PMU_CAPS, 4 bytes */
static const char vm_pmu_caps[] =
	"00000000";
/* clang-format on */

/* ---- the machines ---- */

#define PMU(n, t)                    \
	{                            \
		.name = n, .type = t \
	}

/* The development VM, in perf's (directory) order. */
static struct sysinfo_pmu vm_pmus[] = {
	PMU("software", 1),   PMU("uprobe", 8), PMU("breakpoint", 5),
	PMU("tracepoint", 2), PMU("msr", 9),
};

static struct sysinfo_pmu_cap core_caps[] = {
	{ "branches", "32" },
	{ "max_precise", "3" },
	{ "pmu_name", "alderlake_hybrid" },
};
static struct sysinfo_pmu_cap atom_caps[] = {
	{ "branches", "32" },
	{ "pmu_name", "alderlake_hybrid" },
};
static struct sysinfo_pmu_cap pt_caps[] = {
	{ "psb_cyc", "1" },
	{ "topa_output", "1" },
};
static struct sysinfo_pmu_cap cpu_caps[] = {
	{ "branches", "32" },
	{ "max_precise", "3" },
	{ "pmu_name", "skylake" },
};

/*
 * A hybrid laptop as sysfs lists it: cpu_atom before cpu_core, PMUs with and
 * without caps, a "cpu_" PMU without cpus (not hybrid to perf) that has caps,
 * and a hybrid PMU with none.
 */
static struct sysinfo_pmu laptop_pmus[] = {
	PMU("software", 1),
	{ .name = "cpu_atom", .type = 10, .caps = atom_caps, .nr_caps = 2, .cpus = "16-23" },
	PMU("power", 22),
	{ .name = "intel_pt", .type = 9, .caps = pt_caps, .nr_caps = 2 },
	{ .name = "cpu_core", .type = 4, .caps = core_caps, .nr_caps = 3, .cpus = "0-15" },
	{ .name = "uncore_imc_0", .type = 23, .cpus = "0" }, /* no caps, not "cpu_" */
	{ .name = "cpu_fake", .type = 30, .caps = pt_caps, .nr_caps = 1 }, /* no cpus */
	{ .name = "cpu_bare", .type = 31, .cpus = "24" }, /* hybrid, no caps */
	{ .name = NULL, .type = 99 }, /* a directory sysinfo could not name */
};

static void fill(struct sysinfo *si, struct sysinfo_pmu *pmus, uint32_t nr)
{
	memset(si, 0, sizeof(*si));
	si->pmus = pmus;
	si->nr_pmus = nr;
}

#define N(a) ((uint32_t)(sizeof(a) / sizeof((a)[0])))

static void tb_caps(struct tbuf *t, const struct sysinfo_pmu_cap *c, uint32_t nr)
{
	tb_u32(t, nr);
	for (uint32_t i = 0; i < nr; i++) {
		tb_str(t, c[i].name);
		tb_str(t, c[i].value);
	}
}

/* The same PMUs, the same bytes as perf record's file. */
static void test_vm_golden(void **state)
{
	struct sysinfo si;
	struct writer_meta m = { .si = &si };
	struct tbuf t;

	(void)state;
	fill(&si, vm_pmus, N(vm_pmus));
	t = unhex(vm_pmu_mappings);
	assert_feature(HEADER_PMU_MAPPINGS, &m, &t);
	free(t.b);
	t = unhex(vm_pmu_caps);
	assert_feature(HEADER_PMU_CAPS, &m, &t);
	free(t.b);
	/* perf 6.1 there: "missing features: ... CPU_PMU_CAPS ... HYBRID_TOPOLOGY" */
	assert_left_out(HEADER_CPU_PMU_CAPS, &m, -ENOENT);
	assert_left_out(HEADER_HYBRID_TOPOLOGY, &m, -ENOENT);
}

/* ---- PMU_MAPPINGS ---- */

static void test_pmu_mappings(void **state)
{
	struct sysinfo si;
	struct writer_meta m = { .si = &si };
	struct tbuf t = { 0 };

	(void)state;
	fill(&si, laptop_pmus, N(laptop_pmus));
	tb_u32(&t, N(laptop_pmus) - 1); /* the nameless one is skipped */
	for (uint32_t i = 0; i < N(laptop_pmus) - 1; i++) {
		tb_u32(&t, laptop_pmus[i].type);
		tb_str(&t, laptop_pmus[i].name);
	}
	assert_feature(HEADER_PMU_MAPPINGS, &m, &t);
	free(t.b);

	/*
	 * No event source (event_source/devices missing or empty): perf 6.1's
	 * write_pmu_mappings() still writes the section, with pmu_num 0. Only
	 * the absence of any snapshot leaves it out.
	 */
	t = (struct tbuf){ 0 };
	tb_u32(&t, 0);
	fill(&si, NULL, 0);
	assert_feature(HEADER_PMU_MAPPINGS, &m, &t);
	fill(&si, laptop_pmus + N(laptop_pmus) - 1, 1); /* only a nameless one */
	assert_feature(HEADER_PMU_MAPPINGS, &m, &t);
	free(t.b);
	assert_left_out(HEADER_PMU_MAPPINGS, NULL, -ENOENT);
	fill(&si, NULL, 3);
	assert_left_out(HEADER_PMU_MAPPINGS, &m, -EINVAL);
}

/* ---- CPU_PMU_CAPS ---- */

static void test_cpu_pmu_caps(void **state)
{
	struct sysinfo_pmu pmus[] = {
		PMU("software", 1),
		{ .name = "cpu", .type = 4, .caps = cpu_caps, .nr_caps = 3 },
		PMU("msr", 9),
	};
	struct sysinfo si;
	struct writer_meta m = { .si = &si };
	struct tbuf t = { 0 };

	(void)state;
	fill(&si, pmus, N(pmus));
	/* the pairs alone: the PMU's name is implied */
	tb_caps(&t, cpu_caps, 3);
	assert_int_equal(t.n, 4 + 6 * 68);
	assert_feature(HEADER_CPU_PMU_CAPS, &m, &t);
	free(t.b);

	/* A cpu PMU without caps/: still written, nr 0 ("not available"). */
	pmus[1].caps = NULL;
	pmus[1].nr_caps = 0;
	t = (struct tbuf){ 0 };
	tb_u32(&t, 0);
	assert_feature(HEADER_CPU_PMU_CAPS, &m, &t);
	free(t.b);

	/* A caps/ perf cannot list (a file where the directory should be):
	 * perf_pmu__caps_parse() returns -EINVAL and the feature is dropped. */
	pmus[1].caps_unreadable = true;
	assert_left_out(HEADER_CPU_PMU_CAPS, &m, -ENOENT);
	pmus[1].caps_unreadable = false;

	/* Caps promised, none there. */
	pmus[1].nr_caps = 2;
	assert_left_out(HEADER_CPU_PMU_CAPS, &m, -EINVAL);

	/* No "cpu" PMU (hybrid parts, VMs): left out, as perf's -ENOENT. */
	fill(&si, laptop_pmus, N(laptop_pmus));
	assert_left_out(HEADER_CPU_PMU_CAPS, &m, -ENOENT);
	assert_left_out(HEADER_CPU_PMU_CAPS, NULL, -ENOENT);
	fill(&si, NULL, 2);
	assert_left_out(HEADER_CPU_PMU_CAPS, &m, -EINVAL);
}

/* ---- HYBRID_TOPOLOGY ---- */

static void test_hybrid_topology(void **state)
{
	struct sysinfo si;
	struct writer_meta m = { .si = &si };
	struct tbuf t = { 0 };

	(void)state;
	fill(&si, laptop_pmus, N(laptop_pmus));
	/* hybrid = "cpu_*" with a cpus list, in directory order */
	tb_u32(&t, 3);
	tb_str(&t, "cpu_atom");
	tb_str(&t, "16-23");
	tb_str(&t, "cpu_core");
	tb_str(&t, "0-15");
	tb_str(&t, "cpu_bare");
	tb_str(&t, "24");
	assert_feature(HEADER_HYBRID_TOPOLOGY, &m, &t);
	free(t.b);

	assert_left_out(HEADER_HYBRID_TOPOLOGY, NULL, -ENOENT);
	fill(&si, vm_pmus, N(vm_pmus));
	assert_left_out(HEADER_HYBRID_TOPOLOGY, &m, -ENOENT);
	{
		/* a cpus file that holds no CPU number is no hybrid PMU; one
		 * fscanf("%u") reads past blanks is */
		struct sysinfo_pmu odd[] = { { .name = "cpu_core", .type = 4, .cpus = "" },
					     { .name = "cpu_atom", .type = 10, .cpus = "\n" },
					     { .name = "cpu_x", .type = 11, .cpus = "x1" },
					     { .name = "cpu_y", .type = 12, .cpus = " 7" } };

		fill(&si, odd, 3);
		assert_left_out(HEADER_HYBRID_TOPOLOGY, &m, -ENOENT);
		fill(&si, odd, 4);
		t = (struct tbuf){ 0 };
		tb_u32(&t, 1);
		tb_str(&t, "cpu_y");
		tb_str(&t, " 7");
		assert_feature(HEADER_HYBRID_TOPOLOGY, &m, &t);
		free(t.b);
	}
	fill(&si, NULL, 1);
	assert_left_out(HEADER_HYBRID_TOPOLOGY, &m, -EINVAL);
}

/* ---- PMU_CAPS ---- */

static void test_pmu_caps_order(void **state)
{
	struct sysinfo si;
	struct writer_meta m = { .si = &si };
	struct tbuf t = { 0 };

	(void)state;
	fill(&si, laptop_pmus, N(laptop_pmus));
	/* nr counts the PMUs but "cpu" that have caps (cpu_bare has none: 4);
	 * then the hybrid PMUs come first, with or without caps, then the
	 * others that have caps, each pass in directory order: five entries
	 * behind a count of four, as perf 6.1's write_pmu_caps() lays them out */
	tb_u32(&t, 4);
	tb_caps(&t, atom_caps, 2);
	tb_str(&t, "cpu_atom");
	tb_caps(&t, core_caps, 3);
	tb_str(&t, "cpu_core");
	tb_caps(&t, NULL, 0);
	tb_str(&t, "cpu_bare");
	tb_caps(&t, pt_caps, 2);
	tb_str(&t, "intel_pt");
	tb_caps(&t, pt_caps, 1);
	tb_str(&t, "cpu_fake");
	assert_feature(HEADER_PMU_CAPS, &m, &t);
	free(t.b);
}

/* "cpu" is CPU_PMU_CAPS' alone; nothing with caps: nr 0, still written. */
static void test_pmu_caps_cpu_and_empty(void **state)
{
	struct sysinfo_pmu pmus[] = {
		{ .name = "cpu", .type = 4, .caps = cpu_caps, .nr_caps = 3 },
		{ .name = "intel_pt", .type = 9, .caps = pt_caps, .nr_caps = 2 },
		PMU("software", 1),
	};
	struct sysinfo si;
	struct writer_meta m = { .si = &si };
	struct tbuf t = { 0 };

	(void)state;
	fill(&si, pmus, N(pmus));
	tb_u32(&t, 1);
	tb_caps(&t, pt_caps, 2);
	tb_str(&t, "intel_pt");
	assert_feature(HEADER_PMU_CAPS, &m, &t);
	free(t.b);

	t = (struct tbuf){ 0 };
	tb_u32(&t, 0);
	fill(&si, pmus, 1); /* only "cpu" */
	assert_feature(HEADER_PMU_CAPS, &m, &t);
	fill(&si, NULL, 0); /* no PMU at all */
	assert_feature(HEADER_PMU_CAPS, &m, &t);
	free(t.b);

	assert_left_out(HEADER_PMU_CAPS, NULL, -ENOENT);
	fill(&si, NULL, 1);
	assert_left_out(HEADER_PMU_CAPS, &m, -EINVAL);
	/* a listed PMU whose caps are missing: the whole feature rolls back */
	pmus[1].caps = NULL;
	fill(&si, pmus, N(pmus));
	assert_left_out(HEADER_PMU_CAPS, &m, -EINVAL);
}

/*
 * Hybrid PMUs without caps/ (hidden, or a kernel without them): perf counts
 * only PMUs with caps, so with no other caps it writes nr 0 and nothing else
 * ("# cpu_core pmu capabilities" is then not printed at all); with another
 * PMU's caps it writes every hybrid PMU, capless, before it.
 */
static void test_pmu_caps_hybrid_without_caps(void **state)
{
	struct sysinfo_pmu pmus[] = {
		{ .name = "cpu_core", .type = 4, .cpus = "0-15" },
		PMU("software", 1),
		{ .name = "cpu_atom", .type = 10, .cpus = "16-23" },
		{ .name = "intel_pt", .type = 9, .caps = pt_caps, .nr_caps = 2 },
	};
	struct sysinfo si;
	struct writer_meta m = { .si = &si };
	struct tbuf t = { 0 };

	(void)state;
	fill(&si, pmus, 3);
	tb_u32(&t, 0);
	assert_feature(HEADER_PMU_CAPS, &m, &t);
	free(t.b);

	t = (struct tbuf){ 0 };
	fill(&si, pmus, N(pmus));
	tb_u32(&t, 1);
	tb_caps(&t, NULL, 0);
	tb_str(&t, "cpu_core");
	tb_caps(&t, NULL, 0);
	tb_str(&t, "cpu_atom");
	tb_caps(&t, pt_caps, 2);
	tb_str(&t, "intel_pt");
	assert_feature(HEADER_PMU_CAPS, &m, &t);
	free(t.b);

	/* A caps/ perf could not list counts as no caps here too. */
	t = (struct tbuf){ 0 };
	pmus[3].caps = NULL;
	pmus[3].nr_caps = 0;
	pmus[3].caps_unreadable = true;
	tb_u32(&t, 0);
	assert_feature(HEADER_PMU_CAPS, &m, &t);
	free(t.b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vm_golden),
		cmocka_unit_test(test_pmu_mappings),
		cmocka_unit_test(test_cpu_pmu_caps),
		cmocka_unit_test(test_hybrid_topology),
		cmocka_unit_test(test_pmu_caps_order),
		cmocka_unit_test(test_pmu_caps_cpu_and_empty),
		cmocka_unit_test(test_pmu_caps_hybrid_without_caps),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
