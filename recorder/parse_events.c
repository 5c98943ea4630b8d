// SPDX-License-Identifier: GPL-2.0-only
/*
 * -e grammar, the symbolic part: a comma list of name[:modifiers]. The
 * modifier rules mirror perf's so the attrs (and the names perf derives from
 * them) come out the same for the same string.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prec/parse_events.h"

struct symbol {
	const char *name;
	const char *alias; /* NULL when none */
	const char *perf_name; /* the name perf derives from the attr, when not name */
	uint32_t type;
	uint64_t config;
};

static const struct symbol symbols[] = {
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
};

#define NR_SYMBOLS (sizeof(symbols) / sizeof(symbols[0]))

static const struct symbol *symbol__find(const char *name, size_t len)
{
	for (size_t i = 0; i < NR_SYMBOLS; i++) {
		const struct symbol *s = &symbols[i];

		if (strlen(s->name) == len && !strncmp(s->name, name, len))
			return s;
		if (s->alias && strlen(s->alias) == len && !strncmp(s->alias, name, len))
			return s;
	}
	return NULL;
}

const char *event_name__symbol(uint32_t type, uint64_t config)
{
	for (size_t i = 0; i < NR_SYMBOLS; i++) {
		if (symbols[i].type == type && symbols[i].config == config)
			return symbols[i].perf_name ? symbols[i].perf_name : symbols[i].name;
	}
	return NULL;
}

void parse_events__print_known(void *stream)
{
	FILE *f = stream;

	for (size_t i = 0; i < NR_SYMBOLS; i++) {
		const struct symbol *s = &symbols[i];

		fprintf(f, "  %s%s%s%s\n", s->name, s->alias ? " OR " : "", s->alias ? s->alias : "",
			s->type == PERF_TYPE_HARDWARE ? "  [Hardware event]" : "  [Software event]");
	}
}

/*
 * perf's modifier rules: the first of u/k/h excludes the other two levels,
 * each letter then re-includes its own; likewise G/H for guest and host; 'u'
 * and 'p' imply exclude_guest unless G/H was given; with no modifier at all
 * the event keeps perf's default exclude_guest=1.
 */
static int apply_modifiers(struct event_spec *spec, const char *mods, size_t len, char *err,
			   size_t errlen)
{
	struct perf_event_attr *attr = &spec->attr;
	int eu = 0, ek = 0, eh = 0, eH = 0, eG = 0, eI = 0;
	int exclude = 0, exclude_GH = 0, precise = 0;
	int pinned = 0, exclusive = 0;
	bool seen[128] = { false };

	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)mods[i];

		/* perf: every modifier but 'p' may be given once. */
		if (c < 128 && c != 'p' && seen[c]) {
			snprintf(err, errlen, "modifier '%c' repeated in '%s' (give each once)",
				 c, spec->name);
			return -EINVAL;
		}
		if (c < 128)
			seen[c] = true;
		switch (mods[i]) {
		case 'u':
			if (!exclude)
				exclude = eu = ek = eh = 1;
			if (!exclude_GH)
				eG = 1;
			eu = 0;
			break;
		case 'k':
			if (!exclude)
				exclude = eu = ek = eh = 1;
			ek = 0;
			break;
		case 'h':
			if (!exclude)
				exclude = eu = ek = eh = 1;
			eh = 0;
			break;
		case 'G':
			if (!exclude_GH)
				exclude_GH = eG = eH = 1;
			eG = 0;
			break;
		case 'H':
			if (!exclude_GH)
				exclude_GH = eG = eH = 1;
			eH = 0;
			break;
		case 'I':
			eI = 1;
			break;
		case 'p':
			precise++;
			if (!exclude_GH)
				eG = 1;
			break;
		case 'P':
			spec->precise_max = true;
			break;
		case 'D':
			pinned = 1;
			break;
		case 'e':
			exclusive = 1;
			break;
		case 'S':
		case 'W':
			snprintf(err, errlen,
				 "modifier '%c' in '%s' is not supported yet (it needs event groups)",
				 mods[i], spec->name);
			return -EINVAL;
		default:
			snprintf(err, errlen,
				 "unknown modifier '%c' in '%s' (accepted: u k h G H I p pp ppp P D e)",
				 mods[i], spec->name);
			return -EINVAL;
		}
	}
	if (precise > 3) {
		snprintf(err, errlen, "too many 'p' modifiers in '%s' (at most ppp)", spec->name);
		return -EINVAL;
	}
	attr->exclude_user = eu;
	attr->exclude_kernel = ek;
	attr->exclude_hv = eh;
	attr->exclude_host = eH;
	attr->exclude_guest = eG;
	attr->exclude_idle = eI;
	attr->precise_ip = precise;
	attr->pinned = pinned;
	attr->exclusive = exclusive;
	return 0;
}

static int specs__append(struct event_specs *specs, struct event_spec *spec)
{
	struct event_spec *v = realloc(specs->v, (specs->nr + 1) * sizeof(*v));

	if (!v)
		return -ENOMEM;
	specs->v = v;
	specs->v[specs->nr++] = *spec;
	return 0;
}

static void attr__init(struct perf_event_attr *attr, uint32_t type, uint64_t config)
{
	memset(attr, 0, sizeof(*attr));
	attr->type = type;
	attr->config = config;
	attr->size = sizeof(*attr);
	attr->exclude_guest = 1; /* perf's default: the host only */
}

static int parse_one(struct event_specs *specs, const char *tok, size_t len, char *err,
		     size_t errlen)
{
	const char *colon = memchr(tok, ':', len);
	size_t name_len = colon ? (size_t)(colon - tok) : len;
	const struct symbol *sym;
	struct event_spec spec = { 0 };
	int ret;

	if (len == 0) {
		snprintf(err, errlen, "empty event name in the -e list");
		return -EINVAL;
	}
	spec.name = strndup(tok, len);
	if (!spec.name)
		return -ENOMEM;
	sym = symbol__find(tok, name_len);
	if (!sym) {
		snprintf(err, errlen,
			 "unknown event '%.*s' (see 'prec --help' for the events this version accepts)",
			 (int)name_len, tok);
		ret = -EINVAL;
		goto out_free;
	}
	attr__init(&spec.attr, sym->type, sym->config);
	if (colon) {
		ret = apply_modifiers(&spec, colon + 1, len - name_len - 1, err, errlen);
		if (ret)
			goto out_free;
		if (colon + 1 == tok + len) {
			snprintf(err, errlen, "missing modifier after ':' in '%s'", spec.name);
			ret = -EINVAL;
			goto out_free;
		}
	}
	ret = specs__append(specs, &spec);
	if (ret)
		goto out_free;
	return 0;
out_free:
	free(spec.name);
	return ret;
}

int parse_events(struct event_specs *specs, const char *str, char *err, size_t errlen)
{
	const char *p = str;
	int nr_before = specs->nr;

	if (*str == '\0') {
		snprintf(err, errlen, "empty -e argument (give an event name, e.g. -e cpu-clock)");
		return -EINVAL;
	}
	for (;;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		int ret;

		if (memchr(p, '{', len) || memchr(p, '}', len) || memchr(p, '/', len)) {
			snprintf(err, errlen,
				 "'%.*s': event groups and PMU terms are not supported yet",
				 (int)len, p);
			ret = -EINVAL;
		} else {
			ret = parse_one(specs, p, len, err, errlen);
		}
		if (ret) {
			/* One line, whatever control characters the argument held. */
			for (char *c = err; *c; c++)
				if ((unsigned char)*c < 0x20 || *c == 0x7f)
					*c = '?';
			/* All or nothing: drop what this argument added. */
			while (specs->nr > nr_before)
				free(specs->v[--specs->nr].name);
			return ret;
		}
		if (!comma)
			return 0;
		p = comma + 1;
	}
}

int parse_events__add_default(struct event_specs *specs)
{
	struct event_spec spec = { 0 };
	int ret;

	/* perf 6.1: cycles at the highest precise level the PMU takes, host only. */
	spec.name = strdup("cycles");
	if (!spec.name)
		return -ENOMEM;
	attr__init(&spec.attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);
	spec.attr.precise_ip = 3;
	spec.precise_max = true;
	spec.name_from_attr = true;
	ret = specs__append(specs, &spec);
	if (ret)
		free(spec.name);
	return ret;
}

void event_specs__exit(struct event_specs *specs)
{
	for (int i = 0; i < specs->nr; i++)
		free(specs->v[i].name);
	free(specs->v);
	specs->v = NULL;
	specs->nr = 0;
}

int event_name__from_attr(char *buf, size_t size, const char *base,
			  const struct perf_event_attr *attr)
{
	char mods[16];
	int n = 0;
	int guest_default = 0;

	/* Same letters and order as perf's evsel__add_modifiers(). */
	if (attr->exclude_kernel || attr->exclude_user || attr->exclude_hv) {
		if (!attr->exclude_kernel)
			mods[n++] = 'k';
		if (!attr->exclude_user)
			mods[n++] = 'u';
		if (!attr->exclude_hv)
			mods[n++] = 'h';
		guest_default = 1;
	}
	for (unsigned i = 0; i < attr->precise_ip && i < 3; i++)
		mods[n++] = 'p';
	if (attr->precise_ip)
		guest_default = 1;
	if (attr->exclude_host || (int)attr->exclude_guest == guest_default) {
		if (!attr->exclude_host)
			mods[n++] = 'H';
		if (!attr->exclude_guest)
			mods[n++] = 'G';
	}
	mods[n] = '\0';
	return snprintf(buf, size, "%s%s%s", base, n ? ":" : "", mods);
}
