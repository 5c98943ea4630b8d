// SPDX-License-Identifier: GPL-2.0-only
/*
 * The terms between an event's slashes (cpu/event=0x3c,umask=1,name=x/):
 * lexed as perf 6.1's config state lexes them (raw r3c is config=0x3c),
 * and the terms every event takes applied as its config_term_common and
 * config_term_tracepoint do. A PMU's own terms are pmu_terms.c's.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "events/parse_events_int.h"
#include "prec/number.h"

struct term_keyword {
	const char *name;
	bool is_str; /* takes a string value, else a number */
	uint32_t set; /* the EVENT_TERM_* bit it sets (0: an attr field or the name) */
};

/* perf 6.1's keywords, in the order its "valid terms" list prints them. */
static const struct term_keyword keywords[PE_TERM_MAX] = {
	[PE_TERM_CONFIG] = { "config", false, 0 },
	[PE_TERM_CONFIG1] = { "config1", false, 0 },
	[PE_TERM_CONFIG2] = { "config2", false, 0 },
	[PE_TERM_NAME] = { "name", true, 0 },
	[PE_TERM_PERIOD] = { "period", false, EVENT_TERM_PERIOD },
	[PE_TERM_FREQ] = { "freq", false, EVENT_TERM_FREQ },
	[PE_TERM_BRANCH_TYPE] = { "branch_type", true, EVENT_TERM_BRANCH_TYPE },
	[PE_TERM_TIME] = { "time", false, EVENT_TERM_TIME },
	[PE_TERM_CALLGRAPH] = { "call-graph", true, EVENT_TERM_CALLGRAPH },
	[PE_TERM_STACKSIZE] = { "stack-size", false, EVENT_TERM_STACKSIZE },
	[PE_TERM_NOINHERIT] = { "no-inherit", false, EVENT_TERM_INHERIT },
	[PE_TERM_INHERIT] = { "inherit", false, EVENT_TERM_INHERIT },
	[PE_TERM_MAX_STACK] = { "max-stack", false, EVENT_TERM_MAX_STACK },
	[PE_TERM_MAX_EVENTS] = { "nr", false, EVENT_TERM_MAX_EVENTS },
	[PE_TERM_NOOVERWRITE] = { "no-overwrite", false, EVENT_TERM_OVERWRITE },
	[PE_TERM_OVERWRITE] = { "overwrite", false, EVENT_TERM_OVERWRITE },
	[PE_TERM_PERCORE] = { "percore", false, EVENT_TERM_PERCORE },
	[PE_TERM_AUX_OUTPUT] = { "aux-output", false, EVENT_TERM_AUX_OUTPUT },
	[PE_TERM_AUX_SAMPLE_SIZE] = { "aux-sample-size", false, EVENT_TERM_AUX_SAMPLE_SIZE },
	[PE_TERM_METRIC_ID] = { "metric-id", true, EVENT_TERM_METRIC_ID },
	[PE_TERM_CPU] = { "cpu", false, EVENT_TERM_CPU }, /* perf 6.16 */
};

/* The terms config_term_tracepoint lets through. */
static bool tracepoint_term(enum pe_term_kind k)
{
	switch (k) {
	case PE_TERM_CALLGRAPH:
	case PE_TERM_STACKSIZE:
	case PE_TERM_INHERIT:
	case PE_TERM_NOINHERIT:
	case PE_TERM_MAX_STACK:
	case PE_TERM_MAX_EVENTS:
	case PE_TERM_OVERWRITE:
	case PE_TERM_NOOVERWRITE:
	case PE_TERM_AUX_OUTPUT:
	case PE_TERM_AUX_SAMPLE_SIZE:
		return true;
	default:
		return false;
	}
}

void pe_terms__valid(char *buf, size_t size, const struct pmu *pmu, bool tracepoint)
{
	size_t n = 0;

	if (!size)
		return;
	buf[0] = '\0';
	for (int i = 0; pmu && i < pmu->nr_formats && n < size; i++)
		n += (size_t)snprintf(buf + n, size - n, "%s%s", n ? "," : "",
				      pmu->formats[i].name);
	for (int k = 1; k < PE_TERM_MAX && n < size; k++) {
		if (tracepoint && !tracepoint_term((enum pe_term_kind)k))
			continue;
		n += (size_t)snprintf(buf + n, size - n, "%s%s", n ? "," : "", keywords[k].name);
	}
}

/* parse-events.l: name_minus, the term key and string value characters. */
static bool is_name_start(char c)
{
	return isalpha((unsigned char)c) || c == '_' || c == '*' || c == '?';
}

static bool is_name_char(char c)
{
	return isalnum((unsigned char)c) || c == '-' || c == '_' || c == '*' || c == '?' ||
	       c == '.' || c == ':';
}

/* name_tag: the characters of a quoted value. */
static bool is_tag_char(char c)
{
	return isalnum((unsigned char)c) || strchr("_*?-,.[]:=", c);
}

void pe_terms__exit(struct pe_terms *terms)
{
	for (int i = 0; i < terms->nr; i++) {
		free(terms->v[i].key);
		free(terms->v[i].str);
	}
	free(terms->v);
	terms->v = NULL;
	terms->nr = 0;
}

int pe_terms__push(struct pe_terms *t, struct pe_term *term)
{
	struct pe_term *v = realloc(t->v, (t->nr + 1) * sizeof(*v));

	if (!v)
		return -ENOMEM;
	t->v = v;
	t->v[t->nr++] = *term;
	return 0;
}

/* A term's number at s[*i]: decimal, or hex after "0x"; *i moves past it.
 * Returns true when it does not fit 64 bits (*n is then meaningless). */
static bool term_number(const char *s, size_t len, size_t *i, uint64_t *n)
{
	int base = 10;
	bool overflow = false;

	*n = 0;
	if (s[*i] == '0' && *i + 2 < len && s[*i + 1] == 'x' &&
	    isxdigit((unsigned char)s[*i + 2])) {
		base = 16;
		*i += 2;
	}
	for (; *i < len &&
	       (base == 16 ? isxdigit((unsigned char)s[*i]) : isdigit((unsigned char)s[*i]));
	     (*i)++) {
		unsigned d = (unsigned)hex__digit(s[*i]);

		if (*n > (UINT64_MAX - d) / (uint64_t)base)
			overflow = true;
		*n = *n * (uint64_t)base + d;
	}
	return overflow;
}

/*
 * perf's raw term (its config lexer's r{hex}, or r0x{hex}): cpu/r3c/ is
 * cpu/config=0x3c/. The lexer takes it before a name of the same length,
 * so "read" is config 0xead. Returns 1 with *v set, 0 when key is none,
 * -ERANGE past 64 bits.
 */
static int raw_term(const char *key, uint64_t *v)
{
	const char *h = key + 1;
	size_t n;

	if (key[0] != 'r')
		return 0;
	if (h[0] == '0' && h[1] == 'x' && h[2])
		h += 2;
	n = strlen(h);
	if (!n || strspn(h, "0123456789abcdefABCDEF") != n)
		return 0;
	if (n > 16)
		return -ERANGE;
	*v = 0;
	for (; *h; h++)
		*v = *v << 4 | (uint64_t)hex__digit(*h);
	return 1;
}

/*
 * What the key of term is: a keyword, a raw rNNN (config=0xNNN; perf's
 * lexer takes "r3c=" as a syntax error) or a PMU's; without a value (no
 * '=' at eq_off) a flag of value 1. 0 or -EINVAL.
 */
static int term__key(struct pe_state *st, struct pe_term *term, bool has_value, size_t eq_off,
		     const char *where, const char *alias_q)
{
	int raw;

	for (int kw = 1; kw < PE_TERM_MAX; kw++)
		if (!strcmp(term->key, keywords[kw].name))
			term->kind = (enum pe_term_kind)kw;
	raw = term->kind ? 0 : raw_term(term->key, &term->num);
	if (raw < 0)
		return pe_error(st, term->off, "rNNN is at most 16 hex digits",
				"raw term '%s' too large%s%s", term->key, where, alias_q);
	if (raw && has_value)
		return pe_error(st, eq_off, "a raw term rNNN takes no value",
				"unexpected '=' after raw term '%s'%s%s", term->key, where,
				alias_q);
	if (raw)
		term->kind = PE_TERM_CONFIG;
	else if (!has_value)
		term->num = 1;
	term->no_value = !has_value && !raw;
	return 0;
}

/* Error offsets: inside the user's text, or the alias term's own for sysfs text. */
#define TERM_OFF(i) (alias ? off : off + (i))

int pe_terms__parse(struct pe_state *st, const char *s, size_t len, size_t off, const char *alias,
		    struct pe_terms *out)
{
	const char *where = alias ? " in the sysfs terms of PMU event " : "";
	const char *alias_q = alias ? alias : "";
	size_t i = 0;
	int ret = 0;

	out->v = NULL;
	out->nr = 0;
	if (!len)
		return 0; /* pmu// */
	for (;;) {
		struct pe_term term = { 0 };
		size_t k = i;

		if (i >= len || !is_name_start(s[i])) {
			ret = pe_error(st, TERM_OFF(i),
				       "terms are NAME or NAME=VALUE separated by ','",
				       i >= len ? "missing term after ','%s%s" :
						  "expected a term name%s%s",
				       where, alias_q);
			goto fail;
		}
		while (i < len && is_name_char(s[i]))
			i++;
		term.off = TERM_OFF(k);
		term.key = strndup(s + k, i - k);
		if (!term.key)
			goto nomem;
		ret = term__key(st, &term, i < len && s[i] == '=', TERM_OFF(i), where, alias_q);
		if (ret) {
			free(term.key);
			goto fail;
		}
		if (i < len && s[i] == '=') {
			size_t v = ++i;
			bool want_str = false;

			if (i < len && s[i] == '\'') {
				size_t q = i + 1;

				while (q < len && s[q] != '\'' && is_tag_char(s[q]))
					q++;
				if (q >= len || s[q] != '\'' || q == i + 1 ||
				    !is_name_start(s[i + 1])) {
					free(term.key);
					ret = pe_error(st, TERM_OFF(v), "a quoted value is 'NAME'",
						       "bad quoted value for term '%.*s'%s%s",
						       (int)(v - 1 - k), s + k, where, alias_q);
					goto fail;
				}
				term.str = strndup(s + i + 1, q - i - 1);
				want_str = true;
				i = q + 1;
			} else if (i < len && isdigit((unsigned char)s[i])) {
				uint64_t n;

				if (term_number(s, len, &i, &n)) {
					free(term.key);
					ret = pe_error(
						st, TERM_OFF(v), "values are 64-bit numbers",
						"value '%.*s' of term '%.*s' is too large%s%s",
						(int)(i - v), s + v, (int)(v - 1 - k), s + k, where,
						alias_q);
					goto fail;
				}
				term.num = n;
				if (i < len && s[i] != ',') {
					free(term.key);
					ret = pe_error(
						st, TERM_OFF(i),
						"a value is a decimal or 0x hex number, or a name",
						"unexpected '%c' in the value of term '%.*s'%s%s",
						s[i], (int)(v - 1 - k), s + k, where, alias_q);
					goto fail;
				}
			} else if (i < len && is_name_start(s[i])) {
				size_t e = i;

				while (e < len && is_name_char(s[e]))
					e++;
				term.str = strndup(s + i, e - i);
				want_str = true;
				i = e;
			} else {
				free(term.key);
				ret = pe_error(st, TERM_OFF(i),
					       "a value is a decimal or 0x hex number, or a name",
					       "missing value for term '%.*s'%s%s",
					       (int)(v - 1 - k), s + k, where, alias_q);
				goto fail;
			}
			if (want_str && !term.str) {
				free(term.key);
				goto nomem;
			}
		}
		if (pe_terms__push(out, &term)) {
			free(term.key);
			free(term.str);
			goto nomem;
		}
		if (i == len)
			return 0;
		if (s[i] != ',') {
			ret = pe_error(st, TERM_OFF(i),
				       "terms are NAME or NAME=VALUE separated by ','",
				       "unexpected '%c' in the terms%s%s", s[i], where, alias_q);
			goto fail;
		}
		i++;
	}
nomem:
	ret = -ENOMEM;
fail:
	pe_terms__exit(out);
	return ret;
}

/* perf's parse_branch_str for one name (a term value has no commas). */
static int branch_type__parse(const char *s, uint64_t *mask)
{
	static const struct {
		const char *name;
		uint64_t bits;
	} modes[] = {
		{ "u", PERF_SAMPLE_BRANCH_USER },
		{ "k", PERF_SAMPLE_BRANCH_KERNEL },
		{ "hv", PERF_SAMPLE_BRANCH_HV },
		{ "any", PERF_SAMPLE_BRANCH_ANY },
		{ "any_call", PERF_SAMPLE_BRANCH_ANY_CALL },
		{ "any_ret", PERF_SAMPLE_BRANCH_ANY_RETURN },
		{ "ind_call", PERF_SAMPLE_BRANCH_IND_CALL },
		{ "abort_tx", PERF_SAMPLE_BRANCH_ABORT_TX },
		{ "in_tx", PERF_SAMPLE_BRANCH_IN_TX },
		{ "no_tx", PERF_SAMPLE_BRANCH_NO_TX },
		{ "cond", PERF_SAMPLE_BRANCH_COND },
		{ "ind_jmp", PERF_SAMPLE_BRANCH_IND_JUMP },
		{ "call", PERF_SAMPLE_BRANCH_CALL },
		{ "save_type", PERF_SAMPLE_BRANCH_TYPE_SAVE },
		{ "stack", PERF_SAMPLE_BRANCH_CALL_STACK },
		{ "hw_index", PERF_SAMPLE_BRANCH_HW_INDEX },
		{ "priv", PERF_SAMPLE_BRANCH_PRIV_SAVE },
	};
	const uint64_t plm = PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_KERNEL |
			     PERF_SAMPLE_BRANCH_HV;

	if (!strcmp(s, "no")) {
		*mask = 0;
		return 0;
	}
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		if (!strcasecmp(s, modes[i].name)) {
			*mask = modes[i].bits;
			/* perf: privilege levels alone mean any branch. */
			if (!(*mask & ~plm))
				*mask = PERF_SAMPLE_BRANCH_ANY;
			return 0;
		}
	}
	return -EINVAL;
}

/*
 * cpu=N: perf 6.16 takes one CPU number a term and merges repeated terms
 * (cpu=0,cpu=2); the list is kept as written ("0,2"), which the recorder's
 * CPU-list parser sorts. Whether N is online is the recorder's to say.
 */
static int cpu_term__add(struct pe_state *st, const struct pe_term *term, char **cpus,
			 const char *what)
{
	size_t len = *cpus ? strlen(*cpus) : 0;
	char *s;

	if (term->no_value)
		return pe_error(st, term->off, "give it as cpu=N",
				"term 'cpu' of %s needs a CPU number", what);
	if (term->num > EVENT_TERM_CPU_MAX)
		return pe_error(st, term->off, "CPUs are numbered 0 to 65535",
				"CPU %llu of term 'cpu' of %s is too big",
				(unsigned long long)term->num, what);
	s = realloc(*cpus, len + 8);
	if (!s)
		return -ENOMEM;
	snprintf(s + len, 8, "%s%u", len ? "," : "", (unsigned)term->num);
	*cpus = s;
	return 0;
}

static int replace_str(char **dst, const char *src)
{
	char *s = strdup(src);

	if (!s)
		return -ENOMEM;
	free(*dst);
	*dst = s;
	return 0;
}

int pe_terms__apply_common(struct pe_state *st, struct pe_event *ev, const struct pe_terms *t,
			   const char *what, bool tracepoint, bool pmu_terms_ok)
{
	struct event_spec *spec = &ev->spec;
	struct event_terms *et = &spec->terms;

	for (int i = 0; i < t->nr; i++) {
		const struct pe_term *term = &t->v[i];
		const struct term_keyword *kw = &keywords[term->kind];
		uint64_t n = term->num;
		char **str_dst;

		if (term->kind == PE_TERM_USER && pmu_terms_ok)
			continue;
		if (term->kind == PE_TERM_USER || (tracepoint && !tracepoint_term(term->kind))) {
			char valid[512];

			memcpy(valid, "valid terms: ", 14);
			pe_terms__valid(valid + 13, sizeof(valid) - 13, NULL, tracepoint);
			return pe_error(st, term->off, valid, "unknown term '%s' for %s", term->key,
					what);
		}
		if (kw->is_str && !term->str)
			return pe_error(st, term->off, "give it as TERM=NAME",
					"term '%s' of %s expects a string value", term->key, what);
		if (!kw->is_str && term->str)
			return pe_error(st, term->off, NULL,
					"term '%s' of %s expects a numeric value, not '%s'",
					term->key, what, term->str);
		/* The string terms but branch_type= keep their text. */
		str_dst = term->kind == PE_TERM_NAME	  ? &spec->name :
			  term->kind == PE_TERM_CALLGRAPH ? &et->call_graph :
			  term->kind == PE_TERM_METRIC_ID ? &et->metric_id :
							    NULL;
		if (str_dst && replace_str(str_dst, term->str))
			return -ENOMEM;
		switch (term->kind) {
		case PE_TERM_CONFIG:
			spec->attr.config = n;
			break;
		case PE_TERM_CONFIG1:
			spec->attr.config1 = n;
			break;
		case PE_TERM_CONFIG2:
			spec->attr.config2 = n;
			break;
		case PE_TERM_PERIOD:
			et->period = n;
			et->set &= ~EVENT_TERM_FREQ; /* the last of period= and freq= wins */
			break;
		case PE_TERM_FREQ:
			et->freq = n;
			et->set &= ~EVENT_TERM_PERIOD;
			break;
		case PE_TERM_BRANCH_TYPE:
			if (branch_type__parse(term->str, &et->branch_sample_type))
				return pe_error(
					st, term->off,
					"accepted: any any_call any_ret ind_call ind_jmp call cond u k hv in_tx no_tx abort_tx save_type stack hw_index priv no",
					"unknown branch_type '%s' for %s", term->str, what);
			break;
		case PE_TERM_TIME:
		case PE_TERM_PERCORE:
			if (n > 1)
				return pe_error(st, term->off, NULL,
						"term '%s' of %s expects 0 or 1, not %llu",
						term->key, what, (unsigned long long)n);
			*(term->kind == PE_TERM_TIME ? &et->time : &et->percore) = n;
			break;
		case PE_TERM_STACKSIZE:
			et->stack_size = n;
			break;
		case PE_TERM_INHERIT:
		case PE_TERM_NOINHERIT:
		case PE_TERM_OVERWRITE:
		case PE_TERM_NOOVERWRITE: {
			/* The no- spelling turns the value around (no-inherit=0 inherits). */
			bool on = (term->kind == PE_TERM_INHERIT ||
				   term->kind == PE_TERM_OVERWRITE) == (n != 0);

			*(kw->set == EVENT_TERM_INHERIT ? &et->inherit : &et->overwrite) = on;
			break;
		}
		case PE_TERM_MAX_STACK:
			et->max_stack = n;
			break;
		case PE_TERM_MAX_EVENTS:
			et->max_events = n;
			break;
		case PE_TERM_AUX_OUTPUT:
			et->aux_output = n != 0;
			break;
		case PE_TERM_AUX_SAMPLE_SIZE:
			if (n > UINT_MAX)
				return pe_error(st, term->off, "at most 4294967295",
						"aux-sample-size %llu of %s is too big",
						(unsigned long long)n, what);
			et->aux_sample_size = n;
			break;
		case PE_TERM_CPU: {
			int ret = cpu_term__add(st, term, &et->cpus, what);

			if (ret)
				return ret;
			break;
		}
		default:
			break;
		}
		et->set |= kw->set;
	}
	return 0;
}
