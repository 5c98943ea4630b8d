// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf's configuration as a set of settings, and what perf record 6.1 takes
 * from it (perfconfig.h). Pure: the files are read by perfconfig_load.c.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options/callchain.h"
#include "options/options.h"
#include "options/options_output.h"
#include "options/perfconfig.h"
#include "options/perfconfig_parse.h"
#include "prec/grow.h"

void perfconfig__init(struct perfconfig *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->aio = -1;
	cfg->debuginfod = -1;
}

void perfconfig__exit(struct perfconfig *cfg)
{
	for (size_t i = 0; i < cfg->nr_items; i++) {
		free(cfg->items[i].var);
		free(cfg->items[i].value);
	}
	free(cfg->items);
	free(cfg->index);
	for (int i = 0; i < cfg->nr_files; i++)
		free(cfg->files[i]);
	perfconfig__init(cfg);
}

/* ---- the set: perf's collect_config ---- */

struct collect {
	struct perfconfig *cfg;
	int file;
};

/* The keys perf record reads (perfconfig__resolve): the only ones the
 * passes visit. */
static bool key_read(const char *var)
{
	static const char *const keys[] = {
		"buildid.dir",		 "call-graph.dump-size", "call-graph.record-mode",
		"core.proc-map-timeout", "record.aio",		 "record.build-id",
		"record.call-graph",	 "record.debuginfod",	 "prec.names-cache-max",
	};

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!strcmp(var, keys[i]))
			return true;
	return false;
}

/* The set holds any number of names, as perf's: an index by name hash
 * (open addressing; item number + 1, 0 empty) finds one at once, so a
 * file of 100,000 keys is read in its length's time. */
static size_t name_hash(const char *s)
{
	uint64_t h = 14695981039346656037ULL; /* FNV-1a */

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return (size_t)h;
}

static size_t *index_slot(size_t *index, size_t cap, const struct perfconfig_item *items,
			  const char *var)
{
	size_t i = name_hash(var) & (cap - 1);

	while (index[i] && strcmp(items[index[i] - 1].var, var))
		i = (i + 1) & (cap - 1);
	return &index[i];
}

/* Room in the index and the items for one more name. */
static int set__reserve(struct perfconfig *cfg)
{
	/* perf reads a file of any size: memory is the bound. */
	if (grow__array(&cfg->items, &cfg->items_cap, cfg->nr_items + 1, sizeof(*cfg->items), 16,
			GROW_MEMORY))
		return -ENOMEM;
	if ((cfg->nr_items + 1) * 2 > cfg->index_cap) {
		/* Half full at most, a power of 2 (doubled from 64): built anew. */
		if (grow__array(&cfg->index, &cfg->index_cap, (cfg->nr_items + 1) * 2,
				sizeof(*cfg->index), 64, GROW_MEMORY))
			return -ENOMEM;
		memset(cfg->index, 0, cfg->index_cap * sizeof(*cfg->index));
		for (size_t i = 0; i < cfg->nr_items; i++)
			*index_slot(cfg->index, cfg->index_cap, cfg->items, cfg->items[i].var) =
				i + 1;
	}
	return 0;
}

static int collect_item(const char *var, const char *value, int line, void *data)
{
	struct collect *c = data;
	struct perfconfig *cfg = c->cfg;
	const char *dot = strchr(var, '.');
	struct perfconfig_item *it = NULL;
	size_t *slot;
	char *v;

	/* perf's set wants a section and a value: else the line is bad. */
	if (!dot || !value)
		return -EINVAL;
	if (set__reserve(cfg))
		return -ENOMEM;
	slot = index_slot(cfg->index, cfg->index_cap, cfg->items, var);
	if (*slot) {
		it = &cfg->items[*slot - 1];
	} else {
		it = &cfg->items[cfg->nr_items];
		memset(it, 0, sizeof(*it));
		it->var = strdup(var);
		if (!it->var)
			return -ENOMEM;
		it->section_len = (size_t)(dot - var);
		*slot = ++cfg->nr_items;
	}
	v = strdup(value);
	if (!v)
		return -ENOMEM;
	free(it->value);
	it->value = v;
	it->file = c->file;
	it->line = line;
	return 0;
}

/* A file name or value may hold any byte: the message stays one line. */
static void one_line(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			*s = '?';
}

void perfconfig__warn(struct perfconfig *cfg, const char *fmt, ...)
{
	va_list ap;

	if (cfg->nr_warnings >= PERFCONFIG_MAX_WARNINGS)
		return;
	va_start(ap, fmt);
	vsnprintf(cfg->warnings[cfg->nr_warnings], PERFCONFIG_WARNING_LEN, fmt, ap);
	va_end(ap);
	one_line(cfg->warnings[cfg->nr_warnings++]);
}

int perfconfig__error(struct prec_err *e, int ret, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	prec_err__vset(e, ret, fmt, ap);
	va_end(ap);
	if (e && e->msg)
		one_line(e->msg);
	return ret;
}

int perfconfig__add_text(struct perfconfig *cfg, const char *name, const char *text, size_t len,
			 struct prec_err *e)
{
	struct collect c = { .cfg = cfg, .file = cfg->nr_files };
	int ret, line = 0;

	if (cfg->nr_files >= PERFCONFIG_MAX_FILES)
		return perfconfig__error(e, -E2BIG, "perf's configuration: more than %d files",
					 PERFCONFIG_MAX_FILES);
	cfg->files[c.file] = strdup(name);
	if (!cfg->files[c.file])
		return -ENOMEM;
	cfg->nr_files++;
	ret = perfconfig__parse(text, len, collect_item, &c, &line, NULL);
	if (ret == -EINVAL)
		perfconfig__warn(
			cfg,
			"perf's configuration %s, line %d: not a setting perf reads (write [section] or name = value): it and the rest of the file are ignored, as perf ignores them",
			name, line);
	else if (ret == -ENOMEM)
		perfconfig__error(e, ret, "perf's configuration %s: out of memory", name);
	return ret;
}

/* ---- what perf record takes from it ---- */

/* Visits the keys perf record reads as perf_config_set visits the set: by
 * section, in the order each section and then each name first appeared.
 * The passes look at no other key, so only these few are ordered, each by
 * its section's first item and then its own place. */
static int set__for_each(struct perfconfig *cfg,
			 int (*fn)(struct perfconfig *, size_t, struct prec_err *),
			 struct prec_err *e)
{
	size_t at[16], first[16], n = 0;

	for (size_t i = 0; i < cfg->nr_items && n < 16; i++) {
		const struct perfconfig_item *it = &cfg->items[i];
		size_t k = 0, j;

		if (!key_read(it->var))
			continue;
		while (cfg->items[k].section_len != it->section_len ||
		       strncmp(cfg->items[k].var, it->var, it->section_len))
			k++; /* stops at i at the latest */
		for (j = n; j > 0 && first[j - 1] > k; j--) {
			at[j] = at[j - 1];
			first[j] = first[j - 1];
		}
		at[j] = i;
		first[j] = k;
		n++;
	}
	for (size_t j = 0; j < n; j++) {
		int ret = fn(cfg, at[j], e);

		if (ret)
			return ret;
	}
	return 0;
}

/* The one line for a value prec will not record with. */
static int bad_value(const struct perfconfig *cfg, const struct perfconfig_item *it,
		     const char *var, const char *why, const char *fix, struct prec_err *e)
{
	return perfconfig__error(
		e, -EINVAL,
		"perf's configuration %s, line %d: %s = '%.*s' is %s (%s, or remove the line)",
		cfg->files[it->file], it->line, var, 200, it->value, why, fix);
}

/* call-graph.record-mode (and record.call-graph): perf's --call-graph words
 * but "no", which perf's configuration does not take. */
static int resolve_record_mode(struct perfconfig *cfg, const struct perfconfig_item *it,
			       const char *var, struct prec_err *e)
{
	struct callchain_param p = { 0 };

	if (!strcmp(it->value, "no") || callchain__parse(it->value, &p, NULL))
		return bad_value(
			cfg, it, var, "not a call-graph mode prec records",
			"give fp, fp,DEPTH with DEPTH 0 to 65535, dwarf, dwarf,SIZE with SIZE 8 to 65528, or lbr",
			e);
	cfg->callchain_mode = (int)p.mode;
	if (p.has_max_stack)
		cfg->callchain_max_stack = p.max_stack;
	if (p.mode == CALLCHAIN_DWARF)
		cfg->callchain_dump = p.dump_size;
	return 0;
}

/* perf's get_stack_size: strtoul base 0, whole, rounded up to 8. */
static int resolve_dump_size(struct perfconfig *cfg, const struct perfconfig_item *it,
			     struct prec_err *e)
{
	const char *s = it->value;
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 0);
	if (!*s || *end || errno || strchr(s, '-') || v > CALLCHAIN_MAX_DUMP || !v)
		return bad_value(
			cfg, it, "call-graph.dump-size", "not a stack dump size",
			"give the bytes of user stack each dwarf sample copies, 8 to 65528", e);
	cfg->callchain_dump = (uint32_t)((v + 7) & ~7UL);
	return 0;
}

/* Pass 1, perf_default_config: the keys every perf command reads. */
static int resolve_default(struct perfconfig *cfg, size_t i, struct prec_err *e)
{
	const struct perfconfig_item *it = &cfg->items[i];

	if (!strcmp(it->var, "call-graph.record-mode"))
		return resolve_record_mode(cfg, it, it->var, e);
	if (!strcmp(it->var, "call-graph.dump-size"))
		return resolve_dump_size(cfg, it, e);
	if (!strcmp(it->var, "core.proc-map-timeout")) {
		char *end;
		unsigned long v;

		errno = 0;
		v = strtoul(it->value, &end, 10);
		/* perf takes any text as a number (0: every maps file cut at once). */
		if (!*it->value || *end || errno || it->value[0] == '-' || !v || v > 3600000)
			return bad_value(cfg, it, it->var, "not a timeout",
					 "give milliseconds, 1 to 3600000; perf's default is 500",
					 e);
		cfg->proc_map_timeout_ms = (unsigned)v;
		return 0;
	}
	if (!strcmp(it->var, "buildid.dir"))
		cfg->buildid_dir = *it->value ? it->value : NULL; /* "": $HOME/.debug, as perf */
	return 0;
}

/* record.aio, perf's way: strtol base 0; 0 is one write, over 4 is 4, below
 * 0 none. Only a number is taken (perf takes text as 0). */
static int resolve_aio(struct perfconfig *cfg, const struct perfconfig_item *it, struct prec_err *e)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(it->value, &end, 0);
	if (!*it->value || *end || errno)
		return bad_value(cfg, it, it->var, "not a number",
				 "give the writes in flight, 1 to 4; 0 is one, below 0 none", e);
	cfg->aio = v < 0 ? 0 : v == 0 ? 1 : v > PREC_AIO_MAX ? PREC_AIO_MAX : (int)v;
	return 0;
}

/* Pass 2, perf_record_config: perf record's own keys. */
static int resolve_record(struct perfconfig *cfg, size_t i, struct prec_err *e)
{
	static const char *const buildid_words[] = {
		[PERFCONFIG_BUILDID_CACHE] = "cache",
		[PERFCONFIG_BUILDID_NO_CACHE] = "no-cache",
		[PERFCONFIG_BUILDID_SKIP] = "skip",
		[PERFCONFIG_BUILDID_MMAP] = "mmap",
	};
	const struct perfconfig_item *it = &cfg->items[i];

	if (!strcmp(it->var, "record.build-id")) {
		for (int k = PERFCONFIG_BUILDID_CACHE; k <= PERFCONFIG_BUILDID_MMAP; k++)
			if (!strcmp(it->value, buildid_words[k])) {
				cfg->buildid = k;
				return 0;
			}
		return bad_value(cfg, it, it->var, "not a build-id mode",
				 "give cache, no-cache, skip or mmap", e);
	}
	/* The old spelling of call-graph.record-mode, read after it. */
	if (!strcmp(it->var, "record.call-graph"))
		return resolve_record_mode(cfg, it, it->var, e);
	if (!strcmp(it->var, "record.aio"))
		return resolve_aio(cfg, it, e);
	if (!strcmp(it->var, "record.debuginfod")) {
		cfg->debuginfod = *it->value != '\0';
		cfg->debuginfod_urls = strcmp(it->value, "system") ? it->value : NULL;
	}
	/* prec's own key (perf ignores the section): --names-cache-max. */
	if (!strcmp(it->var, "prec.names-cache-max")) {
		if (output_opts__size(it->value, &cfg->names_cache_max))
			return bad_value(cfg, it, it->var, "not a size",
					 "give a size like 512M, units B, K, M, G; 0 for no limit",
					 e);
		cfg->names_cache_max_set = true;
	}
	return 0;
}

int perfconfig__resolve(struct perfconfig *cfg, struct prec_err *e)
{
	int ret;

	ret = set__for_each(cfg, resolve_default, e);
	return ret ? ret : set__for_each(cfg, resolve_record, e);
}

void perfconfig__apply(const struct perfconfig *cfg, struct record_opts *opts)
{
	if (cfg->buildid == PERFCONFIG_BUILDID_NO_CACHE)
		opts->no_buildid_cache = true;
	else if (cfg->buildid == PERFCONFIG_BUILDID_SKIP)
		opts->no_buildid = true;
	else if (cfg->buildid == PERFCONFIG_BUILDID_MMAP)
		opts->buildid_mmap = true;
	opts->callchain_default = cfg->callchain_mode;
	opts->callchain_default_dump = cfg->callchain_dump;
	opts->callchain_max_stack = cfg->callchain_max_stack;
	if (cfg->aio >= 0) {
		opts->nr_cblocks = cfg->aio;
		opts->aio_from_config = true;
	}
	if (cfg->debuginfod >= 0) {
		opts->debuginfod = cfg->debuginfod;
		opts->debuginfod_urls = cfg->debuginfod_urls;
		opts->debuginfod_from_config = true;
	}
	opts->proc_map_timeout_ms = cfg->proc_map_timeout_ms;
	opts->buildid_dir = cfg->buildid_dir;
	if (cfg->names_cache_max_set) {
		opts->names_cache_max = cfg->names_cache_max;
		opts->names_cache_max_given = true;
	}
}
