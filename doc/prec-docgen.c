// SPDX-License-Identifier: GPL-2.0-only
/*
 * Build-time generator of prec's documents from the option table
 * (recorder/options/options_int.h), so the man page and the completion cannot drift
 * from what the parser takes:
 *   prec-docgen man TEMPLATE OUT     prec.1: TEMPLATE with its @OPTIONS@ line
 *                                    replaced by the table, @VERSION@ by ours
 *   prec-docgen alias OUT            prec-record.1, perf-prec.1: a .so link
 *                                    to prec.1
 *   prec-docgen bash TEMPLATE OUT    prec.bash: TEMPLATE with @WORDS@ replaced
 *                                    by the option words and value cases
 * A host tool run by doc/CMakeLists.txt; never installed, not reachable
 * from prec's own command line.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options/options_int.h"
#include "prec/version.h"

/* Text into roff: backslashes escaped, an option's dashes as \- (so they
 * copy and search as ASCII), a leading . or ' made literal. */
static void roff_text(FILE *f, const char *s)
{
	if (*s == '.' || *s == '\'')
		fputs("\\&", f);
	for (const char *p = s; *p; p++) {
		bool dash_word = p == s || p[-1] == ' ' || p[-1] == '(' || p[-1] == '-' ||
				 p[-1] == '\'' || p[-1] == '/';

		if (*p == '\\')
			fputs("\\e", f);
		else if (*p == '-' && dash_word)
			fputs("\\-", f);
		else
			fputc(*p, f);
	}
}

/* ".TP" then "-e, --event event" in bold and italics, then the help. */
static void man_option(FILE *f, const struct opt_def *o)
{
	fputs(".TP\n", f);
	if (o->short_name)
		fprintf(f, "\\fB\\-%c\\fR%s", o->short_name, o->long_name ? ", " : "");
	if (o->long_name) {
		fputs("\\fB\\-\\-", f);
		roff_text(f, o->long_name);
		fputs("\\fR", f);
	}
	if (o->arg_name) {
		fputs(o->has_arg == 2 ? (o->long_name ? "[=\\fI" : "[\\fI") : " \\fI", f);
		roff_text(f, o->arg_name);
		fputs(o->has_arg == 2 ? "\\fR]" : "\\fR", f);
	}
	fputc('\n', f);
	roff_text(f, o->help);
	fputc('\n', f);
	if (o->complete && o->complete[0] != '@') {
		fputs(".br\nValues: ", f);
		roff_text(f, o->complete);
		fputs(".\n", f);
	}
}

static void man_options(FILE *f)
{
	const struct opt_def *order[opt_table_nr];
	int group = -1;

	opt__help_order(order);
	for (size_t i = 0; i < opt_table_nr; i++) {
		if ((int)order[i]->group != group) {
			group = order[i]->group;
			fprintf(f, ".SS \"%s\"\n",
				opt_group_title[group] ? opt_group_title[group] : "Other");
		}
		man_option(f, order[i]);
	}
}

/* The words bash offers: "--name=" for a value, "--name" and "--name=" for an
 * optional one (--aio, --aio=2), "-c" for each short name. */
static void bash_words(FILE *f)
{
	const struct opt_def *order[opt_table_nr];

	opt__help_order(order);
	fputs("_prec_long='", f);
	for (size_t i = 0; i < opt_table_nr; i++) {
		const struct opt_def *o = order[i];

		if (!o->long_name)
			continue;
		if (o->has_arg != 1)
			fprintf(f, " --%s", o->long_name);
		if (o->has_arg)
			fprintf(f, " --%s=", o->long_name);
	}
	fputs("'\n_prec_short='", f);
	for (size_t i = 0; i < opt_table_nr; i++)
		if (order[i]->short_name)
			fprintf(f, " -%c", order[i]->short_name);
	/* What takes the next word as its value: "-o FILE", "--output FILE". */
	fputs("'\n_prec_arg_short='", f);
	for (size_t i = 0; i < opt_table_nr; i++)
		if (order[i]->short_name && order[i]->has_arg == 1)
			fputc(order[i]->short_name, f);
	fputs("'\n_prec_arg_long=' ", f);
	for (size_t i = 0; i < opt_table_nr; i++)
		if (order[i]->long_name && order[i]->has_arg == 1)
			fprintf(f, "--%s ", order[i]->long_name);
	fputs("'\n", f);
}

/* _prec_value_kind OPTION: prints how its value completes (words, or @kind). */
static void bash_values(FILE *f)
{
	fputs("_prec_value_kind()\n{\n\tcase $1 in\n", f);
	for (size_t i = 0; i < opt_table_nr; i++) {
		const struct opt_def *o = &opt_table[i];

		if (!o->complete || !o->has_arg)
			continue;
		fputc('\t', f);
		if (o->short_name)
			fprintf(f, "-%c%s", o->short_name, o->long_name ? "|" : "");
		if (o->long_name)
			fprintf(f, "--%s", o->long_name);
		fprintf(f, ") echo '%s' ;;\n", o->complete);
	}
	fputs("\t*) return 1 ;;\n\tesac\n}\n", f);
}

/* TEMPLATE to OUT, each line that is exactly @KEY@ replaced by fill(). */
static int from_template(const char *tmpl, const char *out, const char *key, void (*fill)(FILE *))
{
	FILE *in = fopen(tmpl, "r");
	FILE *f = in ? fopen(out, "w") : NULL;
	char line[4096];
	int ret = 0;

	if (!f) {
		fprintf(stderr, "prec-docgen: %s: %s\n", in ? out : tmpl, strerror(errno));
		if (in)
			fclose(in);
		return 1;
	}
	while (fgets(line, sizeof(line), in)) {
		char *v = strstr(line, "@VERSION@");

		if (!strcmp(line, key)) {
			fill(f);
		} else if (v) {
			fprintf(f, "%.*s%s%s", (int)(v - line), line, PREC_VERSION,
				v + strlen("@VERSION@"));
		} else {
			fputs(line, f);
		}
	}
	if (ferror(in) || fclose(f)) {
		fprintf(stderr, "prec-docgen: writing %s failed\n", out);
		ret = 1;
	}
	fclose(in);
	return ret;
}

static void bash_all(FILE *f)
{
	bash_words(f);
	bash_values(f);
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "man"))
		return from_template(argv[2], argv[3], "@OPTIONS@\n", man_options);
	if (argc == 4 && !strcmp(argv[1], "bash"))
		return from_template(argv[2], argv[3], "@WORDS@\n", bash_all);
	if (argc == 3 && !strcmp(argv[1], "alias")) {
		FILE *f = fopen(argv[2], "w");

		if (!f || fputs(".so man1/prec.1\n", f) < 0 || fclose(f)) {
			fprintf(stderr, "prec-docgen: %s: %s\n", argv[2], strerror(errno));
			return 1;
		}
		return 0;
	}
	fprintf(stderr, "usage: prec-docgen man|bash TEMPLATE OUT, or prec-docgen alias OUT\n");
	return 2;
}
