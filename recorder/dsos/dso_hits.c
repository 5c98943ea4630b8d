// SPDX-License-Identifier: GPL-2.0-only
/*
 * The tracker's hot path (dso_track.h): a sample's IP looked up in its
 * process's maps or the kernel's, and the samples that could not be placed
 * yet, kept in a fixed open-addressed set and looked up again when maps
 * change. Nothing here allocates after the first kept sample.
 *
 * What counts as a hit is perf 6.1's build_id__mark_dso_hit(): the map of the
 * sample's cpumode holding its IP, with machine__addr_cpumode()'s second try
 * in the other space (a "user" sample at a kernel address and the reverse).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dsos/dso_track_int.h"

enum lookup { HIT, MISS, MISS_RETRY };

static enum lookup lookup_kernel(struct dso_track *t, uint64_t ip)
{
	const struct dso_map *m;

	if (!t->kernel.maps.nr) {
		/* No kernel map (kptr_restrict hid the addresses): perf's
		 * kernel map then spans everything. */
		struct dso *d = dso_track_dso(t, KERNEL_DSO_NAME, true);

		if (!d)
			return MISS;
		d->hit = true;
		return HIT;
	}
	m = dso_maps__find(&t->kernel.maps, ip);
	if (!m)
		return MISS; /* BPF, trampolines: no map, and none will come */
	m->dso->hit = true;
	return HIT;
}

static enum lookup lookup_user(struct dso_track *t, uint32_t pid, uint64_t ip)
{
	struct proc *p = dso_track_proc(t, pid);
	const struct dso_map *m = p ? dso_maps__find(&p->maps, ip) : NULL;

	if (!m)
		return MISS_RETRY; /* its MMAP or FORK may be on another ring */
	m->dso->hit = true;
	return HIT;
}

static enum lookup lookup(struct dso_track *t, uint16_t misc, uint32_t pid, uint64_t ip)
{
	switch (misc & PERF_RECORD_MISC_CPUMODE_MASK) {
	case PERF_RECORD_MISC_KERNEL:
		if (lookup_kernel(t, ip) == HIT)
			return HIT;
		return ip < t->kernel_start ? lookup_user(t, pid, ip) : MISS;
	case PERF_RECORD_MISC_USER:
		if (ip >= t->kernel_start)
			return lookup_kernel(t, ip);
		return lookup_user(t, pid, ip);
	default:
		return HIT; /* guests, hypervisor: not followed, not missed */
	}
}

static uint32_t pend_slot(uint32_t pid, uint64_t ip, uint16_t misc)
{
	uint64_t k = (ip >> 12) * 0x9e3779b97f4a7c15ULL ^ ((uint64_t)pid << 3 | (misc & 7));

	k *= 0xbf58476d1ce4e5b9ULL;
	return (uint32_t)(k >> 40) & (PEND_SLOTS - 1);
}

/* Keeps the sample for another look; one per process, page and cpumode. */
static void pend_add(struct dso_track *t, struct pending *tab, uint32_t pid, uint64_t ip,
		     uint16_t misc)
{
	uint32_t s = pend_slot(pid, ip, misc);

	for (;; s = (s + 1) & (PEND_SLOTS - 1)) {
		struct pending *e = &tab[s];

		if (!e->used)
			break;
		if (e->pid == pid && (e->ip >> 12) == (ip >> 12) &&
		    ((e->misc ^ misc) & PERF_RECORD_MISC_CPUMODE_MASK) == 0)
			return;
	}
	if (t->nr_pend >= DSO_TRACK_PENDING_MAX) {
		t->st.pending_full++;
		return;
	}
	tab[s] = (struct pending){ ip, pid, misc, 1 };
	t->nr_pend++;
}

void dso_track__sample(struct dso_track *t, uint16_t misc, uint32_t pid, uint64_t ip)
{
	enum lookup r = lookup(t, misc, pid, ip);

	t->st.samples++;
	if (r == HIT)
		return;
	if (r == MISS) {
		t->st.unresolved++;
		return;
	}
	if (!t->pend) {
		t->pend = calloc(PEND_SLOTS, sizeof(*t->pend));
		t->pend_tmp = calloc(PEND_SLOTS, sizeof(*t->pend_tmp));
		if (!t->pend || !t->pend_tmp) {
			free(t->pend);
			free(t->pend_tmp);
			t->pend = t->pend_tmp = NULL;
			t->st.nomem++;
			return;
		}
	}
	pend_add(t, t->pend, pid, ip, misc);
}

/* Those of processes being dropped go: a later process with that pid is
 * another program. */
void dso_track_pend_retry(struct dso_track *t)
{
	struct pending *old = t->pend, *e;

	if (!t->nr_pend)
		return;
	memset(t->pend_tmp, 0, PEND_SLOTS * sizeof(*t->pend_tmp));
	t->nr_pend = 0;
	for (uint32_t s = 0; s < PEND_SLOTS; s++) {
		struct proc *p;

		e = &old[s];
		if (!e->used)
			continue;
		p = dso_track_proc(t, e->pid);
		if (p && p->freeing)
			continue;
		if (lookup(t, e->misc, e->pid, e->ip) == MISS_RETRY)
			pend_add(t, t->pend_tmp, e->pid, e->ip, e->misc);
	}
	t->pend = t->pend_tmp;
	t->pend_tmp = old;
}

void dso_track__end_pass(struct dso_track *t)
{
	struct proc **pp;
	bool freeing = false;

	if (!t)
		return;
	for (struct proc *p = t->dead; p; p = p->dead_next) {
		if (p->dead && p->dead_pass < t->pass) {
			p->freeing = true;
			freeing = true;
		}
	}
	if (t->maps_changed || freeing)
		dso_track_pend_retry(t);
	t->maps_changed = false;
	for (pp = &t->dead; *pp;) {
		struct proc *p = *pp;

		if (p->dead && !p->freeing) {
			pp = &p->dead_next;
			continue;
		}
		*pp = p->dead_next; /* revived (pid reused) or dropped now */
		p->dead_next = NULL;
		p->on_dead_list = false;
		if (p->freeing)
			dso_track_proc_drop(t, p);
	}
	t->pass++;
}

int dso_track__find_map(struct dso_track *t, uint32_t pid, uint64_t addr,
			struct dso_track_map *out)
{
	struct proc *p = dso_track_proc(t, pid);
	const struct dso_map *m = p ? dso_maps__find(&p->maps, addr) : NULL;

	if (!m)
		return -ENOENT;
	out->start = m->start;
	out->end = m->end;
	out->pgoff = m->pgoff;
	out->name = m->dso->name;
	return 0;
}
