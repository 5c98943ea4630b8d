// SPDX-License-Identifier: GPL-2.0-only
/*
 * What every file of the -e grammar shares, and so the lowest of them (it
 * calls none): the parse state with its lazily found sysfs/tracefs roots and
 * PMUs, the one error writer, the growing table of events, the symbolic and
 * tool event names, and the live context (no probe: the caller has it). The
 * order above it is one way: hw_cache.c, parse_terms.c, parse_mods.c and
 * pe_hybrid.c use only this; pmu_terms.c uses parse_terms.c; parse_event.c
 * (one event) uses them; parse_events.c (the list,
 * groups, the entry points) uses parse_event.c; parse_events_list.c (the
 * listing) uses this and hw_cache.c.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prec/log.h"
#include "events/tracepoint.h"
#include "events/parse_events_int.h"

const struct pe_symbol pe_symbols[] = {
	{ "cpu-cycles", "cycles", "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "instructions", NULL, NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	{ "cache-references", NULL, NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES },
	{ "cache-misses", NULL, NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES },
	{ "branch-instructions", "branches", "branches", PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-misses", NULL, NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES },
	{ "bus-cycles", NULL, NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES },
	{ "stalled-cycles-frontend", "idle-cycles-frontend", NULL, PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_STALLED_CYCLES_FRONTEND },
	{ "stalled-cycles-backend", "idle-cycles-backend", NULL, PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_STALLED_CYCLES_BACKEND },
	{ "ref-cycles", NULL, NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES },
	{ "cpu-clock", NULL, NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK },
	{ "task-clock", NULL, NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
	{ "page-faults", "faults", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "context-switches", "cs", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cpu-migrations", "migrations", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "minor-faults", NULL, NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN },
	{ "major-faults", NULL, NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ },
	{ "alignment-faults", NULL, NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_ALIGNMENT_FAULTS },
	{ "emulation-faults", NULL, NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_EMULATION_FAULTS },
	{ "dummy", NULL, NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY },
	{ "bpf-output", NULL, NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_BPF_OUTPUT },
	{ "cgroup-switches", NULL, NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CGROUP_SWITCHES },
};
const size_t pe_nr_symbols = sizeof(pe_symbols) / sizeof(pe_symbols[0]);

const char *const pe_tool_events[] = { "duration_time", "user_time", "system_time" };
const size_t pe_nr_tool_events = sizeof(pe_tool_events) / sizeof(pe_tool_events[0]);

const struct parse_events_ctx pe_live = { 0 };

const struct pe_symbol *pe_symbol__find(const char *name, size_t len)
{
	for (size_t i = 0; i < pe_nr_symbols; i++) {
		const struct pe_symbol *s = &pe_symbols[i];

		if (strlen(s->name) == len && !strncmp(s->name, name, len))
			return s;
		if (s->alias && strlen(s->alias) == len && !strncmp(s->alias, name, len))
			return s;
	}
	return NULL;
}

bool pe_tool__is(const char *name, size_t len)
{
	for (size_t i = 0; i < pe_nr_tool_events; i++)
		if (strlen(pe_tool_events[i]) == len && !strncmp(pe_tool_events[i], name, len))
			return true;
	return false;
}

const char *event_name__symbol(uint32_t type, uint64_t config)
{
	for (size_t i = 0; i < pe_nr_symbols; i++) {
		if (pe_symbols[i].type == type && pe_symbols[i].config == config)
			return pe_symbols[i].perf_name ? pe_symbols[i].perf_name :
							 pe_symbols[i].name;
	}
	return NULL;
}

int pe_error(struct pe_state *st, size_t off, const char *hint, const char *fmt, ...)
{
	char *msg = NULL;
	va_list ap;
	int n;

	if (!st->e)
		return -EINVAL;
	va_start(ap, fmt);
	n = vasprintf(&msg, fmt, ap);
	va_end(ap);
	if (n < 0)
		return prec_err__set(st->e, -ENOMEM, "out of memory parsing the events");
	prec_err__set(st->e, -EINVAL, "%s at offset %zu%s%s%s", msg, off, hint ? " (" : "",
		      hint ? hint : "", hint ? ")" : "");
	free(msg);
	return -EINVAL;
}

void pe_spec__free(struct event_spec *spec)
{
	free(spec->name);
	free(spec->group_name);
	free(spec->pmu_name);
	free(spec->cpus);
	free(spec->filter);
	free(spec->terms.call_graph);
	free(spec->terms.metric_id);
	free(spec->terms.cpus);
}

void pe_attr__init(struct perf_event_attr *attr, uint32_t type, uint64_t config)
{
	memset(attr, 0, sizeof(*attr));
	attr->type = type;
	attr->config = config;
	attr->size = sizeof(*attr);
	attr->exclude_guest = 1; /* perf's event_attr_init: the host only */
}

struct pe_event *pe_event__new(struct pe_state *st, uint32_t type, uint64_t config)
{
	struct pe_event *v = realloc(st->ev, (st->nr_ev + 1) * sizeof(*v));
	struct pe_event *ev;

	if (!v)
		return NULL;
	st->ev = v;
	ev = &st->ev[st->nr_ev];
	memset(ev, 0, sizeof(*ev));
	pe_attr__init(&ev->spec.attr, type, config);
	ev->spec.leader = st->nr_ev;
	ev->spec.nr_members = 1;
	st->nr_ev++;
	return ev;
}

/* Drops the events from index first on (a PMU that did not take the terms). */
void pe_state__truncate(struct pe_state *st, int first)
{
	while (st->nr_ev > first)
		pe_spec__free(&st->ev[--st->nr_ev].spec);
}

const struct pmus *pe_state__pmus(struct pe_state *st)
{
	if (!st->pmus_done) {
		if (!st->sysfs_done) {
			st->sysfs = st->ctx->sysfs;
			if (!st->sysfs) {
				sysfs__find(st->sysfs_buf, sizeof(st->sysfs_buf));
				st->sysfs = st->sysfs_buf;
			}
			st->sysfs_done = true;
		}
		st->pmus_err = pmus__load(&st->pmus, st->sysfs);
		st->pmus_done = true;
	}
	return st->pmus_err ? NULL : &st->pmus;
}

const char *pe_state__tracefs(struct pe_state *st)
{
	if (!st->tracefs_done) {
		st->tracefs = st->ctx->tracefs;
		if (!st->tracefs) {
			st->tracefs_err = tracefs__find(st->tracefs_buf, sizeof(st->tracefs_buf));
			st->tracefs = st->tracefs_err ? NULL : st->tracefs_buf;
		}
		st->tracefs_done = true;
	}
	return st->tracefs;
}
