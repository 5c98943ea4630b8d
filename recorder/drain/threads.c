// SPDX-License-Identifier: GPL-2.0-only
/* --threads' SPEC -> one mask per drain stream (threads.h); pure. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "targets/cpu_map.h"
#include "prec/error.h"
#include "prec/sysinfo.h"
#include "drain/threads.h"

/* The CPUs in both a and b into *out (emptied first). 0 or -ENOMEM. */
static int cpulist__and(const struct cpulist *a, const struct cpulist *b, struct cpulist *out)
{
	uint32_t words = (a->nr_bits + 63) / 64, top = 0;

	memset(out, 0, sizeof(*out));
	if (!words)
		return 0;
	out->bits = calloc(words, sizeof(uint64_t));
	if (!out->bits)
		return -ENOMEM;
	for (uint32_t c = 0; c < a->nr_bits; c++)
		if (cpulist__has(a, c) && cpulist__has(b, c)) {
			out->bits[c / 64] |= 1ull << (c % 64);
			top = c + 1;
		}
	out->nr_bits = top;
	return 0;
}

/* Whether a and b name a CPU in common. */
static bool cpulist__meets(const struct cpulist *a, const struct cpulist *b)
{
	for (int c = cpulist__next(a, 0); c >= 0; c = cpulist__next(a, (uint32_t)c + 1))
		if (cpulist__has(b, (uint32_t)c))
			return true;
	return false;
}

/* Empties *out and sets e to ret with the line "--threads: what[: list] (fix)". */
static int masks__fail(struct threads_masks *out, int ret, struct prec_err *e, const char *what,
		       const char *list, const char *fix)
{
	threads_masks__exit(out);
	return prec_err__set(e, ret, "--threads: %s%s%s (%s)", what, list ? ": " : "",
			     list ? list : "", fix);
}

/*
 * One stream from the cpu lists maps and aff (len bytes each): parsed
 * against the CPUs that exist, cut down to the recorded ones, and checked
 * against the streams before it (no ring, no affinity CPU drained twice).
 */
static int masks__add(struct threads_masks *out, const struct threads_topo *topo,
		      const struct cpulist *cpus, const char *maps, size_t mlen, const char *aff,
		      size_t alen, struct prec_err *e)
{
	static const char fix[] = "name CPUs that are online and recorded, each in one stream";
	struct cpulist m = { 0 }, a = { 0 }, mi, ai;
	struct threads_mask *more;
	char list[128];
	int ret;

	snprintf(list, sizeof(list), "%.*s/%.*s", (int)mlen, maps, (int)alen, aff);
	ret = cpulist__parse_limit(maps, mlen, topo->nr_cpus, &m);
	if (!ret)
		ret = cpulist__parse_limit(aff, alen, topo->nr_cpus, &a);
	if (ret) {
		cpulist__exit(&m);
		return masks__fail(
			out,
			ret == -ERANGE ? -ENODEV :
			ret == -ENOMEM ? -ENOMEM :
					 -EINVAL,
			e,
			ret == -ERANGE ? "a mask names a CPU this machine does not have" :
					 "invalid thread maps or affinity specs",
			NULL, "give CPUMASK/AFFINITYMASK pairs as cpu lists, e.g. 0-1/0:2-3/2");
	}
	ret = cpulist__and(&m, cpus, &mi);
	if (!ret)
		ret = cpulist__and(&a, cpus, &ai);
	cpulist__exit(&m);
	cpulist__exit(&a);
	if (ret)
		return masks__fail(out, ret, e, "out of memory", NULL, "free some memory");
	if (!cpulist__count(&mi) || !cpulist__count(&ai)) {
		cpulist__exit(&mi);
		cpulist__exit(&ai);
		return masks__fail(out, -EINVAL, e,
				   "empty mask after leaving out CPUs not recorded", list, fix);
	}
	for (uint32_t i = 0; i < out->nr; i++) {
		bool maps_meet = cpulist__meets(&mi, &out->m[i].maps);

		if (maps_meet || cpulist__meets(&ai, &out->m[i].affinity)) {
			cpulist__exit(&mi);
			cpulist__exit(&ai);
			return masks__fail(out, -EINVAL, e,
					   maps_meet ? "intersecting maps mask" :
						       "intersecting affinity mask",
					   list, fix);
		}
	}
	more = realloc(out->m, (out->nr + 1) * sizeof(*out->m));
	if (!more) {
		cpulist__exit(&mi);
		cpulist__exit(&ai);
		return masks__fail(out, -ENOMEM, e, "out of memory", NULL, "free some memory");
	}
	out->m = more;
	out->m[out->nr++] = (struct threads_mask){ .maps = mi, .affinity = ai };
	return 0;
}

/* cpu: one stream per recorded CPU, bound to it. */
static int masks__per_cpu(struct threads_masks *out, const struct threads_topo *topo,
			  const struct cpulist *cpus, struct prec_err *e)
{
	for (int c = cpulist__next(cpus, 0); c >= 0; c = cpulist__next(cpus, (uint32_t)c + 1)) {
		char one[16];
		int len = snprintf(one, sizeof(one), "%d", c);
		int ret = masks__add(out, topo, cpus, one, (size_t)len, one, (size_t)len, e);

		if (ret)
			return ret;
	}
	return 0;
}

/* core, package, numa: one stream per list that keeps a recorded CPU. */
static int masks__per_list(struct threads_masks *out, const struct threads_topo *topo,
			   const struct cpulist *cpus, const char *const *lists, uint32_t nr,
			   struct prec_err *e)
{
	for (uint32_t i = 0; i < nr; i++) {
		struct cpulist l, in;
		int ret = cpulist__parse(lists[i], strlen(lists[i]), &l);

		if (ret == -ENODATA)
			continue; /* a CPU-less node */
		if (ret)
			return masks__fail(out, ret, e, "unreadable topology list", lists[i],
					   "check /sys/devices/system/cpu");
		ret = cpulist__and(&l, cpus, &in);
		cpulist__exit(&l);
		if (ret)
			return masks__fail(out, ret, e, "out of memory", NULL, "free some memory");
		/* A core or node none of whose CPUs is recorded has no rings:
		 * no stream, rather than perf's refusal of -C with --threads. */
		ret = cpulist__count(&in) ? 0 : 1;
		cpulist__exit(&in);
		if (ret)
			continue;
		ret = masks__add(out, topo, cpus, lists[i], strlen(lists[i]), lists[i],
				 strlen(lists[i]), e);
		if (ret)
			return ret;
	}
	if (!out->nr)
		return masks__fail(out, -EINVAL, e, "the topology names no recorded CPU", NULL,
				   "use --threads=cpu");
	return 0;
}

/* M/A[:M/A...]: each pair's two lists non-empty. */
static int masks__user(struct threads_masks *out, const struct threads_topo *topo,
		       const struct cpulist *cpus, const char *spec, struct prec_err *e)
{
	const char *p = spec;

	for (;;) {
		const char *end = strchr(p, ':'), *slash;
		size_t len = end ? (size_t)(end - p) : strlen(p);
		int ret;

		slash = memchr(p, '/', len);
		if (!slash || slash == p || slash + 1 == p + len)
			return masks__fail(
				out, -EINVAL, e, "invalid thread maps or affinity specs", spec,
				"give cpu, core, package, numa or CPUMASK/AFFINITYMASK[:...], e.g. 0-1/0:2-3/2");
		ret = masks__add(out, topo, cpus, p, (size_t)(slash - p), slash + 1,
				 len - (size_t)(slash - p) - 1, e);
		if (ret)
			return ret;
		if (!end)
			return 0;
		p = end + 1;
	}
}

int threads_masks__parse(const char *spec, const struct threads_topo *topo,
			 const struct cpulist *cpus, struct threads_masks *out, struct prec_err *e)
{
	memset(out, 0, sizeof(*out));
	if (!spec || !*spec || !strcmp(spec, "cpu"))
		return masks__per_cpu(out, topo, cpus, e);
	if (!strcmp(spec, "core"))
		return masks__per_list(out, topo, cpus, topo->cores, topo->nr_cores, e);
	if (!strcmp(spec, "package"))
		return masks__per_list(out, topo, cpus, topo->packages, topo->nr_packages, e);
	if (!strcmp(spec, "numa"))
		return masks__per_list(out, topo, cpus, topo->nodes, topo->nr_nodes, e);
	return masks__user(out, topo, cpus, spec, e);
}

void threads_masks__exit(struct threads_masks *m)
{
	for (uint32_t i = 0; i < m->nr; i++) {
		cpulist__exit(&m->m[i].maps);
		cpulist__exit(&m->m[i].affinity);
	}
	free(m->m);
	m->m = NULL;
	m->nr = 0;
}

/* The recorded CPUs as a cpulist (all of the machine's for a map of "any
 * CPU"). 0 or -ENOMEM. */
static int threads__recorded(const struct cpu_map *map, uint32_t nr_cpus, struct cpulist *cl)
{
	int max = map->nr ? map->cpu[map->nr - 1] : -1;
	bool any = map->nr == 1 && map->cpu[0] < 0;

	memset(cl, 0, sizeof(*cl));
	if (any)
		max = (int)nr_cpus - 1;
	if (max < 0)
		return 0;
	cl->bits = calloc(((size_t)max + 64) / 64, sizeof(uint64_t));
	if (!cl->bits)
		return -ENOMEM;
	cl->nr_bits = (uint32_t)max + 1;
	for (int i = 0; i <= max; i++)
		if (any)
			cl->bits[i / 64] |= 1ull << (i % 64);
	for (int i = 0; !any && i < map->nr; i++)
		cl->bits[map->cpu[i] / 64] |= 1ull << (map->cpu[i] % 64);
	return 0;
}

int threads_masks__one(struct threads_masks *out)
{
	memset(out, 0, sizeof(*out));
	/* Empty maps: every ring falls to the first stream (streams.c). */
	out->m = calloc(1, sizeof(*out->m));
	if (!out->m)
		return -ENOMEM;
	out->nr = 1;
	return 0;
}

int threads_masks__for_machine(const char *spec, const struct sysinfo *si,
			       const struct cpu_map *cpus, struct threads_masks *out,
			       struct prec_err *e)
{
	const char **nodes = calloc(si->nr_numa + 1, sizeof(*nodes));
	struct threads_topo topo = {
		.cores = (const char *const *)si->topo.core_cpus,
		.nr_cores = si->topo.nr_core,
		.packages = (const char *const *)si->topo.package_cpus,
		.nr_packages = si->topo.nr_package,
		.nodes = nodes,
		.nr_nodes = si->nr_numa,
		.nr_cpus = si->nr_cpus_avail ? si->nr_cpus_avail : CPULIST_CPU_LIMIT,
	};
	struct cpulist rec;
	int ret;

	memset(out, 0, sizeof(*out));
	if (!nodes || threads__recorded(cpus, topo.nr_cpus, &rec)) {
		free(nodes);
		return prec_err__set(e, -ENOMEM, "--threads: out of memory (free some memory)");
	}
	for (uint32_t i = 0; i < si->nr_numa; i++)
		nodes[i] = si->numa[i].cpus ? si->numa[i].cpus : "";
	ret = threads_masks__parse(spec, &topo, &rec, out, e);
	out->threaded = !ret;
	cpulist__exit(&rec);
	free(nodes);
	return ret;
}
