// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer harness for the -e grammar (built and run by the suite, from the
 * source root), against the fixture PMUs and tracefs so every kind of event
 * is reachable. Beyond "no crash, no leak" it checks the contract: all or
 * nothing on failure with a one-line err; on success sane attrs, names, group links that hold
 * ([leader, leader + nr_members) all lead back to the leader), and the
 * --filter rule.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "recorder/events/parse_events.h"

static const struct parse_events_ctx fx = {
	.sysfs = "tests/fixtures/pmu/sys",
	.tracefs = "tests/fixtures/pmu/tracing",
};

static void check_ok(const struct event_specs *specs, int first)
{
	char name[128];

	if (specs->last_arg != first || specs->nr <= first)
		abort();
	for (int i = first; i < specs->nr; i++) {
		const struct event_spec *s = &specs->v[i];
		int l = s->leader;

		if (!s->name || s->attr.size != sizeof(s->attr) ||
		    s->name_from_attr || s->filter)
			abort();
		if (l < first || l > i || specs->v[l].leader != l || specs->v[l].nr_members < 1 ||
		    i >= l + specs->v[l].nr_members)
			abort();
		if (l != i && (s->nr_members != 1 || s->group_name))
			abort();
		if (s->terms.set & EVENT_TERM_PERIOD && s->terms.set & EVENT_TERM_FREQ)
			abort();
		if (!!(s->terms.set & EVENT_TERM_CALLGRAPH) != !!s->terms.call_graph)
			abort();
		if (event_name__from_attr(name, sizeof(name), s->name, &s->attr) < 0 ||
		    strlen(name) >= sizeof(name))
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct event_specs specs = { 0 };
	struct prec_err e __attribute__((cleanup(prec_err__clear))) = PREC_ERR_INIT;
	char *str = malloc(size + 1);
	int ret;

	if (!str)
		return 0;
	memcpy(str, data, size);
	str[size] = '\0';

	/* An earlier -e that any failure must leave alone. */
	if (parse_events_ctx(&specs, "{task-clock:u,sched:sched_switch}", &fx, &e) || specs.nr != 2)
		abort();
	prec_err__clear(&e);
	ret = parse_events_ctx(&specs, str, &fx, &e);
	if (ret) {
		if (ret != -EINVAL && ret != -ENOMEM)
			abort();
		if (!prec_err__is_set(&e) || strpbrk(prec_err__msg(&e), "\n\r"))
			abort();
		if (specs.nr != 2 || strcmp(specs.v[0].name, "task-clock:u") ||
		    specs.v[1].leader != 0 || specs.v[0].nr_members != 2 || specs.last_arg != 0)
			abort();
	} else {
		bool all_tp = true;

		check_ok(&specs, 2);
		for (int i = 2; i < specs.nr; i++)
			all_tp &= specs.v[i].attr.type == PERF_TYPE_TRACEPOINT;
		ret = event_specs__add_filter(&specs, "common_pid != 1", "--filter", &e);
		if (all_tp ? ret != 0 : ret != -EINVAL)
			abort();
	}
	event_specs__exit(&specs);
	free(str);
	return 0;
}
