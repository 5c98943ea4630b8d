#ifndef PREC_EVSEL_H
#define PREC_EVSEL_H
/* One event: its attr, its name, and an fd and id per CPU once opened. */
#include <stdbool.h>
#include <stdint.h>
#include <linux/perf_event.h>

struct evsel {
	struct perf_event_attr attr;
	char *name; /* owned */
	int idx; /* position in the evlist */
	bool precise_max; /* lower precise_ip until the kernel accepts it */
	bool name_from_attr; /* rename from the attr after a fallback */
	int nr_cpus;
	int *fd; /* [cpu index], -1 when closed */
	uint64_t *id; /* [cpu index], the kernel's event id */
};

/*
 * Opens the event on every CPU index for pid, retrying with perf's fallbacks
 * (hardware -> cpu-clock, precise_ip lowered, kernel excluded when paranoid,
 * read_format without LOST on old kernels). Fills fd[] and id[]. Returns 0, or
 * a negative errno with nothing left open; *failed_cpu tells which CPU failed.
 */
int evsel__open(struct evsel *evsel, int pid, const int *cpus, int nr_cpus, int *failed_cpu);

/*
 * Renames the event to base plus perf's modifier suffix for its attr (e.g.
 * "cpu-clock:pppH"), as perf names an event it had to change. 0 or -ENOMEM.
 */
int evsel__rename_from_attr(struct evsel *evsel, const char *base);

/* Closes every fd; safe to call twice. */
void evsel__close(struct evsel *evsel);

/* Frees fd[], id[] and the name (not the struct, which lives in an array). */
void evsel__exit(struct evsel *evsel);

#endif
