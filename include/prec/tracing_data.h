/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_TRACING_DATA_H
#define PREC_TRACING_DATA_H
/*
 * The TRACING_DATA feature: perf's tracing-data blob (version "0.6"), which
 * carries the tracefs format files that let perf script name and print the
 * fields of tracepoint samples. Layout, all native endian, as perf 6.1's
 * tracing_data_get() writes it and trace_report() reads it back:
 *
 *   "\027\010D" "tracing"        10 bytes of magic
 *   "0.6\0"                      version
 *   u8 big_endian, u8 sizeof(long), u32 page size
 *   "header_page\0"  u64 size, events/header_page
 *   "header_event\0" u64 size, events/header_event
 *   u32 nr, then nr x { u64 size, events/ftrace/<name>/format }
 *   u32 nr_systems, then per system: "<sys>\0", u32 nr, nr x { u64 size, format }
 *   u32 size of kallsyms (perf 6.1 always writes 0: no symbols follow)
 *   u32 size, printk_formats    (0 when the file is missing)
 *   u64 size, saved_cmdlines    (0 when the file is missing)
 *
 * Systems and events come in tracefs directory order. As perf does, an event
 * directory is included when its system holds a recorded tracepoint and its
 * name is the name of any recorded tracepoint (ftrace events: by name only).
 */
#include <stddef.h>
#include <stdint.h>

#include "prec/mounts.h" /* tracefs__find: the root to build from */

/*
 * Builds the blob for the tracepoints whose ids (the attr.config of the
 * recorded PERF_TYPE_TRACEPOINT events; duplicates allowed) are tp_ids,
 * reading the tracefs tree rooted at tracefs ("/sys/kernel/tracing" or a
 * fixture). Each id is found by one walk over events/<sys>/<name>/id that
 * stops when all are found. proc_dir is where kallsyms would come from; perf
 * 6.1 no longer records it (a zero size), so it is not read and may be NULL.
 * Returns 0 with *blob (malloc'd, the caller frees it) and *len; or -ENOENT
 * (no ids, an id no tracepoint has, or events/header_page, header_event or
 * events/ftrace missing: perf then leaves the feature out), -EINVAL, -ENOMEM,
 * -EFBIG, or the -errno of a tracefs file that exists but cannot be read.
 * On failure *blob is NULL and *len 0.
 */
int tracing_data__build(const char *tracefs, const char *proc_dir, const uint64_t *tp_ids,
			size_t nr_ids, void **blob, size_t *len);

#endif
