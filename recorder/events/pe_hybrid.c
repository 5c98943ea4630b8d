// SPDX-License-Identifier: GPL-2.0-only
/*
 * Hybrid machines (cpu_core and cpu_atom, each with its CPUs): perf 6.1's
 * rules for the events of its core PMUs (util/parse-events-hybrid.c and
 * builtin-record.c's record__uniquify_name), checked against perf 6.1
 * recording over the hybrid fixture's PMUs:
 *  - a hardware symbol or a numeric TYPE:CONFIG (any type but software, a
 *    cache type too) becomes one PERF_TYPE_HARDWARE event per core PMU, in
 *    the devices directory's order, config's low 32 bits with the PMU's
 *    type above them (PERF_PMU_TYPE_SHIFT);
 *  - a raw rNNN: one per core PMU, of that PMU's type, config as written;
 *  - a cache event: one PERF_TYPE_HW_CACHE per core PMU that counts it
 *    (perf asks the kernel: the context's probe), the type above config;
 *  - each counts on its PMU's CPUs only, and an event of a core PMU is
 *    named PMU/NAME/ unless its name has a '/' already.
 * Groups are where prec leaves perf 6.1: 6.1 keeps {cycles,instructions}
 * one group over both PMUs, which the kernel refuses (a group's events
 * share their leader's CPU), so prec makes one group per core PMU, as
 * perf does from 6.4 on (events of no core PMU stay with the group's first
 * core PMU). Uses only pe_state.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "events/parse_events_int.h"

/* PERF_PMU_TYPE_SHIFT and the event bits under it (PERF_HW_EVENT_MASK). */
#define PMU_TYPE_SHIFT 32
#define HW_EVENT_MASK 0xffffffffULL

/* The next core PMU after prev this event goes to (all, or the one of a
 * cpu_core/EVENT/ re-parse). */
static const struct pmu *next_pmu(const struct pe_state *st, const struct pmu *prev)
{
	const struct pmu *p = prev;

	while ((p = pmus__next_hybrid(&st->pmus, p)))
		if (!st->hybrid_only || !strcmp(p->name, st->hybrid_only))
			break;
	return p;
}

int pe_hybrid__add(struct pe_state *st, uint32_t type, uint64_t config, bool cache, size_t off,
		   size_t len)
{
	const struct pmu *pmu = NULL;
	int added = 0;

	if (type == PERF_TYPE_SOFTWARE)
		return 1;
	if (!pe_state__pmus(st))
		return st->pmus_err == -ENOMEM ? -ENOMEM : 1;
	if (!pmus__next_hybrid(&st->pmus, NULL))
		return 1;
	while ((pmu = next_pmu(st, pmu))) {
		struct pe_event *ev;
		struct perf_event_attr a;

		if (type == PERF_TYPE_RAW) {
			pe_attr__init(&a, pmu->type, config);
		} else {
			pe_attr__init(&a, cache ? PERF_TYPE_HW_CACHE : PERF_TYPE_HARDWARE,
				      (config & HW_EVENT_MASK) | (uint64_t)pmu->type
									 << PMU_TYPE_SHIFT);
			/* perf's is_event_supported: a cache event one PMU lacks
			 * (cpu_atom has no L1-dcache-load-misses) is left out. */
			if (cache && st->ctx->supported) {
				struct perf_event_attr probe = { .type = a.type,
								 .config = a.config };

				if (!st->ctx->supported(&probe))
					continue;
			}
		}
		ev = pe_event__new(st, a.type, a.config);
		if (!ev)
			return -ENOMEM;
		ev->spec.pmu_name = strdup(pmu->name);
		ev->spec.cpus = strdup(pmu->cpus);
		if (!ev->spec.pmu_name || !ev->spec.cpus)
			return -ENOMEM;
		added++;
	}
	if (!added && !st->dropped_len) {
		st->dropped_off = off;
		st->dropped_len = len;
	}
	return 0;
}

int pe_hybrid__none_error(struct pe_state *st)
{
	char pmus[128];
	size_t n = 0;

	if (!st->dropped_len)
		return pe_error(st, 0, LIST_HINT, "no event in '%s'", st->str);
	pmus[0] = '\0';
	for (const struct pmu *p = NULL; (p = pmus__next_hybrid(&st->pmus, p)) && n < sizeof(pmus);)
		n += (size_t)snprintf(pmus + n, sizeof(pmus) - n, "%s%s", n ? ", " : "", p->name);
	return pe_error(st, st->dropped_off,
			"pick a cache event they count, or a raw event of one: cpu_core/rNNN/",
			"no core PMU here (%s) counts cache event '%.*s'", pmus,
			(int)st->dropped_len, st->str + st->dropped_off);
}

int pe_hybrid__uniquify(struct pe_state *st)
{
	for (int i = 0; i < st->nr_ev; i++) {
		struct event_spec *spec = &st->ev[i].spec;
		const struct pmu *pmu;
		char *name;

		if (!spec->pmu_name || !spec->name || strchr(spec->name, '/'))
			continue;
		pmu = pmus__find(&st->pmus, spec->pmu_name);
		if (!pmu || !pmu->cpus)
			continue;
		if (asprintf(&name, "%s/%s/", spec->pmu_name, spec->name) < 0)
			return -ENOMEM;
		free(spec->name);
		spec->name = name;
	}
	return 0;
}

/* The core PMU an event of a group goes with (NULL: none of its own). */
static const char *spec__core_pmu(const struct event_spec *spec)
{
	return spec->cpus ? spec->pmu_name : NULL;
}

static bool same_pmu(const char *a, const char *b)
{
	return a && b && !strcmp(a, b);
}

/*
 * Splits the group led by v[lead] into one group per core PMU, in the
 * order the PMUs first appear. 0, or -ENOMEM with the group untouched.
 */
static int split_group(struct event_spec *v, int lead)
{
	int n = v[lead].nr_members, nr_keys = 0, pos = 0;
	const char *first = NULL, **keys = calloc((size_t)n, sizeof(*keys));
	struct event_spec *tmp = malloc((size_t)n * sizeof(*tmp));
	char **names = calloc((size_t)n, sizeof(*names));
	int ret = -ENOMEM;

	if (!keys || !tmp || !names)
		goto out;
	for (int i = lead; i < lead + n && !first; i++)
		first = spec__core_pmu(&v[i]);
	for (int i = lead; i < lead + n; i++) {
		const char *k = spec__core_pmu(&v[i]) ? spec__core_pmu(&v[i]) : first;
		int j = 0;

		while (j < nr_keys && !same_pmu(keys[j], k))
			j++;
		if (j == nr_keys)
			keys[nr_keys++] = k;
	}
	for (int j = 1; j < nr_keys && v[lead].group_name; j++)
		if (!(names[j] = strdup(v[lead].group_name)))
			goto out;
	for (int j = 0; j < nr_keys; j++) {
		int start = pos;

		for (int i = lead; i < lead + n; i++) {
			const char *k = spec__core_pmu(&v[i]) ? spec__core_pmu(&v[i]) : first;

			if (same_pmu(k, keys[j]))
				tmp[pos++] = v[i];
		}
		for (int i = start; i < pos; i++)
			tmp[i].leader = lead + start;
		tmp[start].nr_members = pos - start;
		if (j) {
			/* What a group's modifiers gave its leader only. */
			tmp[start].group_name = names[j];
			names[j] = NULL;
			tmp[start].attr.pinned = v[lead].attr.pinned;
			tmp[start].attr.exclusive = v[lead].attr.exclusive;
		}
	}
	memcpy(v + lead, tmp, (size_t)n * sizeof(*tmp));
	ret = 0;
out:
	for (int j = 0; names && j < n; j++)
		free(names[j]);
	free(names);
	free(tmp);
	free(keys);
	return ret;
}

int event_specs__split_hybrid_groups(struct event_specs *specs, int from)
{
	for (int i = from; i < specs->nr; i++) {
		const struct event_spec *lead = &specs->v[i];
		const char *seen = NULL;
		bool mixed = false;
		int ret;

		if (lead->leader != i || lead->nr_members < 2)
			continue;
		for (int j = i; j < i + lead->nr_members && !mixed; j++) {
			const char *k = spec__core_pmu(&specs->v[j]);

			if (k && seen && strcmp(k, seen))
				mixed = true;
			if (k && !seen)
				seen = k;
		}
		if (!mixed)
			continue;
		ret = split_group(specs->v, i);
		if (ret)
			return ret;
	}
	return 0;
}
