// SPDX-License-Identifier: GPL-2.0-only
/*
 * The -e grammar (see parse_events.h): a recursive-descent reading of perf
 * 6.1's parse-events.l/.y. The attrs, the modifier rules and the names perf
 * derives come out the same for the same string; where perf's lexer quietly
 * accepts junk (white space, "cpu-clock:", an unclosed '{') we say what is
 * wrong instead. This file is the entry on top (nothing in the grammar
 * calls it): the event list, groups, the specs' lifecycle, the default
 * event; one event is parse_event.c, modifiers parse_mods.c, terms
 * parse_terms.c, cache names hw_cache.c, the shared state pe_state.c, the
 * listing parse_events_list.c.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "events/bpf_filter_parse.h"
#include "events/parse_events_int.h"
#include "prec/log.h"

/* perf's {name} token: a group's optional name before '{'. */
static bool is_group_name_char(char c, bool first)
{
	return isalpha((unsigned char)c) || c == '_' || c == '*' || c == '?' || c == '[' ||
	       c == ']' || (!first && (isdigit((unsigned char)c) || c == '.' || c == '!'));
}

/* The length of NAME in NAME{...} at s, 0 for a bare '{', -1 when s is no group. */
static long group_start(const char *s)
{
	size_t n = 0;

	while (is_group_name_char(s[n], n == 0))
		n++;
	return s[n] == '{' ? (long)n : -1;
}

/* perf's is_same_uncore_block: the names agree up to their last '_'. */
static bool same_uncore_block(const char *a, const char *b)
{
	const char *ea = a ? strrchr(a, '_') : NULL, *eb = b ? strrchr(b, '_') : NULL;

	return ea && eb && ea - a == eb - b && !strncmp(a, b, (size_t)(ea - a));
}

/*
 * perf's parse_events__set_leader_for_uncore_aliase: a group of plain
 * aliases that each expanded over the same uncore boxes becomes one group
 * per box ({cas_count_read,cas_count_write} -> {read@imc_0,write@imc_0},
 * {read@imc_1,write@imc_1}); a group of one such alias is no group at all.
 * perf leaves the events interleaved; here each group's events are made
 * contiguous, leader first, so a group is always [leader, leader + n).
 * Returns true when it handled the group.
 */
static bool group__split_uncore(struct pe_state *st, int first, size_t name_off, size_t name_len,
				int *ret)
{
	int n = st->nr_ev - first, nr_pmu = 1, per;
	struct pe_event *tmp;

	*ret = 0;
	for (int i = first; i < st->nr_ev; i++)
		if (!st->ev[i].uncore_alias ||
		    !same_uncore_block(st->ev[first].spec.pmu_name, st->ev[i].spec.pmu_name))
			return false;
	while (first + nr_pmu < st->nr_ev &&
	       strcmp(st->ev[first + nr_pmu].spec.pmu_name, st->ev[first].spec.pmu_name))
		nr_pmu++;
	if (nr_pmu == n)
		return true; /* one alias: perf makes no group */
	if (n % nr_pmu)
		return false;
	per = n / nr_pmu;
	tmp = malloc((size_t)n * sizeof(*tmp));
	if (!tmp) {
		*ret = -ENOMEM;
		return true;
	}
	for (int box = 0; box < nr_pmu; box++) {
		for (int j = 0; j < per; j++) {
			tmp[box * per + j] = st->ev[first + j * nr_pmu + box];
			tmp[box * per + j].spec.leader = first + box * per;
		}
		tmp[box * per].spec.nr_members = per;
	}
	memcpy(st->ev + first, tmp, (size_t)n * sizeof(*tmp));
	free(tmp);
	for (int box = 0; name_len && box < nr_pmu; box++)
		if (!(st->ev[first + box * per].spec.group_name =
			      strndup(st->str + name_off, name_len)))
			*ret = -ENOMEM;
	return true;
}

/* [NAME] '{' event (',' event)* '}' [':' MODS]: perf's group and group_def. */
static int parse_group(struct pe_state *st, size_t *p, size_t name_len)
{
	size_t open = *p + name_len, q = open + 1;
	int first = st->nr_ev, ret;
	struct event_spec *leader;

	if (st->str[q] == '}')
		return pe_error(st, open, "a group holds one event or more", "empty group '{}'");
	for (;;) {
		if (!st->str[q])
			return pe_error(st, open, "close it with '}'",
					"unbalanced '{': the group is not closed");
		ret = parse_event(st, &q, true);
		if (ret)
			return ret;
		if (st->str[q] == ',') {
			q++;
			continue;
		}
		if (st->str[q] == '}')
			break;
		return pe_error(st, open, "close it with '}'",
				"unbalanced '{': the group is not closed");
	}
	q++;
	if (st->nr_ev == first)
		return pe_hybrid__none_error(st); /* its cache events count nowhere here */
	if (group__split_uncore(st, first, *p, name_len, &ret)) {
		if (ret)
			return ret;
		goto mods;
	}
	/* perf's parse_events__set_leader: the first event leads, the group is named. */
	leader = &st->ev[first].spec;
	leader->nr_members = st->nr_ev - first;
	if (name_len && !(leader->group_name = strndup(st->str + *p, name_len)))
		return -ENOMEM;
	for (int i = first; i < st->nr_ev; i++)
		st->ev[i].spec.leader = first;
mods:
	if (st->str[q] == ':') {
		q++;
		ret = parse_mods(st, &q, first, *p, false, true);
		if (ret)
			return ret;
	}
	if (!is_delim(st->str[q], false))
		return pe_error(
			st, q,
			st->str[q] == '}' ? "a '}' closes a group opened with '{'" :
					    "a group is followed by ':' and modifiers, or ','",
			st->str[q] == '}' ? "unbalanced '}'" : "unexpected '%c' after a group",
			st->str[q]);
	*p = q;
	return 0;
}

static int parse_items(struct pe_state *st)
{
	size_t p = 0;

	if (!st->str[0])
		return pe_error(st, 0, "give an event name, e.g. -e cpu-clock",
				"empty -e argument");
	for (;;) {
		long g = group_start(st->str + p);
		int ret = g >= 0 ? parse_group(st, &p, (size_t)g) : parse_event(st, &p, false);

		if (ret)
			return ret;
		if (!st->str[p])
			return 0;
		p++; /* the ',' */
		if (!st->str[p] || st->str[p] == ',')
			return pe_error(st, p, "give an event name, e.g. cpu-clock",
					"empty event after ','");
	}
}

/* One line, whatever control characters the argument held. */
static void err__one_line(struct prec_err *e)
{
	for (char *c = e ? e->msg : NULL; c && *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
}

int parse_events_ctx(struct event_specs *specs, const char *str, const struct parse_events_ctx *ctx,
		     struct prec_err *e)
{
	struct pe_state st = { .str = str, .ctx = ctx ? ctx : &pe_live, .e = e };
	struct event_spec *v;
	int base = specs->nr;
	int ret;

	ret = parse_items(&st);
	if (!ret && !st.nr_ev)
		ret = pe_hybrid__none_error(&st);
	if (!ret)
		ret = pe_hybrid__uniquify(&st);
	if (!ret) {
		v = realloc(specs->v, (size_t)(specs->nr + st.nr_ev) * sizeof(*v));
		if (!v) {
			ret = -ENOMEM;
		} else {
			specs->v = v;
			for (int i = 0; i < st.nr_ev; i++) {
				specs->v[specs->nr] = st.ev[i].spec;
				specs->v[specs->nr++].leader += base;
			}
			st.nr_ev = 0;
			ret = event_specs__split_hybrid_groups(specs, base);
			if (ret) {
				while (specs->nr > base)
					pe_spec__free(&specs->v[--specs->nr]);
			} else {
				specs->last_arg = base;
			}
		}
	}
	if (ret == -ENOMEM)
		prec_err__set(e, -ENOMEM, "out of memory parsing the events");
	err__one_line(e);
	pe_state__truncate(&st, 0);
	free(st.ev);
	pmus__exit(&st.pmus);
	return ret;
}

int parse_events(struct event_specs *specs, const char *str, struct prec_err *e)
{
	return parse_events_ctx(specs, str, &pe_live, e);
}

int parse_events__add_default(struct event_specs *specs, const struct default_event_env *env)
{
	int n = env->nr_hybrid > 0 ? env->nr_hybrid : 1;
	struct event_spec *v = realloc(specs->v, (size_t)(specs->nr + n) * sizeof(*v));
	int base = specs->nr;

	if (!v)
		return -ENOMEM;
	specs->v = v;
	for (int i = 0; i < n; i++) {
		const struct default_event_pmu *pmu = env->nr_hybrid > 0 ? &env->hybrid[i] : NULL;
		struct event_spec *spec = &specs->v[base + i];

		memset(spec, 0, sizeof(*spec));
		pe_attr__init(&spec->attr, PERF_TYPE_HARDWARE,
			   PERF_COUNT_HW_CPU_CYCLES | (pmu ? (uint64_t)pmu->type << 32 : 0));
		/* evsel__new_cycles: user only from the start when the kernel may
		 * not be profiled (exclude_hv stays 0, as perf leaves it). */
		spec->attr.exclude_kernel = !env->can_profile_kernel;
		/* arch_evsel__fixup_new_cycles: precise cycles on AMD are IBS,
		 * which cannot filter guests. The default event only. */
		if (env->amd)
			spec->attr.exclude_guest = 0;
		spec->attr.precise_ip = 3;
		spec->precise_max = true;
		spec->name_from_attr = true;
		spec->leader = base + i;
		spec->nr_members = 1;
		/* perf names it before the precise level is known, and keeps the
		 * name unless a fallback changes the event; a hybrid one gets its
		 * PMU around it before the open (record__uniquify_name). */
		if (pmu) {
			if (asprintf(&spec->name, "%s/%s/", pmu->name,
				     spec->attr.exclude_kernel ? "cycles:u" : "cycles") < 0)
				spec->name = NULL;
		} else {
			spec->name = strdup(spec->attr.exclude_kernel ? "cycles:u" : "cycles");
		}
		if (pmu) {
			spec->pmu_name = strdup(pmu->name);
			spec->cpus = strdup(pmu->cpus);
		}
		if (!spec->name || (pmu && (!spec->pmu_name || !spec->cpus))) {
			for (int j = 0; j <= i; j++)
				pe_spec__free(&specs->v[base + j]);
			return -ENOMEM;
		}
	}
	specs->nr += n;
	specs->last_arg = specs->nr; /* not an -e argument: --filter has nothing to follow */
	return 0;
}

/* --filter after an event that is not a tracepoint: perf 6.4's BPF sample
 * filter, checked here so a bad one is refused before anything runs. Sets
 * *joined to the spec's filter with this one added (perf adds a second
 * --filter's terms to the first's: ',' joins them), or says why it cannot. */
static int spec__join_bpf_filter(const struct event_spec *spec, const char *filter, char **joined,
				 struct prec_err *e)
{
	struct filter_terms *f = malloc(sizeof(*f));
	int ret;

	*joined = NULL;
	if (!f)
		return -ENOMEM;
	/* Alone first, so the offsets of a message are the user's. */
	ret = filter_terms__parse(filter, f, e);
	if (!ret && spec->filter && asprintf(joined, "%s, %s", spec->filter, filter) < 0)
		ret = -ENOMEM;
	else if (!ret && !spec->filter && !(*joined = strdup(filter)))
		ret = -ENOMEM;
	if (!ret && spec->filter)
		ret = filter_terms__parse(*joined, f, e);
	free(f);
	if (ret) {
		free(*joined);
		*joined = NULL;
		if (ret == -ENOMEM)
			return ret;
		prec_err__prefix(e, "--filter '%s' for event '%s'", filter, spec->name);
		err__one_line(e);
		return -EINVAL;
	}
	return 0;
}

int event_specs__add_filter(struct event_specs *specs, const char *filter, const char *option,
			    struct prec_err *e)
{
	bool bpf = strcmp(option, "--exclude-perf") != 0;
	char *joined;
	int ret;

	if (specs->last_arg >= specs->nr)
		return prec_err__set(e, -EINVAL,
				     "option '%s' must follow a -e %s (there is no -e before it)",
				     option, bpf ? "event" : "tracepoint");
	/* All or nothing: every event checked before any changes. */
	for (int i = specs->last_arg; i < specs->nr; i++) {
		if (specs->v[i].attr.type == PERF_TYPE_TRACEPOINT)
			continue;
		if (!bpf) {
			prec_err__set(e, -EINVAL,
				      "option '%s' must follow a -e tracepoint ('%s' is not one)",
				      option, specs->v[i].name);
			err__one_line(e);
			return -EINVAL;
		}
		ret = spec__join_bpf_filter(&specs->v[i], filter, &joined, e);
		free(joined);
		if (ret)
			return ret;
	}
	for (int i = specs->last_arg; i < specs->nr; i++) {
		struct event_spec *spec = &specs->v[i];
		bool tp = spec->attr.type == PERF_TYPE_TRACEPOINT;

		if (!tp && spec__join_bpf_filter(spec, filter, &joined, e))
			return -ENOMEM;
		if (tp && (spec->filter ? asprintf(&joined, "(%s) && (%s)", spec->filter, filter) < 0 :
					  !(joined = strdup(filter))))
			return -ENOMEM;
		free(spec->filter);
		spec->filter = joined;
		spec->filter_bpf = !tp;
	}
	return 0;
}

int event_specs__add_off_cpu(struct event_specs *specs)
{
	struct event_spec *spec;
	int ret = parse_events(specs, "bpf-output", NULL);
	char *name = strdup(OFF_CPU_EVENT);

	if (ret || !name) {
		free(name);
		return ret ? ret : -ENOMEM;
	}
	spec = &specs->v[specs->nr - 1];
	free(spec->name);
	spec->name = name;
	spec->attr.freq = 1;
	spec->attr.sample_period = 1;
	spec->attr.sample_type = PERF_SAMPLE_CALLCHAIN;
	return 0;
}

bool event_spec__is_off_cpu(const struct event_spec *spec)
{
	return spec->attr.type == PERF_TYPE_SOFTWARE &&
	       spec->attr.config == PERF_COUNT_SW_BPF_OUTPUT && spec->name &&
	       !strcmp(spec->name, OFF_CPU_EVENT);
}

void event_specs__exit(struct event_specs *specs)
{
	for (int i = 0; i < specs->nr; i++)
		pe_spec__free(&specs->v[i]);
	free(specs->v);
	specs->v = NULL;
	specs->nr = 0;
	specs->last_arg = 0;
}
