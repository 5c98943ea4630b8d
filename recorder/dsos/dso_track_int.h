/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_RECORDER_DSO_TRACK_INT_H
#define PREC_RECORDER_DSO_TRACK_INT_H
/*
 * The tracker's insides, shared by its three files, in one-way order:
 * dso_track.c (the entry: lifecycle, records, the end) uses dso_hits.c
 * (samples, the pending set, the end of a pass), and both use dso_table.c
 * (the DSO and process tables).
 */
#include <stdbool.h>
#include <stdint.h>

#include "prec/buildid.h"
#include "dsos/dso_track.h"
#include "dsos/dso_maps.h"

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

/* A node of a chained hash table, embedded in what it indexes. */
struct hnode {
	struct hnode *next;
	uint32_t hash;
};

struct htab {
	struct hnode **b;
	size_t nb; /* buckets, a power of two */
	uint32_t n; /* nodes */
};

struct dso {
	char *name;
	struct hnode node; /* in dso_track.dso_names */
	uint8_t kind;
	bool hit;
	bool has_bid; /* from an MMAP2 that carried it */
	struct build_id bid;
	uint64_t first_time; /* its first mapping's time (0: synthesized, or no TIME) */
	uint32_t seq; /* the order it was first seen */
};

struct proc {
	uint32_t pid;
	bool dead; /* its leader's EXIT was seen ... */
	bool freeing; /* ... and this pass drops it */
	bool exec_seen;
	bool on_dead_list;
	uint64_t dead_pass;
	struct hnode node; /* in dso_track.proc_pids */
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
	const char *kernel_name; /* --vmlinux: the kernel's name in that list; NULL: its own */

	struct dso **dsos; /* first-seen order */
	uint32_t nr_dsos;
	size_t cap_dsos;
	struct htab dso_names;

	struct htab proc_pids;
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

	struct dso_track_namer namer;

	struct writer_buildid *out;
	uint32_t nr_out;
	struct dso_track_stats st;
};

/* dso_table.c */

/* Makes both tables empty. 0 or -ENOMEM (dso_track_tables_exit frees the part made). */
int dso_track_tables_init(struct dso_track *t);

/* Frees every process and DSO and both tables. */
void dso_track_tables_exit(struct dso_track *t);

/* The DSO called name (the kernel's under one name, however its map is
 * called), made on first sight. NULL on allocation failure. */
struct dso *dso_track_dso(struct dso_track *t, const char *name, bool kernel_space);

/* The process pid (live or dead), or NULL. */
struct proc *dso_track_proc(struct dso_track *t, uint32_t pid);

/* The live process pid, made on first sight; a dead one of that pid is
 * taken over (pid reuse). NULL on allocation failure. */
struct proc *dso_track_proc_findnew(struct dso_track *t, uint32_t pid);

/* Takes p out of the table and frees it. */
void dso_track_proc_drop(struct dso_track *t, struct proc *p);

/* dso_hits.c */

/* Looks every pending sample up again. */
void dso_track_pend_retry(struct dso_track *t);

#endif
