// SPDX-License-Identifier: GPL-2.0-only
/*
 * The option table as the user reads it: --help in sections, perf's column
 * layout, and `prec -h NAME...` (perf record -h NAME's rule for which rows a
 * word picks). The man page and the completion (doc/) take the same order.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options/options.h"
#include "options/options_int.h"

/* perf's parse-options layout: the help starts at column 4 + 24 - 4 + 2. */
#define USAGE_OPTS_WIDTH 24
#define USAGE_GAP 2

static const char usage_line[] = " Usage: prec [record] [<options>] [--] <command> [<args>]\n"
				 "    or: prec [record] [<options>] -- <command> [<options>]\n";

/* perf's option__cmp: by short name (case-blind; none last), then long name. */
static int opt__cmp_perf(const struct opt_def *a, const struct opt_def *b)
{
	int sa = a->short_name ? tolower((unsigned char)a->short_name) : 'z' + 1;
	int sb = b->short_name ? tolower((unsigned char)b->short_name) : 'z' + 1;

	if (sa != sb)
		return sa - sb;
	return strcmp(a->long_name ? a->long_name : "", b->long_name ? b->long_name : "");
}

static int opt__cmp_help(const void *va, const void *vb)
{
	const struct opt_def *a = *(const struct opt_def *const *)va;
	const struct opt_def *b = *(const struct opt_def *const *)vb;

	if (a->group != b->group)
		return (int)a->group - (int)b->group;
	return opt__cmp_perf(a, b);
}

void opt__help_order(const struct opt_def **out)
{
	for (size_t i = 0; i < opt_table_nr; i++)
		out[i] = &opt_table[i];
	qsort(out, opt_table_nr, sizeof(*out), opt__cmp_help);
}

int opt__usage_left(const struct opt_def *o, char *buf, size_t len)
{
	const char *arg = o->arg_name;
	int n;

	/* A row without a short name keeps that name's four columns blank. */
	if (o->short_name)
		n = snprintf(buf, len, "-%c%s", o->short_name, o->long_name ? ", " : "");
	else
		n = snprintf(buf, len, "    ");
	if (o->long_name)
		n += snprintf(buf + n, len - n, "--%s", o->long_name);
	if (!arg)
		return n;
	if (o->has_arg == 2)
		n += snprintf(buf + n, len - n, o->long_name ? "[=<%s>]" : "[<%s>]", arg);
	else
		n += snprintf(buf + n, len - n, " <%s>", arg);
	return n;
}

/* The row's help line(s) in perf's layout to f. */
static void opt__print_usage(FILE *f, const struct opt_def *o)
{
	char left[128];
	int pos = 4 + opt__usage_left(o, left, sizeof(left));

	/* perf's rule: a left part too wide for its column puts the help under it. */
	if (pos <= USAGE_OPTS_WIDTH)
		fprintf(f, "    %s%*s%s\n", left, USAGE_OPTS_WIDTH - pos + USAGE_GAP, "", o->help);
	else
		fprintf(f, "    %s\n%*s%s\n", left, USAGE_OPTS_WIDTH + USAGE_GAP, "", o->help);
}

/* perf record -h WORD's rule: "-c", "--name", "c" name the row; another word
 * picks a row whose long name it is or whose help holds it (any case). */
static bool opt__matches(const struct opt_def *o, const char *word)
{
	if (word[0] == '-') {
		if (word[1] == '-')
			return o->long_name && !strcmp(o->long_name, word + 2);
		return word[1] && !word[2] && word[1] == o->short_name;
	}
	if (!word[0])
		return false;
	if (!word[1])
		return word[0] == o->short_name;
	return (o->long_name && !strcmp(o->long_name, word)) || strcasestr(o->help, word);
}

void options__usage(void)
{
	const struct opt_def *order[opt_table_nr];
	int group = OPT_GROUP_NONE;

	opt__help_order(order);
	printf("\n%s", usage_line);
	for (size_t i = 0; i < opt_table_nr; i++) {
		if ((int)order[i]->group != group) {
			group = order[i]->group;
			printf("\n%s\n", opt_group_title[group] ? opt_group_title[group] : "Other");
		}
		opt__print_usage(stdout, order[i]);
	}
}

/* The words that picked nothing, each quoted, after "no option matches ";
 * NULL when out of memory. */
static char *unmatched_words(int nr, char *const *names)
{
	char *line = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&line, &len);
	bool first = true;

	if (!f)
		return NULL;
	for (int w = 0; w < nr; w++) {
		bool hit = false;

		for (size_t i = 0; i < opt_table_nr && !hit; i++)
			hit = opt__matches(&opt_table[i], names[w]);
		if (hit)
			continue;
		fprintf(f, "%s'%s'", first ? "no option matches " : ", ", names[w]);
		first = false;
	}
	if (fclose(f)) {
		free(line);
		return NULL;
	}
	return line;
}

int options__usage_of(int nr, char *const *names, struct prec_err *e)
{
	const struct opt_def *order[opt_table_nr];
	char *words = unmatched_words(nr, names);

	if (!words)
		return prec_err__set(e, -ENOMEM, "out of memory (free some memory and retry)");
	if (*words) {
		/* One line naming every word that picked nothing. */
		prec_err__set(
			e, -ENOENT,
			"%s (give an option's name, letter or a word of its help; 'prec --help' lists them all)",
			words);
		free(words);
		return -ENOENT;
	}
	free(words);
	opt__help_order(order);
	printf("\n%s\n", usage_line);
	for (size_t i = 0; i < opt_table_nr; i++)
		for (int w = 0; w < nr; w++)
			if (opt__matches(order[i], names[w])) {
				opt__print_usage(stdout, order[i]);
				break;
			}
	return 0;
}

/* perf's commands other than record: what `prec NAME` was likely meant as,
 * each with its whole hint (no buffer: the text is built at compile time). */
#define PERF_COMMAND(name)                                                              \
	{                                                                               \
		name, "prec only records, as perf record; run 'perf " name "' for that" \
	}
static const struct {
	const char *name;
	const char *hint;
} perf_commands[] = {
	PERF_COMMAND("annotate"),      PERF_COMMAND("archive"),	     PERF_COMMAND("bench"),
	PERF_COMMAND("buildid-cache"), PERF_COMMAND("buildid-list"), PERF_COMMAND("c2c"),
	PERF_COMMAND("config"),	       PERF_COMMAND("daemon"),	     PERF_COMMAND("data"),
	PERF_COMMAND("diff"),	       PERF_COMMAND("evlist"),	     PERF_COMMAND("ftrace"),
	PERF_COMMAND("inject"),	       PERF_COMMAND("iostat"),	     PERF_COMMAND("kallsyms"),
	PERF_COMMAND("kmem"),	       PERF_COMMAND("kvm"),	     PERF_COMMAND("kwork"),
	PERF_COMMAND("list"),	       PERF_COMMAND("lock"),	     PERF_COMMAND("mem"),
	PERF_COMMAND("probe"),	       PERF_COMMAND("report"),	     PERF_COMMAND("sched"),
	PERF_COMMAND("script"),	       PERF_COMMAND("stat"),	     PERF_COMMAND("test"),
	PERF_COMMAND("timechart"),     PERF_COMMAND("top"),	     PERF_COMMAND("trace"),
};

const char *options__not_found_hint(const char *command)
{
	if (!strcmp(command, "help"))
		return "prec records a command; 'prec --help' lists its options, 'man prec' is the manual";
	if (!strcmp(command, "version"))
		return "'prec --version' prints prec's version";
	for (size_t i = 0; i < sizeof(perf_commands) / sizeof(perf_commands[0]); i++)
		if (!strcmp(command, perf_commands[i].name))
			return perf_commands[i].hint;
	return "check the command name and $PATH";
}
