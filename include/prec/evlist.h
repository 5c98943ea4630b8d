#ifndef PREC_EVLIST_H
#define PREC_EVLIST_H
/* The events of one recording, the CPUs they run on and their rings. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "prec/evsel.h"
#include "prec/mmap.h"

struct cpu_map;
struct event_specs;
struct record_opts;

struct evlist {
	struct evsel *evsel;
	int nr;
	struct cpu_map *cpus; /* owned */
	struct ring *rings; /* one per CPU index, the first event's fd owns it */
	int nr_rings;
	size_t id_hdr_size; /* bytes of the sample_id trailer on non-sample records */
};

/*
 * Builds the evsels from the parsed specs and configures their attrs as perf
 * record does for opts (sample_type, read_format, frequency or period,
 * tracking bits on the first event). Takes ownership of cpus. 0 or -errno.
 */
int evlist__init(struct evlist *evlist, const struct event_specs *specs,
		 const struct record_opts *opts, struct cpu_map *cpus);

/*
 * Opens every event on every CPU for pid. On failure prints one line that
 * names the event and the fix, and returns a negative errno with nothing open.
 */
int evlist__open(struct evlist *evlist, int pid);

/*
 * Maps one ring of data_bytes per CPU and redirects the other events to it.
 * On failure prints one line with the fix and returns a negative errno.
 */
int evlist__mmap(struct evlist *evlist, size_t data_bytes);

/* Disables every event (ioctl); used when prec stops before its workload. */
void evlist__disable(struct evlist *evlist);

/* Unmaps, closes and frees everything; safe on a partly built evlist. */
void evlist__exit(struct evlist *evlist);

/* True when no event samples the kernel (after fallbacks). */
bool evlist__exclude_kernel(const struct evlist *evlist);

/* Byte offset of the TIME field in a PERF_RECORD_SAMPLE body, or -1 without TIME. */
int evlist__sample_time_offset(const struct evlist *evlist);

#endif
