/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_TESTS_PARSE_EVENTS_EXPECT_H
#define PREC_TESTS_PARSE_EVENTS_EXPECT_H
/*
 * Shared by the -e grammar's tests (test_parse_events_*.c): the fixture PMUs
 * (tests/fixtures/pmu/sys) and tracefs (tests/fixtures/pmu/tracing) as the
 * parse context, and the accepted-string table's row type and check, which
 * compares the whole attr and spec fields an accepted string must give. The
 * expected values are perf 6.1's: `perf record -e STR` + `perf evlist -v` on
 * this VM, or `perf record -vv` with the fixture PMUs bind-mounted over
 * /sys/bus/event_source/devices in a mount namespace (see
 * tests/fixtures/pmu/README). Include after cmocka.h.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "recorder/events/parse_events.h"
#include "tests/unit/fixture_path.h"

static char sysfs[4096], tracefs[4096];
static struct parse_events_ctx fx;

static inline int setup(void **state)
{
	(void)state;
	fixture_path(sysfs, sizeof(sysfs), "pmu/sys");
	fixture_path(tracefs, sizeof(tracefs), "pmu/tracing");
	fx.sysfs = sysfs;
	fx.tracefs = tracefs;
	return 0;
}

/* Parses str alone on the fixture; the caller frees. */
static inline void parse_ok(struct event_specs *specs, const char *str)
{
	struct prec_err e __attribute__((cleanup(prec_err__clear))) = PREC_ERR_INIT;
	int ret = parse_events_ctx(specs, str, &fx, &e);

	if (ret)
		print_error("'%s': %s\n", str, prec_err__msg(&e));
	assert_int_equal(ret, 0);
}

/* One event an accepted string gives: its name and "key=value ..." for what is not default. */
struct ev_exp {
	const char *name;
	const char *desc;
};

struct accept_row {
	const char *str;
	int nr;
	struct ev_exp ev[6];
};

/*
 * desc keys: type config config1 config2 bp_type period st (sample_type);
 * eu ek eh eH eI p D e (attr bits); eG (default 1); P S W C (precise_max,
 * sample_read, weak_group, counting_only); L (leader, default the event
 * itself) N (nr_members, default 1); pmu gname. Everything else is zero.
 */
struct exp_spec {
	struct perf_event_attr attr;
	bool P, S, W, C;
	int L, N;
	char pmu[64], gname[64];
};

static inline void exp__build(const char *desc, int idx, struct exp_spec *x)
{
	char buf[512], *tok, *save = NULL;

	memset(x, 0, sizeof(*x));
	x->attr.size = sizeof(x->attr);
	x->attr.exclude_guest = 1;
	x->L = idx;
	x->N = 1;
	snprintf(buf, sizeof(buf), "%s", desc);
	for (tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(tok, '=');
		unsigned long long v;

		assert_non_null(eq);
		*eq++ = '\0';
		v = strtoull(eq, NULL, 0);
		if (!strcmp(tok, "pmu"))
			snprintf(x->pmu, sizeof(x->pmu), "%s", eq);
		else if (!strcmp(tok, "gname"))
			snprintf(x->gname, sizeof(x->gname), "%s", eq);
		else if (!strcmp(tok, "type"))
			x->attr.type = (uint32_t)v;
		else if (!strcmp(tok, "config"))
			x->attr.config = v;
		else if (!strcmp(tok, "config1"))
			x->attr.config1 = v;
		else if (!strcmp(tok, "config2"))
			x->attr.config2 = v;
		else if (!strcmp(tok, "bp_type"))
			x->attr.bp_type = (uint32_t)v;
		else if (!strcmp(tok, "period"))
			x->attr.sample_period = v;
		else if (!strcmp(tok, "st"))
			x->attr.sample_type = v;
		else if (!strcmp(tok, "eu"))
			x->attr.exclude_user = v;
		else if (!strcmp(tok, "ek"))
			x->attr.exclude_kernel = v;
		else if (!strcmp(tok, "eh"))
			x->attr.exclude_hv = v;
		else if (!strcmp(tok, "eH"))
			x->attr.exclude_host = v;
		else if (!strcmp(tok, "eG"))
			x->attr.exclude_guest = v;
		else if (!strcmp(tok, "eI"))
			x->attr.exclude_idle = v;
		else if (!strcmp(tok, "p"))
			x->attr.precise_ip = v;
		else if (!strcmp(tok, "D"))
			x->attr.pinned = v;
		else if (!strcmp(tok, "e"))
			x->attr.exclusive = v;
		else if (!strcmp(tok, "P"))
			x->P = v;
		else if (!strcmp(tok, "S"))
			x->S = v;
		else if (!strcmp(tok, "W"))
			x->W = v;
		else if (!strcmp(tok, "C"))
			x->C = v;
		else if (!strcmp(tok, "L"))
			x->L = (int)v;
		else if (!strcmp(tok, "N"))
			x->N = (int)v;
		else
			fail_msg("bad key '%s' in '%s'", tok, desc);
	}
}

static inline void attr__print(const char *what, const struct perf_event_attr *a)
{
	print_error(
		"    %s: type %u config %#llx config1 %#llx config2 %#llx bp_type %u period %llu "
		"st %#llx u%u k%u h%u H%u G%u I%u p%u D%u e%u\n",
		what, a->type, (unsigned long long)a->config, (unsigned long long)a->config1,
		(unsigned long long)a->config2, a->bp_type, (unsigned long long)a->sample_period,
		(unsigned long long)a->sample_type, a->exclude_user, a->exclude_kernel,
		a->exclude_hv, a->exclude_host, a->exclude_guest, a->exclude_idle, a->precise_ip,
		a->pinned, a->exclusive);
}

/* Parses row->str after one earlier event (so leaders are absolute) and checks every event. */
static inline bool accept_row__check(const struct accept_row *r)
{
	struct event_specs specs = { 0 };
	struct prec_err e __attribute__((cleanup(prec_err__clear))) = PREC_ERR_INIT;
	bool ok = true;

	assert_int_equal(parse_events_ctx(&specs, "dummy", &fx, &e), 0);
	if (parse_events_ctx(&specs, r->str, &fx, &e) || specs.nr != r->nr + 1) {
		print_error("'%s': nr %d err '%s' (expected %d events)\n", r->str, specs.nr - 1,
			    prec_err__msg(&e), r->nr);
		event_specs__exit(&specs);
		return false;
	}
	assert_int_equal(specs.last_arg, 1);
	for (int i = 0; i < r->nr; i++) {
		const struct event_spec *s = &specs.v[i + 1];
		struct exp_spec x;

		exp__build(r->ev[i].desc, i, &x);
		if (strcmp(s->name, r->ev[i].name) || memcmp(&s->attr, &x.attr, sizeof(x.attr)) ||
		    s->precise_max != x.P || s->sample_read != x.S || s->weak_group != x.W ||
		    s->counting_only != x.C || s->leader != x.L + 1 || s->nr_members != x.N ||
		    s->name_from_attr || strcmp(s->pmu_name ? s->pmu_name : "", x.pmu) ||
		    strcmp(s->group_name ? s->group_name : "", x.gname) || s->filter) {
			print_error(
				"'%s' event %d: name '%s' P%d S%d W%d C%d L%d N%d pmu '%s' gname '%s' "
				"(want '%s' %s)\n",
				r->str, i, s->name, s->precise_max, s->sample_read, s->weak_group,
				s->counting_only, s->leader - 1, s->nr_members,
				s->pmu_name ? s->pmu_name : "", s->group_name ? s->group_name : "",
				r->ev[i].name, r->ev[i].desc);
			attr__print("got ", &s->attr);
			attr__print("want", &x.attr);
			ok = false;
		}
	}
	event_specs__exit(&specs);
	return ok;
}

#endif
