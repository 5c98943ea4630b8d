// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf_map__parse_line on a table of real and hostile lines (what node,
 * Java, perf-map-agent and Python write, and every way a line can break),
 * and perf_map__parse fed a file whole, byte by byte and in odd chunks: the
 * same entries and counts each way, long lines skipped across calls, the
 * callback's stop.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "recorder/names/perf_map.h"

struct row {
	const char *line;
	size_t len; /* 0: strlen */
	int ret;
	uint64_t start, size;
	const char *name;
};

/* clang-format off */
#define OK(l, s, z, n) { .line = l, .ret = 0, .start = s, .size = z, .name = n }
#define OKN(l, s, z, n) { .line = l, .len = sizeof(l) - 1, .ret = 0, .start = s, .size = z, .name = n }
#define BAD(l) { .line = l, .ret = -EINVAL }
#define BADN(l) { .line = l, .len = sizeof(l) - 1, .ret = -EINVAL }
#define EMPTY(l) { .line = l, .ret = 1 }

static const struct row rows[] = {
	/* what the writers write */
	OK("18c4000 300 Builtin:DeoptimizationEntry_Eager", 0x18c4000, 0x300,
	   "Builtin:DeoptimizationEntry_Eager"),
	OK("3d1c7e4a7c0 5c JS:^ [eval]:1:1", 0x3d1c7e4a7c0ULL, 0x5c, "JS:^ [eval]:1:1"),
	OK("0x7f3a2c01e2a0 0x1a0 Interpreter", 0x7f3a2c01e2a0ULL, 0x1a0, "Interpreter"),
	OK("7F3A2C01E2A0 1A0 LoopHeader::run()", 0x7f3a2c01e2a0ULL, 0x1a0, "LoopHeader::run()"),
	OK("0X10 0Xff py::f:/tmp/x.py", 0x10, 0xff, "py::f:/tmp/x.py"),
	OK("7f00 10 void Foo.bar(java.lang.String, int)", 0x7f00, 0x10,
	   "void Foo.bar(java.lang.String, int)"),
	/* blanks: any run of spaces and tabs between fields, leading ones too */
	OK("  1000\t\t20  \t foo", 0x1000, 0x20, "foo"),
	OK("1000 20 foo bar  ", 0x1000, 0x20, "foo bar  "),
	/* CRLF: the '\r' is not the name's */
	OK("1000 20 foo\r", 0x1000, 0x20, "foo"),
	OK("1000 20 foo\r\r", 0x1000, 0x20, "foo\r"),
	/* short names are entries (perf drops names under 3 bytes) */
	OK("1000 20 f", 0x1000, 0x20, "f"),
	OK("1000 20 ab", 0x1000, 0x20, "ab"),
	/* size 0 is delivered; the store decides */
	OK("1000 0 zero", 0x1000, 0, "zero"),
	/* leading zeros past 16 digits are still a 64-bit value */
	OK("00000000000000001000 0000000000000000020 z", 0x1000, 0x20, "z"),
	/* the end of the address space: start + size up to UINT64_MAX */
	OK("fffffffffffffff0 f top", 0xfffffffffffffff0ULL, 0xf, "top"),
	OK("ffffffffffffffff 0 last", UINT64_MAX, 0, "last"),
	/* a NUL ends the name, as in perf's C string */
	OKN("1000 20 ab\0cd", 0x1000, 0x20, "ab"),

	/* empty lines: neither entry nor malformed */
	EMPTY(""),
	EMPTY("\r"),

	/* broken */
	BAD("   "),
	BAD("1000"),
	BAD("1000 "),
	BAD("1000 20"),
	BAD("1000 20 "),
	BAD("1000 20 \t "),
	BAD("1000 20\r"),
	BAD("1000 20 \r"),
	BADN("1000 20 \0name"),
	BADN("1000\0 20 name"),
	BAD("xyz 20 name"),
	BAD("1000 2g name"),
	BAD("10g0 20 name"),
	BAD("-1000 20 name"),
	BAD("+1000 20 name"),
	BAD("1000 -20 name"),
	BAD("0x 20 name"),
	BAD("1000 0x name"),
	BAD("1000,20,name"),
	BAD("1000:20 name"),
	BAD("10000000000000000 1 over"),
	BAD("1 10000000000000000 over"),
	BAD("fffffffffffffff0 10 wraps-to-zero"),
	BAD("fffffffffffffff0 11 wraps"),
	BAD("1 ffffffffffffffff wraps"),
	BAD("ffffffffffffffff ffffffffffffffff wraps"),
	BAD("1000\v20 name"),
};
/* clang-format on */

static void test_lines(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct row *r = &rows[i];
		size_t len = r->len ? r->len : strlen(r->line);
		/* An exact-size copy, so a read past the line is caught under ASan. */
		char *buf = malloc(len ? len : 1);
		struct perf_map_entry e;
		int ret;

		assert_non_null(buf);
		memcpy(buf, r->line, len);
		ret = perf_map__parse_line(buf, len, &e);
		if (ret != r->ret)
			fail_msg("row %zu \"%s\": got %d, want %d", i, r->line, ret, r->ret);
		if (!ret) {
			assert_int_equal(e.start, r->start);
			assert_int_equal(e.size, r->size);
			if (e.name_len != strlen(r->name) || memcmp(e.name, r->name, e.name_len))
				fail_msg("row %zu: name \"%.*s\", want \"%s\"", i, (int)e.name_len,
					 e.name, r->name);
			assert_true(e.name >= buf && e.name + e.name_len <= buf + len);
		}
		free(buf);
	}
}

static void test_line_max(void **state)
{
	char *line = malloc(PERF_MAP_LINE_MAX + 1);
	struct perf_map_entry e;

	(void)state;
	assert_non_null(line);
	memset(line, 'n', PERF_MAP_LINE_MAX + 1);
	memcpy(line, "1000 20 ", 8);
	assert_int_equal(perf_map__parse_line(line, PERF_MAP_LINE_MAX, &e), 0);
	assert_int_equal(e.name_len, PERF_MAP_LINE_MAX - 8);
	assert_int_equal(perf_map__parse_line(line, PERF_MAP_LINE_MAX + 1, &e), -EINVAL);
	free(line);
}

/* What the callback saw: names joined, one per line, and the entries' numbers. */
struct seen {
	char text[1 << 16];
	size_t len;
	uint64_t sum;
	int nr, stop_at;
};

static int seen__cb(const struct perf_map_entry *e, void *arg)
{
	struct seen *s = arg;
	int n = snprintf(s->text + s->len, sizeof(s->text) - s->len, "%llx %llx %.*s|",
			 (unsigned long long)e->start, (unsigned long long)e->size,
			 (int)e->name_len, e->name);

	assert_true(n > 0 && (size_t)n < sizeof(s->text) - s->len);
	s->len += (size_t)n;
	s->sum += e->start + e->size;
	if (++s->nr == s->stop_at)
		return -ECANCELED;
	return 0;
}

/*
 * Feeds file[0..len) as a reader of a growing file does: chunks of size
 * step (0: all at once), the unconsumed tail kept and grown, at_eof with the
 * last chunk. The buffer never holds more than PERF_MAP_LINE_MAX + step.
 */
static ssize_t feed(const char *file, size_t len, size_t step, struct perf_map_parser *p,
		    struct seen *s)
{
	size_t cap = PERF_MAP_LINE_MAX + (step ? step : len) + 1;
	char *buf = malloc(cap);
	size_t have = 0, off = 0;
	ssize_t n = 0;

	assert_non_null(buf);
	perf_map__init(p);
	for (;;) {
		size_t take = step ? step : len;
		bool eof;

		if (take > len - off)
			take = len - off;
		assert_true(have + take <= cap);
		memcpy(buf + have, file + off, take);
		have += take;
		off += take;
		eof = off == len;
		n = perf_map__parse(p, buf, have, eof, seen__cb, s);
		if (n < 0)
			break;
		assert_true((size_t)n <= have);
		memmove(buf, buf + n, have - (size_t)n);
		have -= (size_t)n;
		assert_true(have <= PERF_MAP_LINE_MAX);
		if (eof) {
			assert_int_equal(have, 0);
			break;
		}
	}
	free(buf);
	return n < 0 ? n : 0;
}

/* A file with every kind of line, a too-long one in the middle, no final '\n'. */
static char *make_file(size_t *lenp)
{
	size_t cap = 3 * PERF_MAP_LINE_MAX + 4096, len = 0;
	char *f = malloc(cap);

	assert_non_null(f);
	len += (size_t)sprintf(f + len, "18c4000 300 Builtin:DeoptimizationEntry_Eager\n");
	len += (size_t)sprintf(f + len, "18c4340 304 Builtin:DeoptimizationEntry_Lazy\r\n");
	len += (size_t)sprintf(f + len, "\n");
	len += (size_t)sprintf(f + len, "garbage line\n");
	len += (size_t)sprintf(f + len, "1000 0 zero\n");
	/* a line of PERF_MAP_LINE_MAX + 100 bytes */
	len += (size_t)sprintf(f + len, "2000 10 ");
	memset(f + len, 'L', PERF_MAP_LINE_MAX + 100 - 8);
	len += PERF_MAP_LINE_MAX + 100 - 8;
	f[len++] = '\n';
	/* one of exactly PERF_MAP_LINE_MAX bytes is kept */
	len += (size_t)sprintf(f + len, "3000 10 ");
	memset(f + len, 'K', PERF_MAP_LINE_MAX - 8);
	len += PERF_MAP_LINE_MAX - 8;
	f[len++] = '\n';
	memcpy(f + len, "4000 10 a\0b\n", 12);
	len += 12;
	len += (size_t)sprintf(f + len, "0x5000\t0x20  \tJS:*f [eval]:1:11");
	*lenp = len;
	return f;
}

static void test_chunks_agree(void **state)
{
	static const size_t steps[] = { 0, 1, 2, 3, 7, 64, 4095, 4096, 4097, 5000 };
	struct perf_map_parser whole, p;
	struct seen *ref = calloc(1, sizeof(*ref)), *s = calloc(1, sizeof(*s));
	size_t len;
	char *f = make_file(&len);

	(void)state;
	assert_non_null(ref);
	assert_non_null(s);
	assert_int_equal(feed(f, len, 0, &whole, ref), 0);
	assert_int_equal(whole.stats.lines, 9);
	assert_int_equal(whole.stats.entries, 6);
	assert_int_equal(whole.stats.malformed, 2);
	assert_int_equal(ref->nr, 6);
	assert_non_null(strstr(ref->text, "18c4340 304 Builtin:DeoptimizationEntry_Lazy|"));
	assert_non_null(strstr(ref->text, "|1000 0 zero|"));
	assert_non_null(strstr(ref->text, "|4000 10 a|5000 20 JS:*f [eval]:1:11|"));
	assert_null(strstr(ref->text, "2000 10"));
	assert_non_null(strstr(ref->text, "3000 10 KKK"));
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		memset(s, 0, sizeof(*s));
		assert_int_equal(feed(f, len, steps[i], &p, s), 0);
		if (strcmp(s->text, ref->text) || memcmp(&p.stats, &whole.stats, sizeof(p.stats)))
			fail_msg("step %zu: %llu lines %llu entries %llu malformed", steps[i],
				 (unsigned long long)p.stats.lines,
				 (unsigned long long)p.stats.entries,
				 (unsigned long long)p.stats.malformed);
	}
	free(f);
	free(ref);
	free(s);
}

static void test_cut_line_waits(void **state)
{
	struct perf_map_parser p;
	struct seen s = { 0 };

	(void)state;
	perf_map__init(&p);
	assert_int_equal(perf_map__parse(&p, "1000 20 a\n2000 2", 16, false, seen__cb, &s), 10);
	assert_int_equal(p.stats.lines, 1);
	assert_int_equal(perf_map__parse(&p, "2000 2", 6, false, seen__cb, &s), 0);
	assert_int_equal(perf_map__parse(&p, "2000 20 b", 9, true, seen__cb, &s), 9);
	assert_string_equal(s.text, "1000 20 a|2000 20 b|");
	assert_int_equal(p.stats.entries, 2);
	/* nothing at all */
	assert_int_equal(perf_map__parse(&p, "", 0, true, seen__cb, &s), 0);
	assert_int_equal(p.stats.lines, 2);
}

static void test_long_line_without_newline_at_eof(void **state)
{
	struct perf_map_parser p;
	struct seen s = { 0 };
	char *buf = malloc(PERF_MAP_LINE_MAX + 10);

	(void)state;
	assert_non_null(buf);
	memset(buf, 'x', PERF_MAP_LINE_MAX + 10);
	perf_map__init(&p);
	assert_int_equal(perf_map__parse(&p, buf, PERF_MAP_LINE_MAX + 1, false, seen__cb, &s),
			 PERF_MAP_LINE_MAX + 1);
	assert_true(p.skipping);
	/* the rest of it at EOF, then the parser is ready for a new file's lines */
	assert_int_equal(perf_map__parse(&p, buf, 9, true, seen__cb, &s), 9);
	assert_false(p.skipping);
	assert_int_equal(p.stats.lines, 1);
	assert_int_equal(p.stats.malformed, 1);
	assert_int_equal(perf_map__parse(&p, "1 1 a\n", 6, false, seen__cb, &s), 6);
	assert_int_equal(p.stats.entries, 1);
	/* a long line cut by EOF exactly at a chunk's end: EOF alone ends the skip */
	assert_int_equal(perf_map__parse(&p, buf, PERF_MAP_LINE_MAX + 5, false, seen__cb, &s),
			 PERF_MAP_LINE_MAX + 5);
	assert_true(p.skipping);
	assert_int_equal(perf_map__parse(&p, buf, 0, true, seen__cb, &s), 0);
	assert_false(p.skipping);
	assert_int_equal(p.stats.malformed, 2);
	free(buf);
}

static void test_callback_stops(void **state)
{
	static const char file[] = "1 1 a\n2 1 b\n3 1 c\n";
	struct perf_map_parser p;
	struct seen s = { .stop_at = 2 };

	(void)state;
	perf_map__init(&p);
	assert_int_equal(perf_map__parse(&p, file, sizeof(file) - 1, true, seen__cb, &s),
			 -ECANCELED);
	assert_string_equal(s.text, "1 1 a|2 1 b|");
	assert_int_equal(p.stats.entries, 2);
	assert_int_equal(p.stats.lines, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lines),
		cmocka_unit_test(test_line_max),
		cmocka_unit_test(test_chunks_agree),
		cmocka_unit_test(test_cut_line_waits),
		cmocka_unit_test(test_long_line_without_newline_at_eof),
		cmocka_unit_test(test_callback_stops),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
