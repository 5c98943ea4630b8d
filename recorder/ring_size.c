// SPDX-License-Identifier: GPL-2.0-only
/* The rings' default size from the events' expected data rate (ring_size.h). */
#include "prec/evlist.h"
#include "ring_size.h"

/* Typical depths, for the estimate only: a callchain's frames (kernel and
 * user), the kernel part alone under dwarf, an LBR's entries, the bytes of
 * a tracepoint's raw data and of a group read. */
#define EST_FRAMES 32
#define EST_KERNEL_FRAMES 16
#define EST_BRANCHES 32
#define EST_RAW 64
#define EST_READ 32

/* Sample fields that are one u64 each. */
#define U64_FIELDS                                                                             \
	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |        \
	 PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU |         \
	 PERF_SAMPLE_PERIOD | PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT |                 \
	 PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_TRANSACTION | PERF_SAMPLE_PHYS_ADDR |               \
	 PERF_SAMPLE_CGROUP | PERF_SAMPLE_DATA_PAGE_SIZE | PERF_SAMPLE_CODE_PAGE_SIZE)

uint64_t ring_size__sample_bytes(const struct perf_event_attr *attr)
{
	uint64_t st = attr->sample_type;
	uint64_t n = sizeof(struct perf_event_header);

	n += 8 * (uint64_t)__builtin_popcountll(st & U64_FIELDS);
	if (st & PERF_SAMPLE_READ)
		n += EST_READ;
	if (st & PERF_SAMPLE_CALLCHAIN) {
		uint64_t frames = attr->exclude_callchain_user ? EST_KERNEL_FRAMES : EST_FRAMES;

		if (attr->sample_max_stack && attr->sample_max_stack < frames)
			frames = attr->sample_max_stack;
		n += 8 + 8 * frames;
	}
	if (st & PERF_SAMPLE_RAW)
		n += 4 + EST_RAW;
	if (st & PERF_SAMPLE_BRANCH_STACK)
		n += 16 + 24 * EST_BRANCHES;
	if (st & PERF_SAMPLE_REGS_USER)
		n += 8 + 8 * (uint64_t)__builtin_popcountll(attr->sample_regs_user);
	if (st & PERF_SAMPLE_REGS_INTR)
		n += 8 + 8 * (uint64_t)__builtin_popcountll(attr->sample_regs_intr);
	if (st & PERF_SAMPLE_STACK_USER)
		n += 16 + attr->sample_stack_user;
	return n;
}

uint64_t ring_size__rate(const struct perf_event_attr *attr)
{
	if (attr->freq)
		return attr->sample_freq;
	if (!attr->sample_period || attr->type != PERF_TYPE_SOFTWARE)
		return 0;
	/* A clock event counts nanoseconds: its period is a time. */
	if (attr->config == PERF_COUNT_SW_CPU_CLOCK || attr->config == PERF_COUNT_SW_TASK_CLOCK)
		return 1000000000ull / attr->sample_period;
	return 0;
}

size_t ring_size__perf_default(size_t page, uint64_t mlock_kb)
{
	size_t pages = (size_t)(mlock_kb * 1024 / page), p2 = 1;

	pages = pages > 1 ? pages - 1 : 1;
	while (p2 * 2 <= pages)
		p2 *= 2;
	return p2 * page;
}

size_t ring_size__pick(const struct ring_size_in *in)
{
	size_t size = ring_size__perf_default(in->page, in->mlock_kb);
	uint64_t want = in->bytes_per_sec * RING_SIZE_WINDOW_MS / 1000;
	uint64_t cap = RING_SIZE_MAX_BYTES;

	/* Past perf_event_mlock_kb the kernel wants CAP_IPC_LOCK: without it
	 * a larger ring would fail to map where perf's works. */
	if (!in->may_lock_more || !in->bytes_per_sec)
		return size;
	if (in->mem_total_kb && in->nr_rings) {
		uint64_t share = in->mem_total_kb * 1024 / RING_SIZE_MEM_SHARE / in->nr_rings;

		if (share < cap)
			cap = share;
	}
	while (size < want && (uint64_t)size * 2 <= cap)
		size *= 2;
	return size;
}

uint64_t ring_size__evlist_rate(const struct evlist *evlist)
{
	uint64_t bytes = 0;

	for (int i = 0; i < evlist->nr; i++) {
		const struct perf_event_attr *a = &evlist->evsel[i].attr;

		/* --overwrite rings keep the last of the data, read at the end:
		 * their size is the snapshot's, perf's. */
		if (!a->write_backward)
			bytes += ring_size__rate(a) * ring_size__sample_bytes(a);
	}
	return bytes;
}
