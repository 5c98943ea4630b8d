// SPDX-License-Identifier: GPL-2.0-only
/*
 * The rings of a recording's events (evlist.h's evlist__mmap): one per CPU,
 * or per thread with --per-thread, laid out as libperf 6.1 does; every
 * other fd of a ring's CPU redirected into it; the backward ones paused
 * and resumed around a snapshot.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "targets/cpu_map.h"
#include "targets/thread_map.h"
#include "evlist/evlist.h"
#include "evlist/ring_size.h"
#include "prec/error.h"

static int evlist__mmap_error(int ret, int cpu, size_t data_bytes, int nr_rings,
			      struct prec_err *err)
{
	char hint[256];

	if (ret == -EPERM)
		return prec_err__set(err, ret, "cannot map %zu KiB ring buffers per CPU: %s (%s)",
				     data_bytes >> 10, strerror(-ret),
				     ring_size__mlock_error((unsigned)nr_rings, data_bytes, hint,
							    sizeof(hint)));
	return prec_err__set(err, ret,
			     "cannot map the ring buffer of CPU %d: %s (try a smaller -m)", cpu,
			     strerror(-ret));
}

/* Per-CPU rings normally; one ring per thread when the CPU is "any" (--per-thread). */
static bool evlist__per_thread(const struct evlist *evlist)
{
	return evlist->cpus->nr == 1 && evlist->cpus->cpu[0] == -1;
}

/* The index of cpu among the CPUs the evsel was opened on, or -1. */
static int evsel__cpu_idx(const struct evsel *evsel, int cpu)
{
	for (int c = 0; c < evsel->nr_cpus; c++)
		if (evsel->open_cpus[c] == cpu)
			return c;
	return -1;
}

/*
 * The rings as libperf 6.1 lays them out: per CPU of all_cpus; with
 * --per-thread one per thread first, then one per CPU of the system-wide
 * events. Slot s is for cpu (-1: any) and the thread index *t (-1: every
 * thread of an event opened on that CPU). Returns the number of slots when
 * s < 0.
 */
static int evlist__ring_slot(const struct evlist *evlist, int s, int *cpu, int *t)
{
	int nt = evlist__per_thread(evlist) ? evlist->threads->nr : 0;

	if (s < 0)
		return nt + evlist->all_cpus->nr;
	*t = s < nt ? s : -1;
	*cpu = s < nt ? -1 : evlist->all_cpus->cpu[s - nt];
	return 0;
}

int evlist__ring_idx(const struct evlist *evlist, const struct evsel *evsel, int c, int t)
{
	bool per_thread = evlist__per_thread(evlist);
	int cpu = evsel->open_cpus ? evsel->open_cpus[c] : -1;
	int nt = per_thread ? evlist->threads->nr : 0;

	if (!evlist->all_cpus)
		return per_thread ? t : c;
	if (cpu == -1)
		return t;
	for (int i = 0; i < evlist->all_cpus->nr; i++)
		if (evlist->all_cpus->cpu[i] == cpu)
			return nt + i;
	return -1;
}

/*
 * One kind of ring: the forward rings the drain loop empties, or the
 * backward (overwrite) ones read at the end. Every open fd of an event of
 * that kind on a ring's CPU (or thread) writes into that ring: the first
 * owns the mapping, the others are redirected to it. A system-wide event
 * joins the ring of its CPU; on a CPU the target does not record (-C,
 * --per-thread) its fds make a ring of their own.
 */
static int evlist__mmap_kind(struct evlist *evlist, size_t data_bytes, bool backward,
			     struct ring *rings, int *nr_rings, struct prec_err *err)
{
	int nr = evlist__ring_slot(evlist, -1, NULL, NULL);

	for (int s = 0; s < nr; s++) {
		int ring_fd = -1, cpu, slot_t;

		evlist__ring_slot(evlist, s, &cpu, &slot_t);
		for (int e = 0; e < evlist->nr; e++) {
			struct evsel *evsel = &evlist->evsel[e];
			int c = evsel->fd ? evsel__cpu_idx(evsel, cpu) : -1;
			int t0 = slot_t < 0 ? 0 : slot_t;
			int t1 = slot_t < 0 ? evsel->nr_threads : slot_t + 1;

			if (!!evsel->attr.write_backward != backward || c < 0 ||
			    t1 > evsel->nr_threads)
				continue;
			for (int t = t0; t < t1; t++) {
				int fd = EVSEL_FD(evsel, c, t);
				int ret;

				if (fd < 0)
					continue;
				if (ring_fd < 0) {
					ret = ring__mmap(&rings[*nr_rings], fd, cpu, data_bytes,
							 backward);
					if (ret)
						return evlist__mmap_error(ret, cpu, data_bytes, nr,
									  err);
					(*nr_rings)++;
					ring_fd = fd;
					continue;
				}
				if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, ring_fd) < 0)
					return prec_err__set(
						err, -errno,
						"cannot redirect event '%s' to the ring of CPU %d: %s",
						evsel->name, cpu, strerror(errno));
			}
		}
	}
	return 0;
}

/* all_cpus: the recording's CPUs (none with --per-thread) and those of
 * every system-wide event. 0 or -ENOMEM. */
static int evlist__all_cpus(struct evlist *evlist)
{
	struct cpu_map *all = NULL;
	int ret = cpu_map__merge(&all, evlist__per_thread(evlist) ? NULL : evlist->cpus, NULL);

	for (int e = 0; !ret && e < evlist->nr; e++) {
		struct cpu_map *next = NULL;

		if (!evlist->evsel[e].own_cpus)
			continue;
		ret = cpu_map__merge(&next, all, evlist->evsel[e].own_cpus);
		cpu_map__delete(all);
		all = next;
	}
	if (ret)
		return ret;
	cpu_map__delete(evlist->all_cpus);
	evlist->all_cpus = all;
	return 0;
}

int evlist__mmap(struct evlist *evlist, size_t data_bytes, struct prec_err *err)
{
	int nr, ret = evlist__all_cpus(evlist);

	if (ret)
		return ret;
	nr = evlist__ring_slot(evlist, -1, NULL, NULL);
	evlist->ring_bytes = data_bytes;
	evlist->rings = calloc((size_t)nr + 1, sizeof(*evlist->rings));
	evlist->bw_rings = calloc((size_t)nr + 1, sizeof(*evlist->bw_rings));
	if (!evlist->rings || !evlist->bw_rings)
		return -ENOMEM;
	ret = evlist__mmap_kind(evlist, data_bytes, false, evlist->rings, &evlist->nr_rings, err);
	if (!ret)
		ret = evlist__mmap_kind(evlist, data_bytes, true, evlist->bw_rings,
					&evlist->nr_bw_rings, err);
	return ret;
}

void evlist__pause_backward(struct evlist *evlist)
{
	for (int i = 0; i < evlist->nr_bw_rings; i++)
		ioctl(evlist->bw_rings[i].fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 1);
}

void evlist__resume_backward(struct evlist *evlist)
{
	for (int i = 0; i < evlist->nr_bw_rings; i++)
		ioctl(evlist->bw_rings[i].fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 0);
}
