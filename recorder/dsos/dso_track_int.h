/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_RECORDER_DSO_TRACK_INT_H
#define PREC_RECORDER_DSO_TRACK_INT_H
/*
 * The tracker's insides, shared by dso_track.c (tables, records, the end)
 * and dso_hits.c (samples, the pending set, the end of a pass).
 */
#include <stdbool.h>
#include <stdint.h>

#include "prec/buildid.h"
#include "prec/dso_track.h"
#include "dso_maps.h"

#define KERNEL_DSO_NAME "[kernel.kallsyms]"
#define VDSO_NAME "[vdso]"
#define RECORD_MAX 65536 /* u16 header.size, rounded up */
#define PEND_SLOTS (2 * DSO_TRACK_PENDING_MAX) /* open addressing, half full at most */

enum dso_kind {
	DSO_OTHER, /* anonymous memory, [heap], [stack], a guest kernel: no build-id */
	DSO_FILE,
	DSO_VDSO,
	DSO_KERNEL,
	DSO_MODULE,
};

struct dso {
	char *name;
	struct dso *hnext;
	uint32_t hash;
	uint8_t kind;
	bool hit;
	bool has_bid; /* from an MMAP2 that carried it */
	struct build_id bid;
};

struct proc {
	uint32_t pid;
	bool dead; /* its leader's EXIT was seen ... */
	bool freeing; /* ... and this pass drops it */
	bool exec_seen;
	bool on_dead_list;
	uint64_t dead_pass;
	struct proc *hnext;
	struct proc *dead_next;
	struct dso_maps maps;
};

struct pending {
	uint64_t ip;
	uint32_t pid;
	uint16_t misc;
	uint16_t used;
};

struct dso_track {
	struct dso_track_layout l;
	char *sys_dir;
	enum dso_track_buildids which; /* what dso_track__finish lists */

	struct dso **dsos; /* first-seen order: the order written */
	uint32_t nr_dsos, cap_dsos;
	struct dso **dso_hash;
	uint32_t dso_buckets;

	struct proc **proc_hash;
	uint32_t proc_buckets, nr_procs;
	struct proc kernel; /* pid -1: the kernel and its modules */
	struct proc *last; /* the last process looked up */
	struct proc *dead; /* the processes whose leader exited */
	uint64_t kernel_start; /* the kernel map's start: perf's machine->kernel_start */
	uint64_t pass;
	bool maps_changed;

	struct pending *pend, *pend_tmp;
	uint32_t nr_pend;

	uint8_t *carry; /* a record split over observer calls */
	size_t carry_len;
	bool stream_broken;
	uint8_t *scratch; /* a ring record that wraps */

	struct writer_buildid *out;
	uint32_t nr_out;
	struct dso_track_stats st;
};

/* The DSO called name (the kernel's under one name, however its map is
 * called), made on first sight. NULL on allocation failure. */
struct dso *dso_track_dso(struct dso_track *t, const char *name, bool kernel_space);

/* The process pid (live or dead), or NULL. */
struct proc *dso_track_proc(struct dso_track *t, uint32_t pid);

/* Takes p out of the table and frees it. */
void dso_track_proc_drop(struct dso_track *t, struct proc *p);

/* Looks every pending sample up again (dso_hits.c). */
void dso_track_pend_retry(struct dso_track *t);

#endif
