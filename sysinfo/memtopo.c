// SPDX-License-Identifier: GPL-2.0-only
/*
 * MEM_TOPOLOGY as perf 6.1 builds it (util/header.c): the memory block size,
 * and for every nodeN directory under sys/devices/system/node a bitmap of the
 * memoryM entries in it, nr_bits = highest M + 1 (1 for a node without
 * blocks). Only the names count: the memoryM links may dangle.
 *
 * perf writes the feature as soon as block_size_bytes gives a read and node/
 * can be listed, also with no nodeN in it (nr 0); it leaves it out without
 * block_size_bytes (no memory/ directory: no memory hotplug), without node/
 * (no NUMA in the kernel), or when a nodeN entry cannot be opened.
 */
#include "topology.h"
#include "fsread.h"

#include <prec/grow.h>
#include <prec/number.h>
#include <prec/sysinfo.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* "<prefix><digits>" and nothing else; the number saturates at UINT64_MAX. */
static bool name__index(const char *name, const char *prefix, uint64_t *idx)
{
	size_t plen = strlen(prefix);
	const char *p = name + plen;
	uint64_t v = 0;

	if (strncmp(name, prefix, plen) || !*p)
		return false;
	for (; *p; p++) {
		uint64_t d = (uint64_t)(*p - '0');

		if (*p < '0' || *p > '9')
			return false;
		v = v > (UINT64_MAX - d) / 10 ? UINT64_MAX : v * 10 + d;
	}
	*idx = v;
	return true;
}

/*
 * The memory blocks of one node directory. Returns 0, -ENOMEM, or -EINVAL
 * when perf would drop the feature (no directory) or a block index is beyond
 * belief.
 */
static int mem_node__read(int nodedirfd, const char *name, uint64_t node,
			  struct sysinfo_mem_node *n)
{
	uint64_t *bits = NULL, max = 0;
	uint32_t *idx = NULL, nr = 0;
	size_t cap = 0;
	struct dirent *ent;
	DIR *dir;
	int err = 0;

	dir = fsread__opendir(nodedirfd, name);
	if (!dir)
		return errno == ENOMEM ? -ENOMEM : -EINVAL;
	while ((ent = readdir(dir))) {
		uint64_t m;

		if (!name__index(ent->d_name, "memory", &m))
			continue;
		if (m >= MEMTOPO_BLOCK_LIMIT) {
			err = -EINVAL;
			goto out;
		}
		/* Each index is below the limit and named once. */
		err = grow__array(&idx, &cap, (size_t)nr + 1, sizeof(*idx), 256,
				  MEMTOPO_BLOCK_LIMIT);
		if (err) {
			err = err == -E2BIG ? -EINVAL : err;
			goto out;
		}
		idx[nr++] = (uint32_t)m;
		if (m > max)
			max = m;
	}
	/* perf starts from 0 and adds one: a node without blocks still has a 1-bit map. */
	bits = calloc((max + 1 + 63) / 64, sizeof(*bits));
	if (!bits) {
		err = -ENOMEM;
		goto out;
	}
	for (uint32_t i = 0; i < nr; i++)
		bits[idx[i] / 64] |= UINT64_C(1) << (idx[i] % 64);
	n->node = node;
	n->nr_bits = max + 1;
	n->bits = bits;
out:
	free(idx);
	closedir(dir);
	return err;
}

static int mem_node__cmp(const void *a, const void *b)
{
	const struct sysinfo_mem_node *x = a, *y = b;

	return x->node < y->node ? -1 : x->node > y->node;
}

static void mem_nodes__free(struct sysinfo_mem_node *nodes, uint32_t nr)
{
	for (uint32_t i = 0; i < nr; i++)
		free(nodes[i].bits);
	free(nodes);
}

int block_size__parse(const char *buf, size_t len, uint64_t *val)
{
	/* perf: read(fd, line, 64) > 0, then strtoull(line, NULL, 16). */
	const size_t max = 64;
	uint64_t v = 0;
	bool neg, overflow = false;
	size_t i;

	if (!len)
		return -ENODATA;
	if (len > max)
		len = max;
	i = num__skip_sign(buf, len, &neg);
	/* "0x" is a prefix only when a hex digit follows it. */
	if (i + 2 < len && buf[i] == '0' && (buf[i + 1] == 'x' || buf[i + 1] == 'X') &&
	    hex__digit(buf[i + 2]) >= 0)
		i += 2;
	for (; i < len && buf[i] && hex__digit(buf[i]) >= 0; i++) {
		unsigned int d = (unsigned int)hex__digit(buf[i]);

		if (v > (UINT64_MAX - d) / 16)
			overflow = true;
		else
			v = v * 16 + d;
	}
	/* strtoull: ULLONG_MAX on overflow (the sign is not applied then). */
	if (overflow)
		v = UINT64_MAX;
	else if (neg)
		v = 0 - v;
	*val = v;
	return 0;
}

int sysinfo__read_mem_topology(struct sysinfo *si, int rootfd)
{
	struct sysinfo_mem_node *nodes = NULL;
	uint32_t nr = 0;
	size_t cap = 0;
	uint64_t block_size;
	struct dirent *ent;
	size_t len;
	char *buf;
	DIR *dir;
	int err = 0;

	memset(&si->mem, 0, sizeof(si->mem));
	err = fsread__file(rootfd, "sys/devices/system/memory/block_size_bytes", &buf, &len);
	if (err)
		return err == -ENOMEM ? err : 0;
	err = block_size__parse(buf, len, &block_size);
	free(buf);
	if (err)
		return 0;
	dir = fsread__opendir(rootfd, "sys/devices/system/node");
	if (!dir)
		return errno == ENOMEM ? -ENOMEM : 0;
	while ((ent = readdir(dir))) {
		uint64_t node;

		if (!name__index(ent->d_name, "node", &node) || node > UINT32_MAX)
			continue;
		if (nr == MEMTOPO_MAX_NODES) {
			err = -EINVAL;
			goto out;
		}
		err = GROW(&nodes, &cap, (size_t)nr + 1, MEMTOPO_MAX_NODES);
		if (err)
			goto out;
		memset(&nodes[nr], 0, sizeof(nodes[nr]));
		err = mem_node__read(dirfd(dir), ent->d_name, node, &nodes[nr]);
		if (err)
			goto out;
		nr++;
	}
	if (nr)
		qsort(nodes, nr, sizeof(*nodes), mem_node__cmp);
	si->mem.block_size = block_size;
	si->mem.nodes = nodes;
	si->mem.nr_nodes = nr;
	si->mem.known = true;
	nodes = NULL;
	nr = 0;
out:
	mem_nodes__free(nodes, nr);
	closedir(dir);
	return err == -ENOMEM ? err : 0;
}
