#ifndef PREC_RECORDER_RECORD_INT_H
#define PREC_RECORDER_RECORD_INT_H
/*
 * The orchestrator's helpers: record_prepare.c derives what the validated
 * options become on this machine, before any side effect. Where the records
 * go is the output object's (output.h).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <limits.h>
#include <sys/types.h>

struct event_specs;
struct evlist;
struct record_opts;

/* record_prepare.c: what the final options become once the machine is known. */

struct evlist_config;

struct sysinfo;

/*
 * Fills specs->machine with the vendor rules' answers for si (the snapshot
 * of the machine the events open on; NULL reads the live machine, for when
 * si describes a fixture tree) and the privileges prec runs with, and
 * appends the default event when there is no -e event. 0 or -ENOMEM.
 */
int event_specs__for_machine(struct event_specs *specs, const struct sysinfo *si);

/* --kcore's source: perf's machine root_dir/proc (the tests' sysroot). */
void kcore__proc_dir(const struct record_opts *opts, char *buf, size_t len);

/* --kcore, before anything is created: kcore must be readable, and kallsyms
 * must show the addresses that say which parts of it to copy. 0, or the
 * exit status after one line naming the fix. */
int kcore__check_for(const struct record_opts *opts);

/* Whether perf's parser would have scanned the PMUs for these events. */
bool event_specs__scan_pmus(const struct event_specs *specs);

/* Every -e with its filters, then perf's checks. 0, or -EINVAL with one line in err. */
int event_specs__parse_options(struct event_specs *specs, const struct record_opts *opts,
			       char *err, size_t errlen);

/* -F as the kernel will take it (perf's warning when lowered; 0 when
 * --strict-freq refuses to lower it, said); read once. */
uint64_t options__effective_freq(const struct record_opts *opts);

/* Ring data bytes per CPU for -m (rounded as perf, with its message); 0
 * without -m. */
size_t options__ring_bytes(const struct record_opts *opts);

/* Without -m: perf's default, or larger rings when the events' expected
 * data rate needs them and prec may lock the memory (ring_size.h; said
 * under -v). mem_total_kb: MemTotal, 0 unknown. */
size_t options__default_ring_bytes(const struct evlist *evlist, uint64_t mem_total_kb);

/* The events' narrow config from the final options, the effective -F and
 * -G's directory fd (-1 none); the one place the evlist's settings come from. */
void evlist_config__init(struct evlist_config *cfg, const struct record_opts *opts, uint64_t freq,
			 int cgroup_fd);

struct status_line_config;

/* The status line's narrow config from the final options (live/status_line.h). */
void status_line_config__init(struct status_line_config *c, const struct record_opts *opts);

#endif
