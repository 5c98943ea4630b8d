/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_RECORDER_DSO_MAPS_H
#define PREC_RECORDER_DSO_MAPS_H
/*
 * One process's address space as the tracker sees it: sorted, non-overlapping
 * [start, end) ranges, each stamped with the time of the record that made it.
 * A range inserted over others replaces the older parts and goes under the
 * newer ones, so records applied out of time order end up as if in order
 * (records without a time, 0, replace whatever they overlap: arrival order).
 */
#include <stdint.h>

struct dso;

struct dso_map {
	uint64_t start, end;
	uint64_t time;
	struct dso *dso;
	uint64_t pgoff; /* file offset of start (kept right when a range is cut) */
};

struct dso_maps {
	struct dso_map *v;
	uint32_t nr;
	size_t cap;
};

/* Inserts [start, end) of dso made at time. 0 or -ENOMEM (maps unchanged
 * where the failure hit; they stay sorted and disjoint). */
int dso_maps__insert(struct dso_maps *m, uint64_t start, uint64_t end, uint64_t time,
		     struct dso *dso);

/* The same for a file mapped from offset pgoff, so addresses turn into file
 * offsets (the record-time unwinder reads unwind tables through them). */
int dso_maps__insert_file(struct dso_maps *m, uint64_t start, uint64_t end, uint64_t pgoff,
			  uint64_t time, struct dso *dso);

/* The range holding addr, or NULL. */
const struct dso_map *dso_maps__find(const struct dso_maps *m, uint64_t addr);

/* Drops every range made before time (time 0: every range). */
void dso_maps__drop_older(struct dso_maps *m, uint64_t time);

/* Frees the ranges; m is empty and usable. */
void dso_maps__exit(struct dso_maps *m);

#endif
