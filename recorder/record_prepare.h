#ifndef PREC_RECORDER_RECORD_INT_H
#define PREC_RECORDER_RECORD_INT_H
/*
 * The orchestrator's helpers: record_prepare.c derives what the validated
 * options become on this machine, before any side effect. Where the records
 * go is the output object's (output.h). Its functions that read the options
 * themselves are declared in record.h, with prec_record.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <limits.h>
#include <sys/types.h>

#include "prec/error.h"

struct event_specs;
struct evlist;
struct prec_err;
struct sysinfo;

/*
 * Fills specs->machine with the vendor rules' answers for si (the snapshot
 * of the machine the events open on; NULL reads the live machine, for when
 * si describes a fixture tree) and the privileges prec runs with, and
 * appends the default event when there is no -e event. 0 or -ENOMEM.
 */
int event_specs__for_machine(struct event_specs *specs, const struct sysinfo *si);

/* --kcore's source: perf's machine root_dir/proc, below sysroot (the
 * tests' $PREC_TEST_SYSROOT; NULL: "/"). */
void prepare__kcore_dir(const char *sysroot, char *buf, size_t len);

/* --kcore, before anything is created: kcore must be readable, and kallsyms
 * must show the addresses that say which parts of it to copy. 0, or -errno
 * with one line in e naming the fix. */
int prepare__kcore_check(const char *sysroot, struct prec_err *e);

/* Whether perf's parser would have scanned the PMUs for these events. */
bool event_specs__scan_pmus(const struct event_specs *specs);

/* Without -m: perf's default, or larger rings when the events' expected
 * data rate needs them and prec may lock the memory (ring_size.h; printed
 * under -v). mem_total_kb: MemTotal, 0 unknown. */
size_t prepare__default_ring_bytes(const struct evlist *evlist, uint64_t mem_total_kb);

#endif
