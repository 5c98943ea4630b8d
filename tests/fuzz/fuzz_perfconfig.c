// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer harness for perf's configuration files (recorder/options/
 * perfconfig_parse.c and the set and values of perfconfig.c): the input is
 * one file, or two (the system's and the user's) split at the first 0x01
 * byte; collected, resolved and applied to the options as main.c does.
 * Checks: a line perf rejects ends the file with a line number inside it
 * (perf's own count at most one more); an
 * error is one line naming the file; every warning is one line; the set
 * holds each name once, with a section; resolved values are in range.
 * Built and run by the suite: see CMakeLists.txt here.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "recorder/options/callchain.h"
#include "recorder/options/options.h"
#include "recorder/options/perfconfig.h"
#include "recorder/options/perfconfig_parse.h"

static int count(const char *var, const char *value, int line, void *data)
{
	(void)var, (void)value, (void)line;
	++*(int *)data;
	return 0;
}

static void one_line(const char *s)
{
	if (!*s || strchr(s, '\n') || strchr(s, '\r'))
		abort();
}

static void check_set(const struct perfconfig *cfg)
{
	for (size_t i = 0; i < cfg->nr_items; i++) {
		const struct perfconfig_item *it = &cfg->items[i];

		if (it->var[it->section_len] != '.' || !it->value || it->file < 0 ||
		    it->file >= cfg->nr_files || it->line < 1)
			abort();
		for (size_t j = 0; j < i; j++)
			if (!strcmp(cfg->items[j].var, it->var))
				abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	const char *split = memchr(text, 1, size);
	size_t a = split ? (size_t)(split - text) : size;
	struct perfconfig cfg;
	struct record_opts opts;
	struct prec_err e __attribute__((cleanup(prec_err__clear))) = PREC_ERR_INIT;
	char *argv[] = { "prec", "-g", "true", NULL };
	int ret, lines = 1, bad = 0, perf_line = 0, calls = 0;

	for (size_t i = 0; i < a; i++)
		lines += text[i] == '\n';
	if (perfconfig__parse(text, a, count, &calls, &bad, &perf_line) &&
	    (bad < 1 || bad > lines || (perf_line != bad && perf_line != bad + 1)))
		abort();

	perfconfig__init(&cfg);
	ret = perfconfig__add_text(&cfg, "/etc/perfconfig", text, a, &e);
	if (ret != -EINVAL && ret < 0) {
		one_line(prec_err__msg(&e));
		goto out;
	}
	/* perf reads the user's file only after a system file it could read */
	if (!ret && split) {
		ret = perfconfig__add_text(&cfg, "~/.perfconfig", split + 1, size - a - 1, &e);
		if (ret != -EINVAL && ret < 0) {
			one_line(prec_err__msg(&e));
			goto out;
		}
	}
	check_set(&cfg);
	for (int i = 0; i < cfg.nr_warnings; i++)
		one_line(cfg.warnings[i]);
	if (perfconfig__resolve(&cfg, &e)) {
		one_line(prec_err__msg(&e));
		if (!strstr(prec_err__msg(&e), "perf's configuration "))
			abort();
		goto out;
	}
	if (cfg.aio > 4 || cfg.aio < -1 || cfg.callchain_dump > CALLCHAIN_MAX_DUMP ||
	    (cfg.callchain_dump & 7) || cfg.callchain_mode < CALLCHAIN_NONE ||
	    cfg.callchain_mode > CALLCHAIN_LBR)
		abort();
	if (options__parse_with(&opts, &cfg, 3, argv, &e))
		abort();
	if (opts.callchain_mode == CALLCHAIN_NONE || !opts.callchain_dump)
		abort();
	options__exit(&opts);
out:
	perfconfig__exit(&cfg);
	return 0;
}
