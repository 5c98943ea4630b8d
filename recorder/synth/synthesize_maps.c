// SPDX-License-Identifier: GPL-2.0-only
/*
 * The synthesized records that describe the recording itself rather than a
 * task: ID_INDEX, THREAD_MAP, CPU_MAP and TIME_CONV (synthesize.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "targets/cpu_map.h"
#include "prec/event.h"
#include "evlist/evlist.h"
#include "targets/thread_map.h"
#include "prec/writer.h"
#include "synth/synthesize.h"

#define ALIGN8(x) (((x) + 7) & ~(size_t)7)

int synth__id_index_entries(struct synth_out *w, const struct synth_id *ids, size_t nr)
{
	_Static_assert(sizeof(struct synth_id) == sizeof(struct prec_id_index_entry), "id");

	while (nr) {
		size_t n = nr < SYNTH_ID_INDEX_MAX ? nr : SYNTH_ID_INDEX_MAX;
		struct prec_id_index_event head;
		int ret;

		memset(&head, 0, sizeof(head));
		head.header.type = PERF_RECORD_ID_INDEX;
		head.header.size = (uint16_t)(sizeof(head) + n * sizeof(*ids));
		head.nr = n;
		ret = synth_out__write(w, &head, sizeof(head));
		if (!ret)
			ret = synth_out__write(w, ids, n * sizeof(*ids));
		if (ret)
			return ret;
		ids += n;
		nr -= n;
	}
	return 0;
}

int synth__id_index(struct synth_out *w, const struct evlist *evlist, pid_t tid)
{
	const struct cpu_map *cpus = evlist->cpus;
	const struct thread_map *threads = evlist->threads;
	/* --per-thread: one ring per thread, so the ring index is the thread's */
	int per_thread = cpus->nr == 1 && cpus->cpu[0] == -1;
	struct synth_id *ids;
	size_t cap = 0, n = 0;
	int ret;

	for (int e = 0; e < evlist->nr; e++) {
		const struct evsel *evsel = &evlist->evsel[e];
		int nt = evsel->nr_threads > 0 ? evsel->nr_threads : 1;

		cap += (size_t)(evsel->open_cpus ? evsel->nr_cpus : cpus->nr) * (size_t)nt;
	}
	ids = calloc(cap ? cap : 1, sizeof(*ids));
	if (!ids)
		return -ENOMEM;
	for (int e = 0; e < evlist->nr; e++) {
		const struct evsel *evsel = &evlist->evsel[e];
		int nt = evsel->nr_threads > 0 ? evsel->nr_threads : 1;

		/* An opened evsel's own CPUs and threads: a system-wide one
		 * (--kcore's text_poke dummy) is on every CPU for any thread. */
		const int *ecpus = evsel->open_cpus ? evsel->open_cpus : cpus->cpu;
		int nc = evsel->open_cpus ? evsel->nr_cpus : cpus->nr;

		for (int c = 0; c < nc; c++) {
			for (int t = 0; t < nt; t++) {
				uint64_t id = evsel->id[(size_t)c * (size_t)nt + (size_t)t];
				pid_t thr = evsel->open_tids	       ? evsel->open_tids[t] :
					    threads && t < threads->nr ? threads->pid[t] :
									 tid;

				if (!id)
					continue; /* not open: the thread had gone */
				ids[n].id = id;
				ids[n].idx =
					(uint64_t)(int64_t)(evsel->open_cpus ?
								    evlist__ring_idx(evlist, evsel,
										     c, t) :
							    per_thread ? t :
									 c);
				ids[n].cpu = (uint64_t)(int64_t)ecpus[c];
				ids[n].tid = (uint64_t)(int64_t)thr;
				n++;
			}
		}
	}
	ret = synth__id_index_entries(w, ids, n);
	free(ids);
	return ret;
}

int synth__thread_map(struct synth_out *w, pid_t tid)
{
	return synth__thread_map_n(w, &tid, NULL, 1);
}

int synth__thread_map_n(struct synth_out *w, const pid_t *tids, const char *const *comms, size_t nr)
{
	/* header.size is a u16: a longer map goes out as several records, each
	 * of as many threads as fit. perf 6.1 writes one record whose size wraps
	 * (a record of garbage, or of size 0 that stops its reader), so any
	 * reader that takes perf's files takes a map in pieces: perf script
	 * keeps the first piece, as it keeps the first of any two maps. */
	const size_t per = (PERF_RECORD_MAX_SIZE - sizeof(struct prec_thread_map_event)) /
			   sizeof(struct prec_thread_map_entry);
	size_t cap = nr < per ? nr : per;
	struct prec_thread_map_event *ev;
	int ret = 0;

	if (!nr)
		return -EINVAL;
	ev = malloc(sizeof(*ev) + cap * sizeof(ev->entries[0]));
	if (!ev)
		return -ENOMEM;
	for (size_t at = 0; at < nr && !ret; at += cap) {
		size_t n = nr - at < cap ? nr - at : cap;
		size_t size = sizeof(*ev) + n * sizeof(ev->entries[0]);

		memset(ev, 0, size);
		ev->header.type = PERF_RECORD_THREAD_MAP;
		ev->header.size = (uint16_t)size;
		ev->nr = n;
		for (size_t i = 0; i < n; i++) {
			const char *comm = comms ? comms[at + i] : NULL;

			ev->entries[i].pid = (uint64_t)(int64_t)tids[at + i];
			if (comm)
				memcpy(ev->entries[i].comm, comm,
				       strnlen(comm, sizeof(ev->entries[i].comm) - 1));
		}
		ret = synth_out__write(w, ev, size);
	}
	free(ev);
	return ret;
}

/* The three encodings; each fills a zeroed record of exactly size bytes. */
static void cpu_map_list(void *rec, const int *cpus, size_t nr)
{
	struct prec_cpu_map_event *ev = rec;

	ev->type = PREC_CPU_MAP_CPUS;
	ev->nr = (uint16_t)nr;
	for (size_t i = 0; i < nr; i++)
		ev->cpu[i] = (uint16_t)cpus[i]; /* -1 becomes 0xffff, as perf writes it */
}

static void cpu_map_mask(void *rec, const int *cpus, size_t nr, size_t words, int long_size)
{
	struct prec_cpu_map_mask64_event *m64 = rec;
	struct prec_cpu_map_mask32_event *m32 = rec;

	m64->type = PREC_CPU_MAP_MASK;
	m64->nr = (uint16_t)words;
	m64->long_size = (uint16_t)long_size;
	for (size_t i = 0; i < nr; i++) {
		unsigned int cpu = (unsigned int)cpus[i];

		if (long_size == 8) {
			uint64_t v;

			memcpy(&v, &m64->mask[cpu / 64], sizeof(v));
			v |= 1ULL << (cpu % 64);
			memcpy(&m64->mask[cpu / 64], &v, sizeof(v));
		} else {
			uint32_t v;

			memcpy(&v, &m32->mask[cpu / 32], sizeof(v));
			v |= 1U << (cpu % 32);
			memcpy(&m32->mask[cpu / 32], &v, sizeof(v));
		}
	}
}

int synth__cpu_map_cpus(struct synth_out *w, const int *cpus, size_t nr,
			enum synth_cpu_map_form form)
{
	size_t any, real, size, list_bytes, mask_bytes, words;
	int type, long_size = 8, min, max;
	uint8_t *rec;
	int ret;

	if (!nr)
		return -EINVAL;
	any = cpus[0] == -1;
	for (size_t i = any; i < nr; i++)
		if (cpus[i] < 0 || cpus[i] > 0xffff || (i > any && cpus[i] <= cpus[i - 1]))
			return -EINVAL;
	real = nr - any;
	min = real ? cpus[any] : -1;
	max = real ? cpus[nr - 1] : -1;

	/* Sizes as each perf compares them (type and entries, unpadded). */
	list_bytes = 2 + 2 + 2 * nr;
	if (form == SYNTH_CPU_MAP_PERF61) {
		words = (size_t)(max + 1 + 31) / 32;
		mask_bytes = 2 + 4 + 4 * words;
		long_size = 4;
	} else {
		/* perf 5.x compares {nr, cpu[]} against {nr, long_size, pad, longs} */
		words = (size_t)(max + 1 + 63) / 64;
		mask_bytes = 8 + 8 * words;
		list_bytes = 2 + 2 * nr;
	}

	if (form == SYNTH_CPU_MAP_PERF61 && real && (size_t)(max - min + 1) == real) {
		type = PREC_CPU_MAP_RANGE;
		size = sizeof(struct prec_cpu_map_range_event);
	} else if (any || !real || list_bytes < mask_bytes) {
		type = PREC_CPU_MAP_CPUS;
		size = ALIGN8(sizeof(struct prec_cpu_map_event) + 2 * nr);
	} else {
		type = PREC_CPU_MAP_MASK;
		size = ALIGN8((long_size == 8 ? sizeof(struct prec_cpu_map_mask64_event) :
						sizeof(struct prec_cpu_map_mask32_event)) +
			      (size_t)long_size * words);
	}
	if (size > PERF_RECORD_MAX_SIZE)
		return -E2BIG;
	rec = calloc(1, size);
	if (!rec)
		return -ENOMEM;
	((struct perf_event_header *)rec)->type = PERF_RECORD_CPU_MAP;
	((struct perf_event_header *)rec)->size = (uint16_t)size;
	if (type == PREC_CPU_MAP_RANGE) {
		struct prec_cpu_map_range_event *ev = (void *)rec;

		ev->type = PREC_CPU_MAP_RANGE;
		ev->any_cpu = (uint8_t)any;
		ev->start_cpu = (uint16_t)min;
		ev->end_cpu = (uint16_t)max;
	} else if (type == PREC_CPU_MAP_CPUS) {
		cpu_map_list(rec, cpus, nr);
	} else {
		cpu_map_mask(rec, cpus, nr, words, long_size);
	}
	ret = synth_out__write(w, rec, size);
	free(rec);
	return ret;
}

int synth__cpu_map(struct synth_out *w, const struct evlist *evlist)
{
	return synth__cpu_map_cpus(w, evlist->cpus->cpu, (size_t)evlist->cpus->nr,
				   SYNTH_CPU_MAP_COMPAT);
}

int synth__time_conv(struct synth_out *w, const struct perf_event_mmap_page *pc)
{
	const volatile struct perf_event_mmap_page *p = pc;
	struct prec_time_conv_event ev;
	int zero = 0, shrt = 0;

	if (!pc)
		return 0;
	memset(&ev, 0, sizeof(ev));
	/* The kernel updates the page under a sequence count; an odd or moved
	 * count means the copy may be torn (perf tries 10000 times). */
	for (int i = 0;; i++) {
		uint32_t seq = p->lock;

		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		ev.time_mult = p->time_mult;
		ev.time_shift = p->time_shift;
		ev.time_zero = p->time_zero;
		ev.time_cycles = p->time_cycles;
		ev.time_mask = p->time_mask;
		zero = p->cap_user_time_zero;
		shrt = p->cap_user_time_short;
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (p->lock == seq && !(seq & 1))
			break;
		if (i >= 10000)
			return -EBUSY;
	}
	if (!zero)
		return 0;
	ev.header.type = PERF_RECORD_TIME_CONV;
	ev.header.size = sizeof(ev);
	ev.cap_user_time_zero = (uint8_t)zero;
	ev.cap_user_time_short = (uint8_t)shrt;
	return synth_out__write(w, &ev, sizeof(ev));
}
