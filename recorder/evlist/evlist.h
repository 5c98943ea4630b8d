#ifndef PREC_EVLIST_H
#define PREC_EVLIST_H
/* The events of one recording, the CPUs they run on and their rings. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "evlist/evlist_config.h"
#include "evlist/evsel.h"
#include "drain/ring.h"
#include "events/parse_events.h"

struct cpu_map;
struct event_specs;
struct pollfd;
struct prec_err;
struct thread_map;

struct evlist {
	struct evsel *evsel;
	int nr;
	struct cpu_map *cpus; /* owned; the single -1 of --per-thread means any CPU */
	struct thread_map *threads; /* owned; the single -1 of -a/-C means any thread */
	/* owned, set by evlist__mmap: the CPUs with a ring, the recording's
	 * (none with --per-thread) and the system-wide events' (libperf's
	 * all_cpus) */
	struct cpu_map *all_cpus;
	bool workload_only; /* events follow a forked command, enabled at its exec */
	bool has_cpu; /* -a or -C (perf's target__has_cpu) */
	struct event_machine machine; /* the specs', for the machine's rules */
	size_t ring_bytes; /* each ring's data area, set by evlist__mmap */
	struct ring *rings; /* one per CPU of all_cpus (--per-thread: per thread, then those) */
	int nr_rings;
	struct ring *bw_rings; /* the same for overwrite events: read at the end */
	int nr_bw_rings;
	size_t id_hdr_size; /* bytes of the sample_id trailer on non-sample records */
	/* kernel.perf_event_max_sample_rate once the events were open (0: not
	 * read): the kernel lowers it when sampling takes too long, silently,
	 * so the summary compares it with the value at the end. */
	int64_t max_sample_rate;
};

/*
 * Builds the evsels from the parsed specs and configures their attrs as perf
 * record does for cfg (evsel__config; the tracking bits on the first event or
 * on the dummy perf adds for -a/-C/-D, system-wide under -C as perf 6.7's),
 * with the machine's rules (specs->machine, the build arch). A default event of a hybrid PMU none of whose CPUs is
 * recorded is left out, with a warning (perf 6.1's evlist__fix_hybrid_cpus);
 * when that leaves none, -EINVAL with one line. An event's cpu= term (perf
 * 6.16) opens it on those CPUs only, less those -C leaves out; -EINVAL with
 * one line when a CPU of it is not online, when -C holds none of them, or
 * under --per-thread. Takes ownership of cpus and threads (also on error).
 * 0, or -errno with one line in err (-ENOMEM's: "cannot set up the events").
 */
int evlist__init(struct evlist *evlist, const struct event_specs *specs,
		 const struct evlist_config *cfg, struct cpu_map *cpus, struct thread_map *threads,
		 struct prec_err *err);

/*
 * Opens every event for every (CPU, thread) pair and sets its tracepoint
 * --filter (a BPF one is bpf_filters__attach's, bpf/filter.h). On failure
 * fills err with one line that names the event and the fix, and returns a
 * negative errno with nothing open.
 */
int evlist__open(struct evlist *evlist, struct prec_err *err);

/* perf's is_event_supported: whether attr opens on this thread (again user
 * space only on EACCES); the probe --list-events lists events with. */
bool evlist__event_supported(const struct perf_event_attr *attr);

/* Enables every event that is not enabled at open or at exec (ioctl). */
void evlist__enable(struct evlist *evlist);

/*
 * A pollfd for every open event fd (ring owners and redirected ones), so a
 * target's exit shows as POLLHUP. Returns the count and *out (caller frees),
 * or -ENOMEM.
 */
int evlist__pollfds(const struct evlist *evlist, struct pollfd **out);

/*
 * Maps one ring of data_bytes per CPU and redirects the other events to it
 * (evlist_mmap.c). On failure fills err with one line with the fix (none
 * for -ENOMEM) and returns a negative errno.
 */
int evlist__mmap(struct evlist *evlist, size_t data_bytes, struct prec_err *err);

/*
 * The ring slot perf's ID_INDEX names for fd [c][t] of evsel (libperf 6.1's
 * mmap idx): the index of its CPU in all_cpus; with --per-thread its thread
 * index, or for a system-wide event the thread count plus its CPU's index.
 * -1 when the CPU has no ring. Pure over the structs.
 */
int evlist__ring_idx(const struct evlist *evlist, const struct evsel *evsel, int c, int t);

/* Stops the kernel writing into the backward rings, before they are read. */
void evlist__pause_backward(struct evlist *evlist);

/* Lets the kernel write the backward rings again (after a snapshot). */
void evlist__resume_backward(struct evlist *evlist);

/* Disables every event (ioctl); used when prec stops before its workload. */
void evlist__disable(struct evlist *evlist);

/* Enables or disables one event, evsel[idx], on every CPU and thread
 * (ioctl; a group leader takes its members along). */
void evlist__toggle_evsel(struct evlist *evlist, int idx, bool enable);

/* Unmaps, closes and frees everything; safe on a partly built evlist. */
void evlist__exit(struct evlist *evlist);

/* True when no event samples the kernel (after fallbacks). */
bool evlist__exclude_kernel(const struct evlist *evlist);

/* Byte offset of the TIME field in a PERF_RECORD_SAMPLE body, or -1 without TIME. */
int evlist__sample_time_offset(const struct evlist *evlist);

#endif
