/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_WRITER_PIPE_H
#define PREC_WRITER_PIPE_H
/* The pipe-mode stream's own records (pipe.c), written to the writer's sink;
 * writer.c calls these. */
#include <stddef.h>
#include <stdint.h>

struct sink;
struct writer_event;
struct writer_meta;

/* The pipe header and one HEADER_ATTR per event. 0, -E2BIG (an event with
 * more ids than a record holds) or -errno. */
int pipe__begin(struct sink *out, const struct writer_event *events, uint32_t nr_events);

/* HEADER_FEATURE records for the features perf sends in a pipe, the end
 * marker, then HEADER_TRACING_DATA when meta has a tracing blob. 0 or -errno. */
int pipe__features(struct sink *out, const struct writer_meta *meta);

/* One HEADER_FEATURE record for feature id, built from meta: a stream's,
 * or one a file's data carries (-z's COMPRESSED ahead of the first
 * COMPRESSED record, for a reader of a file cut short). 0, -ENOENT (nothing
 * to say), -E2BIG (too large for a record) or -errno. */
int pipe__feature(struct sink *out, int id, const struct writer_meta *meta);

/* HEADER_BUILD_ID records for meta's build-ids. 0 or -errno. */
int pipe__finish(struct sink *out, const struct writer_meta *meta);

#endif
