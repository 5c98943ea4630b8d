// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer harness for a sysfs PMU's own files as -e reads them: the
 * format/<term> files ("config1:0-7,32", sysinfo/pmu_events.c) and the
 * events/<alias> term lists ("event=0x3c,umask=1", expanded by the -e term
 * parser, recorder/events/parse_terms.c). The input is NUL-separated parts:
 * the formats event, umask and cmask, the aliases alias_a and alias_b, and a
 * user term list; each file part is cut and trimmed as the loader reads it.
 * One PMU "fz" is made from them in memory (no files) and four events are
 * parsed against it: fz/alias_a/, fz/alias_b,event=1/u, alias_a and
 * fz/<user terms>/. Beyond "no crash, no leak": a format's bits hold its
 * largest value exactly, and a failed parse says why in one line.
 * Built and run by the suite: see CMakeLists.txt here.
 */
#define _GNU_SOURCE /* strndup */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "recorder/events/parse_events.h"
#include "prec/pmu.h"
#include "recorder/events/parse_events_int.h"
#include "sysinfo/cache_pmu.h"

#define FZ_PARTS 6
#define FZ_TYPE 42

static const char *const fz_formats[] = { "cmask", "event", "umask" }; /* sorted */
static const char *const fz_aliases[] = { "alias_a", "alias_b" };

/* Part i of the input as the loader would hold it: at most max bytes, trimmed. */
static char *fz_file(const char *part, size_t len, size_t max)
{
	char *s;

	if (sysfs_value__str(part, len < max ? len : max - 1, &s))
		return NULL;
	return s;
}

static void fz_format(struct pmu *pmu, const char *name, const char *part, size_t len)
{
	struct pmu_format f = { 0 };
	uint64_t c = 0, c2 = 0;
	char *text = fz_file(part, len, 256);

	if (!text)
		return;
	if (!pmu_format__parse(text, &f.field, &f.bits)) {
		/* The largest value fills the bits exactly; any value stays inside them. */
		pmu_format__apply(f.bits, pmu_format__max(f.bits), &c);
		pmu_format__apply(f.bits, ~0ULL, &c2);
		if (c != f.bits || (c2 & ~f.bits) || f.field > PMU_CONFIG2)
			abort();
		f.name = strdup(name);
		if (f.name)
			pmu->formats[pmu->nr_formats++] = f;
	}
	free(text);
}

static void fz_alias(struct pmu *pmu, const char *name, const char *part, size_t len)
{
	struct pmu_alias a = { 0 };

	a.terms = fz_file(part, len, 4096);
	a.name = strdup(name);
	if (!a.terms || !a.name) {
		free(a.terms);
		free(a.name);
		return;
	}
	pmu->aliases[pmu->nr_aliases++] = a;
}

static void fz_parse(struct pmus *pmus, const char *str)
{
	struct prec_err e = PREC_ERR_INIT;
	struct pe_state st = {
		.str = str,
		.e = &e,
		.pmus_done = true,
		.pmus = *pmus,
	};
	static const struct parse_events_ctx ctx = { .sysfs = "/nonexistent", .tracefs = "/nonexistent" };
	size_t p = 0;
	int ret;

	st.ctx = &ctx;
	ret = parse_event(&st, &p, false);
	if (ret &&
	    ((ret != -EINVAL && ret != -ENOMEM) || (ret == -EINVAL && !prec_err__is_set(&e))))
		abort();
	prec_err__clear(&e);
	if (!ret && (st.nr_ev < 1 || p > strlen(str)))
		abort();
	pe_state__truncate(&st, 0);
	free(st.ev);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *part[FZ_PARTS] = { 0 }, *s = (const char *)data;
	size_t len[FZ_PARTS] = { 0 }, off = 0;
	struct pmu_format formats[3];
	struct pmu_alias aliases[2];
	struct pmu pmu = { .type = FZ_TYPE, .formats = formats, .aliases = aliases, .is_core = false };
	struct pmus pmus = { .v = &pmu, .nr = 1 };
	char *user, *str;

	for (int i = 0; i < FZ_PARTS; i++) {
		const char *nul = off < size ? memchr(s + off, '\0', size - off) : NULL;

		part[i] = s + (off < size ? off : size);
		len[i] = (nul ? (size_t)(nul - s) : size) - (off < size ? off : size);
		off += len[i] + 1;
	}
	pmu.name = strdup("fz");
	user = strndup(part[5], len[5]);
	str = user ? malloc(len[5] + 8) : NULL;
	if (!pmu.name || !str)
		goto out;
	for (int i = 0; i < 3; i++)
		fz_format(&pmu, fz_formats[i], part[i], len[i]);
	for (int i = 0; i < 2; i++)
		fz_alias(&pmu, fz_aliases[i], part[3 + i], len[3 + i]);
	fz_parse(&pmus, "fz/alias_a/");
	fz_parse(&pmus, "fz/alias_b,event=1/u");
	fz_parse(&pmus, "alias_a");
	strcpy(str, "fz/");
	strcat(str, user);
	strcat(str, "/");
	fz_parse(&pmus, str);
out:
	for (int i = 0; i < pmu.nr_formats; i++)
		free(formats[i].name);
	for (int i = 0; i < pmu.nr_aliases; i++) {
		free(aliases[i].name);
		free(aliases[i].terms);
	}
	free(pmu.name);
	free(user);
	free(str);
	return 0;
}
