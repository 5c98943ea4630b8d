/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_SYSINFO_H
#define PREC_SYSINFO_H
/*
 * A snapshot of the machine, read from /proc and /sys under a root directory
 * ("/" on the live system, a fixture tree in tests). Plain data out: no
 * printing, no globals. A file that is missing or unparsable leaves its part
 * empty (NULL string, zero count); it is never an error that stops a recording.
 * Where perf 6.1 still writes a feature with nothing in it (CACHE without cache
 * directories, MEM_TOPOLOGY with node/ but no nodeN), a flag says so
 * (caches_known, mem.known), so that "empty" and "perf leaves it out" differ.
 */
#include <stdbool.h>
#include <stdint.h>

struct sysinfo_bpf; /* sysinfo/bpf.h */

#define SYSINFO_STR_MAX 65 /* utsname field size */

/* Where one CPU sits (CPU_TOPOLOGY); -1 for a CPU that is offline or unknown. */
struct sysinfo_cpu {
	int32_t core_id;
	int32_t socket_id;
	int32_t die_id;
};

/*
 * CPU_TOPOLOGY as perf builds it: the distinct sibling lists of the online
 * CPUs, in the order CPUs first show them, and every available CPU's ids.
 */
struct sysinfo_topology {
	char **package_cpus; /* package_cpus_list (or core_siblings_list) strings */
	uint32_t nr_package;
	char **die_cpus; /* die_cpus_list strings; nr_die 0 when the kernel has none */
	uint32_t nr_die;
	char **core_cpus; /* core_cpus_list (or thread_siblings_list) strings */
	uint32_t nr_core;
	struct sysinfo_cpu *cpu; /* [nr_cpu], nr_cpu == nr_cpus_avail */
	uint32_t nr_cpu;
};

/* NUMA_TOPOLOGY: one online node. */
struct sysinfo_numa_node {
	uint32_t node;
	uint64_t mem_total_kb;
	uint64_t mem_free_kb;
	char *cpus; /* cpulist string, "" for a CPU-less node */
};

/* MEM_TOPOLOGY: the memory blocks of one node, as a bitmap of block indexes. */
struct sysinfo_mem_node {
	uint64_t node;
	uint64_t nr_bits; /* highest block index + 1 */
	uint64_t *bits; /* [(nr_bits + 63) / 64] */
};

struct sysinfo_mem_topology {
	uint64_t block_size; /* bytes, as perf reads block_size_bytes */
	struct sysinfo_mem_node *nodes;
	uint32_t nr_nodes;
	/* perf writes MEM_TOPOLOGY: block_size_bytes was read and node/
	 * listed (nr_nodes may be 0). false: perf leaves it out. */
	bool known;
};

/* CACHE: one distinct cache, perf's strings as sysfs prints them. */
struct sysinfo_cache {
	uint32_t level;
	uint32_t line_size;
	uint32_t sets;
	uint32_t ways;
	char *type; /* "Data", "Instruction", "Unified" */
	char *size; /* "48K" */
	char *map; /* shared_cpu_list, "0-1" */
};

/* One caps/ file of a PMU: name and trimmed value. */
struct sysinfo_pmu_cap {
	char *name;
	char *value;
};

/* PMU_MAPPINGS, CPU_PMU_CAPS, PMU_CAPS: every event source. */
struct sysinfo_pmu {
	char *name;
	uint32_t type;
	struct sysinfo_pmu_cap *caps; /* NULL when the PMU has no caps/ */
	uint32_t nr_caps;
	/* caps/ exists but cannot be listed (perf: -EINVAL, no CPU_PMU_CAPS) */
	bool caps_unreadable;
	char *cpus; /* cpus file (hybrid core PMUs), NULL when absent */
};

struct sysinfo {
	char hostname[SYSINFO_STR_MAX]; /* "" when unknown */
	char osrelease[SYSINFO_STR_MAX];
	char arch[SYSINFO_STR_MAX]; /* uname machine, e.g. "x86_64" */
	uint32_t nr_cpus_avail; /* highest present CPU + 1; 0 when unknown */
	uint32_t nr_cpus_online; /* CPUs in the online list; 0 when unknown */
	char *cpudesc; /* CPU model, runs of blanks squashed; NULL when unknown */
	char *cpuid; /* e.g. "GenuineIntel,6,167,1"; NULL when unknown */
	uint64_t total_mem_kb; /* MemTotal; 0 when unknown */

	struct sysinfo_topology topo; /* nr_cpu 0 when unknown */
	struct sysinfo_numa_node *numa; /* online nodes, ascending */
	uint32_t nr_numa;
	struct sysinfo_mem_topology mem;
	struct sysinfo_cache *caches; /* distinct, in perf's order */
	uint32_t nr_caches;
	/* perf writes CACHE: every cache/indexN it looked at could be read
	 * (nr_caches is 0 without cache directories). false: perf leaves it
	 * out (an index it cannot read), or nothing was read. */
	bool caches_known;
	struct sysinfo_pmu *pmus; /* in directory order (see sysinfo__pmus_perf_record_order) */
	uint32_t nr_pmus;
	struct sysinfo_bpf *bpf; /* loaded BPF programs and BTFs (live only); NULL: none */
};

/*
 * Fills *si (zeroed first) from the tree under root (NULL or "/" means the
 * live system; only there does uname(2) fill gaps). Returns 0, or a negative
 * errno when root itself cannot be opened (or -ENOMEM; *si is then empty).
 * Missing parts are left empty. The caller owns *si and releases it with
 * sysinfo__exit.
 */
int sysinfo__read(struct sysinfo *si, const char *root);

/*
 * perf record 6.1 lists intel_pt and intel_bts (x86, when si->cpuid says
 * GenuineIntel) first in PMU_MAPPINGS when no event made it scan the PMUs:
 * the default event, or software events only. The recorder calls this in
 * that case; else directory order.
 */
void sysinfo__pmus_perf_record_order(struct sysinfo *si);

/*
 * The live system's online CPU list (/sys/devices/system/cpu/online), its
 * first line as the kernel writes it ("0-3,8"). Returns 0 with a malloc'd
 * *text (the caller frees it), -ENODATA for an empty file, -ENOMEM, or the
 * -errno of reading it (*text NULL).
 */
int sysinfo__cpus_online(char **text);

/*
 * Reads the sysctl name ("kernel/perf_event_paranoid": the path below
 * proc/sys) under rootfd as a signed decimal. Returns 0 and *val, -EINVAL
 * when it is not one number, -ERANGE, or the -errno of reading it.
 */
int sysinfo__sysctl(int rootfd, const char *name, int64_t *val);

/* The live system's sysctl name (see sysinfo__sysctl), or dflt when it cannot
 * be read or parsed. */
int64_t sysinfo__sysctl_or(const char *name, int64_t dflt);

/* Frees what sysinfo__read allocated; accepts a zeroed or already-exited struct. */
void sysinfo__exit(struct sysinfo *si);

#endif
