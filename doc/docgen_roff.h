/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_DOC_DOCGEN_ROFF_H
#define PREC_DOC_DOCGEN_ROFF_H
/*
 * The manual's plain-text markup turned into man(7) roff, for prec-docgen:
 * the option texts (recorder/options/manual/, whose README.md defines the
 * markup) and the page's other sections (doc/manual/). Kept apart from the
 * generator so the markup has one reader.
 */
#include <stdio.h>

/* Where a text goes: a section of its own (headings, terms allowed), or the
 * body of one option's .TP entry (paragraphs, lists, literal lines). */
enum roff_ctx {
	ROFF_SECTION,
	ROFF_OPTION,
};

/* Plain text into roff on the current line: backslashes escaped, an option's
 * dashes as \- (so they copy and search as ASCII), a leading . or ' made
 * literal. */
void roff_text(FILE *f, const char *s);

/*
 * Renders text (NUL-terminated, the markup of recorder/options/manual/
 * README.md) to f. path and first_line (the number of text's first line in
 * that file) name the source in messages. Returns 0, or -1 after one line on
 * stderr naming path:line for what the markup does not take there (a heading
 * in an option, a non-ASCII byte, an unclosed `).
 */
int roff_markup(FILE *f, const char *text, enum roff_ctx ctx, const char *path, int first_line);

/* The whole file at path, NUL-terminated (caller frees); NULL with errno set. */
char *roff_read_file(const char *path);

#endif
