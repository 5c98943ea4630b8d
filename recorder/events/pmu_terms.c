// SPDX-License-Identifier: GPL-2.0-only
/*
 * A PMU's terms (cpu/event=0x3c,umask=1/, cpu/cpu-cycles/), applied as perf
 * 6.1's perf_pmu__check_alias and perf_pmu__config do: alias terms replaced
 * by the alias's own terms, the hard-coded terms first, then each format
 * term ORs its value into the bits its format file names; and, on a hybrid
 * core PMU, the one term that is an event of its own (cpu_core/cycles/).
 * Above parse_terms.c (lexing, the common terms), which it uses.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "events/parse_events_int.h"

/* perf's pmu_find_alias: which alias, if any, a term stands for. */
static const struct pmu_alias *term__alias(const struct pmu *pmu, const struct pe_term *term)
{
	const char *name;

	if (term->kind != PE_TERM_USER)
		return NULL;
	if (!term->str) {
		if (term->num != 1 || pmu__format(pmu, term->key))
			return NULL;
		name = term->key;
	} else {
		if (strcasecmp(term->key, "event"))
			return NULL;
		name = term->str;
	}
	return pmu__alias(pmu, name);
}

const char *pe_terms__hybrid_inner(const struct pmu *pmu, const struct pe_terms *t)
{
	if (!pmu->cpus || t->nr != 1 || t->v[0].kind != PE_TERM_USER ||
	    !strcmp(t->v[0].key, "event") || term__alias(pmu, &t->v[0]))
		return NULL;
	return t->v[0].key;
}

static int term__copy(struct pe_terms *t, const struct pe_term *src, size_t off)
{
	struct pe_term term = *src;

	term.off = off;
	term.key = strdup(src->key);
	term.str = src->str ? strdup(src->str) : NULL;
	if (!term.key || (src->str && !term.str) || pe_terms__push(t, &term)) {
		free(term.key);
		free(term.str);
		return -ENOMEM;
	}
	return 0;
}

/* Replaces each alias term by the alias's own terms, in place, as perf does (once). */
static int terms__expand(struct pe_state *st, const struct pmu *pmu, const struct pe_terms *t,
			 struct pe_terms *out)
{
	int ret = 0;

	out->v = NULL;
	out->nr = 0;
	for (int i = 0; i < t->nr && !ret; i++) {
		const struct pmu_alias *alias = term__alias(pmu, &t->v[i]);
		struct pe_terms at;
		char label[256];

		if (!alias) {
			ret = term__copy(out, &t->v[i], t->v[i].off);
			continue;
		}
		snprintf(label, sizeof(label), "'%s/%s/' ('%s')", pmu->name, alias->name,
			 alias->terms);
		ret = pe_terms__parse(st, alias->terms, strlen(alias->terms), t->v[i].off, label,
				      &at);
		for (int j = 0; j < at.nr && !ret; j++)
			ret = term__copy(out, &at.v[j], t->v[i].off);
		pe_terms__exit(&at);
	}
	if (ret)
		pe_terms__exit(out);
	return ret;
}

static uint64_t *attr__field(struct perf_event_attr *attr, enum pmu_config_field f)
{
	switch (f) {
	case PMU_CONFIG1:
		return (uint64_t *)&attr->config1;
	case PMU_CONFIG2:
		return (uint64_t *)&attr->config2;
	default:
		return (uint64_t *)&attr->config;
	}
}

int pe_terms__apply_pmu(struct pe_state *st, struct pe_event *ev, const struct pmu *pmu,
			const struct pe_terms *t)
{
	struct pe_terms x;
	char what[300];
	int ret;

	ret = terms__expand(st, pmu, t, &x);
	if (ret)
		return ret;
	snprintf(what, sizeof(what), "PMU '%s'", pmu->name);
	/* The hard-coded terms first, whatever their place (perf's config_attr). */
	ret = pe_terms__apply_common(st, ev, &x, what, false, true);
	for (int i = 0; i < x.nr && !ret; i++) {
		const struct pe_term *term = &x.v[i];
		const struct pmu_format *fmt;
		uint64_t val = term->num, max;

		if (term->kind != PE_TERM_USER)
			continue;
		fmt = pmu__format(pmu, term->key);
		if (!fmt) {
			char valid[640];
			size_t n;

			memcpy(valid, "valid terms: ", 14);
			pe_terms__valid(valid + 13, sizeof(valid) - 13 - 32, pmu, false);
			n = strlen(valid);
			if (pmu->nr_aliases)
				snprintf(valid + n, sizeof(valid) - n, "; or one of its events");
			ret = pe_error(st, term->off, valid, "unknown term '%s' for PMU '%s'",
				       term->key, pmu->name);
			break;
		}
		if (term->str && !strcmp(term->str, "?")) {
			/* An alias parameter: the user's term of that name gives it. */
			int j;

			for (j = 0; j < x.nr; j++)
				if (x.v[j].kind == PE_TERM_USER && !x.v[j].str &&
				    !strcmp(x.v[j].key, term->key))
					break;
			if (j == x.nr) {
				char hint[128];

				snprintf(hint, sizeof(hint), "add %s=VALUE to its terms",
					 term->key);
				ret = pe_error(st, term->off, hint,
					       "PMU '%s' event needs parameter '%s'", pmu->name,
					       term->key);
				break;
			}
			val = x.v[j].num;
		} else if (term->str) {
			ret = pe_error(st, term->off, NULL,
				       "term '%s' of PMU '%s' expects a number%s, not '%s'",
				       term->key, pmu->name,
				       strcasecmp(term->key, "event") ? "" :
									" or one of its events",
				       term->str);
			break;
		}
		max = pmu_format__max(fmt->bits);
		if (val > max) {
			char hint[64];

			snprintf(hint, sizeof(hint), "maximum is %llu", (unsigned long long)max);
			ret = pe_error(st, term->off, hint,
				       "value %#llx too big for term '%s' of PMU '%s'",
				       (unsigned long long)val, term->key, pmu->name);
			break;
		}
		pmu_format__apply(fmt->bits, val, attr__field(&ev->spec.attr, fmt->field));
	}
	pe_terms__exit(&x);
	return ret;
}
