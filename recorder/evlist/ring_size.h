/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_RECORDER_RING_SIZE_H
#define PREC_RECORDER_RING_SIZE_H
/*
 * The rings' size when -m is not given. perf's default is what
 * perf_event_mlock_kb allows (512 KiB), whatever the events: at dwarf
 * call graphs (8 KiB a sample) and 10 kHz per CPU that ring holds 6 ms,
 * and any longer gap in the drain's turns on the CPU loses samples. prec
 * keeps perf's size for slow events and, when it may lock the memory,
 * sizes each ring to hold RING_SIZE_WINDOW_MS of the events' expected data:
 * the drain wakes at half a ring, and half a ring must outlast the
 * scheduler's latency on a loaded CPU.
 */
#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

struct evlist;

/* Data a ring should hold, in milliseconds of the expected rate. */
#define RING_SIZE_WINDOW_MS 40
/* The largest ring prec picks by itself (each CPU's, pinned memory). */
#define RING_SIZE_MAX_BYTES (16u << 20)
/* And all rings together at most this share of the machine's memory. */
#define RING_SIZE_MEM_SHARE 32

/* Bytes one sample of attr is expected to take in the ring (its fields,
 * with typical callchain and branch-stack depths). Pure. */
uint64_t ring_size__sample_bytes(const struct perf_event_attr *attr);

/* Samples a second one CPU's event of attr gives: its frequency, or the
 * period of a clock event (nanoseconds); 0 when the rate cannot be known
 * (a count period: it depends on the workload). Pure. */
uint64_t ring_size__rate(const struct perf_event_attr *attr);

struct ring_size_in {
	size_t page; /* the page size */
	uint64_t mlock_kb; /* kernel.perf_event_mlock_kb */
	int may_lock_more; /* CAP_IPC_LOCK or paranoid -1: past mlock_kb is allowed */
	uint64_t bytes_per_sec; /* what one ring is expected to receive */
	uint64_t mem_total_kb; /* MemTotal; 0 unknown */
	unsigned nr_rings;
};

/* perf's default data size: perf_event_mlock_kb less a page, rounded down
 * to a power of two of pages (at least one page). Pure. */
size_t ring_size__perf_default(size_t page, uint64_t mlock_kb);

/* The data size of each ring for in (a power of two of pages): perf's
 * default, or more as the header says. Pure. */
size_t ring_size__pick(const struct ring_size_in *in);

/* What one ring of evlist is expected to receive, bytes a second: every
 * sampling event's rate times its sample size. Forward events only. */
uint64_t ring_size__evlist_rate(const struct evlist *evlist);

/* What the kernel's perf_mmap counts against a user's locked memory. */
struct ring_mlock_in {
	size_t data_bytes; /* each ring's data area */
	size_t page;
	unsigned nr_rings; /* the rings the recording maps */
	unsigned nr_cpus; /* online CPUs: the per-user allowance is mlock_kb each */
	uint64_t mlock_kb; /* kernel.perf_event_mlock_kb */
	uint64_t memlock_kb; /* RLIMIT_MEMLOCK's soft limit, UINT64_MAX unlimited */
	uint64_t memlock_hard_kb; /* and its hard limit */
	int is_root; /* no sudo in the commands */
};

/*
 * Writes the fix for rings the kernel refused to map (EPERM: past the
 * per-user perf_event_mlock_kb x CPUs and RLIMIT_MEMLOCK): 'ulimit -l N'
 * when the hard limit allows it, else 'sysctl -w kernel.perf_event_mlock_kb=N',
 * with N computed, and the largest -m that fits. One line; returns buf. Pure.
 */
const char *ring_size__mlock_hint(const struct ring_mlock_in *in, char *buf, size_t len);

/* The same for nr_rings rings of data_bytes on this machine (sysctl,
 * rlimit, CPUs, euid read here). Returns buf. */
const char *ring_size__mlock_error(unsigned nr_rings, size_t data_bytes, char *buf, size_t len);

#endif
