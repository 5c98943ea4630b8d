// SPDX-License-Identifier: GPL-2.0-only
/*
 * Build-time generator of prec's documents from the option table
 * (recorder/options/options_int.h) and the option texts beside it, so the man
 * page and the completion cannot drift from what the parser takes:
 *   prec-docgen man TEMPLATE MANUAL_DIR OUT
 *                                    prec.1: TEMPLATE with its @OPTIONS@ line
 *                                    replaced by the table, each option with
 *                                    its full text from MANUAL_DIR/NAME.md
 *                                    (recorder/options/manual/), each
 *                                    "@INCLUDE FILE@" line by FILE (beside
 *                                    TEMPLATE) as sections, @VERSION@ by ours
 *   prec-docgen alias OUT            prec-record.1, perf-prec.1: a .so link
 *                                    to prec.1
 *   prec-docgen bash TEMPLATE OUT    prec.bash: TEMPLATE with @WORDS@ replaced
 *                                    by the option words and value cases
 * A host tool run by doc/CMakeLists.txt; never installed, not reachable
 * from prec's own command line.
 */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "docgen_roff.h"
#include "options/options_int.h"
#include "prec/version.h"

/* The name of o's manual file: its long name, or the letter of a short-only
 * option ("g" for -g). */
static void manual_name(const struct opt_def *o, char *buf, size_t len)
{
	if (o->long_name)
		snprintf(buf, len, "%s", o->long_name);
	else
		snprintf(buf, len, "%c", o->short_name);
}

/*
 * o's full text from DIR/NAME.md: its first line names the option as the
 * user writes it ("--freq", "-g"), a blank line, then the text. NULL, after
 * a warning, when the file is missing or names another option: the entry
 * then shows the table's help line, and tests/integration/test_docs.sh fails.
 */
static char *manual_read(const char *dir, const struct opt_def *o, char *path, size_t len,
			 const char **body)
{
	char name[64], want[72];
	char *text;
	size_t n;

	manual_name(o, name, sizeof(name));
	snprintf(path, len, "%s/%s.md", dir, name);
	snprintf(want, sizeof(want), o->long_name ? "--%s\n\n" : "-%s\n\n", name);
	text = roff_read_file(path);
	if (!text) {
		fprintf(stderr, "prec-docgen: warning: %.*s has no manual text: %s: %s\n",
			(int)strlen(want) - 2, want, path, strerror(errno));
		return NULL;
	}
	n = strlen(want);
	if (strncmp(text, want, n)) {
		fprintf(stderr,
			"prec-docgen: warning: %s: its first line must be '%.*s', then a blank line\n",
			path, (int)(n - 2), want);
		free(text);
		return NULL;
	}
	*body = text + n;
	return text;
}

/* ".TP" then "-e, --event event" in bold and italics, then the full text. */
static int man_option(FILE *f, const struct opt_def *o, const char *dir)
{
	char path[4096];
	const char *body = NULL;
	char *text = manual_read(dir, o, path, sizeof(path), &body);
	int ret = 0;

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
	if (text) {
		ret = roff_markup(f, body, ROFF_OPTION, path, 3);
	} else {
		roff_text(f, o->help);
		fputc('\n', f);
	}
	free(text);
	if (o->complete && o->complete[0] != '@') {
		fputs(".IP\nValues: ", f);
		roff_text(f, o->complete);
		fputs(".\n", f);
	}
	return ret;
}

/* A manual file that names no option of the table: a warning (the test fails). */
static void manual_orphans(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d) {
		fprintf(stderr, "prec-docgen: warning: %s: %s\n", dir, strerror(errno));
		return;
	}
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);
		bool found = false;

		if (len < 4 || strcmp(e->d_name + len - 3, ".md") ||
		    !strcmp(e->d_name, "README.md"))
			continue;
		for (size_t i = 0; i < opt_table_nr && !found; i++) {
			char name[64];

			manual_name(&opt_table[i], name, sizeof(name));
			found = strlen(name) == len - 3 && !strncmp(name, e->d_name, len - 3);
		}
		if (!found)
			fprintf(stderr, "prec-docgen: warning: %s/%s names no option prec takes\n",
				dir, e->d_name);
	}
	closedir(d);
}

static int man_options(FILE *f, const char *dir)
{
	const struct opt_def *order[opt_table_nr];
	int group = -1, ret = 0;

	opt__help_order(order);
	for (size_t i = 0; i < opt_table_nr && !ret; i++) {
		if ((int)order[i]->group != group) {
			group = order[i]->group;
			fprintf(f, ".SS \"%s\"\n",
				opt_group_title[group] ? opt_group_title[group] : "Other");
		}
		ret = man_option(f, order[i], dir);
	}
	manual_orphans(dir);
	return ret;
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

/* What a template's lines are filled from. */
struct gen {
	const char *tmpl; /* the template's path: @INCLUDE@ files are beside it */
	const char *manual_dir; /* the option texts (man only) */
	bool man;
};

/* "@INCLUDE FILE@": FILE (relative to the template's folder) as a section. */
static int include_section(FILE *f, const struct gen *g, const char *line)
{
	const char *slash = strrchr(g->tmpl, '/');
	const char *name = line + strlen("@INCLUDE ");
	size_t len = strcspn(name, "@");
	char path[4096];
	char *text;
	int ret;

	snprintf(path, sizeof(path), "%.*s%.*s", slash ? (int)(slash - g->tmpl + 1) : 0, g->tmpl,
		 (int)len, name);
	text = roff_read_file(path);
	if (!text) {
		fprintf(stderr, "prec-docgen: %s: %s\n", path, strerror(errno));
		return -1;
	}
	ret = roff_markup(f, text, ROFF_SECTION, path, 1);
	free(text);
	return ret;
}

/* One template line to f: a key replaced by what it stands for, @VERSION@ by
 * ours, any other line as it is. */
static int template_line(FILE *f, const struct gen *g, const char *line)
{
	const char *v = strstr(line, "@VERSION@");

	if (g->man && !strcmp(line, "@OPTIONS@\n"))
		return man_options(f, g->manual_dir);
	if (g->man && !strncmp(line, "@INCLUDE ", strlen("@INCLUDE ")))
		return include_section(f, g, line);
	if (!g->man && !strcmp(line, "@WORDS@\n")) {
		bash_words(f);
		bash_values(f);
	} else if (v) {
		fprintf(f, "%.*s%s%s", (int)(v - line), line, PREC_VERSION,
			v + strlen("@VERSION@"));
	} else {
		fputs(line, f);
	}
	return 0;
}

/* The template to OUT, line by line; OUT is removed when anything failed, so
 * the build does not take a half page for a whole one. */
static int from_template(const struct gen *g, const char *out)
{
	FILE *in = fopen(g->tmpl, "r");
	FILE *f = in ? fopen(out, "w") : NULL;
	char line[4096];
	int ret = 0;

	if (!f) {
		fprintf(stderr, "prec-docgen: %s: %s\n", in ? out : g->tmpl, strerror(errno));
		if (in)
			fclose(in);
		return 1;
	}
	while (!ret && fgets(line, sizeof(line), in))
		ret = template_line(f, g, line);
	if (ferror(in) || fclose(f)) {
		fprintf(stderr, "prec-docgen: writing %s failed\n", out);
		ret = 1;
	}
	fclose(in);
	if (ret)
		remove(out);
	return ret ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc == 5 && !strcmp(argv[1], "man"))
		return from_template(
			&(struct gen){ .tmpl = argv[2], .manual_dir = argv[3], .man = true },
			argv[4]);
	if (argc == 4 && !strcmp(argv[1], "bash"))
		return from_template(&(struct gen){ .tmpl = argv[2] }, argv[3]);
	if (argc == 3 && !strcmp(argv[1], "alias")) {
		FILE *f = fopen(argv[2], "w");

		if (!f || fputs(".so man1/prec.1\n", f) < 0 || fclose(f)) {
			fprintf(stderr, "prec-docgen: %s: %s\n", argv[2], strerror(errno));
			return 1;
		}
		return 0;
	}
	fprintf(stderr,
		"usage: prec-docgen man TEMPLATE MANUAL_DIR OUT, prec-docgen bash TEMPLATE OUT, "
		"or prec-docgen alias OUT\n");
	return 2;
}
