// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf's configuration file syntax (perfconfig_parse.h): a reader over a
 * buffer that takes the same lines perf 6.1 takes and stops at the same
 * line perf stops at. Pure, fuzzed (tests/fuzz/fuzz_perfconfig.c).
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>

#include "prec/number.h"
#include "options/perfconfig_parse.h"

struct cfg_lexer {
	const unsigned char *p;
	size_t len, pos;
	int line; /* perf's count: 1, plus every newline read so far */
	int byte_line; /* the line the last byte read is on (its newline's too) */
	bool eof;
	char var[PERFCONFIG_NAME_MAX];
	char value[PERFCONFIG_VALUE_MAX];
};

/*
 * The byte classes of perf's ctype (tools/lib/ctype.c, the kernel's): ASCII,
 * plus Latin-1 above 0x7f: 0xa0 a blank, 0xc0-0xde but 0xd7 upper-case
 * letters, 0xdf-0xff but 0xf7 lower-case ones. A UTF-8 name means to perf
 * what these say of its bytes.
 */
static bool is_upper(int c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 0xc0 && c <= 0xde && c != 0xd7);
}

static bool is_alpha(int c)
{
	return is_upper(c) || (c >= 'a' && c <= 'z') || (c >= 0xdf && c != 0xf7);
}

static bool is_key_char(int c)
{
	return is_alpha(c) || (c >= '0' && c <= '9') || c == '-' || c == '_';
}

static int lower(int c)
{
	return is_upper(c) ? c + ('a' - 'A') : c;
}

static bool blank(int c)
{
	return c == 0xa0 || (c >= 0 && c < 0x80 && text__is_blank((char)c));
}

/* The next byte; CRLF reads as one newline; past the end, newlines. */
static int lex_next(struct cfg_lexer *lx)
{
	int c;

	lx->byte_line = lx->line;
	if (lx->pos >= lx->len) {
		lx->eof = true;
		return '\n';
	}
	c = lx->p[lx->pos++];
	if (c == '\r' && lx->pos < lx->len && lx->p[lx->pos] == '\n')
		c = lx->p[lx->pos++];
	if (c == '\n')
		lx->line++;
	return c;
}

/* A value up to the end of its line (lx->value), or NULL for one perf
 * rejects: an open quote at the end, an unknown escape, too long. */
static const char *lex_value(struct cfg_lexer *lx)
{
	bool quote = false, comment = false, space = false;
	size_t n = 0;

	for (;;) {
		int c = lex_next(lx);

		if (n >= sizeof(lx->value) - 1)
			return NULL;
		if (c == '\n') {
			if (quote)
				return NULL;
			lx->value[n] = '\0';
			return lx->value;
		}
		if (comment)
			continue;
		if (blank(c) && !quote) {
			space = true;
			continue;
		}
		if (!quote && (c == ';' || c == '#')) {
			comment = true;
			continue;
		}
		if (space) {
			if (n)
				lx->value[n++] = ' ';
			space = false;
		}
		if (c == '\\') {
			c = lex_next(lx);
			if (c == '\n')
				continue; /* the value goes on on the next line */
			if (c == 't')
				c = '\t';
			else if (c == 'b')
				c = '\b';
			else if (c == 'n')
				c = '\n';
			else if (c != '\\' && c != '"')
				return NULL;
			lx->value[n++] = (char)c;
			continue;
		}
		if (c == '"') {
			quote = !quote;
			continue;
		}
		lx->value[n++] = (char)c;
	}
}

/* The rest of a name whose first len bytes are in lx->var, then "= value"
 * or nothing; the setting goes to fn. -EINVAL for a line perf rejects. */
static int lex_setting(struct cfg_lexer *lx, size_t len, perfconfig_fn fn, void *data, int line)
{
	const char *value = NULL;
	int c;

	for (;;) {
		c = lex_next(lx);
		if (lx->eof || !is_key_char(c))
			break;
		lx->var[len++] = (char)c;
		if (len >= sizeof(lx->var))
			return -EINVAL;
	}
	lx->var[len] = '\0';
	while (c == ' ' || c == '\t')
		c = lex_next(lx);
	if (c != '\n') {
		if (c != '=')
			return -EINVAL;
		value = lex_value(lx);
		if (!value)
			return -EINVAL;
	}
	return fn(lx->var, value, line, data);
}

/* [section "sub"] after "[section" and the blank c: the length of
 * "section.sub" in lx->var, or -EINVAL. */
static int lex_subsection(struct cfg_lexer *lx, int len, int c)
{
	do {
		if (c == '\n')
			return -EINVAL;
		c = lex_next(lx);
	} while (blank(c));
	if (c != '"')
		return -EINVAL;
	lx->var[len++] = '.';
	for (;;) {
		c = lex_next(lx);
		if (c == '\n')
			return -EINVAL;
		if (c == '"')
			break;
		if (c == '\\') {
			c = lex_next(lx);
			if (c == '\n')
				return -EINVAL;
		}
		lx->var[len++] = (char)c;
		if (len > PERFCONFIG_NAME_MAX / 2)
			return -EINVAL;
	}
	return lex_next(lx) == ']' ? len : -EINVAL;
}

/* A section header after its '[': the length of its name in lx->var, or
 * -EINVAL (an empty name too). */
static int lex_section(struct cfg_lexer *lx)
{
	int len = 0;

	for (;;) {
		int c = lex_next(lx);

		if (lx->eof)
			return -EINVAL;
		if (c == ']')
			return len ? len : -EINVAL;
		if (blank(c))
			return lex_subsection(lx, len, c);
		if (!is_key_char(c) && c != '.')
			return -EINVAL;
		if (len > PERFCONFIG_NAME_MAX / 2)
			return -EINVAL;
		lx->var[len++] = (char)lower(c);
	}
}

/* A UTF-8 byte order mark at the start: skipped; a part of one: an error
 * on the line of the byte that broke it, as perf counts it. */
static int lex_bom(struct cfg_lexer *lx)
{
	static const unsigned char bom[3] = { 0xef, 0xbb, 0xbf };
	size_t i = 0;

	while (i < sizeof(bom) && lx->pos < lx->len && lx->p[lx->pos] == bom[i]) {
		lx->pos++;
		i++;
	}
	if (i == 0 || i == sizeof(bom))
		return 0;
	lex_next(lx);
	return -EINVAL;
}

int perfconfig__parse(const char *buf, size_t len, perfconfig_fn fn, void *data, int *bad_line,
		      int *perf_line)
{
	struct cfg_lexer lx = { .p = (const unsigned char *)buf, .len = len, .line = 1 };
	bool comment = false;
	int section = 0, ret = 0;

	if (lex_bom(&lx))
		goto bad;
	for (;;) {
		int c = lex_next(&lx), line;

		if (c == '\n') {
			if (lx.eof)
				return 0;
			comment = false;
			continue;
		}
		if (comment || blank(c))
			continue;
		if (c == '#' || c == ';') {
			comment = true;
			continue;
		}
		if (c == '[') {
			section = lex_section(&lx);
			if (section < 0)
				goto bad;
			lx.var[section++] = '.';
			continue;
		}
		if (!is_alpha(c))
			goto bad;
		/* perf lowers the name's first letter only. */
		lx.var[section] = (char)lower(c);
		line = lx.line;
		ret = lex_setting(&lx, (size_t)section + 1, fn, data, line);
		if (ret) {
			/* a setting's error is on the line its name starts on */
			lx.line = lx.byte_line = line;
			goto bad;
		}
	}
bad:
	*bad_line = lx.byte_line;
	if (perf_line)
		*perf_line = lx.line;
	return ret ? ret : -EINVAL;
}
