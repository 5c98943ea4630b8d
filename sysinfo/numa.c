// SPDX-License-Identifier: GPL-2.0-only
/*
 * NUMA_TOPOLOGY: every online node with its MemTotal/MemFree (kB) and cpulist.
 * perf 6.1 reads sys/devices/system/node (util/cputopo.c); on the live
 * system we ask libnuma first and format its cpu masks the way the kernel
 * prints cpulist, so both roads give the same bytes. Whatever libnuma cannot
 * answer is read from sysfs, as perf would.
 */
#include "topology.h"
#include "fsread.h"

#include <prec/grow.h>
#include <prec/sysinfo.h>

#include <errno.h>
#include <inttypes.h>
#include <numa.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NODE_DIR "sys/devices/system/node"

void numa__free_nodes(struct sysinfo_numa_node *nodes, uint32_t nr)
{
	if (!nodes)
		return;
	for (uint32_t i = 0; i < nr; i++)
		free(nodes[i].cpus);
	free(nodes);
}

static const char *skip_space(const char *p, const char *end)
{
	while (p < end && text__is_blank(*p))
		p++;
	return p;
}

/*
 * One meminfo line through perf's sscanf("%*s %*d %31s %" PRIu64): a word, an
 * int, a key of at most 31 bytes, an unsigned number (sign allowed, saturating
 * as strtoull). Returns 0 with key and value, or -EINVAL where sscanf would
 * not assign both.
 */
static int meminfo__line(const char *p, const char *end, char key[32], uint64_t *val)
{
	const char *q;
	uint64_t v = 0;
	bool neg = false, over = false;
	size_t n = 0;

	p = skip_space(p, end); /* %*s */
	if (p == end)
		return -EINVAL;
	while (p < end && !text__is_blank(*p))
		p++;
	p = skip_space(p, end); /* %*d */
	if (p < end && (*p == '+' || *p == '-'))
		p++;
	if (p == end || *p < '0' || *p > '9')
		return -EINVAL;
	while (p < end && *p >= '0' && *p <= '9')
		p++;
	p = skip_space(p, end); /* %31s */
	if (p == end)
		return -EINVAL;
	while (p < end && !text__is_blank(*p) && n < 31)
		key[n++] = *p++;
	key[n] = '\0';
	p = skip_space(p, end); /* %lu */
	if (p < end && (*p == '+' || *p == '-'))
		neg = *p++ == '-';
	if (p == end || *p < '0' || *p > '9')
		return -EINVAL;
	for (q = p; q < end && *q >= '0' && *q <= '9'; q++) {
		uint64_t d = (uint64_t)(*q - '0');

		if (over || v > (UINT64_MAX - d) / 10)
			over = true;
		else
			v = v * 10 + d;
	}
	/* strtoull saturates on overflow, else negates a signed value in unsigned arithmetic. */
	*val = over ? UINT64_MAX : neg ? 0 - v : v;
	return 0;
}

int node_meminfo__parse(const char *buf, size_t len, uint64_t *total_kb, uint64_t *free_kb)
{
	const char *p = buf, *end = buf + len;

	*total_kb = 0;
	*free_kb = 0;
	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		const char *stop, *nul;
		char key[32];
		uint64_t v;

		eol = eol ? eol + 1 : end;
		/* perf treats the line as a C string: a NUL ends it early. */
		nul = memchr(p, '\0', (size_t)(eol - p));
		stop = nul ? nul : eol;
		if (memchr(p, ':', (size_t)(stop - p))) {
			if (meminfo__line(p, stop, key, &v))
				return -EINVAL;
			if (!strcmp(key, "MemTotal:"))
				*total_kb = v;
			if (!strcmp(key, "MemFree:"))
				*free_kb = v;
			if (*total_kb && *free_kb)
				break;
		}
		p = eol;
	}
	return 0;
}

/* One node perf's load_numa_node way. Returns 0, -ENOMEM, or another error: drop the feature. */
static int node__read_sysfs(int rootfd, uint32_t node, struct sysinfo_numa_node *n)
{
	char path[64];
	size_t len;
	char *buf;
	int err;

	n->node = node;
	snprintf(path, sizeof(path), NODE_DIR "/node%" PRIu32 "/meminfo", node);
	err = fsread__file(rootfd, path, &buf, &len);
	if (err)
		return err;
	err = node_meminfo__parse(buf, len, &n->mem_total_kb, &n->mem_free_kb);
	free(buf);
	if (err)
		return err;
	/* A CPU-less node prints "\n": an empty string, which perf keeps. */
	snprintf(path, sizeof(path), NODE_DIR "/node%" PRIu32 "/cpulist", node);
	err = fsread__first_line(rootfd, path, &n->cpus);
	if (err)
		return err;
	/*
	 * perf copies the string blindly, but its reader parses it, and one it
	 * cannot parse makes it skip every feature after NUMA_TOPOLOGY. Better
	 * to leave the feature out than to spoil the rest of the header.
	 */
	if (n->cpus[0]) {
		struct cpulist cl;

		err = cpulist__parse(n->cpus, strlen(n->cpus), &cl);
		if (err)
			return err == -ENOMEM ? err : -EINVAL;
		cpulist__exit(&cl);
	}
	return 0;
}

int numa__read_sysfs(int rootfd, struct sysinfo_numa_node **nodesp, uint32_t *nrp)
{
	struct sysinfo_numa_node *nodes = NULL;
	struct cpulist online;
	uint32_t nr, i = 0;
	char *line;
	int err;

	*nodesp = NULL;
	*nrp = 0;
	err = fsread__first_line(rootfd, NODE_DIR "/online", &line);
	if (err)
		return err == -ENOMEM ? err : 0;
	err = cpulist__parse(line, strlen(line), &online);
	free(line);
	if (err)
		return err == -ENOMEM ? err : 0;

	nr = cpulist__count(&online);
	nodes = calloc(nr, sizeof(*nodes));
	if (!nodes) {
		err = -ENOMEM;
		goto out;
	}
	for (int node = cpulist__next(&online, 0); node >= 0;
	     node = cpulist__next(&online, (uint32_t)node + 1)) {
		err = node__read_sysfs(rootfd, (uint32_t)node, &nodes[i]);
		i++;
		if (err)
			goto out;
	}
	*nodesp = nodes;
	*nrp = nr;
	nodes = NULL;
	err = 0;
out:
	numa__free_nodes(nodes, i);
	cpulist__exit(&online);
	return err == -ENOMEM ? err : 0;
}

int bitmap__cpulist_str(const uint64_t *bits, uint64_t nr_bits, char **out)
{
	/* Each run takes one bit at least and fewer than 48 bytes. */
	size_t cap = 64, len = 0, max = nr_bits < SIZE_MAX / 48 ? nr_bits * 48 + 1 : SIZE_MAX;
	char *s = malloc(cap);
	uint64_t b = 0;

	*out = NULL;
	if (!s)
		return -ENOMEM;
	s[0] = '\0';
	while (b < nr_bits) {
		uint64_t first, last;
		char tmp[48];
		int n;

		if (!((bits[b / 64] >> (b % 64)) & 1)) {
			b++;
			continue;
		}
		first = b;
		while (b + 1 < nr_bits && ((bits[(b + 1) / 64] >> ((b + 1) % 64)) & 1))
			b++;
		last = b++;
		/* The kernel's %*pbl: "a-b" for any run longer than one. */
		if (first == last)
			n = snprintf(tmp, sizeof(tmp), "%s%" PRIu64, len ? "," : "", first);
		else
			n = snprintf(tmp, sizeof(tmp), "%s%" PRIu64 "-%" PRIu64, len ? "," : "",
				     first, last);
		if (grow__array(&s, &cap, len + (size_t)n + 1, 1, 0, max)) {
			free(s);
			return -ENOMEM;
		}
		memcpy(s + len, tmp, (size_t)n + 1);
		len += (size_t)n;
	}
	*out = s;
	return 0;
}

/* The cpus of one node as libnuma sees them, in cpulist form. */
static int node__cpus_libnuma(int node, char **cpus)
{
	int nr_cpus = numa_num_possible_cpus();
	struct bitmask mask;
	uint64_t *bits;
	int err;

	*cpus = NULL;
	if (nr_cpus <= 0)
		return -ENOENT;
	/*
	 * Our own mask of exactly the kernel's cpumask size: libnuma's allocator
	 * exits the process on ENOMEM, and its cache refuses any other size.
	 */
	mask.size = (unsigned long)nr_cpus;
	mask.maskp = calloc(((size_t)nr_cpus + 8 * sizeof(unsigned long) - 1) /
				    (8 * sizeof(unsigned long)),
			    sizeof(unsigned long));
	bits = calloc(((size_t)nr_cpus + 63) / 64, sizeof(*bits));
	if (!mask.maskp || !bits) {
		err = -ENOMEM;
		goto out;
	}
	if (numa_node_to_cpus(node, &mask) < 0) {
		err = -ENOENT;
		goto out;
	}
	for (int c = 0; c < nr_cpus; c++)
		if (numa_bitmask_isbitset(&mask, (unsigned int)c))
			bits[c / 64] |= UINT64_C(1) << (c % 64);
	err = bitmap__cpulist_str(bits, (uint64_t)nr_cpus, cpus);
out:
	free(bits);
	free(mask.maskp);
	return err;
}

int numa__read_libnuma(struct sysinfo_numa_node **nodesp, uint32_t *nrp)
{
	struct sysinfo_numa_node *nodes = NULL;
	uint32_t nr = 0, i = 0;
	int max, err;

	*nodesp = NULL;
	*nrp = 0;
	if (numa_available() < 0 || !numa_nodes_ptr)
		return -ENOENT;
	/* numa_nodes_ptr holds the nodeN directories, i.e. the online nodes. */
	max = numa_max_node();
	for (int node = 0; node <= max; node++)
		nr += numa_bitmask_isbitset(numa_nodes_ptr, (unsigned int)node) ? 1 : 0;
	if (!nr)
		return -ENOENT;
	nodes = calloc(nr, sizeof(*nodes));
	if (!nodes)
		return -ENOMEM;
	for (int node = 0; node <= max; node++) {
		long long total, freeb;

		if (!numa_bitmask_isbitset(numa_nodes_ptr, (unsigned int)node))
			continue;
		/* libnuma reports the kB of nodeN/meminfo shifted to bytes: shift back. */
		total = numa_node_size64(node, &freeb);
		if (total < 0 || freeb < 0) {
			err = -ENOENT;
			goto fail;
		}
		nodes[i].node = (uint32_t)node;
		nodes[i].mem_total_kb = (uint64_t)total >> 10;
		nodes[i].mem_free_kb = (uint64_t)freeb >> 10;
		err = node__cpus_libnuma(node, &nodes[i].cpus);
		i++;
		if (err)
			goto fail;
	}
	*nodesp = nodes;
	*nrp = nr;
	return 0;
fail:
	numa__free_nodes(nodes, i);
	return err;
}

int sysinfo__read_numa(struct sysinfo *si, int rootfd, bool live)
{
	int err;

	si->numa = NULL;
	si->nr_numa = 0;
	if (live) {
		err = numa__read_libnuma(&si->numa, &si->nr_numa);
		if (err != -ENOENT)
			return err;
	}
	return numa__read_sysfs(rootfd, &si->numa, &si->nr_numa);
}
