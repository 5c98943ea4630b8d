// SPDX-License-Identifier: GPL-2.0-only
/*
 * sysinfo caches and PMUs: the pure parsers, every cache and PMU of each
 * fixture machine, hostile trees built under mkdtemp, and stock perf as the
 * judge: on the live system, and (as root, where a private mount namespace
 * can be had) on every fixture, by bind-mounting its sysfs parts over /sys for
 * a `perf record` and comparing what `perf report --header-only -I` prints.
 * Fixture trees live under $PREC_FIXTURES/sysinfo (ctest sets it).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include <prec/sysinfo.h>
#include "sysinfo/cache_pmu.h"
#include "sysinfo/fsread.h"
#include "sysinfo/sysinfo_int.h"

#define PERF_BIN "/usr/bin/perf"

/* ---- helpers ------------------------------------------------------------ */

/* snprintf that fails the test instead of truncating a path. */
__attribute__((format(printf, 3, 4))) static void fmt(char *dst, size_t size, const char *f, ...)
{
	va_list ap;
	int n;

	va_start(ap, f);
	n = vsnprintf(dst, size, f, ap);
	va_end(ap);
	assert_true(n >= 0 && (size_t)n < size);
}

/* Fills path with $PREC_FIXTURES/sysinfo/name, or fails when unset. */
static void fixture_path(char *path, size_t size, const char *name)
{
	const char *base = getenv("PREC_FIXTURES");

	if (!base || !*base) {
		/* A test that quietly skips cannot fail: ctest always sets it. */
		fail_msg("PREC_FIXTURES is unset (run the tests through ctest)");
	}
	fmt(path, size, "%s/sysinfo/%s", base, name);
}

static int open_root(const char *path)
{
	int fd = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);

	assert_true(fd >= 0);
	return fd;
}

/* Reads caches and PMUs of the tree at root, as sysinfo__read would. */
static void read_tree(struct sysinfo *si, const char *root, uint32_t nr_cpus_avail)
{
	int fd = open_root(root);

	memset(si, 0, sizeof(*si));
	si->nr_cpus_avail = nr_cpus_avail;
	assert_int_equal(sysinfo__read_caches(si, fd), 0);
	assert_int_equal(sysinfo__read_pmus(si, fd), 0);
	close(fd);
}

static void mkdir_p(const char *path)
{
	char buf[PATH_MAX];

	fmt(buf, sizeof(buf), "%s", path);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		mkdir(buf, 0755);
		*p = '/';
	}
	mkdir(buf, 0755);
}

/* Writes root/rel (creating parent directories) with the given content. */
static void put(const char *root, const char *rel, const char *content)
{
	char path[PATH_MAX], dir[PATH_MAX];
	FILE *f;

	fmt(path, sizeof(path), "%s/%s", root, rel);
	fmt(dir, sizeof(dir), "%s", path);
	*strrchr(dir, '/') = '\0';
	mkdir_p(dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(content, f);
	fclose(f);
}

static void put_dir(const char *root, const char *rel)
{
	char path[PATH_MAX];

	fmt(path, sizeof(path), "%s/%s", root, rel);
	mkdir_p(path);
}

static void put_fifo(const char *root, const char *rel)
{
	char path[PATH_MAX];

	fmt(path, sizeof(path), "%s/%s", root, rel);
	assert_int_equal(mkfifo(path, 0644), 0);
}

static void drop(const char *root, const char *rel)
{
	char path[PATH_MAX];

	fmt(path, sizeof(path), "%s/%s", root, rel);
	assert_int_equal(unlink(path), 0);
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

static void rm_rf(const char *path)
{
	nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static void rm_at(const char *root, const char *rel)
{
	char path[PATH_MAX];

	fmt(path, sizeof(path), "%s/%s", root, rel);
	rm_rf(path);
}

static int scratch__setup(void **state)
{
	char *dir = strdup("/tmp/prec-cache-pmu.XXXXXX");

	if (!dir || !mkdtemp(dir)) {
		free(dir);
		return -1;
	}
	*state = dir;
	return 0;
}

static int scratch__teardown(void **state)
{
	rm_rf(*state);
	free(*state);
	return 0;
}

/* One complete cache index, as sysfs shows it. */
static void put_index(const char *root, unsigned int cpu, unsigned int idx, unsigned int level,
		      const char *type, const char *size, unsigned int sets, unsigned int ways,
		      const char *map)
{
	char rel[256], val[64];

#define F(name, ...)                                                                           \
	do {                                                                                   \
		fmt(rel, sizeof(rel), "sys/devices/system/cpu/cpu%u/cache/index%u/" name, cpu, \
		    idx);                                                                      \
		fmt(val, sizeof(val), __VA_ARGS__);                                            \
		put(root, rel, val);                                                           \
	} while (0)
	F("level", "%u\n", level);
	F("type", "%s\n", type);
	F("size", "%s\n", size);
	F("number_of_sets", "%u\n", sets);
	F("ways_of_associativity", "%u\n", ways);
	F("coherency_line_size", "64\n");
	F("shared_cpu_list", "%s\n", map);
#undef F
}

/* The vm machine's layout: two CPUs, L1d/L1i/L2 private, L3 shared. */
static void put_vm_caches(const char *root)
{
	put(root, "sys/devices/system/cpu/possible", "0-1\n");
	for (unsigned int c = 0; c < 2; c++) {
		char map[8];

		fmt(map, sizeof(map), "%u", c);
		put_index(root, c, 0, 1, "Data", "48K", 64, 12, map);
		put_index(root, c, 1, 1, "Instruction", "64K", 64, 16, map);
		put_index(root, c, 2, 2, "Unified", "2048K", 2048, 16, map);
		put_index(root, c, 3, 3, "Unified", "491520K", 491520, 16, "0-1");
	}
}

/* ---- pure parsers ------------------------------------------------------- */

static void test_parse_u32(void **state)
{
	static const struct {
		const char *in;
		int err;
		uint32_t val;
	} t[] = {
		{ "0\n", 0, 0 },
		{ "64\n", 0, 64 },
		{ "  491520 \n", 0, 491520 },
		{ "4294967295\n", 0, UINT32_MAX },
		{ "4294967296\n", -ERANGE, 0 },
		{ "99999999999999999999999\n", -ERANGE, 0 },
		{ "", -EINVAL, 0 },
		{ "\n", -EINVAL, 0 },
		{ "abc\n", -EINVAL, 0 },
		{ "12abc\n", -EINVAL, 0 },
		{ "-1\n", -EINVAL, 0 },
		{ "+1\n", -EINVAL, 0 },
		{ "0x10\n", -EINVAL, 0 },
		{ "1 2\n", -EINVAL, 0 },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		uint32_t v = 12345;

		assert_int_equal(sysfs_value__u32(t[i].in, strlen(t[i].in), &v), t[i].err);
		assert_int_equal(v, t[i].err ? 12345 : t[i].val);
	}
	/* An embedded NUL is garbage, not a terminator. */
	{
		uint32_t v;

		static const char in[] = { '1', '\0', '2' };

		assert_int_equal(sysfs_value__u32(in, sizeof(in), &v), -EINVAL);
	}
}

static void test_parse_str(void **state)
{
	static const struct {
		const char *in;
		size_t len;
		const char *out;
	} t[] = {
		{ "Data\n", 5, "Data" }, { "  Unified \t\n", 12, "Unified" },
		{ "48K", 3, "48K" },	 { "0-3,8-11\n", 9, "0-3,8-11" },
		{ "", 0, "" },		 { "\n\n", 2, "" },
		{ "Da\0ta\n", 6, "Da" }, /* perf's strlen stops at the NUL */
		{ " 0 1 \n", 6, "0 1" },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		char *out = NULL;

		assert_int_equal(sysfs_value__str(t[i].in, t[i].len, &out), 0);
		assert_string_equal(out, t[i].out);
		free(out);
	}
}

static void test_parse_cap_value(void **state)
{
	char long_in[300], long_out[200];
	static const struct {
		const char *in;
		size_t len;
		int err;
		const char *out;
	} t[] = {
		{ "32\n", 3, 0, "32" },
		{ "alderlake_hybrid\n", 17, 0, "alderlake_hybrid" },
		{ "\n", 1, 0, "" },
		{ "abc", 3, 0, "ab" }, /* perf drops the last byte, newline or not */
		{ "a", 1, 0, "" },
		{ "first\nsecond\n", 13, 0, "first" },
		{ " 3 \n", 4, 0, " 3 " }, /* no trimming beyond that */
		{ "\0abc\n", 5, 0, "" },
		{ "ab\0cd\n", 6, 0, "a" },
		{ "", 0, -ENODATA, NULL },
	};
	char *out;

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		out = (char *)1;
		assert_int_equal(pmu_cap__value(t[i].in, t[i].len, &out), t[i].err);
		if (t[i].out) {
			assert_string_equal(out, t[i].out);
			free(out);
		} else {
			assert_null(out);
		}
	}
	/* fgets into 128 bytes keeps 127, and perf drops the last of those. */
	memset(long_in, 'x', sizeof(long_in));
	long_in[sizeof(long_in) - 1] = '\n';
	memset(long_out, 'x', 126);
	long_out[126] = '\0';
	assert_int_equal(pmu_cap__value(long_in, sizeof(long_in), &out), 0);
	assert_string_equal(out, long_out);
	free(out);
	/* Exactly 126 characters and a newline fit whole. */
	long_in[126] = '\n';
	assert_int_equal(pmu_cap__value(long_in, 127, &out), 0);
	assert_string_equal(out, long_out);
	free(out);
}

static void test_parse_format(void **state)
{
	static const char *const good[] = {
		"config:0-7\n",
		"config:0-7",
		"config1:0-63\n",
		"config2:5\n",
		"config:0-7,32-35\n",
		"config:0,1,2\n",
		"config:0-7 config1:3\n",
		"  config : 0 - 7 \n",
		"xconfig:3\n", /* the lexer skips bytes it has no rule for */
		"config:99999\n", /* bit numbers are not range-checked */
		"config:18446744073709551615\n", /* ULONG_MAX is still a number */
	};
	static const char *const bad[] = {
		"",
		"\n",
		"foo\n",
		"config\n",
		"config:\n",
		"config:0-\n",
		"config:-3\n",
		"config:0--7\n",
		"config:0-7,\n",
		"config:,1\n",
		"config3:0-3\n", /* 6.1's lexer has no config3 token */
		"config12:0\n",
		"0-7\n",
		"config:0-7:8\n",
		"config:0 1\n",
		"config::0\n",
		"configconfig1:0\n",
		"config:18446744073709551616\n", /* past ULONG_MAX: PP_ERROR */
	};
	(void)state;
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		assert_true(pmu_format__valid(good[i], strlen(good[i])));
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (pmu_format__valid(bad[i], strlen(bad[i])))
			fail_msg("format \"%s\" accepted", bad[i]);
	}
	/* A NUL is one more byte the lexer skips. */
	{
		static const char in[] = { 'c', 'o', 'n', 'f', 'i', 'g', ':', '\0', '0', '-', '7' };

		assert_true(pmu_format__valid(in, sizeof(in)));
	}
}

static void test_parse_hybrid_cpus(void **state)
{
	(void)state;
	assert_true(pmu_cpus__hybrid("0-7\n", 4));
	assert_true(pmu_cpus__hybrid("  8-15\n", 7));
	assert_true(pmu_cpus__hybrid("+3", 2));
	assert_true(pmu_cpus__hybrid("-1", 2)); /* "%u" takes a sign */
	assert_false(pmu_cpus__hybrid("", 0));
	assert_false(pmu_cpus__hybrid("\n", 1));
	assert_false(pmu_cpus__hybrid("abc\n", 4));
	assert_false(pmu_cpus__hybrid("-\n", 2));
	assert_false(pmu_cpus__hybrid(",1\n", 3));
}

/* ---- fixtures: caches --------------------------------------------------- */

struct exp_cache {
	uint32_t level, line, sets, ways;
	const char *type, *size, *map;
};

/* clang-format off */
#define D(l, sets, ways, size, map) { l, 64, sets, ways, "Data", size, map }
#define I(l, sets, ways, size, map) { l, 64, sets, ways, "Instruction", size, map }
#define U(l, sets, ways, size, map) { l, 64, sets, ways, "Unified", size, map }

static const struct exp_cache vm_caches[] = {
	D(1, 64, 12, "48K", "0"),            I(1, 64, 16, "64K", "0"),
	D(1, 64, 12, "48K", "1"),            I(1, 64, 16, "64K", "1"),
	U(2, 2048, 16, "2048K", "0"),        U(2, 2048, 16, "2048K", "1"),
	U(3, 491520, 16, "491520K", "0-1"),
};

static const struct exp_cache arm64_caches[] = {
	D(1, 128, 4, "32K", "0"),            I(1, 128, 4, "32K", "0"),
	D(1, 128, 4, "32K", "1"),            I(1, 128, 4, "32K", "1"),
	D(1, 128, 4, "32K", "2"),            I(1, 128, 4, "32K", "2"),
	D(1, 128, 4, "32K", "3"),            I(1, 128, 4, "32K", "3"),
	D(1, 256, 4, "64K", "4"),            I(1, 256, 4, "64K", "4"),
	D(1, 256, 4, "64K", "5"),            I(1, 256, 4, "64K", "5"),
	D(1, 256, 4, "64K", "6"),            I(1, 256, 4, "64K", "6"),
	D(1, 256, 4, "64K", "7"),            I(1, 256, 4, "64K", "7"),
	U(2, 512, 4, "128K", "0"),           U(2, 512, 4, "128K", "1"),
	U(2, 512, 4, "128K", "2"),           U(2, 512, 4, "128K", "3"),
	U(2, 1024, 8, "512K", "4"),          U(2, 1024, 8, "512K", "5"),
	U(2, 1024, 8, "512K", "6"),          U(2, 1024, 8, "512K", "7"),
	U(3, 4096, 12, "3072K", "0-7"),
};

/* CPUs 6 and 7 are offline: no cache/ for them, and gone from their siblings' maps. */
static const struct exp_cache numa2s_caches[] = {
	D(1, 64, 8, "32K", "0,8"),           I(1, 64, 8, "32K", "0,8"),
	D(1, 64, 8, "32K", "1,9"),           I(1, 64, 8, "32K", "1,9"),
	D(1, 64, 8, "32K", "2,10"),          I(1, 64, 8, "32K", "2,10"),
	D(1, 64, 8, "32K", "3,11"),          I(1, 64, 8, "32K", "3,11"),
	D(1, 64, 8, "32K", "4,12"),          I(1, 64, 8, "32K", "4,12"),
	D(1, 64, 8, "32K", "5,13"),          I(1, 64, 8, "32K", "5,13"),
	D(1, 64, 8, "32K", "14"),            I(1, 64, 8, "32K", "14"),
	D(1, 64, 8, "32K", "15"),            I(1, 64, 8, "32K", "15"),
	U(2, 512, 8, "256K", "0,8"),         U(2, 512, 8, "256K", "1,9"),
	U(2, 512, 8, "256K", "2,10"),        U(2, 512, 8, "256K", "3,11"),
	U(2, 512, 8, "256K", "4,12"),        U(2, 512, 8, "256K", "5,13"),
	U(2, 512, 8, "256K", "14"),          U(2, 512, 8, "256K", "15"),
	U(3, 12288, 20, "15360K", "0-3,8-11"), U(3, 12288, 20, "15360K", "4-5,12-15"),
};

/* SMT pairs share L1/L2; two L3s that differ only in their map both stay. */
static const struct exp_cache multidie_caches[] = {
	D(1, 64, 8, "32K", "0-1"),           I(1, 64, 8, "32K", "0-1"),
	D(1, 64, 8, "32K", "2-3"),           I(1, 64, 8, "32K", "2-3"),
	D(1, 64, 8, "32K", "4-5"),           I(1, 64, 8, "32K", "4-5"),
	D(1, 64, 8, "32K", "6-7"),           I(1, 64, 8, "32K", "6-7"),
	U(2, 4096, 16, "4096K", "0-1"),      U(2, 4096, 16, "4096K", "2-3"),
	U(2, 4096, 16, "4096K", "4-5"),      U(2, 4096, 16, "4096K", "6-7"),
	U(3, 16384, 16, "16384K", "0-3"),    U(3, 16384, 16, "16384K", "4-7"),
};

static const struct exp_cache hybrid_caches[] = {
	D(1, 64, 12, "48K", "0-1"),          I(1, 64, 8, "32K", "0-1"),
	D(1, 64, 12, "48K", "2-3"),          I(1, 64, 8, "32K", "2-3"),
	D(1, 64, 12, "48K", "4-5"),          I(1, 64, 8, "32K", "4-5"),
	D(1, 64, 12, "48K", "6-7"),          I(1, 64, 8, "32K", "6-7"),
	D(1, 64, 8, "32K", "8"),             I(1, 128, 8, "64K", "8"),
	D(1, 64, 8, "32K", "9"),             I(1, 128, 8, "64K", "9"),
	D(1, 64, 8, "32K", "10"),            I(1, 128, 8, "64K", "10"),
	D(1, 64, 8, "32K", "11"),            I(1, 128, 8, "64K", "11"),
	D(1, 64, 8, "32K", "12"),            I(1, 128, 8, "64K", "12"),
	D(1, 64, 8, "32K", "13"),            I(1, 128, 8, "64K", "13"),
	D(1, 64, 8, "32K", "14"),            I(1, 128, 8, "64K", "14"),
	D(1, 64, 8, "32K", "15"),            I(1, 128, 8, "64K", "15"),
	U(2, 2048, 10, "1280K", "0-1"),      U(2, 2048, 10, "1280K", "2-3"),
	U(2, 2048, 10, "1280K", "4-5"),      U(2, 2048, 10, "1280K", "6-7"),
	U(2, 2048, 16, "2048K", "8-11"),     U(2, 2048, 16, "2048K", "12-15"),
	U(3, 24576, 12, "18432K", "0-15"),
};

#undef D
#undef I
#undef U
/* clang-format on */

static void check_caches(const struct sysinfo *si, const struct exp_cache *e, size_t n)
{
	assert_int_equal(si->nr_caches, n);
	for (size_t i = 0; i < n; i++) {
		const struct sysinfo_cache *c = &si->caches[i];

		if (c->level != e[i].level || c->line_size != e[i].line || c->sets != e[i].sets ||
		    c->ways != e[i].ways || strcmp(c->type, e[i].type) ||
		    strcmp(c->size, e[i].size) || strcmp(c->map, e[i].map))
			fail_msg(
				"cache %zu: got L%u %u/%u/%u %s %s [%s], want L%u %u/%u/%u %s %s [%s]",
				i, c->level, c->line_size, c->sets, c->ways, c->type, c->size,
				c->map, e[i].level, e[i].line, e[i].sets, e[i].ways, e[i].type,
				e[i].size, e[i].map);
	}
}

/* ---- fixtures: PMUs ----------------------------------------------------- */

struct exp_pmu {
	const char *name;
	uint32_t type;
	const char *cpus; /* NULL: not hybrid */
	const char *caps; /* "name=value;..." in any order, NULL: none */
};

static const struct exp_pmu vm_pmus[] = {
	{ "software", 1, NULL, NULL },	 { "tracepoint", 2, NULL, NULL },
	{ "breakpoint", 5, NULL, NULL }, { "uprobe", 8, NULL, NULL },
	{ "msr", 9, NULL, NULL },
};

static const struct exp_pmu arm64_pmus[] = {
	{ "software", 1, NULL, NULL },
	{ "tracepoint", 2, NULL, NULL },
	{ "breakpoint", 5, NULL, NULL },
	{ "kprobe", 6, NULL, NULL },
	{ "uprobe", 7, NULL, NULL },
	/* Per-cluster PMUs with a cpus file, but not "hybrid" to perf 6.1. */
	{ "armv8_cortex_a55", 8, NULL, "slots=0x00000000" },
	{ "armv8_cortex_a76", 9, NULL, "slots=0x00000000" },
};

#define PT_CAPS_SKL_ADL                                                                           \
	"cr3_filtering=1;cycle_thresholds=3fff;event_trace=0;ip_filtering=1;max_subleaf=1;mtc=1;" \
	"mtc_periods=249;num_address_ranges=2;output_subsys=0;payloads_lip=0;psb_cyc=1;"          \
	"psb_periods=3f;single_range_output=1;tnt_disable=0;topa_multiple_entries=1;topa_output=1"

/* Broadwell-EP: PT without CYC, MTC or IP filters. */
#define PT_CAPS_BDW                                                                              \
	"cr3_filtering=1;cycle_thresholds=0;event_trace=0;ip_filtering=0;max_subleaf=0;mtc=0;"   \
	"mtc_periods=0;num_address_ranges=0;output_subsys=0;payloads_lip=0;power_event_trace=0;" \
	"psb_cyc=0;psb_periods=0;ptwrite=0;single_range_output=1;tnt_disable=0;"                 \
	"topa_multiple_entries=1;topa_output=1"

static const struct exp_pmu numa2s_pmus[] = {
	{ "software", 1, NULL, NULL },
	{ "tracepoint", 2, NULL, NULL },
	{ "cpu", 4, NULL, "branches=16;max_precise=3;pmu_name=broadwell" },
	{ "breakpoint", 5, NULL, NULL },
	{ "kprobe", 6, NULL, NULL },
	{ "uprobe", 7, NULL, NULL },
	{ "intel_bts", 8, NULL, NULL },
	{ "cstate_core", 9, NULL, NULL },
	{ "cstate_pkg", 10, NULL, NULL },
	{ "intel_pt", 11, NULL, PT_CAPS_BDW },
	{ "msr", 12, NULL, NULL },
	{ "power", 13, NULL, NULL },
	{ "uncore_imc_0", 14, NULL, NULL },
	{ "uncore_imc_1", 15, NULL, NULL },
	{ "uncore_cbox_0", 16, NULL, NULL },
	{ "uncore_qpi_0", 17, NULL, NULL },
};

/* A KVM guest's vPMU: no PEBS, no LBR (so no "branches"). */
static const struct exp_pmu multidie_pmus[] = {
	{ "software", 1, NULL, NULL },
	{ "tracepoint", 2, NULL, NULL },
	{ "cpu", 4, NULL, "max_precise=0;pmu_name=skylake" },
	{ "breakpoint", 5, NULL, NULL },
	{ "kprobe", 6, NULL, NULL },
	{ "uprobe", 7, NULL, NULL },
	{ "msr", 8, NULL, NULL },
};

static const struct exp_pmu hybrid_pmus[] = {
	{ "software", 1, NULL, NULL },
	{ "tracepoint", 2, NULL, NULL },
	{ "cpu_core", 4, "0-7", "branches=32;max_precise=3;pmu_name=alderlake_hybrid" },
	{ "breakpoint", 5, NULL, NULL },
	{ "kprobe", 6, NULL, NULL },
	{ "uprobe", 7, NULL, NULL },
	{ "cpu_atom", 8, "8-15", "branches=32;max_precise=3;pmu_name=alderlake_hybrid" },
	{ "cstate_core", 9, NULL, NULL },
	{ "cstate_pkg", 10, NULL, NULL },
	{ "intel_pt", 11, NULL, PT_CAPS_SKL_ADL ";power_event_trace=1;ptwrite=1" },
	{ "msr", 12, NULL, NULL },
	{ "power", 13, NULL, NULL },
	{ "uncore_clock", 14, NULL, NULL },
};

/* The entries of root/rel in readdir order, "." and ".." left out; NULL-terminated. */
static char **readdir_names(const char *root, const char *rel, size_t *n)
{
	char path[PATH_MAX];
	char **names = NULL;
	struct dirent *de;
	DIR *d;

	*n = 0;
	fmt(path, sizeof(path), "%s/%s", root, rel);
	d = opendir(path);
	if (!d)
		return calloc(1, sizeof(char *));
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		names = realloc(names, (*n + 2) * sizeof(*names));
		assert_non_null(names);
		names[(*n)++] = strdup(de->d_name);
		names[*n] = NULL;
	}
	closedir(d);
	return names ? names : calloc(1, sizeof(char *));
}

static void free_names(char **names)
{
	for (char **p = names; *p; p++)
		free(*p);
	free(names);
}

static const char *cap_of(const struct sysinfo_pmu *p, const char *name)
{
	for (uint32_t i = 0; i < p->nr_caps; i++)
		if (!strcmp(p->caps[i].name, name))
			return p->caps[i].value;
	return NULL;
}

/* PMUs: the expected set, in the tree's readdir order; caps in caps/'s readdir order. */
static void check_pmus(const struct sysinfo *si, const char *root, const struct exp_pmu *e,
		       size_t n)
{
	size_t nr_dir, k = 0;
	char **dir = readdir_names(root, "sys/bus/event_source/devices", &nr_dir);

	assert_int_equal(si->nr_pmus, n);
	for (size_t d = 0; d < nr_dir; d++) {
		const struct exp_pmu *want = NULL;
		const struct sysinfo_pmu *p;
		char rel[PATH_MAX];
		size_t nr_caps = 0, nr_files;
		char **files;

		for (size_t j = 0; j < n; j++)
			if (!strcmp(e[j].name, dir[d]))
				want = &e[j];
		if (!want)
			continue;
		assert_true(k < si->nr_pmus);
		p = &si->pmus[k++];
		assert_string_equal(p->name, want->name);
		assert_int_equal(p->type, want->type);
		if (want->cpus)
			assert_string_equal(p->cpus, want->cpus);
		else
			assert_null(p->cpus);

		if (want->caps) {
			char *list = strdup(want->caps), *save = NULL;

			for (char *kv = strtok_r(list, ";", &save); kv;
			     kv = strtok_r(NULL, ";", &save)) {
				char *eq = strchr(kv, '=');
				const char *got;

				*eq = '\0';
				got = cap_of(p, kv);
				if (!got || strcmp(got, eq + 1))
					fail_msg("%s cap %s: got %s, want %s", p->name, kv,
						 got ? got : "(none)", eq + 1);
				nr_caps++;
			}
			free(list);
		}
		assert_int_equal(p->nr_caps, nr_caps);
		if (!nr_caps)
			assert_null(p->caps);
		/* Caps come in readdir order, as perf lists them. */
		fmt(rel, sizeof(rel), "sys/bus/event_source/devices/%s/caps", p->name);
		files = readdir_names(root, rel, &nr_files);
		assert_int_equal(nr_files, nr_caps);
		for (size_t j = 0; j < nr_files; j++)
			assert_string_equal(p->caps[j].name, files[j]);
		free_names(files);
	}
	assert_int_equal(k, n);
	free_names(dir);
}

struct fixture {
	const char *name;
	uint32_t nr_cpus; /* what sysinfo__read_cpu finds there */
	const char *possible, *online; /* for perf, when the tree has none */
	const struct exp_cache *caches;
	size_t nr_caches;
	const struct exp_pmu *pmus;
	size_t nr_pmus;
};

#define N(a) (sizeof(a) / sizeof((a)[0]))
static const struct fixture fixtures[] = {
	{ "vm", 2, "0-1", "0-1", vm_caches, N(vm_caches), vm_pmus, N(vm_pmus) },
	{ "arm64", 8, "0-7", "0-7", arm64_caches, N(arm64_caches), arm64_pmus, N(arm64_pmus) },
	{ "numa2s", 16, "0-15", "0-5,8-15", numa2s_caches, N(numa2s_caches), numa2s_pmus,
	  N(numa2s_pmus) },
	{ "multidie", 8, "0-7", "0-7", multidie_caches, N(multidie_caches), multidie_pmus,
	  N(multidie_pmus) },
	{ "hybrid", 16, "0-15", "0-15", hybrid_caches, N(hybrid_caches), hybrid_pmus,
	  N(hybrid_pmus) },
};

static void test_fixture(void **state)
{
	const struct fixture *f = *state;
	char root[PATH_MAX];
	struct sysinfo si;

	fixture_path(root, sizeof(root), f->name);
	read_tree(&si, root, f->nr_cpus);
	check_caches(&si, f->caches, f->nr_caches);
	check_pmus(&si, root, f->pmus, f->nr_pmus);
	sysinfo__free_cache_pmu(&si);
	assert_null(si.caches);
	assert_null(si.pmus);
	assert_int_equal(si.nr_caches, 0);
	assert_int_equal(si.nr_pmus, 0);
	/* Without cpu/possible the walk falls back to nr_cpus_avail: same answer here. */
	read_tree(&si, root, f->nr_cpus);
	check_caches(&si, f->caches, f->nr_caches);
	sysinfo__free_cache_pmu(&si);
}

/* The garbled machines: nothing here for us, and nothing breaks. */
static void test_fixture_broken(void **state)
{
	static const char *const names[] = { "broken", "broken-arm64" };
	char root[PATH_MAX];
	struct sysinfo si;

	(void)state;
	for (size_t i = 0; i < N(names); i++) {
		fixture_path(root, sizeof(root), names[i]);
		read_tree(&si, root, 4);
		assert_int_equal(si.nr_caches, 0);
		assert_null(si.caches);
		assert_int_equal(si.nr_pmus, 0);
		assert_null(si.pmus);
		sysinfo__free_cache_pmu(&si);
	}
}

/* ---- perf as the judge -------------------------------------------------- */

/* The value after "# <key>" on its line, or NULL. */
static const char *header_line(const char *text, const char *prefix, char *buf, size_t size)
{
	const char *p = text;

	while ((p = strstr(p, prefix))) {
		if (p == text || p[-1] == '\n') {
			const char *v = p + strlen(prefix), *eol = strchr(v, '\n');
			size_t n = eol ? (size_t)(eol - v) : strlen(v);

			if (n >= size)
				n = size - 1;
			memcpy(buf, v, n);
			buf[n] = '\0';
			return buf;
		}
		p++;
	}
	return NULL;
}

/* Compares what we read with what perf printed for the same tree. */
static void check_against_perf(const struct sysinfo *si, const char *text)
{
	char line[8192], want[8192], prefix[300];
	const char *p;
	uint32_t i = 0;
	size_t off = 0;

	/* PMU_MAPPINGS: "# pmu mappings: software = 1, uprobe = 8, ..." */
	assert_non_null(header_line(text, "# pmu mappings: ", line, sizeof(line)));
	want[0] = '\0';
	for (uint32_t k = 0; k < si->nr_pmus; k++)
		off += (size_t)snprintf(want + off, sizeof(want) - off, "%s%s = %u", k ? ", " : "",
					si->pmus[k].name, si->pmus[k].type);
	assert_string_equal(line, want);

	/* CACHE: "#  L1 Data                 48K [0]", in order. */
	for (p = strstr(text, "\n#  L"); p; p = strstr(p + 1, "\n#  L")) {
		char type[64], size[64], map[1024];
		unsigned int level;

		assert_int_equal(
			sscanf(p, "\n#  L%u %63s %63s [%1023[^]]]", &level, type, size, map), 4);
		assert_true(i < si->nr_caches);
		assert_int_equal(level, si->caches[i].level);
		assert_string_equal(type, si->caches[i].type);
		assert_string_equal(size, si->caches[i].size);
		assert_string_equal(map, si->caches[i].map);
		i++;
	}
	assert_int_equal(i, si->nr_caches);

	/* CPU_PMU_CAPS / PMU_CAPS: "# <pmu> pmu capabilities: a=1, b=2", caps in our order. */
	for (uint32_t k = 0; k < si->nr_pmus; k++) {
		const struct sysinfo_pmu *pmu = &si->pmus[k];

		fmt(prefix, sizeof(prefix), "# %s pmu capabilities: ", pmu->name);
		if (!pmu->nr_caps) {
			assert_null(header_line(text, prefix, line, sizeof(line)));
			continue;
		}
		assert_non_null(header_line(text, prefix, line, sizeof(line)));
		off = 0;
		for (uint32_t c = 0; c < pmu->nr_caps; c++)
			off += (size_t)snprintf(want + off, sizeof(want) - off, "%s%s=%s",
						c ? ", " : "", pmu->caps[c].name,
						pmu->caps[c].value);
		assert_string_equal(line, want);
	}

	/* HYBRID_TOPOLOGY: "# cpu_core cpu list : 0-7" for each hybrid PMU, none otherwise. */
	for (uint32_t k = 0; k < si->nr_pmus; k++) {
		const struct sysinfo_pmu *pmu = &si->pmus[k];

		fmt(prefix, sizeof(prefix), "# %s cpu list : ", pmu->name);
		if (!pmu->cpus)
			continue;
		assert_non_null(header_line(text, prefix, line, sizeof(line)));
		assert_string_equal(line, pmu->cpus);
	}
}

static char *slurp(const char *path)
{
	size_t len = 0, cap = 1 << 16;
	char *buf = malloc(cap);
	FILE *f = fopen(path, "r");
	size_t n;

	assert_non_null(buf);
	if (!f) {
		free(buf);
		return NULL;
	}
	while ((n = fread(buf + len, 1, cap - 1 - len, f)) > 0) {
		len += n;
		if (len == cap - 1) {
			cap *= 2;
			buf = realloc(buf, cap);
			assert_non_null(buf);
		}
	}
	fclose(f);
	buf[len] = '\0';
	return buf;
}

/* Whether stock perf can be run here; prints why not. */
static bool perf_usable(void)
{
	if (access(PERF_BIN, X_OK)) {
		print_message("%s missing; skipping the comparison with perf\n", PERF_BIN);
		return false;
	}
	return true;
}

/* Records `true` with perf into dir/perf.data and returns its header text, or NULL. */
static char *perf_header_of_run(const char *dir)
{
	char cmd[PATH_MAX * 3], path[PATH_MAX];

	fmt(cmd, sizeof(cmd),
	    "cd %s && (" PERF_BIN " record -q -B --no-bpf-event -o perf.data -- true || " PERF_BIN
	    " record -q -B --no-bpf-event -e task-clock -o perf.data -- true || " PERF_BIN
	    " record -q -B --no-bpf-event -e dummy -C 0 -o perf.data -- true) >/dev/null 2>&1 && " PERF_BIN
	    " report --header-only -I -i perf.data > header.txt 2>/dev/null",
	    dir);
	if (system(cmd) != 0)
		return NULL;
	fmt(path, sizeof(path), "%s/header.txt", dir);
	return slurp(path);
}

static void test_live_matches_perf(void **state)
{
	char dir[] = "/tmp/prec-cache-pmu-live.XXXXXX";
	struct sysinfo si;
	char *text;
	int fd;

	(void)state;
	/* The live tree: CPU counts from sysinfo__read, then our parts from "/". */
	assert_int_equal(sysinfo__read(&si, "/"), 0);
	sysinfo__free_cache_pmu(&si); /* in case sysinfo__read already filled them */
	fd = open_root("/");
	assert_int_equal(sysinfo__read_caches(&si, fd), 0);
	assert_int_equal(sysinfo__read_pmus(&si, fd), 0);
	close(fd);
	/* Every Linux with perf events has these. */
	assert_true(si.nr_pmus > 0);
	for (uint32_t i = 0; i < si.nr_pmus; i++)
		if (!strcmp(si.pmus[i].name, "software"))
			assert_int_equal(si.pmus[i].type, 1);

	if (perf_usable()) {
		assert_non_null(mkdtemp(dir));
		text = perf_header_of_run(dir);
		if (!text) {
			print_message("perf record failed here; skipping the comparison\n");
		} else {
			/* perf ran with its default event: auxtrace PMUs come first. */
			sysinfo__pmus_perf_record_order(&si);
			check_against_perf(&si, text);
			free(text);
		}
		rm_rf(dir);
	}
	sysinfo__free_cache_pmu(&si);
	sysinfo__exit(&si);
}

/*
 * Runs perf with the fixture's CPU directory (a copy, with possible/present/
 * online added where the tree has none) and its event_source/devices (bound
 * as is, so readdir order is the tree's) over /sys, in a private mount
 * namespace. Returns the header text; NULL, with a message, when this
 * machine cannot do it (not root, no namespaces, perf refusing).
 */
static char *perf_header_of_fixture(const char *root, const struct fixture *f, const char *dir)
{
	char cpu_src[PATH_MAX], cpu_copy[PATH_MAX], devs[PATH_MAX], cmd[PATH_MAX * 3];
	static const char *const files[] = { "possible", "present", "online" };
	int status;
	pid_t pid;

	fmt(cpu_src, sizeof(cpu_src), "%s/sys/devices/system/cpu", root);
	fmt(cpu_copy, sizeof(cpu_copy), "%s/cpu", dir);
	fmt(devs, sizeof(devs), "%s/sys/bus/event_source/devices", root);
	fmt(cmd, sizeof(cmd), "cp -a '%s' '%s'", cpu_src, cpu_copy);
	if (system(cmd) != 0)
		return NULL;
	for (size_t i = 0; i < N(files); i++) {
		char path[PATH_MAX];

		fmt(path, sizeof(path), "%s/%s", cpu_copy, files[i]);
		if (access(path, F_OK)) {
			FILE *fp = fopen(path, "w");

			assert_non_null(fp);
			fprintf(fp, "%s\n", i == 2 ? f->online : f->possible);
			fclose(fp);
		}
	}

	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (unshare(CLONE_NEWNS) || mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL) ||
		    mount(cpu_copy, "/sys/devices/system/cpu", "none", MS_BIND, NULL) ||
		    mount(devs, "/sys/bus/event_source/devices", "none", MS_BIND, NULL))
			_exit(77);
		fmt(cmd, sizeof(cmd),
		    "cd %s && (" PERF_BIN
		    " record -q -B --no-bpf-event -e task-clock -o perf.data -- true || " PERF_BIN
		    " record -q -B --no-bpf-event -e dummy -C 0 -o perf.data -- true) >/dev/null 2>&1"
		    " && " PERF_BIN " report --header-only -I -i perf.data > header.txt "
		    "2>/dev/null",
		    dir);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		print_message("%s: no private mount namespace or perf refused (status %d); "
			      "skipping the comparison with perf\n",
			      f->name, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
		return NULL;
	}
	fmt(cmd, sizeof(cmd), "%s/header.txt", dir);
	return slurp(cmd);
}

static void test_fixtures_match_perf(void **state)
{
	struct sysinfo live;

	(void)state;
	if (!perf_usable())
		skip();
	if (geteuid() != 0) {
		print_message("not root: no bind mounts over /sys; skipping\n");
		skip();
	}
	assert_int_equal(sysinfo__read(&live, "/"), 0);
	for (size_t i = 0; i < N(fixtures); i++) {
		char root[PATH_MAX], dir[] = "/tmp/prec-cache-pmu-perf.XXXXXX";
		struct sysinfo si;
		char *text;

		fixture_path(root, sizeof(root), fixtures[i].name);
		assert_non_null(mkdtemp(dir));
		text = perf_header_of_fixture(root, &fixtures[i], dir);
		if (text) {
			read_tree(&si, root, fixtures[i].nr_cpus);
			/*
			 * The judge is this machine's perf, built for x86, run on
			 * software events: it orders the PMUs by its own CPU's
			 * vendor (the cpuid instruction), not the fixture's.
			 */
			strcpy(si.arch, "x86_64");
			si.cpuid = live.cpuid;
			sysinfo__pmus_perf_record_order(&si);
			si.cpuid = NULL;
			check_against_perf(&si, text);
			sysinfo__free_cache_pmu(&si);
			free(text);
		}
		rm_rf(dir);
	}
	sysinfo__exit(&live);
}

/* ---- hostile trees: caches ---------------------------------------------- */

static void caches_of(const char *root, uint32_t nr_cpus, struct sysinfo *si)
{
	int fd = open_root(root);

	memset(si, 0, sizeof(*si));
	si->nr_cpus_avail = nr_cpus;
	assert_int_equal(sysinfo__read_caches(si, fd), 0);
	close(fd);
}

/* No caches; known: perf would still write CACHE (with cnt 0). */
static void expect_no_caches(const char *root, uint32_t nr_cpus, bool known)
{
	struct sysinfo si;

	caches_of(root, nr_cpus, &si);
	assert_int_equal(si.nr_caches, 0);
	assert_null(si.caches);
	assert_int_equal(si.caches_known, known);
	sysinfo__free_cache_pmu(&si);
	assert_false(si.caches_known);
}

static void test_cache_sane_tree(void **state)
{
	const char *root = *state;
	struct sysinfo si;

	put_vm_caches(root);
	caches_of(root, 0, &si);
	check_caches(&si, vm_caches, N(vm_caches));
	sysinfo__free_cache_pmu(&si);
}

static void test_cache_empty(void **state)
{
	const char *root = *state;

	/* No cache directory anywhere (no sys at all, empty cache/ dirs):
	 * perf writes CACHE with cnt 0. */
	expect_no_caches(root, 4, true);
	put(root, "sys/devices/system/cpu/possible", "0-3\n");
	expect_no_caches(root, 4, true);
	put_dir(root, "sys/devices/system/cpu/cpu0/cache");
	put_dir(root, "sys/devices/system/cpu/cpu1/cache");
	expect_no_caches(root, 4, true);
	/* An empty index directory exists but reads as nothing: perf drops CACHE. */
	put_dir(root, "sys/devices/system/cpu/cpu0/cache/index0");
	expect_no_caches(root, 4, false);
}

static void test_cache_no_cpu_count(void **state)
{
	const char *root = *state;

	struct sysinfo si;

	/* perf's set_max_cpu_num() falls back to 4096 CPUs without a readable
	 * cpu/possible: every cpuN below that is walked, whatever else says
	 * how many CPUs there are. */
	put_vm_caches(root);
	drop(root, "sys/devices/system/cpu/possible");
	caches_of(root, 0, &si);
	check_caches(&si, vm_caches, N(vm_caches));
	sysinfo__free_cache_pmu(&si);
	put(root, "sys/devices/system/cpu/possible", "garbage\n");
	caches_of(root, 1, &si);
	check_caches(&si, vm_caches, N(vm_caches));
	sysinfo__free_cache_pmu(&si);
	put_index(root, 4095, 0, 1, "Data", "32K", 64, 8, "4095");
	put_index(root, 4096, 0, 1, "Data", "32K", 64, 8, "4096"); /* past 4096: not walked */
	caches_of(root, 2, &si);
	assert_int_equal(si.nr_caches, N(vm_caches) + 1);
	assert_string_equal(si.caches[4].map, "4095");
	sysinfo__free_cache_pmu(&si);
}

/* Any broken field in an existing index loses all of CACHE, as with perf. */
static void test_cache_garbled_fields(void **state)
{
	static const char *const fields[] = { "level",		"coherency_line_size",
					      "number_of_sets", "ways_of_associativity",
					      "type",		"size",
					      "shared_cpu_list" };
	const char *root = *state;
	struct sysinfo si;
	char rel[256];

	put_vm_caches(root);
	for (size_t i = 0; i < N(fields); i++) {
		fmt(rel, sizeof(rel), "sys/devices/system/cpu/cpu1/cache/index1/%s", fields[i]);
		drop(root, rel);
		expect_no_caches(root, 2, false); /* missing */
		put_dir(root, rel);
		expect_no_caches(root, 2, false); /* a directory where a file should be */
		rm_at(root, rel);
		put_fifo(root, rel);
		expect_no_caches(root, 2, false); /* a FIFO: refused, no hang */
		drop(root, rel);
		put_vm_caches(root);
	}
	/* Numbers perf would atoi into something; we refuse them. */
	static const char *const bad_numbers[] = { "abc\n", "99999999999\n", "-1\n",  "\n",
						   "",	    "12 13\n",	     "0x40\n" };
	for (size_t i = 0; i < N(bad_numbers); i++) {
		put(root, "sys/devices/system/cpu/cpu0/cache/index2/number_of_sets",
		    bad_numbers[i]);
		expect_no_caches(root, 2, false);
	}
	/* The largest u32 is a number. */
	put(root, "sys/devices/system/cpu/cpu0/cache/index2/number_of_sets", "4294967295\n");
	caches_of(root, 2, &si);
	assert_int_equal(si.nr_caches, 7);
	assert_int_equal(si.caches[4].sets, UINT32_MAX);
	sysinfo__free_cache_pmu(&si);
	/* An index that is a file, not a directory, exists for perf's stat() and fails. */
	put_vm_caches(root);
	rm_at(root, "sys/devices/system/cpu/cpu1/cache/index3");
	put(root, "sys/devices/system/cpu/cpu1/cache/index3", "not a dir\n");
	expect_no_caches(root, 2, false);
	/* A huge file where a number should be. */
	rm_at(root, "sys/devices/system/cpu/cpu1/cache/index3");
	put_vm_caches(root);
	{
		char *big = malloc(FSREAD_MAX_SIZE + 16);

		assert_non_null(big);
		memset(big, '1', FSREAD_MAX_SIZE + 15);
		big[FSREAD_MAX_SIZE + 15] = '\0';
		put(root, "sys/devices/system/cpu/cpu1/cache/index0/level", big);
		free(big);
	}
	expect_no_caches(root, 2, false);
}

static void test_cache_walk_rules(void **state)
{
	const char *root = *state;
	struct sysinfo si;

	/* A gap ends a CPU's list; index4 and beyond are never read (MAX_CACHE_LVL). */
	put(root, "sys/devices/system/cpu/possible", "0-2\n");
	put_index(root, 0, 0, 1, "Data", "32K", 64, 8, "0");
	put_index(root, 0, 1, 1, "Instruction", "32K", 64, 8, "0");
	put_index(root, 0, 3, 3, "Unified", "8192K", 8192, 16, "0-2");
	put_index(root, 1, 0, 2, "Unified", "256K", 256, 16, "1");
	put_index(root, 1, 1, 1, "Data", "32K", 64, 8, "1");
	put_index(root, 1, 2, 3, "Unified", "8192K", 8192, 16, "0-2");
	put_index(root, 1, 3, 1, "Data", "32K", 64, 8, "1"); /* a duplicate of index1 */
	put_index(root, 1, 4, 4, "Unified", "65536K", 65536, 16, "0-2");
	/* cpu2 has none (offline); cpu3 is past possible and is not walked. */
	put_index(root, 3, 0, 1, "Data", "32K", 64, 8, "3");
	caches_of(root, 0, &si);
	{
		/* Stable by level: L1 in discovery order, then L2, then L3. */
		static const struct exp_cache want[] = {
			{ 1, 64, 64, 8, "Data", "32K", "0" },
			{ 1, 64, 64, 8, "Instruction", "32K", "0" },
			{ 1, 64, 64, 8, "Data", "32K", "1" },
			{ 2, 64, 256, 16, "Unified", "256K", "1" },
			{ 3, 64, 8192, 16, "Unified", "8192K", "0-2" },
		};
		check_caches(&si, want, N(want));
	}
	sysinfo__free_cache_pmu(&si);

	/* Whitespace around strings goes, as perf's strim drops it. */
	put(root, "sys/devices/system/cpu/cpu1/cache/index1/type", "  Data\t\n");
	put(root, "sys/devices/system/cpu/cpu1/cache/index1/size", "32K \n\n");
	put(root, "sys/devices/system/cpu/cpu1/cache/index1/shared_cpu_list", " 1\n");
	caches_of(root, 0, &si);
	assert_int_equal(si.nr_caches, 5);
	assert_string_equal(si.caches[2].type, "Data");
	assert_string_equal(si.caches[2].size, "32K");
	assert_string_equal(si.caches[2].map, "1");
	sysinfo__free_cache_pmu(&si);

	/* Empty strings are strings (perf writes ""). */
	put(root, "sys/devices/system/cpu/cpu0/cache/index1/size", "");
	caches_of(root, 0, &si);
	assert_int_equal(si.nr_caches, 5);
	assert_string_equal(si.caches[1].type, "Instruction");
	assert_string_equal(si.caches[1].size, "");
	/* ...and now cpu1's index1 and index3 differ, so both stay. */
	sysinfo__free_cache_pmu(&si);
	put(root, "sys/devices/system/cpu/cpu1/cache/index1/size", "");
	caches_of(root, 0, &si);
	assert_int_equal(si.nr_caches, 6);
	assert_string_equal(si.caches[2].size, "");
	assert_string_equal(si.caches[3].size, "32K");
	sysinfo__free_cache_pmu(&si);
}

/* Many CPUs with private L1/L2: dedup and sort stay right at scale. */
static void test_cache_many_cpus(void **state)
{
	const char *root = *state;
	struct sysinfo si;
	char map[16];

	put(root, "sys/devices/system/cpu/possible", "0-63\n");
	for (unsigned int c = 0; c < 64; c++) {
		fmt(map, sizeof(map), "%u", c);
		put_index(root, c, 0, 1, "Data", "32K", 64, 8, map);
		put_index(root, c, 1, 1, "Instruction", "32K", 64, 8, map);
		put_index(root, c, 2, 2, "Unified", "1024K", 1024, 16, map);
		put_index(root, c, 3, 3, "Unified", "32768K", 32768, 16, c < 32 ? "0-31" : "32-63");
	}
	caches_of(root, 0, &si);
	assert_int_equal(si.nr_caches, 64 * 3 + 2);
	for (unsigned int c = 0; c < 64; c++) {
		fmt(map, sizeof(map), "%u", c);
		assert_int_equal(si.caches[2 * c].level, 1);
		assert_string_equal(si.caches[2 * c].type, "Data");
		assert_string_equal(si.caches[2 * c].map, map);
		assert_string_equal(si.caches[2 * c + 1].type, "Instruction");
		assert_int_equal(si.caches[128 + c].level, 2);
		assert_string_equal(si.caches[128 + c].map, map);
	}
	assert_string_equal(si.caches[192].map, "0-31");
	assert_string_equal(si.caches[193].map, "32-63");
	sysinfo__free_cache_pmu(&si);
}

/* ---- hostile trees: PMUs ------------------------------------------------ */

#define DEV "sys/bus/event_source/devices/"

static void pmus_of(const char *root, struct sysinfo *si)
{
	int fd = open_root(root);

	memset(si, 0, sizeof(*si));
	assert_int_equal(sysinfo__read_pmus(si, fd), 0);
	close(fd);
}

static const struct sysinfo_pmu *find_pmu(const struct sysinfo *si, const char *name)
{
	for (uint32_t i = 0; i < si->nr_pmus; i++)
		if (!strcmp(si->pmus[i].name, name))
			return &si->pmus[i];
	return NULL;
}

static void test_pmu_none(void **state)
{
	const char *root = *state;
	struct sysinfo si;

	pmus_of(root, &si); /* no directory */
	assert_int_equal(si.nr_pmus, 0);
	assert_null(si.pmus);
	put_dir(root, DEV);
	pmus_of(root, &si); /* an empty one */
	assert_int_equal(si.nr_pmus, 0);
	sysinfo__free_cache_pmu(&si);
	/* devices is a file */
	rm_at(root, DEV);
	put(root, "sys/bus/event_source/devices", "x\n");
	pmus_of(root, &si);
	assert_int_equal(si.nr_pmus, 0);
}

static void test_pmu_type_rules(void **state)
{
	const char *root = *state;
	struct sysinfo si;

	put(root, DEV "software/type", "1\n");
	put(root, DEV "notype/format/event", "config:0-7\n");
	put(root, DEV "emptytype/type", "");
	put(root, DEV "garbage/type", "abc\n");
	put(root, DEV "trailing/type", "9abc\n");
	put(root, DEV "huge/type", "4294967296\n");
	put(root, DEV "negative/type", "-1\n");
	put(root, DEV "maxtype/type", "4294967295\n");
	put(root, DEV "spaced/type", "  12 \n");
	put_dir(root, DEV "dirtype/type");
	put_dir(root, DEV "fifotype");
	put_fifo(root, DEV "fifotype/type");
	put(root, DEV "plainfile", "1\n");
	put_dir(root, DEV "emptydir");
	pmus_of(root, &si);
	assert_int_equal(si.nr_pmus, 3);
	assert_int_equal(find_pmu(&si, "software")->type, 1);
	assert_int_equal(find_pmu(&si, "maxtype")->type, UINT32_MAX);
	assert_int_equal(find_pmu(&si, "spaced")->type, 12);
	for (uint32_t i = 0; i < si.nr_pmus; i++) {
		assert_null(si.pmus[i].caps);
		assert_int_equal(si.pmus[i].nr_caps, 0);
		assert_null(si.pmus[i].cpus);
	}
	sysinfo__free_cache_pmu(&si);
	sysinfo__free_cache_pmu(&si); /* twice is fine */
	sysinfo__free_cache_pmu(NULL);
}

/* perf 6.1's pmu_lookup drops a PMU whose format/ or events/ it cannot take. */
static void test_pmu_format_events(void **state)
{
	const char *root = *state;
	struct sysinfo si;

	put(root, DEV "good/type", "10\n");
	put(root, DEV "good/format/event", "config:0-7\n");
	put(root, DEV "good/format/umask", "config:8-15\n");
	put(root, DEV "good/events/cycles", "event=0x3c\n");
	put(root, DEV "cfg3/type", "11\n");
	put(root, DEV "cfg3/format/event", "config:0-7\n");
	put(root, DEV "cfg3/format/filter", "config3:0-3\n");
	put(root, DEV "emptyfmt/type", "12\n");
	put(root, DEV "emptyfmt/format/event", "");
	put(root, DEV "fmtfile/type", "13\n");
	put(root, DEV "fmtfile/format", "config:0-7\n");
	put(root, DEV "fmtsubdir/type", "14\n");
	put_dir(root, DEV "fmtsubdir/format/nested");
	put(root, DEV "fmtfifo/type", "15\n");
	put_dir(root, DEV "fmtfifo/format");
	put_fifo(root, DEV "fmtfifo/format/event");
	put(root, DEV "evfile/type", "16\n");
	put(root, DEV "evfile/events", "x\n");
	put(root, DEV "evbad/type", "17\n");
	put(root, DEV "evbad/events/garbage", "\x01\x02 not an event\n"); /* perf only warns */
	put(root, DEV "nofmt/type", "18\n");
	put_dir(root, DEV "emptyfmtdir/format");
	put(root, DEV "emptyfmtdir/type", "19\n");
	pmus_of(root, &si);
	assert_int_equal(si.nr_pmus, 4);
	assert_non_null(find_pmu(&si, "good"));
	assert_non_null(find_pmu(&si, "evbad"));
	assert_non_null(find_pmu(&si, "nofmt"));
	assert_non_null(find_pmu(&si, "emptyfmtdir"));
	sysinfo__free_cache_pmu(&si);
}

static void test_pmu_hybrid_rules(void **state)
{
	const char *root = *state;
	const struct sysinfo_pmu *p;
	struct sysinfo si;

	put(root, DEV "cpu_core/type", "4\n");
	put(root, DEV "cpu_core/cpus", "0-7\n");
	put(root, DEV "cpu_atom/type", "8\n");
	put(root, DEV "cpu_atom/cpus", " 8-15\nsecond line\n");
	put(root, DEV "cpu_nocpus/type", "9\n");
	put(root, DEV "cpu_emptycpus/type", "10\n");
	put(root, DEV "cpu_emptycpus/cpus", "\n");
	put(root, DEV "cpu_badcpus/type", "11\n");
	put(root, DEV "cpu_badcpus/cpus", "none\n");
	put(root, DEV "cpu_dircpus/type", "12\n");
	put_dir(root, DEV "cpu_dircpus/cpus");
	put(root, DEV "cpu_notype/cpus", "0\n");
	/* Not "cpu_": a cpus file does not make it hybrid, and is not exposed. */
	put(root, DEV "armv8_pmuv3_0/type", "13\n");
	put(root, DEV "armv8_pmuv3_0/cpus", "0-3\n");
	put(root, DEV "cpu/type", "4\n");
	put(root, DEV "cpu/cpus", "0-3\n");
	pmus_of(root, &si);
	assert_int_equal(si.nr_pmus, 4);
	p = find_pmu(&si, "cpu_core");
	assert_non_null(p);
	assert_string_equal(p->cpus, "0-7");
	p = find_pmu(&si, "cpu_atom");
	assert_non_null(p);
	assert_string_equal(p->cpus, " 8-15"); /* the first line, as perf keeps it */
	assert_null(find_pmu(&si, "armv8_pmuv3_0")->cpus);
	assert_null(find_pmu(&si, "cpu")->cpus);
	sysinfo__free_cache_pmu(&si);
}

static void test_pmu_caps_rules(void **state)
{
	const char *root = *state;
	const struct sysinfo_pmu *p;
	char long_val[300];
	struct sysinfo si;

	memset(long_val, 'v', sizeof(long_val) - 2);
	long_val[sizeof(long_val) - 2] = '\n';
	long_val[sizeof(long_val) - 1] = '\0';

	put(root, DEV "cpu/type", "4\n");
	put(root, DEV "cpu/caps/branches", "32\n");
	put(root, DEV "cpu/caps/max_precise", "3\n");
	put(root, DEV "cpu/caps/pmu_name", "skylake\n");
	put(root, DEV "cpu/caps/nonewline", "abc");
	put(root, DEV "cpu/caps/newline_only", "\n");
	put(root, DEV "cpu/caps/empty", "");
	put(root, DEV "cpu/caps/long", long_val);
	put(root, DEV "cpu/caps/twolines", "one\ntwo\n");
	put_dir(root, DEV "cpu/caps/subdir");
	put_fifo(root, DEV "cpu/caps/fifo");
	put(root, DEV "nocaps/type", "20\n");
	put(root, DEV "capsfile/type", "21\n");
	put(root, DEV "capsfile/caps", "branches=32\n");
	put(root, DEV "emptycaps/type", "22\n");
	put_dir(root, DEV "emptycaps/caps");
	pmus_of(root, &si);
	assert_int_equal(si.nr_pmus, 4);

	p = find_pmu(&si, "cpu");
	assert_non_null(p);
	assert_int_equal(p->nr_caps, 7);
	assert_string_equal(cap_of(p, "branches"), "32");
	assert_string_equal(cap_of(p, "max_precise"), "3");
	assert_string_equal(cap_of(p, "pmu_name"), "skylake");
	assert_string_equal(cap_of(p, "nonewline"), "ab");
	assert_string_equal(cap_of(p, "newline_only"), "");
	assert_int_equal(strlen(cap_of(p, "long")), PMU_CAP_LINE_MAX - 2);
	assert_string_equal(cap_of(p, "twolines"), "one");
	assert_null(cap_of(p, "empty"));
	assert_null(cap_of(p, "subdir"));
	assert_null(cap_of(p, "fifo"));
	{
		/* readdir order of what is kept */
		size_t n, k = 0;
		char **names = readdir_names(root, DEV "cpu/caps", &n);

		for (size_t i = 0; i < n; i++)
			if (cap_of(p, names[i]))
				assert_string_equal(p->caps[k++].name, names[i]);
		assert_int_equal(k, p->nr_caps);
		free_names(names);
	}
	static const char *const no_caps[] = { "nocaps", "capsfile", "emptycaps" };
	for (size_t i = 0; i < N(no_caps); i++) {
		p = find_pmu(&si, no_caps[i]);
		assert_non_null(p);
		assert_int_equal(p->nr_caps, 0);
		assert_null(p->caps);
		/* Only a caps that exists but is no directory fails perf's opendir. */
		assert_int_equal(p->caps_unreadable, !strcmp(no_caps[i], "capsfile"));
	}
	assert_false(find_pmu(&si, "cpu")->caps_unreadable);
	sysinfo__free_cache_pmu(&si);
}

static void pmu_names(const struct sysinfo *si, char *buf, size_t size)
{
	size_t off = 0;

	buf[0] = '\0';
	for (uint32_t i = 0; i < si->nr_pmus; i++)
		off += (size_t)snprintf(buf + off, size - off, "%s%s", i ? " " : "",
					si->pmus[i].name);
}

static void reorder_cpuid(const char *arch, const char *cpuid, uint32_t nr_cpus, const char *in,
			  const char *want)
{
	char *list = strdup(in), *save = NULL, got[1024];
	struct sysinfo si;
	uint32_t n = 0;

	memset(&si, 0, sizeof(si));
	strcpy(si.arch, arch);
	si.cpuid = cpuid ? strdup(cpuid) : NULL;
	si.nr_cpus_avail = nr_cpus;
	si.pmus = calloc(64, sizeof(*si.pmus));
	assert_non_null(si.pmus);
	for (char *t = strtok_r(list, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
		si.pmus[n].name = strdup(t);
		si.pmus[n].type = n;
		n++;
	}
	si.nr_pmus = n;
	free(list);
	sysinfo__pmus_perf_record_order(&si);
	pmu_names(&si, got, sizeof(got));
	assert_string_equal(got, want);
	sysinfo__free_cache_pmu(&si);
	free(si.cpuid);
}

/* The x86 rows: an Intel part, where perf looks up its auxtrace PMUs by name. */
static void reorder(const char *arch, uint32_t nr_cpus, const char *in, const char *want)
{
	reorder_cpuid(arch, "GenuineIntel,6,85,7", nr_cpus, in, want);
}

static void test_pmu_record_order(void **state)
{
	(void)state;
	/* perf 6.1's x86 auxtrace_record__init looks up intel_pt and intel_bts
	 * only when get_cpuid() says GenuineIntel: on AMD (this development VM),
	 * Hygon or an unknown vendor the directory order stands. */
	reorder_cpuid("x86_64", "AuthenticAMD,25,17,1", 16,
		      "kprobe msr intel_pt cpu intel_bts software",
		      "kprobe msr intel_pt cpu intel_bts software");
	reorder_cpuid("x86_64", "HygonGenuine,24,0,1", 4, "cpu intel_pt", "cpu intel_pt");
	reorder_cpuid("x86_64", NULL, 4, "cpu intel_bts intel_pt", "cpu intel_bts intel_pt");
	reorder_cpuid("x86_64", "GenuineIntel", 4, "cpu intel_pt", "cpu intel_pt");
	reorder_cpuid("i686", "GenuineIntel,6,15,11", 4, "cpu intel_pt", "intel_pt cpu");
	/* The arm rule does not depend on the vendor. */
	reorder_cpuid("aarch64", NULL, 2, "a arm_spe_0 cs_etm", "cs_etm arm_spe_0 a");
	reorder("x86_64", 16, "kprobe msr intel_pt cpu intel_bts software",
		"intel_pt intel_bts kprobe msr cpu software");
	reorder("x86_64", 16, "intel_bts kprobe cpu", "intel_bts kprobe cpu");
	reorder("i686", 16, "cpu intel_bts", "intel_bts cpu");
	reorder("x86_64", 16, "software uprobe breakpoint tracepoint msr",
		"software uprobe breakpoint tracepoint msr");
	reorder("aarch64", 8, "armv8_pmuv3_0 arm_spe_1 hisi_ptt2_1 cs_etm arm_spe_0 hisi_ptt0_2 x",
		"cs_etm arm_spe_0 arm_spe_1 hisi_ptt2_1 hisi_ptt0_2 armv8_pmuv3_0 x");
	/* Past the CPU count perf does not probe arm_spe_N by name. */
	reorder("aarch64", 2, "a arm_spe_7 arm_spe_1 arm_spe_x", "arm_spe_1 a arm_spe_7 arm_spe_x");
	reorder("armv7l", 0, "a arm_spe_12 arm_spe_3", "arm_spe_3 arm_spe_12 a");
	reorder("riscv64", 4, "cpu intel_pt cs_etm", "cpu intel_pt cs_etm");
	reorder("", 4, "cpu intel_pt", "cpu intel_pt");
	reorder("x86_64", 4, "", "");
}

/* The readers leave earlier results alone only through free: they start from empty. */
static void test_read_twice(void **state)
{
	const char *root = *state;
	struct sysinfo si;
	int fd;

	put_vm_caches(root);
	put(root, DEV "software/type", "1\n");
	fd = open_root(root);
	memset(&si, 0, sizeof(si));
	assert_int_equal(sysinfo__read_caches(&si, fd), 0);
	assert_int_equal(sysinfo__read_pmus(&si, fd), 0);
	assert_int_equal(si.nr_caches, 7);
	assert_int_equal(si.nr_pmus, 1);
	sysinfo__free_cache_pmu(&si);
	assert_int_equal(sysinfo__read_caches(&si, fd), 0);
	assert_int_equal(sysinfo__read_pmus(&si, fd), 0);
	assert_int_equal(si.nr_caches, 7);
	assert_int_equal(si.nr_pmus, 1);
	sysinfo__free_cache_pmu(&si);
	close(fd);
}

#define SCRATCH(fn) cmocka_unit_test_setup_teardown(fn, scratch__setup, scratch__teardown)
#define FIXTURE(i) cmocka_unit_test_prestate(test_fixture, (void *)&fixtures[i])

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_u32),
		cmocka_unit_test(test_parse_str),
		cmocka_unit_test(test_parse_cap_value),
		cmocka_unit_test(test_parse_format),
		cmocka_unit_test(test_parse_hybrid_cpus),
		FIXTURE(0),
		FIXTURE(1),
		FIXTURE(2),
		FIXTURE(3),
		FIXTURE(4),
		cmocka_unit_test(test_fixture_broken),
		cmocka_unit_test(test_live_matches_perf),
		cmocka_unit_test(test_fixtures_match_perf),
		SCRATCH(test_cache_sane_tree),
		SCRATCH(test_cache_empty),
		SCRATCH(test_cache_no_cpu_count),
		SCRATCH(test_cache_garbled_fields),
		SCRATCH(test_cache_walk_rules),
		SCRATCH(test_cache_many_cpus),
		SCRATCH(test_pmu_none),
		SCRATCH(test_pmu_type_rules),
		SCRATCH(test_pmu_format_events),
		SCRATCH(test_pmu_hybrid_rules),
		SCRATCH(test_pmu_caps_rules),
		SCRATCH(test_read_twice),
		cmocka_unit_test(test_pmu_record_order),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
