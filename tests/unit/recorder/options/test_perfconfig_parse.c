// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf's configuration syntax (perfconfig_parse.c, and the set
 * perfconfig__add_text makes of it): every file of
 * tests/fixtures/perfconfig/ must give the set stock perf 6.1 gave
 * (`perf config -l`, kept in NAME.expected by regen.py there), and stop at
 * the line perf stopped at; then hostile buffers, which must end inside
 * themselves with a line number in the buffer.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "recorder/options/perfconfig.h"
#include "recorder/options/perfconfig_parse.h"
#include "tests/unit/fixture_path.h"

/* Appends s to out as regen.py escapes perf's output. */
static void put_escaped(char *out, size_t size, const char *s)
{
	size_t n = strlen(out);

	for (const unsigned char *p = (const unsigned char *)s; *p && n + 5 < size; p++) {
		if (*p == '\\')
			n += (size_t)snprintf(out + n, size - n, "\\\\");
		else if (*p == '\n')
			n += (size_t)snprintf(out + n, size - n, "\\n");
		else if (*p == '\t')
			n += (size_t)snprintf(out + n, size - n, "\\t");
		else if (*p == '\r')
			n += (size_t)snprintf(out + n, size - n, "\\r");
		else if (*p < 0x20 || *p >= 0x7f)
			n += (size_t)snprintf(out + n, size - n, "\\x%02x", *p);
		else
			out[n++] = (char)*p, out[n] = '\0';
	}
}

/* The set as `perf config -l` lists it: section by section, in the order
 * each first appeared, "var=value\n" each, escaped. */
static void dump_set(const struct perfconfig *cfg, char *out, size_t size)
{
	out[0] = '\0';
	for (size_t i = 0; i < cfg->nr_items; i++) {
		const struct perfconfig_item *a = &cfg->items[i];
		bool seen = false;

		for (size_t k = 0; k < i && !seen; k++)
			seen = cfg->items[k].section_len == a->section_len &&
			       !strncmp(cfg->items[k].var, a->var, a->section_len);
		for (size_t j = i; j < cfg->nr_items && !seen; j++) {
			const struct perfconfig_item *b = &cfg->items[j];

			if (b->section_len != a->section_len ||
			    strncmp(b->var, a->var, a->section_len))
				continue;
			put_escaped(out, size, b->var);
			put_escaped(out, size, "=");
			put_escaped(out, size, b->value);
			put_escaped(out, size, "\n");
		}
	}
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = malloc(1 << 16);
	size_t n;

	assert_non_null(f);
	assert_non_null(buf);
	n = fread(buf, 1, (1 << 16) - 1, f);
	fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
}

struct collected {
	char text[2048];
	int calls;
};

static int collect(const char *var, const char *value, int line, void *data)
{
	struct collected *c = data;
	size_t n = strlen(c->text);

	snprintf(c->text + n, sizeof(c->text) - n, "%d:%s=%s|", line, var,
		 value ? value : "(null)");
	c->calls++;
	return 0;
}

/* The settings perf's set takes: a section and a value, else the line is bad. */
static int set_like(const char *var, const char *value, int line, void *data)
{
	return strchr(var, '.') && value ? collect(var, value, line, data) : -EINVAL;
}

static void test_fixtures_as_perf(void **state)
{
	char dir[4096], path[4200], got[16384], want_bad[64];
	struct prec_err e __attribute__((cleanup(prec_err__clear))) = PREC_ERR_INIT;
	struct dirent *de;
	int checked = 0;
	DIR *d;

	(void)state;
	fixture_path(dir, sizeof(dir), "perfconfig");
	d = opendir(dir);
	assert_non_null(d);
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name), tlen, elen;
		struct perfconfig cfg;
		struct collected *c;
		char *text, *expected, *nl;
		int ret, bad = 0, line = 0, perf_line = 0;

		if (len < 6 || strcmp(de->d_name + len - 5, ".conf"))
			continue;
		c = calloc(1, sizeof(*c));
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		text = slurp(path, &tlen);
		snprintf(path + strlen(path) - 5, 10, ".expected");
		expected = slurp(path, &elen);
		perfconfig__init(&cfg);
		ret = perfconfig__add_text(&cfg, de->d_name, text, tlen, &e);
		if (ret == -EINVAL) {
			/* the warning names the line the bad byte is on; perf counts
			 * one more when that byte is the line's newline */
			assert_int_equal(
				sscanf(strstr(cfg.warnings[0], ", line ") + 7, "%d", &line), 1);
			assert_non_null(c);
			assert_int_equal(perfconfig__parse(text, tlen, set_like, c, &bad,
							   &perf_line),
					 -EINVAL);
			assert_int_equal(bad, line);
			assert_true(perf_line == line || perf_line == line + 1);
			bad = perf_line;
		} else {
			assert_int_equal(ret, 0);
		}
		free(c);
		dump_set(&cfg, got, sizeof(got));
		nl = strchr(expected, '\n');
		assert_non_null(nl);
		*nl = '\0';
		snprintf(want_bad, sizeof(want_bad), "bad-line %d\n", bad);
		if (strcmp(got, expected) || strcmp(nl + 1, want_bad))
			fail_msg("%s: prec read\n  %s  %s perf read\n  %s\n  %s", de->d_name, got,
				 want_bad, expected, nl + 1);
		perfconfig__exit(&cfg);
		free(text);
		free(expected);
		checked++;
	}
	closedir(d);
	assert_true(checked >= 40);
}

/* The raw settings, before the set: names without '=' and names outside a
 * section reach the callback (the set refuses them), line numbers count
 * continued values. */
static void test_settings_and_lines(void **state)
{
	static const struct {
		const char *in;
		const char *want;
		int ret, bad_line, perf_line;
	} rows[] = {
		{ "[r]\nk\n", "2:r.k=(null)|", 0, 0, 0 },
		{ "k = 1\n", "1:k=1|", 0, 0, 0 },
		{ "[r]\na = x\\\ny\nb = 2\n", "2:r.a=xy|4:r.b=2|", 0, 0, 0 },
		{ "[r]\n  K-Ey_1\t=\t\"  sp  \"  v  \n", "2:r.k-Ey_1=  sp   v|", 0, 0, 0 },
		{ "[r]\nk = a\\nb\n", "2:r.k=a\nb|", 0, 0, 0 },
		{ "[r]\n\n\n# c\n;c\nk=\n", "6:r.k=|", 0, 0, 0 },
		{ "[r]\nk = 1\n@\n", "2:r.k=1|", -EINVAL, 3, 3 },
		{ "[r]\nk : 1\n", "", -EINVAL, 2, 2 },
		/* perf names the next line: it read the newline that broke it */
		{ "[r \"unterminated]\n", "", -EINVAL, 1, 2 },
		{ "[r \"s\"\n", "", -EINVAL, 1, 2 },
		{ "[r]\n[r\nk = 1\n", "", -EINVAL, 2, 3 },
		{ "[r]\n[r", "", -EINVAL, 2, 2 },
		{ "[r]x = 1\n", "1:r.x=1|", 0, 0, 0 }, /* perf reads on after ']' */
		{ "\r\n\r\n[r]\r\nk = v\r\r\n", "4:r.k=v|", 0, 0, 0 }, /* a lone CR is a blank */
	};

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct collected c = { .text = "" };
		int bad = 0, perf_line = 0, ret;

		ret = perfconfig__parse(rows[i].in, strlen(rows[i].in), collect, &c, &bad,
					&perf_line);
		if (ret != rows[i].ret || strcmp(c.text, rows[i].want) ||
		    (ret && (bad != rows[i].bad_line || perf_line != rows[i].perf_line)))
			fail_msg("row %zu: ret %d line %d/%d '%s', want %d line %d/%d '%s'", i, ret,
				 bad, perf_line, c.text, rows[i].ret, rows[i].bad_line,
				 rows[i].perf_line, rows[i].want);
	}
}

static int refuse(const char *var, const char *value, int line, void *data)
{
	(void)var, (void)value, (void)data;
	return line == 3 ? -E2BIG : 0;
}

/* A callback's error stops the parse with it, on the setting's line. */
static void test_callback_error(void **state)
{
	static const char in[] = "[r]\na = 1\nb = 2\nc = 3\n";
	int bad = 0;

	(void)state;
	assert_int_equal(perfconfig__parse(in, strlen(in), refuse, NULL, &bad, NULL), -E2BIG);
	assert_int_equal(bad, 3);
}

/* Hostile buffers: no read past the end (the buffers are exact heap
 * copies, for ASan), a line number inside the buffer. */
static void test_hostile(void **state)
{
	static const char *const rows[] = {
		"",
		"[",
		"[r",
		"[r ",
		"[r \"",
		"[r \"\\",
		"[r]\nk",
		"[r]\nk =",
		"[r]\nk = \"",
		"[r]\nk = \\",
		"\xef",
		"\xef\xbb",
		"\xef\xbb\xbf",
		"\\",
		"[r]\nk = a\\",
		"[r \"s\\\n\"]",
		"k\x00=1",
		"[\x00]",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		/* The last two hold a NUL: their lengths are 4 and 3. */
		size_t len = i == 16 ? 4 : i == 17 ? 3 : strlen(rows[i]);
		char *buf = malloc(len ? len : 1);
		struct collected c = { .text = "" };
		int bad = 0, lines = 1;

		assert_non_null(buf);
		memcpy(buf, rows[i], len);
		for (size_t k = 0; k < len; k++)
			lines += buf[k] == '\n';
		if (perfconfig__parse(buf, len, collect, &c, &bad, NULL))
			assert_true(bad >= 1 && bad <= lines + 1);
		free(buf);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixtures_as_perf),
		cmocka_unit_test(test_settings_and_lines),
		cmocka_unit_test(test_callback_error),
		cmocka_unit_test(test_hostile),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
