/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_WRITER_FILE_HEADER_H
#define PREC_WRITER_FILE_HEADER_H
/* The header, ids and attr section at the front of a perf.data file. */
#include <stdint.h>
#include <linux/perf_event.h>

#include "prec/perf_file.h"

struct sink;
struct writer_event;

/* Writes the provisional header (data.size 0, no feature bits), every event's
 * ids and the attr section to out (at offset 0); fills *h, which the caller
 * keeps for file_header__finish. 0 or -errno (-EINVAL for an event without
 * attr, or with nr_ids but no ids). */
int file_header__begin(struct perf_file_header *h, struct sink *out,
		       const struct writer_event *events, uint32_t nr_events);

/* Rewrites h at offset 0 with out's data size and the feature bits.
 * 0 or -errno. */
int file_header__finish(struct perf_file_header *h, struct sink *out,
			const uint64_t feat_bits[HEADER_FEAT_BITS / 64]);

/* Rewrites h at offset 0 saying the data section holds data_size bytes and
 * no feature follows it: what a recording in progress (or one cut short)
 * shows a reader. 0 or -errno. */
int file_header__commit(struct perf_file_header *h, struct sink *out, uint64_t data_size);

/* The PREC_ATTR_SIZE bytes written for attr, with attr.size forced to
 * PREC_ATTR_SIZE: the attr section and EVENT_DESC both use it. */
void file_header__attr_bytes(uint8_t out[PREC_ATTR_SIZE], const struct perf_event_attr *attr);

#endif
