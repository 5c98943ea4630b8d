// SPDX-License-Identifier: GPL-2.0-only
/*
 * The option table against the parser, the side of "one source of truth"
 * that needs no build outputs (tests/integration/test_docs.sh reads the
 * generated man page and completion): every row is whole and in a section,
 * every name the table has is one options__parse takes (with each fixed
 * completion word as its value), a made-up name is refused, and --help lists
 * each row once and nothing else, in perf's layout.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "recorder/options/options.h"
#include "recorder/options/options_int.h"

/* options__parse over "prec -e cpu-clock A [B]" (-e first: --filter and
 * --exclude-perf need one before them). 0 or its error, err filled. */
static int parse(const char *a, const char *b, struct prec_err *e)
{
	char *argv[] = { "prec", "-e", "cpu-clock", (char *)a, (char *)b, NULL };
	struct record_opts opts;
	int ret = options__parse(&opts, b ? 5 : 4, argv, e);

	if (!ret)
		options__exit(&opts);
	return ret;
}

/* A value each option takes: its first fixed completion word, "ax" for
 * the register lists on x86 (NULL elsewhere: the names are the
 * architecture's; the test then skips that form), else "1", which
 * every other value parser of the table accepts (a size, a count, a CPU, a
 * pid, a clock number, a path...). */
static const char *harmless_value(const struct opt_def *o, char *buf, size_t len)
{
	if (o->id == OPT_USER_REGS || o->id == OPT_INTR_REGS)
#if defined(__x86_64__) || defined(__i386__)
		return "ax";
#else
		return NULL;
#endif
	if (o->complete && o->complete[0] != '@') {
		snprintf(buf, len, "%.*s", (int)strcspn(o->complete, " "), o->complete);
		return buf;
	}
	return "1";
}

static void test_rows_whole(void **state)
{
	(void)state;
	assert_true(opt_table_nr > 50);
	for (size_t i = 0; i < opt_table_nr; i++) {
		const struct opt_def *o = &opt_table[i];
		char label[64];

		opt__label(o, label, sizeof(label));
		if (o->group <= OPT_GROUP_NONE || o->group >= OPT_GROUP_NR ||
		    !opt_group_title[o->group])
			fail_msg("%s has no --help section (give its row .group)", label);
		if (!o->help || !o->help[0])
			fail_msg("%s has no help line", label);
		if (!o->short_name && !o->long_name)
			fail_msg("row %zu has no name", i);
		if (!!o->has_arg != !!o->arg_name)
			fail_msg("%s: has_arg %d but arg_name %s", label, o->has_arg,
				 o->arg_name ? o->arg_name : "NULL");
		if (o->complete && !o->has_arg)
			fail_msg("%s completes a value but takes none", label);
		for (size_t j = 0; j < i; j++) {
			if (o->short_name && o->short_name == opt_table[j].short_name)
				fail_msg("-%c is in two rows", o->short_name);
			if (o->long_name && opt_table[j].long_name &&
			    !strcmp(o->long_name, opt_table[j].long_name))
				fail_msg("--%s is in two rows", o->long_name);
		}
	}
	for (int g = OPT_GROUP_NONE + 1; g < OPT_GROUP_NR; g++)
		assert_non_null(opt_group_title[g]);
}

/* Every name in the table is one the parser takes, as -c, -cVALUE, --name,
 * --name=VALUE or --name VALUE, as the row says. */
static void test_parser_takes_every_name(void **state)
{
	char val[64], joined[128], shortv[128];
	struct prec_err e __attribute__((cleanup(prec_err__clear))) = PREC_ERR_INIT;

	(void)state;
	for (size_t i = 0; i < opt_table_nr; i++) {
		const struct opt_def *o = &opt_table[i];
		const char *v = o->has_arg == 1 ? harmless_value(o, val, sizeof(val)) : NULL;

		if (o->long_name) {
			snprintf(joined, sizeof(joined), "--%s", o->long_name);
			if (parse(joined, v, &e))
				fail_msg("%s %s: %s", joined, v ? v : "", prec_err__msg(&e));
			const char *hv = o->has_arg ? harmless_value(o, val, sizeof(val)) : NULL;

			if (hv) {
				snprintf(joined, sizeof(joined), "--%s=%s", o->long_name, hv);
				if (parse(joined, NULL, &e))
					fail_msg("%s: %s", joined, prec_err__msg(&e));
			} else if (!o->has_arg) {
				snprintf(joined, sizeof(joined), "--%s=1", o->long_name);
				if (!parse(joined, NULL, &e))
					fail_msg("%s: taken, but --%s takes no value", joined,
						 o->long_name);
			}
		}
		if (o->short_name) {
			snprintf(shortv, sizeof(shortv), "-%c", o->short_name);
			if (parse(shortv, v, &e))
				fail_msg("%s %s: %s", shortv, v ? v : "", prec_err__msg(&e));
		}
	}
}

/* The completion's fixed words are values the parser takes, each one. */
static void test_completion_words_parse(void **state)
{
	char arg[256];
	struct prec_err e __attribute__((cleanup(prec_err__clear))) = PREC_ERR_INIT;

	(void)state;
	for (size_t i = 0; i < opt_table_nr; i++) {
		const struct opt_def *o = &opt_table[i];
		const char *w = o->complete;

		if (!w)
			continue;
		if (w[0] == '@') {
			if (strcmp(w, "@file") && strcmp(w, "@command") && strcmp(w, "@event") &&
			    strcmp(w, "@user") && strcmp(w, "@pid"))
				fail_msg("--%s: unknown completion kind %s", o->long_name, w);
			continue;
		}
		while (*w) {
			size_t n = strcspn(w, " ");

			snprintf(arg, sizeof(arg), "--%s=%.*s", o->long_name, (int)n, w);
			if (parse(arg, NULL, &e))
				fail_msg("completion word: %s refused: %s", arg, prec_err__msg(&e));
			w += n + (w[n] == ' ');
		}
	}
}

/* Names the table does not have are refused, however spelled. */
static void test_made_up_names_refused(void **state)
{
	static const char *const made_up[] = { "--no-such-option", "--frequency", "--event-list",
					       "--help-me", "--call-graphs" };
	char s[3] = "-?";
	struct prec_err e __attribute__((cleanup(prec_err__clear))) = PREC_ERR_INIT;
	int refused = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(made_up) / sizeof(made_up[0]); i++) {
		if (!parse(made_up[i], NULL, &e))
			fail_msg("%s is taken, but no row has it", made_up[i]);
		assert_non_null(strstr(prec_err__msg(&e), "unknown option"));
	}
	for (int c = 1; c < 128; c++) {
		if (!isalnum(c) || opt__find_short((char)c))
			continue;
		s[1] = (char)c;
		if (!parse(s, NULL, &e))
			fail_msg("%s is taken, but no row has it", s);
		refused++;
	}
	assert_true(refused > 10);
}

/* options__usage's text (stdout) into buf. */
static void capture_usage(char *buf, size_t len, int nr, char **names, int *ret)
{
	FILE *tmp = tmpfile();
	struct prec_err e __attribute__((cleanup(prec_err__clear))) = PREC_ERR_INIT;
	size_t n;
	int saved;

	assert_non_null(tmp);
	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	assert_true(saved >= 0);
	assert_int_equal(dup2(fileno(tmp), STDOUT_FILENO), STDOUT_FILENO);
	if (names)
		*ret = options__usage_of(nr, names, &e);
	else
		options__usage();
	fflush(stdout);
	assert_int_equal(dup2(saved, STDOUT_FILENO), STDOUT_FILENO);
	close(saved);
	rewind(tmp);
	n = fread(buf, 1, len - 1, tmp);
	fclose(tmp);
	buf[n] = '\0';
}

/* --help: each row's left column once, in perf's columns, and no line that
 * names an option the table lacks; each section's title once. */
static void test_help_lists_table(void **state)
{
	static char text[65536];
	char left[128], line[160];
	size_t rows = 0;

	(void)state;
	capture_usage(text, sizeof(text), 0, NULL, NULL);
	for (size_t i = 0; i < opt_table_nr; i++) {
		const char *at;

		opt__usage_left(&opt_table[i], left, sizeof(left));
		snprintf(line, sizeof(line), "\n    %s%s", left,
			 strlen(left) + 4 <= 24 ? " " : "\n");
		at = strstr(text, line);
		if (!at)
			fail_msg("--help lacks '%s'", left);
		if (strstr(at + 1, line))
			fail_msg("--help lists '%s' twice", left);
		/* perf's layout: the help in column 26, or on the next line there. */
		at += strlen(line);
		if (line[strlen(line) - 1] == ' ')
			assert_int_equal((int)strspn(at - 1, " "), 24 - 4 - (int)strlen(left) + 2);
		else
			assert_int_equal((int)strspn(at, " "), 26);
	}
	for (const char *p = text; (p = strstr(p, "\n    -")); p++)
		rows++;
	for (const char *p = text; (p = strstr(p, "\n        --")); p++)
		rows++;
	assert_int_equal(rows, opt_table_nr);
	for (int g = OPT_GROUP_NONE + 1; g < OPT_GROUP_NR; g++) {
		snprintf(line, sizeof(line), "\n\n%s\n", opt_group_title[g]);
		assert_non_null(strstr(text, line));
	}
}

/* prec -h WORD: perf record -h's rule for which rows a word picks. */
static void test_help_of_names(void **state)
{
	static char text[16384];
	static const struct {
		const char *words[3];
		int ret;
		const char *has[3];
		const char *lacks;
	} rows[] = {
		{ { "F" }, 0, { "-F, --freq <freq|max>" }, "--strict-freq" },
		{ { "-F" }, 0, { "-F, --freq" }, "--strict-freq" },
		{ { "--freq" }, 0, { "-F, --freq" }, "--strict-freq" },
		{ { "freq" }, 0, { "-F, --freq", "--strict-freq" }, "--call-graph" },
		{ { "call-graph", "-o" },
		  0,
		  { "--call-graph <mode>", "-g ", "-o, --output" },
		  "-F," },
		{ { "FREQUENCY" }, 0, { "--strict-freq" }, "--output" },
		{ { "nosuch" }, -ENOENT, { NULL }, "Usage" },
		{ { "freq", "nosuch" }, -ENOENT, { NULL }, "--freq" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		int nr = rows[i].words[1] ? 2 : 1;
		int ret = 0;

		capture_usage(text, sizeof(text), nr, (char **)rows[i].words, &ret);
		if (ret != rows[i].ret)
			fail_msg("row %zu: ret %d, expected %d", i, ret, rows[i].ret);
		for (int k = 0; k < 3 && rows[i].has[k]; k++)
			if (!strstr(text, rows[i].has[k]))
				fail_msg("row %zu: lacks '%s' in:\n%s", i, rows[i].has[k], text);
		if (strstr(text, rows[i].lacks))
			fail_msg("row %zu: has '%s' in:\n%s", i, rows[i].lacks, text);
	}
}

/* After -h the words are names, not options, as in perf. */
static void test_help_stops_parsing(void **state)
{
	char *argv[] = { "prec", "-q", "-h", "-F", "--nosuch", NULL };
	struct record_opts opts;
	struct prec_err e __attribute__((cleanup(prec_err__clear))) = PREC_ERR_INIT;

	(void)state;
	assert_int_equal(options__parse(&opts, 5, argv, &e), 0);
	assert_true(opts.help && opts.quiet);
	assert_int_equal(opts.argc, 2);
	assert_string_equal(opts.argv[0], "-F");
	options__exit(&opts);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows_whole),
		cmocka_unit_test(test_parser_takes_every_name),
		cmocka_unit_test(test_completion_words_parse),
		cmocka_unit_test(test_made_up_names_refused),
		cmocka_unit_test(test_help_lists_table),
		cmocka_unit_test(test_help_of_names),
		cmocka_unit_test(test_help_stops_parsing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
