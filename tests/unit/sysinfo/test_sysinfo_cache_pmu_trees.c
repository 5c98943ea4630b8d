// SPDX-License-Identifier: GPL-2.0-only
/*
 * sysinfo caches and PMUs on hostile trees built under mkdtemp: garbled and
 * missing fields, FIFOs, many CPUs, perf's rules for dropping a PMU, caps,
 * and perf record's PMU order.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "sysinfo_tree.h"

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

int main(void)
{
	const struct CMUnitTest tests[] = {
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


