/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_WRITER_FILE_HEADER_H
#define PREC_WRITER_FILE_HEADER_H
/* The header, ids and attr section at the front of a perf.data file. */
#include <stdint.h>
#include <linux/perf_event.h>

#include "prec/perf_file.h"

struct writer;
struct writer_event;

/* Writes the provisional header (data.size 0, no feature bits), every event's
 * ids and the attr section at offset 0; fills w->header. 0 or -errno
 * (-EINVAL for an event without attr, or with nr_ids but no ids). */
int file_header__begin(struct writer *w, const struct writer_event *events, uint32_t nr_events);

/* Rewrites the header at offset 0 with the final data size and feature bits.
 * 0 or -errno. */
int file_header__finish(struct writer *w, const uint64_t feat_bits[HEADER_FEAT_BITS / 64]);

/* The PREC_ATTR_SIZE bytes written for attr, with attr.size forced to
 * PREC_ATTR_SIZE: the attr section and EVENT_DESC both use it. */
void file_header__attr_bytes(uint8_t out[PREC_ATTR_SIZE], const struct perf_event_attr *attr);

#endif
