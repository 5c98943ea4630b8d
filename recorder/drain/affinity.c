// SPDX-License-Identifier: GPL-2.0-only
/* The drain thread's CPU affinity per ring and its real-time priority (affinity.h). */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "prec/error.h"
#include "prec/log.h"
#include "drain/ring.h"
#include "options/options.h"
#include "prec/sysinfo.h"
#include "drain/affinity.h"
#include "drain/drain.h"

/* Reads each node's CPU list; a CPU listed by no node keeps -1. */
static int affinity__read_nodes(struct affinity *a, const struct sysinfo *si)
{
	uint32_t max_node = 0;

	for (uint32_t i = 0; i < si->nr_numa; i++)
		if (si->numa[i].node > max_node)
			max_node = si->numa[i].node;
	a->nr_nodes = si->nr_numa ? max_node + 1 : 0;
	a->node_cpus = calloc(a->nr_nodes ? a->nr_nodes : 1, sizeof(*a->node_cpus));
	if (!a->node_cpus)
		return -ENOMEM;
	for (uint32_t i = 0; i < si->nr_numa; i++) {
		const struct sysinfo_numa_node *n = &si->numa[i];
		struct cpulist *cl = &a->node_cpus[n->node];

		/* A CPU-less node or a list we cannot read: no CPU is on it. */
		if (!n->cpus || cpulist__parse(n->cpus, strlen(n->cpus), cl))
			continue;
		if (cpulist__max(cl) >= (int)a->nr_cpus)
			a->nr_cpus = (uint32_t)cpulist__max(cl) + 1;
	}
	return 0;
}

int affinity__init(struct affinity *a, int mode, const struct sysinfo *si)
{
	memset(a, 0, sizeof(*a));
	a->mode = mode;
	a->cur = -1;
	a->nr_cpus = si->nr_cpus_avail;
	if (affinity__read_nodes(a, si))
		return -ENOMEM;
	if (!a->nr_cpus)
		a->nr_cpus = 1;
	a->node_of = malloc(a->nr_cpus * sizeof(*a->node_of));
	a->set = CPU_ALLOC(a->nr_cpus);
	if (!a->node_of || !a->set)
		return -ENOMEM;
	a->setsize = CPU_ALLOC_SIZE(a->nr_cpus);
	/* No NUMA facts at all (no node/ directory): one node holds every CPU. */
	for (uint32_t c = 0; c < a->nr_cpus; c++)
		a->node_of[c] = a->nr_nodes ? -1 : 0;
	for (uint32_t n = 0; n < a->nr_nodes; n++)
		for (int c = cpulist__next(&a->node_cpus[n], 0); c >= 0;
		     c = cpulist__next(&a->node_cpus[n], (uint32_t)c + 1))
			a->node_of[c] = (int)n;
	return 0;
}

void affinity__exit(struct affinity *a)
{
	for (uint32_t n = 0; a->node_cpus && n < a->nr_nodes; n++)
		cpulist__exit(&a->node_cpus[n]);
	free(a->node_cpus);
	free(a->node_of);
	if (a->set)
		CPU_FREE(a->set);
	memset(a, 0, sizeof(*a));
	a->cur = -1;
}

int affinity__key(const struct affinity *a, int cpu)
{
	if (cpu < 0 || (uint32_t)cpu >= a->nr_cpus)
		return -1;
	switch (a->mode) {
	case RECORD_AFFINITY_CPU:
		return cpu;
	case RECORD_AFFINITY_NODE:
		return a->node_of[cpu];
	default:
		return -1;
	}
}

int affinity__mask(const struct affinity *a, int key, cpu_set_t *set, size_t setsize)
{
	CPU_ZERO_S(setsize, set);
	if (key < 0)
		return 0;
	if (a->mode == RECORD_AFFINITY_CPU) {
		if ((uint32_t)key >= a->nr_cpus)
			return 0;
		CPU_SET_S((size_t)key, setsize, set);
		return 1;
	}
	/* Node mode; with no NUMA facts node 0 is every CPU. */
	for (uint32_t c = 0; c < a->nr_cpus; c++)
		if (a->node_of[c] == key)
			CPU_SET_S(c, setsize, set);
	return CPU_COUNT_S(setsize, set);
}

/* The drain's before_ring step: moves the calling thread onto r's mask
 * unless it is the one in force (one syscall per change, none per ring). */
static void affinity__before_ring(void *arg, const struct ring *r)
{
	struct affinity *a = arg;
	int key = affinity__key(a, r->cpu);

	if (key < 0 || key == a->cur)
		return;
	/* Whatever the answer, this key is not asked again until another
	 * ring's differs: a refused move must not cost a syscall per pass. */
	a->cur = key;
	a->moves++;
	if (!affinity__mask(a, key, a->set, a->setsize) ||
	    sched_setaffinity(0, a->setsize, a->set))
		a->failed++;
}

int affinity__attach(struct affinity *a, struct drain_config *c, int mode, const struct sysinfo *si)
{
	int ret;

	if (mode == RECORD_AFFINITY_SYS)
		return 0;
	ret = affinity__init(a, mode, si);
	if (ret)
		return ret;
	pr_verbose("affinity: %s\n", mode == RECORD_AFFINITY_CPU ? "CPU" : "NODE");
	c->before_ring = affinity__before_ring;
	c->ring_arg = a;
	return 0;
}

int affinity__set_realtime(int prio, struct prec_err *e)
{
	struct sched_param param = { .sched_priority = prio };

	if (!sched_setscheduler(0, SCHED_FIFO, &param))
		return 0;
	int err = errno;

	return prec_err__set(
		e, -err, "cannot drain with SCHED_FIFO priority %d (-r): %s (%s)", prio, strerror(err),
		err == EPERM ? "run prec as root or with CAP_SYS_NICE, or raise the limit: ulimit -r" :
			       "give a priority from 1 to 99");
}

int affinity__raise_drain(void)
{
	int cur, err;

	errno = 0;
	cur = getpriority(PRIO_PROCESS, 0);
	if (errno)
		return -errno;
	if (cur != 0) {
		pr_verbose("drain at nice %d, as prec was started\n", cur);
		return 0;
	}
	/* PRIO_PROCESS 0 is the calling thread on Linux: the command, forked
	 * before, keeps nice 0. */
	if (!setpriority(PRIO_PROCESS, 0, AFFINITY_DRAIN_NICE)) {
		pr_verbose("drain at nice %d\n", AFFINITY_DRAIN_NICE);
		return 0;
	}
	err = errno;
	pr_verbose("drain at nice 0: %s (CAP_SYS_NICE or ulimit -e would let it run first)\n",
		   strerror(err));
	return -err;
}

int affinity__bind(const struct cpulist *cpus)
{
	int max = cpulist__max(cpus), ret = 0;
	size_t size;
	cpu_set_t *set;

	if (max < 0)
		return 0; /* no CPU named: nothing to bind to */
	set = CPU_ALLOC(max + 1);
	if (!set)
		return -ENOMEM;
	size = CPU_ALLOC_SIZE(max + 1);
	CPU_ZERO_S(size, set);
	for (int c = cpulist__next(cpus, 0); c >= 0; c = cpulist__next(cpus, (uint32_t)c + 1))
		CPU_SET_S(c, size, set);
	if (sched_setaffinity(0, size, set))
		ret = -errno;
	CPU_FREE(set);
	return ret;
}
