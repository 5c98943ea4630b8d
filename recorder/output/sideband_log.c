// SPDX-License-Identifier: GPL-2.0-only
/* The side-band log (sideband_log.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>

#include "prec/event.h"
#include "prec/grow.h"
#include "drain/ring.h"
#include "names/names_hook.h"
#include "output/sideband_log.h"
#include "synth/synthesize.h"

/* What is kept: 1, and 2 for the records whose body starts with the pid of
 * the process they are about (the child's for FORK), which an EXIT drops. */
static const uint8_t kept_types[PERF_RECORD_MAX] = {
	[PERF_RECORD_COMM] = 2,	  [PERF_RECORD_MMAP] = 2,    [PERF_RECORD_MMAP2] = 2,
	[PERF_RECORD_FORK] = 2,	  [PERF_RECORD_EXIT] = 2,    [PERF_RECORD_NAMESPACES] = 2,
	[PERF_RECORD_CGROUP] = 1, [PERF_RECORD_KSYMBOL] = 1, [PERF_RECORD_BPF_EVENT] = 1,
};

int sideband_log__wants(uint32_t type)
{
	return type < PERF_RECORD_MAX && kept_types[type];
}

static uint8_t *sideband_log__room(struct sideband_log *l, size_t n)
{
	/* Copies of records already read: memory is the bound. */
	if (grow__array(&l->buf, &l->cap, l->len + n, 1, 64 * 1024, GROW_MEMORY)) {
		l->nomem++;
		return NULL;
	}
	return l->buf + l->len;
}

void sideband_log__add(struct sideband_log *l, const void *rec, size_t len)
{
	uint8_t *p = sideband_log__room(l, len);

	if (!p)
		return;
	memcpy(p, rec, len);
	l->len += len;
}

void sideband_log__add_ring(struct sideband_log *l, const struct ring *r, uint64_t pos,
			    uint32_t size)
{
	uint8_t *p = sideband_log__room(l, size);

	if (!p)
		return;
	ring__copy(r, pos, p, size);
	l->len += size;
}

/* The pid a record is about (the child for FORK); -ENOENT when it is about
 * no process. */
static int64_t record_pid(const struct perf_event_header *h)
{
	uint32_t pid;

	if (h->size < sizeof(*h) + 4 || h->type >= PERF_RECORD_MAX || kept_types[h->type] != 2)
		return -ENOENT;
	memcpy(&pid, (const uint8_t *)h + sizeof(*h), 4);
	return pid;
}

static bool in_set(const uint32_t *set, size_t n, uint32_t v)
{
	for (size_t i = 0; i < n; i++)
		if (set[i] == v)
			return true;
	return false;
}

/* The log to out, JIT code's mappings named by out's names (the ELFs the
 * names layer writes), as the rings' were; the EXIT records the log keeps
 * until their process may go are not written. 0 or the writer's -errno. */
static int replay_named(struct sideband_log *l, struct synth_out *out)
{
	size_t from = 0, off = 0;
	uint8_t *named = NULL;
	int ret = 0;

	while (!ret && off + sizeof(struct perf_event_header) <= l->len) {
		const struct prec_mmap2_event *k = (const void *)(l->buf + off);
		size_t sz = k->header.size, n = 0;
		const char *name;

		if (sz < sizeof(struct perf_event_header) || off + sz > l->len)
			break;
		off += sz;
		if (k->header.type != PERF_RECORD_EXIT) {
			if (!out->anon_name || !names_hook__is_anon_exec(k, sz) ||
			    !(name = out->anon_name(out->anon_arg, k->pid)))
				continue;
			if (!named && !(named = malloc(UINT16_MAX)))
				continue; /* unnamed: as perf record writes them */
			n = names_hook__place(named, UINT16_MAX, k, sz, name);
			if (!n)
				continue;
		}
		ret = off - sz > from ? synth_out__write(out, l->buf + from, off - sz - from) : 0;
		if (!ret && n)
			ret = synth_out__write(out, named, n);
		from = off;
	}
	free(named);
	if (!ret && l->len > from)
		ret = synth_out__write(out, l->buf + from, l->len - from);
	return ret;
}

void sideband_log__pass(struct sideband_log *l, bool whole)
{
	if (whole)
		l->safe_end = l->pass_start;
	l->pass_start = l->len;
}

int sideband_log__replay(struct sideband_log *l, struct synth_out *out)
{
	uint32_t *dead = NULL;
	size_t nr_dead = 0, cap = 0, kept = 0, pass_start = SIZE_MAX, safe_end = SIZE_MAX;

	/* The processes that may go: EXIT of a leader (pid == tid) that a
	 * whole pass drained past. */
	for (size_t off = 0; off + sizeof(struct perf_event_header) <= l->safe_end;) {
		const struct perf_event_header *h = (const void *)(l->buf + off);
		uint32_t pt[2];

		if (h->size < sizeof(*h) || off + h->size > l->len)
			break;
		/* EXIT's body is pid, ppid, tid, ptid: pid and tid. */
		if (h->type == PERF_RECORD_EXIT && h->size >= sizeof(*h) + 12) {
			memcpy(&pt[0], (const uint8_t *)h + sizeof(*h), 4);
			memcpy(&pt[1], (const uint8_t *)h + sizeof(*h) + 8, 4);
			if (pt[0] == pt[1] && !in_set(dead, nr_dead, pt[0])) {
				/* Distinct pids, each below the kernel's limit. */
				if (grow__array(&dead, &cap, nr_dead + 1, sizeof(*dead), 64,
						GROW_PIDS_MAX))
					break; /* keeping too much only costs size */
				dead[nr_dead++] = pt[0];
			}
		}
		off += h->size;
	}
	/* Compact in place: what is left is the side-band of the processes
	 * that may still have samples; the pass marks (record boundaries)
	 * move with it. */
	for (size_t off = 0; off + sizeof(struct perf_event_header) <= l->len;) {
		const struct perf_event_header *h = (const void *)(l->buf + off);
		size_t sz = h->size;
		int64_t pid;

		if (sz < sizeof(*h) || off + sz > l->len)
			break;
		if (off == l->pass_start)
			pass_start = kept;
		if (off == l->safe_end)
			safe_end = kept;
		pid = record_pid(h);
		if (pid < 0 || !in_set(dead, nr_dead, (uint32_t)pid)) {
			memmove(l->buf + kept, l->buf + off, sz);
			kept += sz;
		}
		off += sz;
	}
	l->len = kept;
	l->pass_start = pass_start == SIZE_MAX ? kept : pass_start;
	l->safe_end = safe_end == SIZE_MAX ? kept : safe_end;
	free(dead);
	return replay_named(l, out);
}

void sideband_log__exit(struct sideband_log *l)
{
	free(l->buf);
	memset(l, 0, sizeof(*l));
}
