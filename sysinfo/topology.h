/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_SYSINFO_TOPOLOGY_H
#define PREC_SYSINFO_TOPOLOGY_H
/*
 * CPU_TOPOLOGY, NUMA_TOPOLOGY and MEM_TOPOLOGY readers, with the pure parsers
 * under them visible for tests and fuzzers. Each reader fills its part of
 * struct sysinfo exactly as perf 6.1 would build the feature from the same
 * tree, and leaves the part empty where perf would leave the feature out:
 *
 *   topo.nr_cpu == 0      perf writes no CPU_TOPOLOGY (an online CPU had none
 *                         of its sibling lists, or nothing is known about CPUs)
 *   nr_numa == 0          perf writes no NUMA_TOPOLOGY (node/online unreadable,
 *                         or one online node lacks its meminfo or cpulist)
 *   !mem.known            perf writes no MEM_TOPOLOGY (no block_size_bytes, no
 *                         node/ directory, or a nodeN entry that is no directory);
 *                         with node/ but no nodeN in it, it writes 0 nodes
 *
 * Everything returns 0 or -ENOMEM; a garbled file never stops a recording.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sysinfo;
struct sysinfo_numa_node;

/* perf 6.1 keeps at most this many nodeN directories in MEM_TOPOLOGY (MAX_MEMORY_NODES). */
#define MEMTOPO_MAX_NODES 2000

/*
 * A memoryM name with M at or above this is not a memory block we believe in
 * (it would mean a bitmap of M bits); MEM_TOPOLOGY is then left out.
 */
#define MEMTOPO_BLOCK_LIMIT (1u << 24)

/*
 * Fills si->topo from sys/devices/system/cpu under rootfd. Needs
 * si->nr_cpus_avail and si->arch (die lists exist only on x86_64 and s390x,
 * as perf decides) read first. Sibling lists come from online CPUs only (the
 * online list, or the present list when that is unreadable); core, socket and
 * die ids from every CPU below nr_cpus_avail, -1 where the file is missing or
 * empty (an offline CPU has no topology/ directory). Returns 0 or -ENOMEM.
 */
int sysinfo__read_topology(struct sysinfo *si, int rootfd);

/*
 * Fills si->numa, si->nr_numa. With live set (rootfd is "/") it asks libnuma
 * (node set, sizes, cpu masks) and falls back to sysfs when libnuma cannot
 * answer; otherwise it reads sys/devices/system/node under rootfd as perf
 * does. Both give the same nodes, kB values and cpulist strings. Returns 0 or
 * -ENOMEM.
 */
int sysinfo__read_numa(struct sysinfo *si, int rootfd, bool live);

/*
 * Fills si->mem from sys/devices/system/memory/block_size_bytes and the
 * memoryM names in each sys/devices/system/node/nodeN (nodes ascending), and
 * sets mem.known where perf would write the feature. Returns 0 or -ENOMEM.
 */
int sysinfo__read_mem_topology(struct sysinfo *si, int rootfd);

/*
 * block_size_bytes as perf 6.1 reads it: the first 64 bytes through
 * strtoull(, 16) (blanks, a sign, an optional 0x, hex digits; anything else
 * ends the number: garbage reads as 0; past UINT64_MAX saturates). Returns 0,
 * or -ENODATA for an empty file (perf's read() gives nothing: no feature).
 */
int block_size__parse(const char *buf, size_t len, uint64_t *val);

/* Frees topo, numa and mem and leaves them zeroed; accepts NULL and empty parts. */
void sysinfo__free_topology(struct sysinfo *si);

/*
 * NUMA_TOPOLOGY from the sysfs files under rootfd, perf's way. Returns 0 with
 * *nodes (caller frees with numa__free_nodes; NULL when *nr is 0) or -ENOMEM.
 */
int numa__read_sysfs(int rootfd, struct sysinfo_numa_node **nodes, uint32_t *nr);

/*
 * NUMA_TOPOLOGY of the live system through libnuma. Returns 0 with *nodes as
 * above, -ENOENT when libnuma is unavailable or cannot answer for a node (the
 * caller then reads sysfs), or -ENOMEM.
 */
int numa__read_libnuma(struct sysinfo_numa_node **nodes, uint32_t *nr);

/* Frees nodes[0..nr) and the array; accepts NULL. */
void numa__free_nodes(struct sysinfo_numa_node *nodes, uint32_t nr);

/*
 * MemTotal and MemFree (kB) from a nodeN/meminfo buffer, as perf 6.1 scans it:
 * lines without ':' are skipped, every other line up to the point where both
 * values are non-zero must read as "<word> <int> <key> <number>", else the
 * whole node is refused. Missing keys stay 0. Returns 0 or -EINVAL.
 */
int node_meminfo__parse(const char *buf, size_t len, uint64_t *total_kb, uint64_t *free_kb);

/*
 * A sysfs integer as perf's sysfs__read_int reads it: atoi() of the first 64
 * bytes (leading blanks, a sign, digits; anything else ends the number, no
 * digits give 0, out-of-range values wrap as glibc's (int)strtol does).
 */
int32_t topo__atoi(const char *buf, size_t len);

/*
 * Formats a bitmap of CPUs as the kernel prints a cpulist ("0-3,8,10-11"; ""
 * when empty) into a malloc'd *out. Returns 0 or -ENOMEM (*out NULL).
 */
int bitmap__cpulist_str(const uint64_t *bits, uint64_t nr_bits, char **out);

#endif
