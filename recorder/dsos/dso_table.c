// SPDX-License-Identifier: GPL-2.0-only
/*
 * The tracker's two tables, the lowest of its files (it calls neither
 * dso_track.c nor dso_hits.c): DSOs by name, kept in first-seen order
 * because that is the order their build-ids are written, and processes by
 * pid, with the last one looked up remembered (samples come in runs of one
 * process). Both are chained hash tables of nodes embedded in their objects,
 * doubled when they hold as many objects as buckets.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "dsos/dso_track_int.h"
#include "prec/grow.h"

#define container_of(ptr, type, member) ((type *)((char *)(ptr) - offsetof(type, member)))

static int htab__init(struct htab *h, uint32_t nb)
{
	h->b = calloc(nb, sizeof(*h->b));
	h->nb = h->b ? nb : 0;
	h->n = 0;
	return h->b ? 0 : -ENOMEM;
}

/* Room for one more node: doubles the buckets when full (n counts the
 * nodes in a uint32_t), each chain split in order between its bucket and
 * the one old buckets on. 0 or -ENOMEM. */
static int htab__reserve(struct htab *h)
{
	size_t old = h->nb;

	if (h->n < h->nb)
		return 0;
	if (grow__array_zero(&h->b, &h->nb, old + 1, sizeof(*h->b), 1, (size_t)1 << 32))
		return -ENOMEM;
	for (size_t i = 0; i < old; i++) {
		struct hnode **keep = &h->b[i], **move = &h->b[i + old];

		for (struct hnode *n = h->b[i], *next; n; n = next) {
			next = n->next;
			if ((n->hash & (h->nb - 1)) == i) {
				*keep = n;
				keep = &n->next;
			} else {
				*move = n;
				move = &n->next;
			}
		}
		*keep = *move = NULL;
	}
	return 0;
}

/* Adds n (after htab__reserve found room for it). */
static void htab__add(struct htab *h, struct hnode *n, uint32_t hash)
{
	n->hash = hash;
	n->next = h->b[hash & (h->nb - 1)];
	h->b[hash & (h->nb - 1)] = n;
	h->n++;
}

static void htab__del(struct htab *h, struct hnode *n)
{
	struct hnode **pp = &h->b[n->hash & (h->nb - 1)];

	while (*pp && *pp != n)
		pp = &(*pp)->next;
	if (*pp) {
		*pp = n->next;
		h->n--;
	}
}

/* The first node of hash's chain (walk on with ->next, check ->hash). */
static struct hnode *htab__chain(const struct htab *h, uint32_t hash)
{
	return h->b[hash & (h->nb - 1)];
}

static uint32_t hash_str(const char *s)
{
	uint32_t h = 2166136261u;

	while (*s)
		h = (h ^ (uint8_t)*s++) * 16777619u;
	return h;
}

static uint32_t hash_pid(uint32_t pid)
{
	return (uint32_t)(((uint64_t)pid * 0x9e3779b97f4a7c15ULL) >> 32);
}

int dso_track_tables_init(struct dso_track *t)
{
	if (htab__init(&t->dso_names, 256) || htab__init(&t->proc_pids, 256))
		return -ENOMEM;
	return 0;
}

static void proc__free(struct proc *p)
{
	dso_maps__exit(&p->maps);
	free(p);
}

void dso_track_tables_exit(struct dso_track *t)
{
	for (uint32_t b = 0; b < t->proc_pids.nb; b++) {
		for (struct hnode *n = t->proc_pids.b[b], *next; n; n = next) {
			next = n->next;
			proc__free(container_of(n, struct proc, node));
		}
	}
	for (uint32_t i = 0; i < t->nr_dsos; i++) {
		free(t->dsos[i]->name);
		free(t->dsos[i]);
	}
	free(t->dsos);
	free(t->dso_names.b);
	free(t->proc_pids.b);
}

/* ---- DSOs, by name ---- */

static enum dso_kind dso_kind_of(const char *name, bool kernel_space)
{
	if (kernel_space) {
		if (!strncmp(name, KERNEL_DSO_NAME, strlen(KERNEL_DSO_NAME)))
			return DSO_KERNEL;
		if (!strncmp(name, "[guest.kernel", 13))
			return DSO_OTHER;
		return DSO_MODULE;
	}
	if (!strcmp(name, VDSO_NAME))
		return DSO_VDSO;
	return name[0] == '/' ? DSO_FILE : DSO_OTHER;
}

struct dso *dso_track_dso(struct dso_track *t, const char *name, bool kernel_space)
{
	enum dso_kind kind = dso_kind_of(name, kernel_space);
	uint32_t h;
	struct dso *d;

	if (kind == DSO_KERNEL)
		name = KERNEL_DSO_NAME;
	h = hash_str(name);
	for (struct hnode *n = htab__chain(&t->dso_names, h); n; n = n->next) {
		d = container_of(n, struct dso, node);
		if (n->hash == h && !strcmp(d->name, name))
			return d;
	}
	/* nr_dsos counts them in a uint32_t. */
	if (grow__array(&t->dsos, &t->cap_dsos, (size_t)t->nr_dsos + 1, sizeof(*t->dsos), 64,
			UINT32_MAX))
		return NULL;
	if (htab__reserve(&t->dso_names))
		return NULL;
	d = calloc(1, sizeof(*d));
	if (!d || !(d->name = strdup(name))) {
		free(d);
		return NULL;
	}
	d->kind = (uint8_t)kind;
	d->seq = t->nr_dsos;
	htab__add(&t->dso_names, &d->node, h);
	t->dsos[t->nr_dsos++] = d;
	return d;
}

/* ---- processes, by pid ---- */

struct proc *dso_track_proc(struct dso_track *t, uint32_t pid)
{
	if (t->last && t->last->pid == pid)
		return t->last;
	for (struct hnode *n = htab__chain(&t->proc_pids, hash_pid(pid)); n; n = n->next) {
		struct proc *p = container_of(n, struct proc, node);

		if (p->pid == pid) {
			t->last = p;
			return p;
		}
	}
	return NULL;
}

struct proc *dso_track_proc_findnew(struct dso_track *t, uint32_t pid)
{
	struct proc *p = dso_track_proc(t, pid);

	if (p) {
		if (p->dead) {
			p->dead = false; /* left on the dead list: skipped there */
			p->exec_seen = false;
			dso_maps__drop_older(&p->maps, 0);
		}
		return p;
	}
	if (htab__reserve(&t->proc_pids))
		return NULL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->pid = pid;
	htab__add(&t->proc_pids, &p->node, hash_pid(pid));
	t->last = p;
	return p;
}

void dso_track_proc_drop(struct dso_track *t, struct proc *p)
{
	htab__del(&t->proc_pids, &p->node);
	if (t->last == p)
		t->last = NULL;
	proc__free(p);
}
