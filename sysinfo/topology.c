// SPDX-License-Identifier: GPL-2.0-only
/*
 * CPU_TOPOLOGY as perf 6.1 builds it (util/cputopo.c, util/env.c): the
 * distinct package, die and core sibling lists that online CPUs show, in the
 * order they first show them, and core/socket/die ids of every CPU below
 * nr_cpus_avail. Also the one destructor for the three topology parts.
 */
#include "topology.h"
#include "fsread.h"
#include "sysinfo_int.h"

#include <prec/grow.h>
#include <prec/sysinfo.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CPU_DIR "sys/devices/system/cpu"

/*
 * A list of distinct strings in first-seen order, with an open-addressing
 * index so that thousands of CPUs do not cost a quadratic number of strcmp.
 */
struct strset {
	char **strs;
	uint32_t nr;
	size_t cap;
	uint32_t *slot; /* index + 1 into strs; 0 = empty */
	size_t nr_slot; /* power of two */
};

static uint32_t str__hash(const char *s)
{
	uint32_t h = 2166136261u; /* FNV-1a */

	for (; *s; s++)
		h = (h ^ (uint8_t)*s) * 16777619u;
	return h;
}

/* The index for one more string, half full at most: a power of two from 64
 * (fewer than 2^32 strings need fewer than 2^33 slots), rebuilt when grown. */
static int strset__grow_index(struct strset *set)
{
	size_t mask;

	if (grow__array(&set->slot, &set->nr_slot, ((size_t)set->nr + 1) * 2, sizeof(*set->slot),
			64, (size_t)1 << 33))
		return -ENOMEM;
	mask = set->nr_slot - 1;
	memset(set->slot, 0, set->nr_slot * sizeof(*set->slot));
	for (uint32_t i = 0; i < set->nr; i++) {
		size_t h = str__hash(set->strs[i]) & mask;

		while (set->slot[h])
			h = (h + 1) & mask;
		set->slot[h] = i + 1;
	}
	return 0;
}

/* Adds s (taking ownership) unless an equal string is there (then frees s). */
static int strset__add(struct strset *set, char *s)
{
	uint32_t h;

	if ((set->nr + 1) * 2 > set->nr_slot && strset__grow_index(set)) {
		free(s);
		return -ENOMEM;
	}
	for (h = str__hash(s) & (set->nr_slot - 1); set->slot[h];
	     h = (h + 1) & (set->nr_slot - 1)) {
		if (!strcmp(set->strs[set->slot[h] - 1], s)) {
			free(s);
			return 0;
		}
	}
	/* The index holds i + 1 in a uint32_t. */
	if (grow__array(&set->strs, &set->cap, (size_t)set->nr + 1, sizeof(*set->strs), 16,
			UINT32_MAX - 1)) {
		free(s);
		return -ENOMEM;
	}
	set->strs[set->nr] = s;
	set->slot[h] = ++set->nr;
	return 0;
}

/* Hands the strings over as a plain array (NULL when there are none). */
static char **strset__take(struct strset *set, uint32_t *nr)
{
	char **strs = set->strs;

	*nr = set->nr;
	if (!set->nr) {
		free(strs);
		strs = NULL;
	}
	free(set->slot);
	memset(set, 0, sizeof(*set));
	return strs;
}

static void strs__free(char **strs, uint32_t nr)
{
	for (uint32_t i = 0; i < nr; i++)
		free(strs[i]);
	free(strs);
}

static void strset__exit(struct strset *set)
{
	strs__free(set->strs, set->nr);
	free(set->slot);
	memset(set, 0, sizeof(*set));
}

/* perf's access(F_OK) test, relative to the root (paths here never start with '/'). */
static bool path__missing(int rootfd, const char *path)
{
	return faccessat(rootfd, path, F_OK, 0) < 0;
}

/*
 * Reads the first of name/old_name (old_name only when name does not exist)
 * for cpu into set. Returns 1 when a list was read, 0 when not, -ENOMEM.
 */
static int cpu__add_list(int rootfd, uint32_t cpu, const char *name, const char *old_name,
			 struct strset *set)
{
	char path[96];
	char *line;
	int err;

	snprintf(path, sizeof(path), CPU_DIR "/cpu%u/topology/%s", cpu, name);
	if (old_name && path__missing(rootfd, path))
		snprintf(path, sizeof(path), CPU_DIR "/cpu%u/topology/%s", cpu, old_name);
	err = fsread__first_line(rootfd, path, &line);
	if (err == -ENOMEM)
		return -ENOMEM;
	if (err)
		return 0;
	err = strset__add(set, line);
	return err ? err : 1;
}

int32_t topo__atoi(const char *buf, size_t len)
{
	/* perf reads 64 bytes into a stack buffer and hands them to atoi. */
	const size_t max = 64;
	uint64_t v = 0, limit;
	bool neg;
	size_t i;

	if (len > max)
		len = max;
	i = num__skip_sign(buf, len, &neg);
	/* strtol saturates at LONG_MAX / LONG_MIN (a 64-bit long). */
	limit = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
	for (; i < len && buf[i] >= '0' && buf[i] <= '9'; i++) {
		uint64_t d = (uint64_t)(buf[i] - '0');

		v = v > (limit - d) / 10 ? limit : v * 10 + d;
	}
	if (neg)
		v = 0 - v;
	/* glibc's atoi is (int)strtol: keep the low 32 bits. */
	return (int32_t)(uint32_t)(v & 0xffffffffu);
}

/* perf's cpu__get_topology_int: the file's atoi, or -1 when it cannot be read or is empty. */
static int cpu__read_id(int rootfd, uint32_t cpu, const char *name, int32_t *id)
{
	char path[96];
	size_t len;
	char *buf;
	int err;

	*id = -1;
	snprintf(path, sizeof(path), CPU_DIR "/cpu%u/topology/%s", cpu, name);
	err = fsread__file(rootfd, path, &buf, &len);
	if (err)
		return err == -ENOMEM ? -ENOMEM : 0;
	if (len)
		*id = topo__atoi(buf, len);
	free(buf);
	return 0;
}

/* perf's has_die_topology, with the fixture's arch standing in for uname(2). */
static bool has_die_topology(const struct sysinfo *si, int rootfd)
{
	if (strncmp(si->arch, "x86_64", 6) && strncmp(si->arch, "s390x", 5))
		return false;
	/* perf asks cpu0 only: no die list there means no die lists at all. */
	return !path__missing(rootfd, CPU_DIR "/cpu0/topology/die_cpus_list");
}

/* The CPUs whose sibling lists count: perf's online map (present when that is unreadable). */
static int online__read(int rootfd, struct cpulist *online)
{
	int err;

	err = cpu__online(rootfd, online);
	if (err == -ENOMEM)
		return err;
	if (err)
		err = fsread__cpulist(rootfd, CPU_DIR "/present", online);
	if (err == -ENOMEM)
		return err;
	return 0;
}

static void topology__exit(struct sysinfo_topology *t)
{
	strs__free(t->package_cpus, t->nr_package);
	strs__free(t->die_cpus, t->nr_die);
	strs__free(t->core_cpus, t->nr_core);
	free(t->cpu);
	memset(t, 0, sizeof(*t));
}

int sysinfo__read_topology(struct sysinfo *si, int rootfd)
{
	struct strset package = { 0 }, die = { 0 }, core = { 0 };
	struct sysinfo_topology *t = &si->topo;
	struct cpulist online = { 0 };
	uint32_t nr = si->nr_cpus_avail;
	bool has_die, built = false;
	int err;

	memset(t, 0, sizeof(*t));
	if (!nr)
		return 0;
	err = online__read(rootfd, &online);
	if (err)
		return err;
	has_die = has_die_topology(si, rootfd);

	for (uint32_t cpu = 0; cpu < nr; cpu++) {
		int got = 0, r;

		if (!cpulist__has(&online, cpu))
			continue;
		r = cpu__add_list(rootfd, cpu, "package_cpus_list", "core_siblings_list", &package);
		if (r < 0)
			goto nomem;
		got |= r;
		if (has_die) {
			r = cpu__add_list(rootfd, cpu, "die_cpus_list", NULL, &die);
			if (r < 0)
				goto nomem;
			got |= r;
		}
		r = cpu__add_list(rootfd, cpu, "core_cpus_list", "thread_siblings_list", &core);
		if (r < 0)
			goto nomem;
		got |= r;
		/* perf gives up on the whole feature when an online CPU shows no list at all. */
		if (!got)
			goto out;
		built = true;
	}
	if (!built)
		goto out;

	t->cpu = calloc(nr, sizeof(*t->cpu));
	if (!t->cpu)
		goto nomem;
	t->nr_cpu = nr;
	for (uint32_t cpu = 0; cpu < nr; cpu++) {
		struct sysinfo_cpu *c = &t->cpu[cpu];

		if (cpu__read_id(rootfd, cpu, "core_id", &c->core_id) ||
		    cpu__read_id(rootfd, cpu, "physical_package_id", &c->socket_id) ||
		    cpu__read_id(rootfd, cpu, "die_id", &c->die_id))
			goto nomem;
	}
	t->package_cpus = strset__take(&package, &t->nr_package);
	t->die_cpus = strset__take(&die, &t->nr_die);
	t->core_cpus = strset__take(&core, &t->nr_core);
	err = 0;
	goto done;

nomem:
	err = -ENOMEM;
out:
	topology__exit(t);
done:
	strset__exit(&package);
	strset__exit(&die);
	strset__exit(&core);
	cpulist__exit(&online);
	return err;
}

void sysinfo__free_topology(struct sysinfo *si)
{
	if (!si)
		return;
	topology__exit(&si->topo);
	numa__free_nodes(si->numa, si->nr_numa);
	si->numa = NULL;
	si->nr_numa = 0;
	for (uint32_t i = 0; i < si->mem.nr_nodes; i++)
		free(si->mem.nodes[i].bits);
	free(si->mem.nodes);
	memset(&si->mem, 0, sizeof(si->mem));
}
