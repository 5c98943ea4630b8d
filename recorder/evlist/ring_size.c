// SPDX-License-Identifier: GPL-2.0-only
/* The rings' default size from the events' expected data rate, and the locked
 * memory they need when the kernel refuses to map them (ring_size.h). */
#include <stdio.h>
#include <sys/resource.h>
#include <unistd.h>

#include "evlist/evlist.h"
#include "prec/sysinfo.h"
#include "evlist/ring_size.h"

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

static uint64_t rlim_kb(rlim_t v)
{
	return v == RLIM_INFINITY ? UINT64_MAX : (uint64_t)v / 1024;
}

const char *ring_size__mlock_hint(const struct ring_mlock_in *in, char *buf, size_t len)
{
	uint64_t page_kb = in->page / 1024 ? in->page / 1024 : 1;
	uint64_t ring_kb = in->data_bytes / 1024 + page_kb; /* data and the control page */
	uint64_t need_kb = ring_kb * in->nr_rings;
	unsigned cpus = in->nr_cpus ? in->nr_cpus : 1;
	uint64_t allow_kb = in->mlock_kb * cpus; /* the per-user allowance */
	uint64_t over_kb = need_kb > allow_kb ? need_kb - allow_kb : 0;
	/* perf_event_mlock_kb that holds every ring, in whole pages per CPU. */
	uint64_t mlock_kb = (need_kb + cpus * page_kb - 1) / (cpus * page_kb) * page_kb;
	uint64_t fit_kb = in->memlock_kb == UINT64_MAX ? UINT64_MAX : allow_kb + in->memlock_kb;
	uint64_t m_kb = 0;
	char fix[160], smaller[64] = "";
	const char *sudo = in->is_root ? "" : "sudo ";

	/* The largest power of two of pages per ring that fits what is allowed. */
	if (in->nr_rings && fit_kb != UINT64_MAX && fit_kb / in->nr_rings > page_kb)
		for (m_kb = page_kb; (m_kb * 2 + page_kb) * in->nr_rings <= fit_kb;)
			m_kb *= 2;
	if (m_kb && m_kb < in->data_bytes / 1024)
		snprintf(smaller, sizeof(smaller), ", or record with -m %lluK",
			 (unsigned long long)m_kb);
	if (over_kb && in->memlock_hard_kb >= over_kb)
		snprintf(fix, sizeof(fix), "'ulimit -l %llu'", (unsigned long long)over_kb);
	else
		snprintf(fix, sizeof(fix), "'%ssysctl -w kernel.perf_event_mlock_kb=%llu'", sudo,
			 (unsigned long long)mlock_kb);
	snprintf(
		buf, len,
		"%u rings need %llu KiB of locked memory, over kernel.perf_event_mlock_kb (%llu KiB x %u CPUs) and ulimit -l: run %s%s",
		in->nr_rings, (unsigned long long)need_kb, (unsigned long long)in->mlock_kb, cpus,
		fix, smaller);
	return buf;
}

const char *ring_size__mlock_error(unsigned nr_rings, size_t data_bytes, char *buf, size_t len)
{
	struct rlimit lim = { RLIM_INFINITY, RLIM_INFINITY };
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	struct ring_mlock_in in = {
		.data_bytes = data_bytes,
		.page = (size_t)sysconf(_SC_PAGESIZE),
		.nr_rings = nr_rings,
		.nr_cpus = cpus > 0 ? (unsigned)cpus : 1,
		.mlock_kb = (uint64_t)sysinfo__sysctl_or("kernel/perf_event_mlock_kb", 516),
		.is_root = geteuid() == 0,
	};

	getrlimit(RLIMIT_MEMLOCK, &lim);
	in.memlock_kb = rlim_kb(lim.rlim_cur);
	in.memlock_hard_kb = rlim_kb(lim.rlim_max);
	return ring_size__mlock_hint(&in, buf, len);
}
