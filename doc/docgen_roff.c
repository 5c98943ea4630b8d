// SPDX-License-Identifier: GPL-2.0-only
/*
 * The manual's markup -> man(7) roff (docgen_roff.h). The markup is defined
 * in recorder/options/manual/README.md: blocks separated by blank lines (a
 * paragraph, "- " list items, lines indented four spaces shown as they are,
 * "# "/"## " headings and ": " terms in sections), `code` in bold. It is
 * small on purpose: enough for a man page, nothing a reader of the plain
 * files has to learn.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "docgen_roff.h"

struct md {
	FILE *f;
	enum roff_ctx ctx;
	const char *path;
	int lineno; /* of the block's first line, for messages */
	bool first; /* nothing written yet: an option's first paragraph follows its tag */
	bool after_term; /* the previous block was a term or its continuation */
	bool code; /* inside a `code span` */
};

/* A dash that starts a word is an option's (or a number's) minus sign. */
static bool dash_word(const char *s, const char *p)
{
	return p == s || p[-1] == ' ' || p[-1] == '(' || p[-1] == '-' || p[-1] == '\'' ||
	       p[-1] == '/';
}

void roff_text(FILE *f, const char *s)
{
	if (*s == '.' || *s == '\'')
		fputs("\\&", f);
	for (const char *p = s; *p; p++) {
		if (*p == '\\')
			fputs("\\e", f);
		else if (*p == '-' && dash_word(s, p))
			fputs("\\-", f);
		else
			fputc(*p, f);
	}
}

static int md_error(const struct md *md, int line, const char *what)
{
	fprintf(stderr, "prec-docgen: %s:%d: %s\n", md->path, line, what);
	return -1;
}

/* One source line (len bytes, leading blanks dropped) as one roff line, with
 * its `code` in bold; a code span may go on over the next line. */
static int md_line(struct md *md, const char *s, size_t len, int line)
{
	const char *start, *end = s + len;

	while (s < end && *s == ' ')
		s++;
	start = s;
	for (const char *p = s; p < end; p++) {
		if ((unsigned char)*p >= 0x80)
			return md_error(md, line, "non-ASCII byte: write ASCII (x, -, >=)");
		if (*p == '`') {
			md->code = !md->code;
			fputs(md->code ? "\\fB" : "\\fR", md->f);
			continue;
		}
		if (p == start && (*p == '.' || *p == '\''))
			fputs("\\&", md->f);
		if (*p == '\\')
			fputs("\\e", md->f);
		else if (*p == '-' && (md->code || dash_word(start, p)))
			fputs("\\-", md->f);
		else
			fputc(*p, md->f);
	}
	fputc('\n', md->f);
	return 0;
}

/* A source line: where it starts and how long it is, trailing blanks off. */
struct src_line {
	const char *s;
	size_t len;
};

static bool starts(const struct src_line *l, const char *prefix)
{
	size_t n = strlen(prefix);

	return l->len >= n && !strncmp(l->s, prefix, n);
}

/* Lines of a block from the first to n, each through md_line. */
static int md_lines(struct md *md, const struct src_line *l, int n, size_t skip_first)
{
	for (int i = 0; i < n; i++) {
		size_t skip = i ? 0 : skip_first;

		if (md_line(md, l[i].s + skip, l[i].len - skip, md->lineno + i))
			return -1;
	}
	return 0;
}

/* "- " items: a bullet each; lines that do not start with "- " go on the item. */
static int md_list(struct md *md, const struct src_line *l, int n)
{
	if (md->ctx == ROFF_OPTION)
		fputs(".RS\n", md->f);
	for (int i = 0; i < n; i++) {
		size_t skip = 0;

		if (starts(&l[i], "- ")) {
			fputs(".IP \\(bu 2\n", md->f);
			skip = 2;
		}
		if (md_line(md, l[i].s + skip, l[i].len - skip, md->lineno + i))
			return -1;
	}
	if (md->ctx == ROFF_OPTION)
		fputs(".RE\n", md->f);
	return 0;
}

/* Lines indented four spaces: shown as written (commands, output), indented. */
static int md_literal(struct md *md, const struct src_line *l, int n)
{
	if (md->ctx == ROFF_OPTION)
		fputs(".RS\n", md->f);
	fputs(".PP\n.RS 4\n.nf\n", md->f);
	for (int i = 0; i < n; i++) {
		if (!starts(&l[i], "    "))
			return md_error(md, md->lineno + i,
					"a literal block's lines all start with four spaces");
		if (l[i].s[4] == '.' || l[i].s[4] == '\'')
			fputs("\\&", md->f);
		for (size_t k = 4; k < l[i].len; k++) {
			if ((unsigned char)l[i].s[k] >= 0x80)
				return md_error(md, md->lineno + i, "non-ASCII byte: write ASCII");
			if (l[i].s[k] == '\\')
				fputs("\\e", md->f);
			else if (l[i].s[k] == '-')
				fputs("\\-", md->f);
			else
				fputc(l[i].s[k], md->f);
		}
		fputc('\n', md->f);
	}
	fputs(".fi\n.RE\n", md->f);
	if (md->ctx == ROFF_OPTION)
		fputs(".RE\n", md->f);
	return 0;
}

/* "# TITLE" (.SH) or "## Title" (.SS): one line, sections only. */
static int md_heading(struct md *md, const struct src_line *l, int n)
{
	bool sub = starts(l, "## ");
	char title[256];
	size_t skip = sub ? 3 : 2;

	if (md->ctx != ROFF_SECTION)
		return md_error(md, md->lineno, "no headings in an option's text");
	if (n != 1 || l->len - skip >= sizeof(title) || memchr(l->s, '"', l->len) ||
	    memchr(l->s, '`', l->len))
		return md_error(md, md->lineno,
				"a heading is one line of its own, without \" or `");
	memcpy(title, l->s + skip, l->len - skip);
	title[l->len - skip] = '\0';
	fputs(sub ? ".SS \"" : ".SH \"", md->f);
	roff_text(md->f, title);
	fputs("\"\n", md->f);
	return 0;
}

/* One block (n lines, no blank one) by the look of its first line. */
static int md_block(struct md *md, const struct src_line *l, int n)
{
	bool term = starts(l, ": ");
	int ret;

	if (starts(l, "# ") || starts(l, "## "))
		ret = md_heading(md, l, n);
	else if (starts(l, "- "))
		ret = md_list(md, l, n);
	else if (starts(l, "    "))
		ret = md_literal(md, l, n);
	else if (term || starts(l, "  ")) {
		if (md->ctx != ROFF_SECTION || (!term && !md->after_term))
			return md_error(
				md, md->lineno,
				term ? "no terms in an option's text" :
				       "an indented paragraph goes on a term (\": \") above it");
		fputs(term ? ".TP\n" : ".IP\n", md->f);
		ret = md_lines(md, l, n, term ? 2 : 0);
	} else {
		if (!md->first || md->ctx == ROFF_SECTION)
			fputs(md->ctx == ROFF_OPTION ? ".IP\n" : ".PP\n", md->f);
		ret = md_lines(md, l, n, 0);
	}
	if (!ret && md->code)
		return md_error(md, md->lineno, "a ` opened in this block is not closed");
	md->after_term = term || (md->after_term && starts(l, "  ") && !starts(l, "    "));
	md->first = false;
	return ret;
}

int roff_markup(FILE *f, const char *text, enum roff_ctx ctx, const char *path, int first_line)
{
	struct md md = { .f = f, .ctx = ctx, .path = path, .first = true };
	struct src_line *lines = NULL;
	int n = 0, cap = 0, ret = 0;

	for (const char *p = text; *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		if (n == cap) {
			struct src_line *more =
				realloc(lines, (size_t)(cap = cap * 2 + 64) * sizeof(*lines));

			if (!more) {
				free(lines);
				return md_error(&md, first_line + n, strerror(ENOMEM));
			}
			lines = more;
		}
		lines[n].s = p;
		p += nl ? len + 1 : len;
		while (len && (lines[n].s[len - 1] == ' ' || lines[n].s[len - 1] == '\t' ||
			       lines[n].s[len - 1] == '\r'))
			len--;
		lines[n++].len = len;
		if (!nl)
			break;
	}
	for (int i = 0; i < n && !ret;) {
		int j = i;

		if (!lines[i].len) {
			i++;
			continue;
		}
		while (j < n && lines[j].len)
			j++;
		md.lineno = first_line + i;
		ret = md_block(&md, lines + i, j - i);
		i = j;
	}
	free(lines);
	return ret;
}

char *roff_read_file(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0, cap = 0;

	if (!f)
		return NULL;
	for (;;) {
		if (cap - len < 4096) {
			char *more = realloc(buf, cap = cap * 2 + 8192);

			if (!more) {
				free(buf);
				fclose(f);
				errno = ENOMEM;
				return NULL;
			}
			buf = more;
		}
		size_t got = fread(buf + len, 1, cap - len - 1, f);

		len += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		free(buf);
		fclose(f);
		errno = EIO;
		return NULL;
	}
	fclose(f);
	buf[len] = '\0';
	return buf;
}
