// SPDX-License-Identifier: GPL-2.0-only
/*
 * Encoders for where things sit in the machine: CPU_TOPOLOGY, NUMA_TOPOLOGY,
 * CACHE and MEM_TOPOLOGY, byte for byte as perf 6.1's write_cpu_topology(),
 * write_numa_topology(), write_cache() and write_mem_topology() in
 * tools/perf/util/header.c. sysinfo has already done perf's reading (which
 * CPUs, which order, which lists); these only lay the parts out. Where perf
 * writes a section with no entries (CACHE without cache directories,
 * MEM_TOPOLOGY without nodeN, CPU_TOPOLOGY without one kind of sibling list)
 * so do we; a part perf leaves out, sysinfo marks so (-ENOENT here).
 */
#include <errno.h>

#include "prec/sysinfo.h"
#include "features.h"

/* A u32 count and that many padded strings; NULL entries are a bug upstream. */
static int put_string_list(struct feat_sink *s, char *const *list, uint32_t nr)
{
	if (nr && !list)
		return -EINVAL;
	for (uint32_t i = 0; i < nr; i++) {
		if (!list[i])
			return -EINVAL;
	}
	feat_sink__put_u32(s, nr);
	for (uint32_t i = 0; i < nr; i++)
		feat_sink__put_string(s, list[i]);
	return feat_sink__err(s);
}

/*
 * perf's reader sizes the per-CPU part by NRCPUS' first word and tells the
 * layout versions apart only by the section size, so the ids go out only
 * when they line up with the NRCPUS feature this file also gets.
 */
static bool topo_has_cpu_ids(const struct sysinfo *si)
{
	const struct sysinfo_topology *t = &si->topo;

	return t->cpu && t->nr_cpu && t->nr_cpu == si->nr_cpus_avail && si->nr_cpus_online;
}

/*
 * package lists, core (thread sibling) lists, {core_id, socket_id} for every
 * available CPU (-1 for an offline one), then, only when the kernel has
 * dies, the die lists and each CPU's die_id. perf prints the first list as
 * "sibling sockets" and the second as "sibling threads".
 */
int feat__write_cpu_topology(struct feat_sink *s, const struct writer_meta *meta)
{
	const struct sysinfo *si = meta->si;
	const struct sysinfo_topology *t;
	int err;

	if (!si)
		return -ENOENT;
	t = &si->topo;
	/* nr_cpu 0: sysinfo found an online CPU without any sibling list (or
	 * nothing about CPUs), where perf drops the feature. A kind of list no
	 * CPU has is written as a count of 0, as perf does. */
	if (!t->nr_cpu)
		return -ENOENT;
	err = put_string_list(s, t->package_cpus, t->nr_package);
	if (!err)
		err = put_string_list(s, t->core_cpus, t->nr_core);
	if (err)
		return err;
	/* Without ids perf reads the lists alone (the pre-3.x layout) and
	 * prints "Core ID and Socket ID information is not available". */
	if (!topo_has_cpu_ids(si))
		return 0;
	for (uint32_t i = 0; i < t->nr_cpu; i++) {
		feat_sink__put_u32(s, (uint32_t)t->cpu[i].core_id);
		feat_sink__put_u32(s, (uint32_t)t->cpu[i].socket_id);
	}
	if (!t->nr_die)
		return feat_sink__err(s);
	err = put_string_list(s, t->die_cpus, t->nr_die);
	if (err)
		return err;
	for (uint32_t i = 0; i < t->nr_cpu; i++)
		feat_sink__put_u32(s, (uint32_t)t->cpu[i].die_id);
	return feat_sink__err(s);
}

/* u32 nr, then per online node: u32 node, u64 MemTotal kB, u64 MemFree kB,
 * cpulist string ("" for a node without CPUs). */
int feat__write_numa_topology(struct feat_sink *s, const struct writer_meta *meta)
{
	const struct sysinfo *si = meta->si;

	if (!si || !si->nr_numa)
		return -ENOENT;
	if (!si->numa)
		return -EINVAL;
	feat_sink__put_u32(s, si->nr_numa);
	for (uint32_t i = 0; i < si->nr_numa; i++) {
		const struct sysinfo_numa_node *n = &si->numa[i];

		feat_sink__put_u32(s, n->node);
		feat_sink__put_u64(s, n->mem_total_kb);
		feat_sink__put_u64(s, n->mem_free_kb);
		feat_sink__put_string(s, n->cpus);
	}
	return feat_sink__err(s);
}

/* u32 version 1, u32 cnt, then per cache: u32 level, line_size, sets, ways
 * and the strings type, size, shared_cpu_list. */
int feat__write_cache(struct feat_sink *s, const struct writer_meta *meta)
{
	const struct sysinfo *si = meta->si;

	/* perf writes cnt 0 on a machine whose sysfs has no cache directories
	 * (caches_known with nr_caches 0), and no CACHE when an index it found
	 * could not be read (caches_known false). */
	if (!si || !si->caches_known)
		return -ENOENT;
	if (si->nr_caches && !si->caches)
		return -EINVAL;
	feat_sink__put_u32(s, 1);
	feat_sink__put_u32(s, si->nr_caches);
	for (uint32_t i = 0; i < si->nr_caches; i++) {
		const struct sysinfo_cache *c = &si->caches[i];

		feat_sink__put_u32(s, c->level);
		feat_sink__put_u32(s, c->line_size);
		feat_sink__put_u32(s, c->sets);
		feat_sink__put_u32(s, c->ways);
		feat_sink__put_string(s, c->type);
		feat_sink__put_string(s, c->size);
		feat_sink__put_string(s, c->map);
	}
	return feat_sink__err(s);
}

/*
 * u64 version 1, u64 block size, u64 nr, then per node: u64 node, u64 nbits,
 * and perf's bitmap: u64 nbits again, then ceil(nbits / 64) u64 words (bit
 * i = memory block i). The size appears twice because perf writes the node's
 * size and then do_write_bitmap() writes its own.
 */
int feat__write_mem_topology(struct feat_sink *s, const struct writer_meta *meta)
{
	static const uint64_t empty_node_word;
	const struct sysinfo *si = meta->si;
	const struct sysinfo_mem_topology *m;

	if (!si)
		return -ENOENT;
	m = &si->mem;
	/* perf leaves it out without block_size_bytes, without a node
	 * directory or with a nodeN it cannot open (known false), and writes
	 * nr 0 for a node directory without nodeN. */
	if (!m->known)
		return -ENOENT;
	if (m->nr_nodes && !m->nodes)
		return -EINVAL;
	feat_sink__put_u64(s, 1);
	feat_sink__put_u64(s, m->block_size);
	feat_sink__put_u64(s, m->nr_nodes);
	for (uint32_t i = 0; i < m->nr_nodes; i++) {
		const struct sysinfo_mem_node *n = &m->nodes[i];
		uint64_t nbits = n->nr_bits, words = nbits / 64 + (nbits % 64 != 0);
		const uint64_t *bits = n->bits;

		/* A node without memory blocks: perf's bitmap is one bit wide
		 * (its size is "highest block + 1" counted from 0). */
		if (!nbits) {
			nbits = 1;
			words = 1;
			bits = &empty_node_word;
		}
		if (!bits)
			return -EINVAL;
		if (words > SIZE_MAX / sizeof(uint64_t))
			return -E2BIG;
		feat_sink__put_u64(s, n->node);
		feat_sink__put_u64(s, nbits);
		feat_sink__put_u64(s, nbits);
		feat_sink__put_bytes(s, bits, (size_t)words * sizeof(uint64_t));
	}
	return feat_sink__err(s);
}
