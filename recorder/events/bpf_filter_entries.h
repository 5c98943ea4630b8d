/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What sample_filter.bpf.c and prec agree on: a BPF --filter as the array of
 * entries the program walks for every sample, and which sample fields a
 * term may read. recorder/events/bpf_filter_parse.c writes the array; the program
 * reads it from its map. Plain C over <linux/types.h>: both sides compile it.
 */
#ifndef PREC_BPF_SAMPLE_FILTER_SHARED_H
#define PREC_BPF_SAMPLE_FILTER_SHARED_H

#include <linux/types.h>
#include <linux/perf_event.h>

/* Entries a filter holds, group markers and the end marker included. */
#define SAMPLE_FILTER_MAX 64

/*
 * The pinned program (--setup-filter pin, perf 6.12) serves every user's
 * filtered events at once: filters holds one filter per slot, which a prec
 * claims for each event it filters; event_hash maps the id of each of the
 * event's fds to the first one; idx_hash maps (process, that id) to the
 * slot. The sizes are perf's.
 */
#define SAMPLE_FILTER_SLOTS 64
#define SAMPLE_FILTER_EVENT_IDS 1024
#define SAMPLE_FILTER_TASKS 1024

struct sample_filter_idx_key {
	__u64 evt_id;
	__u32 tgid;
	__u32 reserved; /* 0: the key is hashed whole */
};

enum sample_filter_op {
	SF_OP_EQ, /* == */
	SF_OP_NE, /* != */
	SF_OP_GT, /* >  */
	SF_OP_GE, /* >= */
	SF_OP_LT, /* <  */
	SF_OP_LE, /* <= */
	SF_OP_AND, /* &: any of the value's bits set */
	SF_OP_GROUP_BEGIN, /* the terms up to GROUP_END pass when one of them does */
	SF_OP_GROUP_END,
	SF_OP_DONE, /* the end of a filter shorter than SAMPLE_FILTER_MAX */
};

/* Terms that no sample field holds: the program asks a helper. */
enum sample_filter_helper {
	SF_HELPER_NONE, /* a sample field: entry.sample says which */
	SF_HELPER_UID,
	SF_HELPER_GID,
};

struct sample_filter_entry {
	__u64 value;
	/* The PERF_SAMPLE_* bit whose field the term reads; 0 for helpers and markers. */
	__u64 sample;
	__u32 op; /* enum sample_filter_op */
	/* Which part of a field: pid (1) of TID; weight1..3 of WEIGHT_STRUCT;
	 * mem_op (1), mem_lvl (2), mem_snoop (3), mem_remote (4), mem_lock (5),
	 * mem_dtlb (6), mem_blk (7), mem_hops (8) of DATA_SRC; else 0. */
	__u16 part;
	__u16 helper; /* enum sample_filter_helper */
};

/*
 * The sample_type bits any of which provides the field of bit: the id of a
 * sample comes with ID or IDENTIFIER, its full weight with WEIGHT or
 * WEIGHT_STRUCT. The kernel's perf_sample_data.sample_flags has the same
 * bits as attr.sample_type.
 */
static inline __u64 sample_filter_bits(__u64 bit)
{
	if (bit == PERF_SAMPLE_ID)
		return PERF_SAMPLE_ID | PERF_SAMPLE_IDENTIFIER;
	if (bit == PERF_SAMPLE_WEIGHT)
		return PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT;
	return bit;
}

#endif
