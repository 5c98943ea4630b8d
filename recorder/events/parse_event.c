// SPDX-License-Identifier: GPL-2.0-only
/*
 * One event of the -e grammar, as perf 6.1 tells them apart: symbolic
 * hardware/software/tool events, raw rNNN, numeric TYPE:CONFIG, cache
 * events, tracepoints (globs too), mem: breakpoints, sysfs PMU events and
 * PMU aliases; each with its terms and modifiers, and named as perf names it.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/hw_breakpoint.h>

#include "events/tracepoint.h"
#include "events/parse_events_int.h"
#include "prec/number.h"

/* perf's PE_EVENT_NAME: the text its lexer takes as an event's name. */
static size_t event_name_len(const char *s)
{
	size_t n = strcspn(s, ",{}/");

	if (n && s[n] == '/') {
		const char *q = s + n + 1;
		size_t m = strcspn(q, "/");

		if (q[m] == '/')
			return (size_t)(q + m + 1 - s) + strcspn(q + m + 1, ",{}/");
	}
	return n;
}

/* A decimal or 0x hex number at s (PE_VALUE). Returns its length, 0 when none. */
static size_t parse_value(const char *s, uint64_t *v, bool *overflow)
{
	int base = (s[0] == '0' && s[1] == 'x' && isxdigit((unsigned char)s[2])) ? 16 : 10;
	size_t i = base == 16 ? 2 : 0;
	uint64_t n = 0;

	*overflow = false;
	if (!isdigit((unsigned char)s[0]))
		return 0;
	for (; base == 16 ? isxdigit((unsigned char)s[i]) : isdigit((unsigned char)s[i]); i++) {
		unsigned d = (unsigned)hex__digit(s[i]);

		if (n > (UINT64_MAX - d) / (uint64_t)base)
			*overflow = true;
		n = n * (uint64_t)base + d;
	}
	*v = n;
	return i;
}

/* The length of text [from, to) for '%.*s', kept short for a one-line error. */
#define SPAN(from, to) ((int)((to) - (from) > 100 ? 100 : (to) - (from)))

/* How modifiers may follow an event's body. */
enum mods_style {
	MODS_COLON, /* [':' MODS]: raw, cache, numeric, tracepoint, plain symbols and aliases */
	MODS_DIRECT, /* MODS right after the closing '/' (pmu/terms/u, cycles//u), as perf */
};

/* Parses "/TERMS/" at s[*q] (the opening '/'), leaving *q after the closing one. */
static int parse_slash_terms(struct pe_state *st, size_t *q, const char *what, struct pe_terms *t)
{
	const char *s = st->str + *q + 1;
	const char *close = strchr(s, '/');
	int ret;

	if (!close)
		return pe_error(st, *q, "terms go between two slashes: NAME/TERM,TERM=VALUE/",
				"missing closing '/' after the terms of %s", what);
	ret = pe_terms__parse(st, s, (size_t)(close - s), *q + 1, NULL, t);
	if (!ret)
		*q = (size_t)(close - st->str) + 1;
	return ret;
}

/*
 * perf 6.1's parse_events__with_hybrid_pmu: the text of cpu_core/TEXT/ as
 * an event string of its own, for that core PMU alone (cpu_core/cycles:u/
 * is cycles:u on cpu_core; cpu_core/cpu-clock/ is plain cpu-clock). Its
 * events are named from TEXT. Returns 0 (added), 1 when TEXT is no event
 * (it is then a term like any other, and its error the one to show), or
 * -ENOMEM.
 */
static int parse_inside_hybrid(struct pe_state *st, const struct pmu *pmu, const char *text)
{
	struct pe_state in = *st; /* the PMUs and tracefs, looked up already or not */
	struct pe_event *v;
	size_t p = 0;
	int ret;

	in.str = text;
	in.e = NULL; /* only whether it parses */
	in.ev = NULL;
	in.nr_ev = 0;
	in.hybrid_only = pmu->name;
	ret = parse_event(&in, &p, false);
	if (!ret && (text[p] || !in.nr_ev))
		ret = -EINVAL;
	v = ret ? NULL : realloc(st->ev, (size_t)(st->nr_ev + in.nr_ev) * sizeof(*v));
	if (!ret && !v)
		ret = -ENOMEM;
	if (ret) {
		pe_state__truncate(&in, 0);
		free(in.ev);
		return ret == -ENOMEM ? ret : 1;
	}
	st->ev = v;
	for (int i = 0; i < in.nr_ev; i++) {
		in.ev[i].spec.leader += st->nr_ev;
		st->ev[st->nr_ev++] = in.ev[i];
	}
	free(in.ev);
	return 0;
}

/* Creates one event of a PMU from its terms; on failure nothing is added. */
static int add_pmu_event(struct pe_state *st, const struct pmu *pmu, const struct pe_terms *t)
{
	const char *inner = pe_terms__hybrid_inner(pmu, t);
	int first = st->nr_ev;
	struct pe_event *ev;
	int ret;

	if (inner && (ret = parse_inside_hybrid(st, pmu, inner)) <= 0)
		return ret;
	ev = pe_event__new(st, pmu->type, 0);
	if (!ev)
		return -ENOMEM;
	ev->spec.pmu_name = strdup(pmu->name);
	ev->spec.counting_only = pmu->counting_only;
	/* A hybrid core PMU's events count on its CPUs only. */
	if (pmu->cpus)
		ev->spec.cpus = strdup(pmu->cpus);
	ret = ev->spec.pmu_name && (!pmu->cpus || ev->spec.cpus) ?
		      pe_terms__apply_pmu(st, &st->ev[first], pmu, t) :
		      -ENOMEM;
	if (ret)
		pe_state__truncate(st, first);
	return ret;
}

/*
 * An alias of any PMU (perf's parse_events_multi_pmu_add): one event per
 * PMU that has it, the alias term first, then the user's. Returns 1 when no
 * PMU has the alias.
 */
static int add_alias_events(struct pe_state *st, const char *word, size_t wlen, size_t off,
			    const struct pe_terms *user)
{
	const struct pmus *pmus = pe_state__pmus(st);
	struct pe_terms t = { 0 };
	struct pe_term alias = { .kind = PE_TERM_USER, .num = 1, .no_value = true, .off = off };
	int found = 0, ret = 0;

	if (st->pmus_err == -ENOMEM)
		return -ENOMEM;
	alias.key = strndup(word, wlen);
	if (!alias.key)
		return -ENOMEM;
	for (int i = 0; pmus && i < pmus->nr && !ret; i++) {
		const struct pmu *pmu = &pmus->v[i];

		if (!pmu__alias(pmu, alias.key))
			continue;
		if (!t.v) {
			t.v = calloc((size_t)user->nr + 1, sizeof(*t.v));
			if (!t.v) {
				ret = -ENOMEM;
				break;
			}
			t.v[0] = alias;
			if (user->nr)
				memcpy(t.v + 1, user->v, (size_t)user->nr * sizeof(*t.v));
			t.nr = user->nr + 1;
		}
		found++;
		ret = add_pmu_event(st, pmu, &t);
		if (!ret)
			st->ev[st->nr_ev - 1].uncore_alias = pmu->is_uncore;
	}
	free(t.v); /* the terms themselves belong to alias and user */
	free(alias.key);
	return ret ? ret : found ? 0 : 1;
}

/* pmu/terms/: the PMU by name, else every PMU the shorthand names (imc -> uncore_imc_N). */
static int add_pmu_events(struct pe_state *st, const char *name, size_t off,
			  const struct pe_terms *t)
{
	const struct pmus *pmus = pe_state__pmus(st);
	const struct pmu *pmu = pmus ? pmus__find(pmus, name) : NULL;
	char list[256];
	size_t n = 0;
	int ok = 0, ret = 0;

	if (st->pmus_err == -ENOMEM)
		return -ENOMEM;
	if (pmu)
		return add_pmu_event(st, pmu, t);
	for (int i = 0; pmus && i < pmus->nr; i++) {
		if (!pmu__name_matches(pmus->v[i].name, name))
			continue;
		ret = add_pmu_event(st, &pmus->v[i], t);
		if (ret == -ENOMEM)
			return ret;
		ok += !ret;
	}
	if (ok)
		return 0;
	if (ret)
		return ret;
	list[0] = '\0';
	for (int i = 0; pmus && i < pmus->nr && n < sizeof(list); i++)
		n += (size_t)snprintf(list + n, sizeof(list) - n, "%s%s", i ? ", " : "",
				      pmus->v[i].name);
	{
		char hint[400];

		if (pmus && pmus->nr)
			snprintf(hint, sizeof(hint),
				 "PMUs here: %s; 'prec --list-events' lists their events", list);
		else
			snprintf(hint, sizeof(hint),
				 "no PMU is listed: is sysfs mounted? 'mount -t sysfs sysfs /sys'");
		return pe_error(st, off, hint, "unknown PMU '%s'", name);
	}
}

struct tp_add {
	struct pe_state *st;
	int ret;
};

static int tp_add(void *arg, const char *sys, const char *name, uint64_t id)
{
	struct tp_add *ta = arg;
	struct pe_event *ev = pe_event__new(ta->st, PERF_TYPE_TRACEPOINT, id);

	if (!ev || asprintf(&ev->spec.name, "%s:%s", sys, name) < 0) {
		if (ev)
			ev->spec.name = NULL;
		return ta->ret = -ENOMEM;
	}
	/* perf's evsel__newtp: one sample per hit, with the raw record. */
	ev->spec.attr.sample_period = 1;
	ev->spec.attr.sample_type = PERF_SAMPLE_RAW | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
				    PERF_SAMPLE_PERIOD;
	return 0;
}

/* Whether tracefs has no events/ at all: something else is mounted over it
 * (or nothing is, where /proc/mounts still names it). */
static bool tracefs_empty(const char *tracefs)
{
	char path[PATH_MAX];
	struct stat st;

	snprintf(path, sizeof(path), "%s/events", tracefs);
	return stat(path, &st) && errno == ENOENT;
}

static int add_tracepoints(struct pe_state *st, const char *sys, const char *name, size_t off)
{
	const char *tracefs = pe_state__tracefs(st);
	struct tp_add ta = { st, 0 };
	char hint[PATH_MAX + 128];
	uint64_t id;
	int ret;

	if (!tracefs)
		/* As root prec mounts it itself (tracefs__find): only a user sees this. */
		return pe_error(st, off,
				"mount it with 'sudo mount -t tracefs nodev /sys/kernel/tracing'",
				"no tracefs for tracepoint '%s:%s'", sys, name);
	if (tracepoint__is_glob(sys) || tracepoint__is_glob(name)) {
		ret = tracepoints__for_each(tracefs, sys, name, false, tp_add, &ta);
		if (ret < 0 && (ta.ret || ret == -ENOMEM))
			return ta.ret ? ta.ret : ret;
		if (ret < 0)
			return pe_error(st, off, LIST_HINT, "cannot read %s/events for '%s:%s': %s",
					tracefs, sys, name, strerror(-ret));
		if (ret == 0)
			return pe_error(st, off, LIST_HINT, "no tracepoint matches '%s:%s'", sys,
					name);
		return 0;
	}
	ret = tracepoint__id(tracefs, sys, name, &id);
	if (ret == -EINVAL) {
		snprintf(hint, sizeof(hint), "%s/events/%s/%s/id is not a number", tracefs, sys,
			 name);
		return pe_error(st, off, hint, "tracepoint '%s:%s' has no usable id", sys, name);
	}
	if (ret == -EACCES || ret == -EPERM) {
		/* perf's 'mode=755' alone is not enough: the id files are 0440
		 * root:root; the gid option gives them to the user's group. */
		snprintf(hint, sizeof(hint),
			 "let your group read it with 'sudo mount -o remount,gid=%u,mode=750 %s'",
			 (unsigned)getegid(), tracefs);
		return pe_error(st, off, hint, "no permission to read tracepoint '%s:%s' in %s",
				sys, name, tracefs);
	}
	if (ret && tracefs_empty(tracefs)) {
		snprintf(
			hint, sizeof(hint),
			"%s has no events/, so tracefs is not mounted there: mount it with 'mount -t tracefs nodev %s'",
			tracefs, tracefs);
		return pe_error(st, off, hint, "unknown tracepoint '%s:%s'", sys, name);
	}
	if (ret) {
		snprintf(hint, sizeof(hint), "no %s/events/%s/%s; " LIST_HINT, tracefs, sys, name);
		return pe_error(st, off, hint, "unknown tracepoint '%s:%s'", sys, name);
	}
	return tp_add(&ta, sys, name, id);
}

/* mem:ADDR[/LEN][:rwx]: perf's parse_events_add_breakpoint. *q is after "mem:". */
static int parse_breakpoint(struct pe_state *st, size_t *q, size_t off, bool in_group)
{
	const char *s = st->str;
	uint64_t addr, len = 0;
	unsigned type = 0;
	bool overflow;
	size_t n = parse_value(s + *q, &addr, &overflow);
	struct pe_event *ev;

	if (!n || overflow)
		return pe_error(st, *q, "mem:ADDR[/LEN][:rwx], ADDR decimal or 0x hex",
				overflow ? "breakpoint address too large" :
					   "missing breakpoint address after 'mem:'");
	*q += n;
	if (s[*q] == '/') {
		n = parse_value(s + *q + 1, &len, &overflow);
		if (!n || overflow)
			return pe_error(st, *q + 1, "mem:ADDR/LEN, LEN 1, 2, 4 or 8",
					"bad breakpoint length");
		*q += 1 + n;
	}
	if (s[*q] == ':' && s[*q + 1] && strchr("rwx", s[*q + 1])) {
		size_t t = *q + 1;

		for (; s[t] && strchr("rwx", s[t]); t++) {
			unsigned bit = s[t] == 'r' ? HW_BREAKPOINT_R :
				       s[t] == 'w' ? HW_BREAKPOINT_W :
						     HW_BREAKPOINT_X;

			if (type & bit)
				return pe_error(st, t, "r, w, x, each once",
						"breakpoint access '%c' repeated", s[t]);
			type |= bit;
		}
		*q = t;
	}
	if (!is_delim(s[*q], in_group) && s[*q] != ':')
		return pe_error(st, *q, "mem:ADDR[/LEN][:rwx][:MODIFIERS]",
				"unexpected '%c' in breakpoint '%.*s'", s[*q],
				(int)(*q - off + strcspn(s + *q, ",}")), s + off);
	if (!type)
		type = HW_BREAKPOINT_R | HW_BREAKPOINT_W;
	if (!len)
		len = type == HW_BREAKPOINT_X ? sizeof(long) : HW_BREAKPOINT_LEN_4;
	ev = pe_event__new(st, PERF_TYPE_BREAKPOINT, 0);
	if (!ev)
		return -ENOMEM;
	ev->spec.attr.bp_type = type;
	ev->spec.attr.bp_addr = addr;
	ev->spec.attr.bp_len = len;
	ev->spec.attr.sample_period = 1;
	return 0;
}

/* The error for an event with no name: at a '}', a delimiter or a '{'. */
static int empty_event_error(struct pe_state *st, const char *s, size_t off, bool in_group)
{
	if (s[0] == '}' && !in_group)
		return pe_error(st, off, "a '}' closes a group opened with '{'", "unbalanced '}'");
	if (is_delim(s[0], in_group))
		return pe_error(st, off, "give an event name, e.g. cpu-clock", "empty event");
	if (s[0] == '{')
		return pe_error(st, off, "a group holds events, not groups",
				"nested groups are not supported");
	return pe_error(st, off, LIST_HINT, "missing event name before '%c'", s[0]);
}

/* perf's parse_events_add_numeric: a symbol, TYPE:CONFIG or rNNN, on every
 * core PMU of a hybrid machine. 0 or -ENOMEM. */
static int add_numeric(struct pe_state *st, uint32_t type, uint64_t config, size_t off, size_t len)
{
	int ret = pe_hybrid__add(st, type, config, false, off, len);

	if (ret <= 0)
		return ret;
	return pe_event__new(st, type, config) ? 0 : -ENOMEM;
}

/* rNNN (s is "r" and up to 16 hex digits, wlen long). 0 or -errno (its line in st->e). */
static int parse_raw(struct pe_state *st, const char *s, size_t wlen, size_t off,
		     const char *what)
{
	uint64_t raw = 0;

	for (size_t i = 1; i < wlen; i++) {
		if (raw >> 60)
			return pe_error(st, off, "rNNN is at most 16 hex digits",
					"raw event %s too large", what);
		raw = raw << 4 | (uint64_t)hex__digit(s[i]);
	}
	return add_numeric(st, PERF_TYPE_RAW, raw, off, wlen);
}

/* sys:name at s (word is sys, wlen long), either may be a glob; *q moves
 * past name. what gets the tracepoint's description. 0 or -errno. */
static int parse_sys_name(struct pe_state *st, const char *s, size_t wlen, const char *word,
			  size_t off, size_t *q, char *what, size_t what_len)
{
	size_t elen = strcspn(s + wlen + 1, ",/:{}");
	char *ename = strndup(s + wlen + 1, elen);
	int ret;

	if (!ename)
		return -ENOMEM;
	snprintf(what, what_len, "tracepoint '%s:%s'", word, ename);
	ret = add_tracepoints(st, word, ename, off);
	free(ename);
	if (ret == -EINVAL && !tracepoint__is_glob(word) && !pe_state__pmus(st) &&
	    st->pmus_err == -ENOMEM)
		ret = -ENOMEM;
	if (ret == -EINVAL && !tracepoint__is_glob(word) && pe_state__pmus(st)) {
		/* alias:junk is a bad modifier of the alias, as perf's parser has it */
		for (int i = 0; i < st->pmus.nr; i++)
			if (pmu__alias(&st->pmus.v[i], word)) {
				ret = pe_mods__check(st, s + wlen + 1, elen, *q + 1, off);
				break;
			}
	}
	*q += 1 + elen;
	return ret;
}

/* After an event and its terms: its modifiers (":u", or "/u" directly after
 * a '/'), then the delimiter that must follow. *q moves past them. 0 or
 * -errno (its line in st->e). */
static int parse_event_tail(struct pe_state *st, size_t *q, int first, size_t off,
			    bool in_group, enum mods_style style)
{
	int ret = 0;

	if (style == MODS_COLON && st->str[*q] == ':') {
		(*q)++;
		ret = parse_mods(st, q, first, off, in_group, false);
	} else if ((style == MODS_DIRECT || st->str[*q - 1] == '/') &&
		   !is_delim(st->str[*q], in_group)) {
		/* perf's optional sep_dc: r1a8/period=1/u as well as r1a8/period=1/:u */
		if (st->str[*q] == ':')
			ret = pe_error(
				st, *q,
				"modifiers follow the closing '/' directly, e.g. pmu/event/u",
				"unexpected ':' after '%.*s'", SPAN(off, *q), st->str + off);
		else
			ret = parse_mods(st, q, first, off, in_group, false);
	}
	if (ret || is_delim(st->str[*q], in_group))
		return ret;
	if (st->str[*q] == '}')
		return pe_error(st, *q, "a '}' closes a group opened with '{'",
				"unbalanced '}' after '%.*s'", SPAN(off, *q), st->str + off);
	return pe_error(st, *q,
			in_group ? "events are separated by ',', a group ends with '}'" :
				   "events are separated by ','",
			"unexpected '%c' after '%.*s'", st->str[*q], SPAN(off, *q), st->str + off);
}

/*
 * One event (or the several a glob or a multi-PMU alias makes) at *p,
 * with its modifiers; leaves *p at the delimiter after it.
 */
int parse_event(struct pe_state *st, size_t *p, bool in_group)
{
	const char *s = st->str + *p;
	size_t off = *p, wlen = strcspn(s, ",/:{}"), q = off + wlen;
	size_t name_len = event_name_len(s);
	enum mods_style style = MODS_COLON;
	struct pe_terms terms = { 0 };
	bool has_terms = false, tracepoint = false;
	const struct pe_symbol *sym;
	int first = st->nr_ev, ret = 0;
	char what[160], *word = strndup(s, wlen);
	uint64_t v1, v2;
	bool of, of2;

	if (!word)
		return -ENOMEM;
	snprintf(what, sizeof(what), "'%.*s'", (int)(wlen > 100 ? 100 : wlen), s);
	if (!wlen) {
		ret = empty_event_error(st, s, off, in_group);
		goto out;
	}
	if (!strcmp(word, "mem") && s[wlen] == ':') {
		q++;
		ret = parse_breakpoint(st, &q, off, in_group);
		goto mods;
	}
	if (s[wlen] == ':' && parse_value(s, &v1, &of) == wlen && strcspn(s + wlen + 1, ",/:{}") &&
	    parse_value(s + wlen + 1, &v2, &of2) == strcspn(s + wlen + 1, ",/:{}")) {
		/* TYPE:CONFIG (perf's event_legacy_numeric) */
		if (v1 > UINT32_MAX || of || of2) {
			ret = pe_error(st, off, "TYPE:CONFIG, a 32-bit type and a 64-bit config",
				       "numeric event '%.*s' too large",
				       (int)(wlen + 1 + strcspn(s + wlen + 1, ",/:{}")), s);
			goto out;
		}
		q += 1 + strcspn(s + wlen + 1, ",/:{}");
		ret = add_numeric(st, (uint32_t)v1, v2, off, q - off);
	} else if ((sym = pe_symbol__find(s, wlen)) || pe_tool__is(s, wlen)) {
		if (sym)
			ret = add_numeric(st, sym->type, sym->config, off, wlen);
		else
			ret = pe_event__new(st, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY) ? 0 :
											   -ENOMEM;
		if (!ret && sym && sym->config == PERF_COUNT_SW_BPF_OUTPUT &&
		    sym->type == PERF_TYPE_SOFTWARE) {
			/* perf's evsel__new_idx gives bpf-output these. */
			st->ev[first].spec.attr.sample_period = 1;
			st->ev[first].spec.attr.sample_type = PERF_SAMPLE_RAW | PERF_SAMPLE_TIME |
							      PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD;
		}
		if (s[wlen] == '/')
			style = MODS_DIRECT;
	} else if (wlen > 1 && s[0] == 'r' && strspn(s + 1, "0123456789abcdefABCDEF") == wlen - 1 &&
		   strcmp(word, "read")) {
		/* rNNN; "read" lexes as a cache operation in perf, never as raw 0xead */
		ret = parse_raw(st, s, wlen, off, what);
	} else if ((ret = hw_cache__parse(st, s, wlen, off, &v1)) != 0) {
		if (ret < 0)
			goto out;
		ret = pe_hybrid__add(st, PERF_TYPE_HW_CACHE, v1, true, off, wlen);
		if (ret == 1)
			ret = pe_event__new(st, PERF_TYPE_HW_CACHE, v1) ? 0 : -ENOMEM;
		for (int i = first; !ret && i < st->nr_ev; i++)
			if (!(st->ev[i].spec.name = strdup(word)))
				ret = -ENOMEM;
	} else if (s[wlen] == ':' && strcspn(s + wlen + 1, ",/:{}") &&
		   !pe_mods__all_letters(s + wlen + 1, strcspn(s + wlen + 1, ",/:{}"))) {
		/* sys:name, either may be a glob */
		ret = parse_sys_name(st, s, wlen, word, off, &q, what, sizeof(what));
		tracepoint = true;
	} else if (s[wlen] == '/') {
		style = MODS_DIRECT;
		ret = parse_slash_terms(st, &q, what, &terms);
		if (!ret)
			ret = add_alias_events(st, s, wlen, off, &terms);
		if (ret == 1)
			ret = add_pmu_events(st, word, off, &terms);
		has_terms = false; /* the PMU took them */
		goto after_terms;
	} else {
		ret = add_alias_events(st, s, wlen, off, &terms);
		if (ret == 1)
			ret = pe_error(st, off, LIST_HINT, "unknown event %s", what);
	}
	if (ret)
		goto out;
	if (st->str[q] == '/') {
		if (first < st->nr_ev && pe_tool__is(s, wlen)) {
			ret = pe_error(st, q, "tool events take modifiers only",
				       "%s takes no terms", what);
			goto out;
		}
		ret = parse_slash_terms(st, &q, what, &terms);
		has_terms = true;
	}
after_terms:
	for (int i = first; !ret && has_terms && i < st->nr_ev; i++)
		ret = pe_terms__apply_common(st, &st->ev[i], &terms, what, tracepoint, false);
mods:
	if (!ret)
		ret = parse_event_tail(st, &q, first, off, in_group, style);
	if (ret)
		goto out;
	for (int i = first; i < st->nr_ev; i++)
		if (!st->ev[i].spec.name && !(st->ev[i].spec.name = strndup(s, name_len)))
			ret = -ENOMEM;
	*p = q;
out:
	pe_terms__exit(&terms);
	free(word);
	return ret;
}
