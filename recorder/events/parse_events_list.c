// SPDX-License-Identifier: GPL-2.0-only
/*
 * prec --list-events: the events this machine offers, in perf 6.1's
 * `perf list` sections, order and layout (as it prints to a pipe).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "events/tracepoint.h"
#include "events/parse_events_int.h"

void parse_events__print_known(void *stream)
{
	FILE *f = stream;

	for (size_t i = 0; i < pe_nr_symbols; i++) {
		const struct pe_symbol *s = &pe_symbols[i];

		fprintf(f, "  %s%s%s%s\n", s->name, s->alias ? " OR " : "",
			s->alias ? s->alias : "",
			s->type == PERF_TYPE_HARDWARE ? "  [Hardware event]" :
							"  [Software event]");
	}
	fprintf(f, "  (and cache events, rNNN, PMU/terms/, sys:tracepoint, mem:ADDR, {groups}: "
		   "see 'prec --list-events')\n");
}

static void print_entry(FILE *f, const char *name, const char *kind)
{
	fprintf(f, "  %-50s [%s]\n", name, kind);
}

/* A sorted list of lines to print. */
struct lines {
	char **v;
	int nr;
	bool oom;
};

static void lines__add(struct lines *l, char *s)
{
	char **v = s ? realloc(l->v, (l->nr + 1) * sizeof(*v)) : NULL;

	if (!v) {
		free(s);
		l->oom = true;
		return;
	}
	l->v = v;
	l->v[l->nr++] = s;
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void lines__print(struct lines *l, FILE *f, const char *kind, bool sort)
{
	if (sort && l->nr > 1)
		qsort(l->v, l->nr, sizeof(*l->v), str_cmp);
	for (int i = 0; i < l->nr; i++) {
		print_entry(f, l->v[i], kind);
		free(l->v[i]);
	}
	free(l->v);
	l->v = NULL;
	l->nr = 0;
}

static bool supported(const struct parse_events_ctx *ctx, uint32_t type, uint64_t config)
{
	struct perf_event_attr attr = { .type = type, .config = config, .size = sizeof(attr) };

	return !ctx->supported || ctx->supported(&attr);
}

static void print_symbols(FILE *f, const struct parse_events_ctx *ctx, uint32_t type,
			  const char *kind)
{
	struct lines l = { 0 };

	for (size_t i = 0; i < pe_nr_symbols; i++) {
		const struct pe_symbol *s = &pe_symbols[i];
		char *line = NULL;

		if (s->type != type || !supported(ctx, s->type, s->config))
			continue;
		if (s->alias ? asprintf(&line, "%s OR %s", s->name, s->alias) < 0 :
			       !(line = strdup(s->name)))
			line = NULL;
		lines__add(&l, line);
	}
	lines__print(&l, f, kind, true);
}

struct cache_walk {
	const struct parse_events_ctx *ctx;
	struct lines l;
};

static void cache_one(void *arg, const char *name, uint64_t config)
{
	struct cache_walk *w = arg;

	if (supported(w->ctx, PERF_TYPE_HW_CACHE, config))
		lines__add(&w->l, strdup(name));
}

/* perf's cmp_sevent for sysfs aliases: core PMU first, then PMU, then alias name. */
struct pmu_event {
	const struct pmu *pmu;
	const struct pmu_alias *alias;
};

static int pmu_event_cmp(const void *a, const void *b)
{
	const struct pmu_event *x = a, *y = b;
	int ret;

	if (x->pmu->is_core != y->pmu->is_core)
		return x->pmu->is_core ? -1 : 1;
	ret = strcmp(x->pmu->name, y->pmu->name);
	return ret ? ret : strcmp(x->alias->name, y->alias->name);
}

/* perf's format_alias: pmu/alias/, with ",term=?" for each parameter it needs. */
static void format_alias(char *buf, size_t size, const struct pmu_event *e)
{
	size_t n = (size_t)snprintf(buf, size, "%s/%s", e->pmu->name, e->alias->name);
	const char *p = e->alias->terms;

	while (p && *p && n < size) {
		size_t len = strcspn(p, ",");
		const char *eq = memchr(p, '=', len);

		if (eq && (size_t)(p + len - eq) == 2 && eq[1] == '?')
			n += (size_t)snprintf(buf + n, size - n, ",%.*s", (int)len, p);
		p += len + (p[len] == ',');
	}
	if (n < size)
		snprintf(buf + n, size - n, "/");
}

static void print_pmu_events(FILE *f, struct pe_state *st)
{
	const struct pmus *pmus = pe_state__pmus(st);
	struct pmu_event *ev = NULL;
	int nr = 0;

	for (int i = 0; pmus && i < pmus->nr; i++) {
		struct pmu_event *v;

		if (!pmus->v[i].nr_aliases)
			continue;
		v = realloc(ev, (size_t)(nr + pmus->v[i].nr_aliases) * sizeof(*v));
		if (!v)
			break;
		ev = v;
		for (int j = 0; j < pmus->v[i].nr_aliases; j++)
			ev[nr++] = (struct pmu_event){ &pmus->v[i], &pmus->v[i].aliases[j] };
	}
	if (nr > 1)
		qsort(ev, nr, sizeof(*ev), pmu_event_cmp);
	for (int i = 0; i < nr; i++) {
		char buf[512], line[600];

		format_alias(buf, sizeof(buf), &ev[i]);
		if (ev[i].pmu->is_core)
			snprintf(line, sizeof(line), "%s OR %s", ev[i].alias->name, buf);
		else
			snprintf(line, sizeof(line), "%s", buf);
		print_entry(f, line, "Kernel PMU event");
	}
	free(ev);
}

static int collect_tracepoint(void *arg, const char *sys, const char *name, uint64_t id)
{
	char *line;

	(void)id;
	lines__add(arg, asprintf(&line, "%s:%s", sys, name) < 0 ? NULL : line);
	return 0;
}

void parse_events__print_list(FILE *f, const struct parse_events_ctx *ctx)
{
	struct pe_state st = { .str = "", .ctx = ctx ? ctx : &pe_live };
	struct cache_walk cw = { .ctx = st.ctx };
	char tracefs[4096];
	const char *tp_root = st.ctx->tracefs;

	print_symbols(f, st.ctx, PERF_TYPE_HARDWARE, "Hardware event");
	print_symbols(f, st.ctx, PERF_TYPE_SOFTWARE, "Software event");
	for (size_t i = 0; i < pe_nr_tool_events; i++)
		print_entry(f, pe_tool_events[i], "Tool event");
	hw_cache__for_each(cache_one, &cw);
	lines__print(&cw.l, f, "Hardware cache event", true);
	print_pmu_events(f, &st);
	print_entry(f, "rNNN", "Raw hardware event descriptor");
	/* perf 6.1 prints "cpu" here, whatever the core PMU is called. */
	print_entry(f, "cpu/t1=v1[,t2=v2,t3 ...]/modifier", "Raw hardware event descriptor");
	print_entry(f, "mem:<addr>[/len][:access]", "Hardware breakpoint");
	if (!tp_root && !tracefs__find(tracefs, sizeof(tracefs)))
		tp_root = tracefs;
	if (tp_root) {
		struct lines tp = { 0 };

		/* perf sorts "sys:name" as one string (fib6:x before fib:y). */
		tracepoints__for_each(tp_root, "*", "*", false, collect_tracepoint, &tp);
		lines__print(&tp, f, "Tracepoint event", true);
	}
	pmus__exit(&st.pmus);
}
