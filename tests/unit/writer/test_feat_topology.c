// SPDX-License-Identifier: GPL-2.0-only
/*
 * CPU_TOPOLOGY, NUMA_TOPOLOGY, CACHE and MEM_TOPOLOGY: the exact bytes, first
 * against sections perf 6.1 itself wrote on the development VM (perf record
 * -z -k monotonic_raw -e '{cpu-clock,task-clock}'; 2 CPUs, one node), then
 * each layout rule, what is left out, and hostile sizes.
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
/* CPU_TOPOLOGY, 308 bytes */
static const char vm_cpu_topology[] =
	"0100000040000000302d31000000000000000000000000000000000000000000"
	"0000000000000000000000000000000000000000000000000000000000000000"
	"0000000000000000020000004000000030000000000000000000000000000000"
	"0000000000000000000000000000000000000000000000000000000000000000"
	"0000000000000000000000000000000040000000310000000000000000000000"
	"0000000000000000000000000000000000000000000000000000000000000000"
	"0000000000000000000000000000000000000000000000000000000001000000"
	"000000000100000040000000302d310000000000000000000000000000000000"
	"0000000000000000000000000000000000000000000000000000000000000000"
	"0000000000000000000000000000000000000000";

/* NUMA_TOPOLOGY, 92 bytes */
static const char vm_numa_topology[] =
	"0100000000000000cc68450000000000cce53e000000000040000000302d3100"
	"0000000000000000000000000000000000000000000000000000000000000000"
	"00000000000000000000000000000000000000000000000000000000";

/* CACHE, 1548 bytes */
static const char vm_cache[] =
	"01000000070000000100000040000000400000000c0000004000000044617461"
	"0000000000000000000000000000000000000000000000000000000000000000"
	"0000000000000000000000000000000000000000000000000000000040000000"
	"34384b0000000000000000000000000000000000000000000000000000000000"
	"0000000000000000000000000000000000000000000000000000000000000000"
	"4000000030000000000000000000000000000000000000000000000000000000"
	"0000000000000000000000000000000000000000000000000000000000000000"
	"000000000100000040000000400000001000000040000000496e737472756374"
	"696f6e0000000000000000000000000000000000000000000000000000000000"
	"0000000000000000000000000000000000000000000000004000000036344b00"
	"0000000000000000000000000000000000000000000000000000000000000000"
	"0000000000000000000000000000000000000000000000000000000040000000"
	"3000000000000000000000000000000000000000000000000000000000000000"
	"0000000000000000000000000000000000000000000000000000000000000000"
	"0100000040000000400000000c00000040000000446174610000000000000000"
	"0000000000000000000000000000000000000000000000000000000000000000"
	"00000000000000000000000000000000000000004000000034384b0000000000"
	"0000000000000000000000000000000000000000000000000000000000000000"
	"0000000000000000000000000000000000000000000000004000000031000000"
	"0000000000000000000000000000000000000000000000000000000000000000"
	"0000000000000000000000000000000000000000000000000000000001000000"
	"40000000400000001000000040000000496e737472756374696f6e0000000000"
	"0000000000000000000000000000000000000000000000000000000000000000"
	"000000000000000000000000000000004000000036344b000000000000000000"
	"0000000000000000000000000000000000000000000000000000000000000000"
	"0000000000000000000000000000000000000000400000003100000000000000"
	"0000000000000000000000000000000000000000000000000000000000000000"
	"0000000000000000000000000000000000000000000000000200000040000000"
	"000800001000000040000000556e696669656400000000000000000000000000"
	"0000000000000000000000000000000000000000000000000000000000000000"
	"00000000000000000000000040000000323034384b0000000000000000000000"
	"0000000000000000000000000000000000000000000000000000000000000000"
	"0000000000000000000000000000000040000000300000000000000000000000"
	"0000000000000000000000000000000000000000000000000000000000000000"
	"0000000000000000000000000000000000000000020000004000000000080000"
	"1000000040000000556e69666965640000000000000000000000000000000000"
	"0000000000000000000000000000000000000000000000000000000000000000"
	"000000000000000040000000323034384b000000000000000000000000000000"
	"0000000000000000000000000000000000000000000000000000000000000000"
	"0000000000000000000000004000000031000000000000000000000000000000"
	"0000000000000000000000000000000000000000000000000000000000000000"
	"0000000000000000000000000000000003000000400000000080070010000000"
	"40000000556e6966696564000000000000000000000000000000000000000000"
	"0000000000000000000000000000000000000000000000000000000000000000"
	"00000000400000003439313532304b0000000000000000000000000000000000"
	"0000000000000000000000000000000000000000000000000000000000000000"
	"000000000000000040000000302d310000000000000000000000000000000000"
	"0000000000000000000000000000000000000000000000000000000000000000"
	"000000000000000000000000";

/* MEM_TOPOLOGY, 80 bytes */
static const char vm_mem_topology[] =
	"0100000000000000000000080000000001000000000000000000000000000000"
	"c800000000000000c800000000000000ffffff00ffffffffffffffffffffffff"
	"ffffffffffffffffff00000000000000";
/* clang-format on */

/* ---- the development VM, as perf 6.1 read it ---- */

static char *vm_pkg[] = { "0-1" };
static char *vm_core[] = { "0", "1" };
static char *vm_die[] = { "0-1" };
static struct sysinfo_cpu vm_cpu[] = { { 0, 0, 0 }, { 1, 0, 0 } };
static struct sysinfo_numa_node vm_node[] = { { 0, 4548812, 4122060, "0-1" } };
static uint64_t vm_mem_bits[] = { 0xffffffff00ffffffULL, ~0ULL, ~0ULL, 0xff };
static struct sysinfo_mem_node vm_mem_node[] = { { 0, 200, vm_mem_bits } };
static struct sysinfo_cache vm_caches[] = {
	{ 1, 64, 64, 12, "Data", "48K", "0" },
	{ 1, 64, 64, 16, "Instruction", "64K", "0" },
	{ 1, 64, 64, 12, "Data", "48K", "1" },
	{ 1, 64, 64, 16, "Instruction", "64K", "1" },
	{ 2, 64, 2048, 16, "Unified", "2048K", "0" },
	{ 2, 64, 2048, 16, "Unified", "2048K", "1" },
	{ 3, 64, 491520, 16, "Unified", "491520K", "0-1" },
};

static void fill_vm(struct sysinfo *si)
{
	memset(si, 0, sizeof(*si));
	si->nr_cpus_avail = 2;
	si->nr_cpus_online = 2;
	si->topo = (struct sysinfo_topology){
		.package_cpus = vm_pkg,
		.nr_package = 1,
		.die_cpus = vm_die,
		.nr_die = 1,
		.core_cpus = vm_core,
		.nr_core = 2,
		.cpu = vm_cpu,
		.nr_cpu = 2,
	};
	si->numa = vm_node;
	si->nr_numa = 1;
	si->mem = (struct sysinfo_mem_topology){ 0x8000000, vm_mem_node, 1, true };
	si->caches = vm_caches;
	si->nr_caches = 7;
	si->caches_known = true;
}

/* The same machine, the same bytes as perf record's file. */
static void test_vm_golden(void **state)
{
	static const struct {
		int id;
		const char *hex;
	} want[] = {
		{ HEADER_CPU_TOPOLOGY, vm_cpu_topology },
		{ HEADER_NUMA_TOPOLOGY, vm_numa_topology },
		{ HEADER_CACHE, vm_cache },
		{ HEADER_MEM_TOPOLOGY, vm_mem_topology },
	};
	struct sysinfo si;
	struct writer_meta m = { .si = &si };

	(void)state;
	fill_vm(&si);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		struct tbuf t = unhex(want[i].hex);

		assert_feature(want[i].id, &m, &t);
		free(t.b);
	}
}

/* ---- CPU_TOPOLOGY ---- */

static char *pkg2[] = { "0-1", "2-3" };
static char *core4[] = { "0", "1", "2" };
static char *die2[] = { "0-1", "2" };
/* CPU 3 is offline: no topology directory, every id -1. */
static struct sysinfo_cpu cpu4[] = { { 0, 0, 0 }, { 1, 0, 0 }, { 0, 1, 1 }, { -1, -1, -1 } };

static void fill_topo4(struct sysinfo *si, bool dies)
{
	memset(si, 0, sizeof(*si));
	si->nr_cpus_avail = 4;
	si->nr_cpus_online = 3;
	si->topo = (struct sysinfo_topology){
		.package_cpus = pkg2,
		.nr_package = 2,
		.die_cpus = dies ? die2 : NULL,
		.nr_die = dies ? 2 : 0,
		.core_cpus = core4,
		.nr_core = 3,
		.cpu = cpu4,
		.nr_cpu = 4,
	};
}

static void topo4_lists(struct tbuf *t)
{
	tb_u32(t, 2);
	tb_str(t, "0-1");
	tb_str(t, "2-3");
	tb_u32(t, 3);
	tb_str(t, "0");
	tb_str(t, "1");
	tb_str(t, "2");
}

static void topo4_ids(struct tbuf *t)
{
	for (int i = 0; i < 4; i++) {
		tb_u32(t, (uint32_t)cpu4[i].core_id);
		tb_u32(t, (uint32_t)cpu4[i].socket_id);
	}
}

/* Packages, cores, {core, socket} per available CPU; dies only when any. */
static void test_cpu_topology_layout(void **state)
{
	struct sysinfo si;
	struct writer_meta m = { .si = &si };
	struct tbuf t = { 0 };

	(void)state;
	fill_topo4(&si, false);
	topo4_lists(&t);
	topo4_ids(&t);
	assert_int_equal(t.n, 4 + 2 * 68 + 4 + 3 * 68 + 4 * 8);
	assert_feature(HEADER_CPU_TOPOLOGY, &m, &t);

	fill_topo4(&si, true);
	tb_u32(&t, 2);
	tb_str(&t, "0-1");
	tb_str(&t, "2");
	for (int i = 0; i < 4; i++)
		tb_u32(&t, (uint32_t)cpu4[i].die_id);
	/* the offline CPU: 0xffffffff in all three */
	assert_int_equal(*(uint32_t *)(t.b + t.n - 4), 0xffffffffu);
	assert_feature(HEADER_CPU_TOPOLOGY, &m, &t);
	free(t.b);
}

/* Ids that would not line up with NRCPUS: perf's old layout, lists alone. */
static void test_cpu_topology_lists_only(void **state)
{
	struct sysinfo si;
	struct writer_meta m = { .si = &si };
	struct tbuf t = { 0 };

	(void)state;
	topo4_lists(&t);

	fill_topo4(&si, true);
	si.topo.nr_cpu = 3; /* fewer ids than available CPUs */
	assert_feature(HEADER_CPU_TOPOLOGY, &m, &t);

	fill_topo4(&si, true);
	si.nr_cpus_avail = 8; /* more available CPUs than ids */
	assert_feature(HEADER_CPU_TOPOLOGY, &m, &t);

	fill_topo4(&si, true);
	si.nr_cpus_online = 0; /* NRCPUS left out: perf would read 0 ids */
	assert_feature(HEADER_CPU_TOPOLOGY, &m, &t);

	fill_topo4(&si, true);
	si.topo.cpu = NULL;
	assert_feature(HEADER_CPU_TOPOLOGY, &m, &t);
	free(t.b);
}

static void test_cpu_topology_left_out(void **state)
{
	static char *holes[] = { "0-1", NULL };
	struct sysinfo si;
	struct writer_meta m = { .si = &si }, none = { 0 };

	(void)state;
	assert_left_out(HEADER_CPU_TOPOLOGY, NULL, -ENOENT);
	assert_left_out(HEADER_CPU_TOPOLOGY, &none, -ENOENT);
	memset(&si, 0, sizeof(si));
	assert_left_out(HEADER_CPU_TOPOLOGY, &m, -ENOENT);
	fill_topo4(&si, true);
	si.topo.nr_cpu = 0; /* sysinfo's "unknown" */
	assert_left_out(HEADER_CPU_TOPOLOGY, &m, -ENOENT);
	/* broken parts: nothing half-written */
	fill_topo4(&si, true);
	si.topo.core_cpus = NULL;
	assert_left_out(HEADER_CPU_TOPOLOGY, &m, -EINVAL);
	fill_topo4(&si, true);
	si.topo.core_cpus = holes;
	si.topo.nr_core = 2;
	assert_left_out(HEADER_CPU_TOPOLOGY, &m, -EINVAL);
	fill_topo4(&si, true);
	si.topo.die_cpus = holes; /* fails after the ids were written */
	assert_left_out(HEADER_CPU_TOPOLOGY, &m, -EINVAL);
	fill_topo4(&si, true);
	si.topo.die_cpus = NULL;
	assert_left_out(HEADER_CPU_TOPOLOGY, &m, -EINVAL);
}

/*
 * A kind of sibling list no online CPU has (no package_cpus_list nor
 * core_siblings_list, or no core_cpus_list nor thread_siblings_list, while
 * another list was there): perf's cpu_topology__new() still succeeds and
 * write_cpu_topology() writes a count of 0 for that kind.
 */
static void test_cpu_topology_no_lists_of_a_kind(void **state)
{
	struct sysinfo si;
	struct writer_meta m = { .si = &si };
	struct tbuf t = { 0 };

	(void)state;
	fill_topo4(&si, false);
	si.topo.nr_package = 0;
	si.topo.package_cpus = NULL;
	tb_u32(&t, 0);
	tb_u32(&t, 3);
	tb_str(&t, "0");
	tb_str(&t, "1");
	tb_str(&t, "2");
	topo4_ids(&t);
	assert_feature(HEADER_CPU_TOPOLOGY, &m, &t);
	free(t.b);

	memset(&t, 0, sizeof(t));
	fill_topo4(&si, true);
	si.topo.nr_core = 0;
	si.topo.core_cpus = NULL;
	tb_u32(&t, 2);
	tb_str(&t, "0-1");
	tb_str(&t, "2-3");
	tb_u32(&t, 0);
	topo4_ids(&t);
	tb_u32(&t, 2);
	tb_str(&t, "0-1");
	tb_str(&t, "2");
	for (int i = 0; i < 4; i++)
		tb_u32(&t, (uint32_t)cpu4[i].die_id);
	assert_feature(HEADER_CPU_TOPOLOGY, &m, &t);
	free(t.b);
}

/* 4096 available CPUs (the last 96 offline), 2 packages, 2 dies, 2000 SMT
 * cores: every byte where it belongs. */
static void test_cpu_topology_4096(void **state)
{
	enum { NCPU = 4096, NONLINE = 4000, NCORE = NONLINE / 2 };
	static char *pkg[] = { "0-1999", "2000-3999" };
	struct sysinfo si;
	struct writer_meta m = { .si = &si };
	struct sysinfo_cpu *cpu = calloc(NCPU, sizeof(*cpu));
	char **core = calloc(NCORE, sizeof(*core));
	struct tbuf t = { 0 };

	(void)state;
	assert_non_null(cpu);
	assert_non_null(core);
	for (int i = 0; i < NCORE; i++) {
		core[i] = malloc(32);
		assert_non_null(core[i]);
		snprintf(core[i], 32, "%d,%d", i, i + NCORE);
	}
	for (int i = 0; i < NCPU; i++) {
		if (i < NONLINE)
			cpu[i] = (struct sysinfo_cpu){ i % NCORE, (i % NCORE) / 1000,
						       (i % NCORE) / 1000 };
		else
			cpu[i] = (struct sysinfo_cpu){ -1, -1, -1 };
	}
	memset(&si, 0, sizeof(si));
	si.nr_cpus_avail = NCPU;
	si.nr_cpus_online = NONLINE;
	si.topo = (struct sysinfo_topology){
		.package_cpus = pkg,
		.nr_package = 2,
		.die_cpus = pkg,
		.nr_die = 2,
		.core_cpus = core,
		.nr_core = NCORE,
		.cpu = cpu,
		.nr_cpu = NCPU,
	};

	tb_u32(&t, 2);
	tb_str(&t, pkg[0]);
	tb_str(&t, pkg[1]);
	tb_u32(&t, NCORE);
	for (int i = 0; i < NCORE; i++)
		tb_str(&t, core[i]);
	for (int i = 0; i < NCPU; i++) {
		tb_u32(&t, (uint32_t)cpu[i].core_id);
		tb_u32(&t, (uint32_t)cpu[i].socket_id);
	}
	tb_u32(&t, 2);
	tb_str(&t, pkg[0]);
	tb_str(&t, pkg[1]);
	for (int i = 0; i < NCPU; i++)
		tb_u32(&t, (uint32_t)cpu[i].die_id);
	assert_int_equal(t.n, 4 + 2 * 68 + 4 + NCORE * 68 + NCPU * 8 + 4 + 2 * 68 + NCPU * 4);
	assert_feature(HEADER_CPU_TOPOLOGY, &m, &t);

	free(t.b);
	for (int i = 0; i < NCORE; i++)
		free(core[i]);
	free(core);
	free(cpu);
}

/* ---- NUMA_TOPOLOGY ---- */

static void test_numa_topology(void **state)
{
	static struct sysinfo_numa_node nodes[] = {
		{ 0, 16384000, 8000000, "0-7,16-23" },
		{ 1, 16777216, 1, "" }, /* memory without CPUs */
		{ 3, 0, 0, NULL }, /* unknown cpulist: written as "" */
	};
	struct sysinfo si = { .numa = nodes, .nr_numa = 3 };
	struct writer_meta m = { .si = &si };
	struct tbuf t = { 0 };

	(void)state;
	tb_u32(&t, 3);
	tb_u32(&t, 0);
	tb_u64(&t, 16384000);
	tb_u64(&t, 8000000);
	tb_str(&t, "0-7,16-23");
	tb_u32(&t, 1);
	tb_u64(&t, 16777216);
	tb_u64(&t, 1);
	tb_str(&t, "");
	tb_u32(&t, 3);
	tb_u64(&t, 0);
	tb_u64(&t, 0);
	tb_str(&t, "");
	assert_int_equal(t.n, 4 + 3 * (4 + 8 + 8 + 68));
	assert_feature(HEADER_NUMA_TOPOLOGY, &m, &t);
	free(t.b);

	assert_left_out(HEADER_NUMA_TOPOLOGY, NULL, -ENOENT);
	si.nr_numa = 0;
	assert_left_out(HEADER_NUMA_TOPOLOGY, &m, -ENOENT);
	si.nr_numa = 2;
	si.numa = NULL;
	assert_left_out(HEADER_NUMA_TOPOLOGY, &m, -EINVAL);
}

/* ---- CACHE ---- */

static void test_cache(void **state)
{
	static struct sysinfo_cache c[] = {
		{ 1, 64, 64, 12, "Data", "48K", "0,8" },
		{ 3, 64, 40960, 12, "Unified", "30720K", "0-15" },
		{ 4, 128, 1, 1, NULL, NULL, NULL },
	};
	struct sysinfo si = { .caches = c, .nr_caches = 3, .caches_known = true };
	struct writer_meta m = { .si = &si };
	struct tbuf t = { 0 };

	(void)state;
	tb_u32(&t, 1);
	tb_u32(&t, 3);
	for (int i = 0; i < 3; i++) {
		tb_u32(&t, c[i].level);
		tb_u32(&t, c[i].line_size);
		tb_u32(&t, c[i].sets);
		tb_u32(&t, c[i].ways);
		tb_str(&t, c[i].type ? c[i].type : "");
		tb_str(&t, c[i].size ? c[i].size : "");
		tb_str(&t, c[i].map ? c[i].map : "");
	}
	assert_int_equal(t.n, 8 + 3 * (16 + 3 * 68));
	assert_feature(HEADER_CACHE, &m, &t);
	free(t.b);

	assert_left_out(HEADER_CACHE, NULL, -ENOENT);
	/* An index perf could not read: no CACHE, whatever was gathered. */
	si.caches_known = false;
	assert_left_out(HEADER_CACHE, &m, -ENOENT);
	si.caches_known = true;
	si.nr_caches = 1;
	si.caches = NULL;
	assert_left_out(HEADER_CACHE, &m, -EINVAL);
}

/* No cache directory on any CPU: perf writes version 1 and cnt 0 ("# CPU cache info:"). */
static void test_cache_none(void **state)
{
	struct sysinfo si = { .caches_known = true };
	struct writer_meta m = { .si = &si };
	struct tbuf t = { 0 };

	(void)state;
	tb_u32(&t, 1);
	tb_u32(&t, 0);
	assert_feature(HEADER_CACHE, &m, &t);
	free(t.b);
	/* A zeroed snapshot (nothing read) says nothing. */
	memset(&si, 0, sizeof(si));
	assert_left_out(HEADER_CACHE, &m, -ENOENT);
}

/* ---- MEM_TOPOLOGY ---- */

static void test_mem_topology(void **state)
{
	static uint64_t bits0[] = { 0xfffULL, 0x1 }; /* blocks 0-11 and 64 */
	static uint64_t bits2[] = { 0x8000000000000000ULL };
	struct sysinfo_mem_node nodes[] = {
		{ 0, 65, bits0 },
		{ 1, 0, NULL }, /* no memory: perf's one-bit empty bitmap */
		{ 2, 64, bits2 },
	};
	struct sysinfo si = { .mem = { 0x8000000, nodes, 3, true } };
	struct writer_meta m = { .si = &si };
	struct tbuf t = { 0 };

	(void)state;
	tb_u64(&t, 1);
	tb_u64(&t, 0x8000000);
	tb_u64(&t, 3);
	tb_u64(&t, 0); /* node */
	tb_u64(&t, 65); /* size */
	tb_u64(&t, 65); /* the bitmap's own size */
	tb_u64(&t, 0xfff);
	tb_u64(&t, 1);
	tb_u64(&t, 1);
	tb_u64(&t, 1);
	tb_u64(&t, 1);
	tb_u64(&t, 0);
	tb_u64(&t, 2);
	tb_u64(&t, 64);
	tb_u64(&t, 64);
	tb_u64(&t, 0x8000000000000000ULL);
	assert_feature(HEADER_MEM_TOPOLOGY, &m, &t);
	free(t.b);

	assert_left_out(HEADER_MEM_TOPOLOGY, NULL, -ENOENT);
	/* No block_size_bytes, no node/ or a nodeN perf cannot open. */
	si.mem.known = false;
	assert_left_out(HEADER_MEM_TOPOLOGY, &m, -ENOENT);
	si.mem.known = true;
	nodes[2].bits = NULL; /* bits promised, none there */
	assert_left_out(HEADER_MEM_TOPOLOGY, &m, -EINVAL);
	si.mem.nodes = NULL;
	assert_left_out(HEADER_MEM_TOPOLOGY, &m, -EINVAL);
}

/*
 * node/ without any nodeN (a kernel without NUMA nodes listed, or the
 * directory hidden under an empty tmpfs): perf writes version, block size and
 * nr 0, "# memory nodes (nr 0, block size 0x8000000):". A block size read as
 * 0 (garbage in block_size_bytes) is written as read.
 */
static void test_mem_topology_no_nodes(void **state)
{
	struct sysinfo si = { .mem = { 0x8000000, NULL, 0, true } };
	struct writer_meta m = { .si = &si };
	struct tbuf t = { 0 };

	(void)state;
	tb_u64(&t, 1);
	tb_u64(&t, 0x8000000);
	tb_u64(&t, 0);
	assert_feature(HEADER_MEM_TOPOLOGY, &m, &t);
	free(t.b);

	memset(&t, 0, sizeof(t));
	si.mem.block_size = 0;
	tb_u64(&t, 1);
	tb_u64(&t, 0);
	tb_u64(&t, 0);
	assert_feature(HEADER_MEM_TOPOLOGY, &m, &t);
	free(t.b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vm_golden),
		cmocka_unit_test(test_cpu_topology_layout),
		cmocka_unit_test(test_cpu_topology_lists_only),
		cmocka_unit_test(test_cpu_topology_left_out),
		cmocka_unit_test(test_cpu_topology_no_lists_of_a_kind),
		cmocka_unit_test(test_cpu_topology_4096),
		cmocka_unit_test(test_numa_topology),
		cmocka_unit_test(test_cache),
		cmocka_unit_test(test_cache_none),
		cmocka_unit_test(test_mem_topology),
		cmocka_unit_test(test_mem_topology_no_nodes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
