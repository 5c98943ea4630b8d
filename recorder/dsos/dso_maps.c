// SPDX-License-Identifier: GPL-2.0-only
/* A process's ranges for the build-id tracker (dso_maps.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dsos/dso_maps.h"
#include "prec/grow.h"

/* The first range that ends after addr (nr when none). Ends are sorted
 * because the ranges are sorted and disjoint. */
static uint32_t first_end_after(const struct dso_maps *m, uint64_t addr)
{
	uint32_t lo = 0, hi = m->nr;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (m->v[mid].end > addr)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

static int reserve(struct dso_maps *m, uint32_t extra)
{
	/* nr counts them in a uint32_t. */
	if (grow__array(&m->v, &m->cap, (size_t)m->nr + extra, sizeof(*m->v), 16, UINT32_MAX))
		return -ENOMEM;
	return 0;
}

/* Puts [s, e) in, cutting away whatever it overlaps (all of it older). */
static int place(struct dso_maps *m, uint64_t s, uint64_t e, uint64_t pgoff, uint64_t time,
		 struct dso *dso)
{
	struct dso_map nm = { s, e, time, dso, pgoff };
	uint32_t i, j;

	if (reserve(m, 2))
		return -ENOMEM;
	i = first_end_after(m, s);
	if (i < m->nr && m->v[i].start < s && m->v[i].end > e) {
		/* Inside one range: split it around the new one. */
		struct dso_map tail = m->v[i];

		tail.pgoff += e - tail.start;
		tail.start = e;
		m->v[i].end = s;
		memmove(&m->v[i + 3], &m->v[i + 1], (m->nr - i - 1) * sizeof(*m->v));
		m->v[i + 1] = nm;
		m->v[i + 2] = tail;
		m->nr += 2;
		return 0;
	}
	if (i < m->nr && m->v[i].start < s)
		m->v[i++].end = s; /* overlapped on its right: keep its left */
	j = i;
	while (j < m->nr && m->v[j].end <= e)
		j++; /* covered whole */
	if (j < m->nr && m->v[j].start < e) {
		/* overlapped on its left: keep its right */
		m->v[j].pgoff += e - m->v[j].start;
		m->v[j].start = e;
	}
	/* Ranges [i, j) go; the new one takes their place. */
	if (j == i) {
		memmove(&m->v[i + 1], &m->v[i], (m->nr - i) * sizeof(*m->v));
		m->nr++;
	} else if (j > i + 1) {
		memmove(&m->v[i + 1], &m->v[j], (m->nr - j) * sizeof(*m->v));
		m->nr -= j - i - 1;
	}
	m->v[i] = nm;
	return 0;
}

int dso_maps__insert(struct dso_maps *m, uint64_t start, uint64_t end, uint64_t time,
		     struct dso *dso)
{
	return dso_maps__insert_file(m, start, end, 0, time, dso);
}

int dso_maps__insert_file(struct dso_maps *m, uint64_t start, uint64_t end, uint64_t pgoff,
			  uint64_t time, struct dso *dso)
{
	uint64_t cur = start;

	/* Walk [start, end): skip the parts newer ranges hold, place the gaps. */
	while (cur < end) {
		uint32_t i = first_end_after(m, cur);
		uint64_t piece_end = end, next = end;
		int err;

		if (i < m->nr && m->v[i].start <= cur && m->v[i].time > time) {
			cur = m->v[i].end;
			continue;
		}
		for (uint32_t j = i; j < m->nr && m->v[j].start < end; j++) {
			if (m->v[j].time > time) {
				piece_end = m->v[j].start;
				next = m->v[j].end;
				break;
			}
		}
		err = place(m, cur, piece_end, pgoff + (cur - start), time, dso);
		if (err)
			return err;
		cur = next;
	}
	return 0;
}

const struct dso_map *dso_maps__find(const struct dso_maps *m, uint64_t addr)
{
	uint32_t i = first_end_after(m, addr);

	if (i < m->nr && m->v[i].start <= addr)
		return &m->v[i];
	return NULL;
}

void dso_maps__drop_older(struct dso_maps *m, uint64_t time)
{
	uint32_t n = 0;

	if (!time) {
		m->nr = 0;
		return;
	}
	for (uint32_t i = 0; i < m->nr; i++)
		if (m->v[i].time >= time)
			m->v[n++] = m->v[i];
	m->nr = n;
}

void dso_maps__exit(struct dso_maps *m)
{
	free(m->v);
	m->v = NULL;
	m->nr = m->cap = 0;
}
