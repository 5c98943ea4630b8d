// SPDX-License-Identifier: GPL-2.0-only
/*
 * The jitdump reader on dumps built here in both byte orders (every record
 * kind, each field checked), on hostile records (every length that lies),
 * fed whole and byte by byte, and on a piece of a real dump node wrote
 * (the fuzzer's seed), native and byte-swapped.
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

#include "recorder/names/jitdump.h"
#include "tests/unit/fixture_path.h"

/* A dump under construction, in the byte order asked for. */
struct jd {
	unsigned char b[1 << 16];
	size_t len;
	bool swap;
	size_t rec; /* where the record being built starts */
};

static void put(struct jd *d, const void *p, size_t n)
{
	assert_true(d->len + n <= sizeof(d->b));
	memcpy(d->b + d->len, p, n);
	d->len += n;
}

static void put32(struct jd *d, uint32_t v)
{
	if (d->swap)
		v = __builtin_bswap32(v);
	put(d, &v, 4);
}

static void put64(struct jd *d, uint64_t v)
{
	if (d->swap)
		v = __builtin_bswap64(v);
	put(d, &v, 8);
}

static void header(struct jd *d, uint32_t version, uint32_t size, uint64_t flags)
{
	put32(d, JITDUMP_MAGIC);
	put32(d, version);
	put32(d, size);
	put32(d, 62); /* EM_X86_64 */
	put32(d, 0xdeadbeef);
	put32(d, 4242);
	put64(d, 0x6615d847f5d76ULL);
	put64(d, flags);
	while (d->len < size)
		put(d, "", 1);
}

/* Opens a record; rec_end writes its total_size (or the one given). */
static void rec_begin(struct jd *d, uint32_t id, uint64_t ts)
{
	d->rec = d->len;
	put32(d, id);
	put32(d, 0);
	put64(d, ts);
}

static void rec_end(struct jd *d, uint32_t total)
{
	uint32_t v = total ? total : (uint32_t)(d->len - d->rec);

	if (d->swap)
		v = __builtin_bswap32(v);
	memcpy(d->b + d->rec + 4, &v, 4);
}

static void load(struct jd *d, uint64_t addr, uint64_t size, const char *name, bool code)
{
	rec_begin(d, JITDUMP_CODE_LOAD, 100 + addr);
	put32(d, 4242);
	put32(d, 4243);
	put64(d, addr);
	put64(d, addr);
	put64(d, size);
	put64(d, 7);
	put(d, name, strlen(name) + 1);
	for (uint64_t i = 0; code && i < size; i++)
		put(d, "\xcc", 1);
	rec_end(d, 0);
}

/* Every record kind once, and an unknown one. */
static void build_all(struct jd *d)
{
	header(d, 1, JITDUMP_HEADER_SIZE, JITDUMP_FLAGS_ARCH_TIMESTAMP);
	load(d, 0x7f0000001000ULL, 16, "JS:*f [eval]:1:11", true);
	rec_begin(d, JITDUMP_CODE_MOVE, 5);
	put32(d, 1);
	put32(d, 2);
	put64(d, 0x7f0000001000ULL);
	put64(d, 0x7f0000001000ULL);
	put64(d, 0x7f0000002000ULL);
	put64(d, 16);
	put64(d, 7);
	rec_end(d, 0);
	rec_begin(d, JITDUMP_CODE_DEBUG_INFO, 6);
	put64(d, 0x7f0000002000ULL);
	put64(d, 2);
	put64(d, 0x7f0000002004ULL);
	put32(d, 12);
	put32(d, (uint32_t)-1);
	put(d, "[eval]", 7);
	put64(d, 0x7f0000002008ULL);
	put32(d, 13);
	put32(d, 0);
	put(d, "\xff", 2);
	put(d, "\0\0\0", 3); /* padding after the entries */
	rec_end(d, 0);
	rec_begin(d, JITDUMP_CODE_UNWINDING_INFO, 7);
	put64(d, 12);
	put64(d, 4);
	put64(d, 16);
	put(d, "EHFRAME_HDR!", 12);
	rec_end(d, 0);
	rec_begin(d, 99, 8);
	put(d, "future", 6);
	rec_end(d, 0);
	rec_begin(d, JITDUMP_CODE_CLOSE, 9);
	rec_end(d, 0);
}

/* Each record the callback saw, printed, so two parses compare as text. */
struct seen {
	char text[1 << 15];
	size_t len;
	int nr, stop_at;
};

static void seen__printf(struct seen *s, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(s->text + s->len, sizeof(s->text) - s->len, fmt, ap);
	va_end(ap);
	assert_true(n >= 0 && (size_t)n < sizeof(s->text) - s->len);
	s->len += (size_t)n;
}

static int seen__cb(const struct jitdump_record *r, void *arg)
{
	struct seen *s = arg;
	struct jitdump_debug_entry e;
	size_t off = 0;

	seen__printf(s, "[%u ts=%llx sz=%u", r->id, (unsigned long long)r->timestamp,
		     r->total_size);
	if (r->id == JITDUMP_CODE_LOAD)
		seen__printf(s, " load %u/%u %llx %llx %llx #%llu '%.*s' code=%s", r->load.pid,
			     r->load.tid, (unsigned long long)r->load.vma,
			     (unsigned long long)r->load.code_addr,
			     (unsigned long long)r->load.code_size,
			     (unsigned long long)r->load.code_index, (int)r->load.name_len,
			     r->load.name, r->load.code ? "yes" : "no");
	if (r->id == JITDUMP_CODE_MOVE)
		seen__printf(s, " move %u/%u %llx %llx->%llx %llx #%llu", r->move.pid, r->move.tid,
			     (unsigned long long)r->move.vma,
			     (unsigned long long)r->move.old_code_addr,
			     (unsigned long long)r->move.new_code_addr,
			     (unsigned long long)r->move.code_size,
			     (unsigned long long)r->move.code_index);
	if (r->id == JITDUMP_CODE_DEBUG_INFO) {
		seen__printf(s, " debug %llx n=%llu", (unsigned long long)r->debug_info.code_addr,
			     (unsigned long long)r->debug_info.nr_entry);
		while (!jitdump__debug_entry(&r->debug_info, &off, &e))
			seen__printf(s, " (%llx %d %d '%.*s')", (unsigned long long)e.addr,
				     e.lineno, e.discrim, (int)e.name_len, e.name);
	}
	if (r->id == JITDUMP_CODE_UNWINDING_INFO)
		seen__printf(s, " unwind %llu %llu %llu '%.*s'",
			     (unsigned long long)r->unwinding.unwinding_size,
			     (unsigned long long)r->unwinding.eh_frame_hdr_size,
			     (unsigned long long)r->unwinding.mapped_size,
			     (int)r->unwinding.unwinding_size, (const char *)r->unwinding.data);
	seen__printf(s, "]");
	if (++s->nr == s->stop_at)
		return -ECANCELED;
	return 0;
}

static void test_header(void **state)
{
	struct jitdump_header h;
	struct jd *d = calloc(1, sizeof(*d));

	(void)state;
	assert_non_null(d);
	for (int swap = 0; swap < 2; swap++) {
		memset(d, 0, sizeof(*d));
		d->swap = swap;
		header(d, 1, 48, JITDUMP_FLAGS_ARCH_TIMESTAMP);
		assert_int_equal(jitdump__parse_header(d->b, d->len, &h), 0);
		assert_int_equal(h.swapped, swap);
		assert_int_equal(h.version, 1);
		assert_int_equal(h.header_size, 48);
		assert_int_equal(h.elf_mach, 62);
		assert_int_equal(h.pid, 4242);
		assert_int_equal(h.timestamp, 0x6615d847f5d76ULL);
		assert_int_equal(h.flags, JITDUMP_FLAGS_ARCH_TIMESTAMP);
		/* short: more to read while it can still be a dump */
		for (size_t n = 0; n < JITDUMP_HEADER_SIZE; n++)
			assert_int_equal(jitdump__parse_header(d->b, n, &h), -EAGAIN);
	}
	/* a version perf reads, then each refusal */
	struct {
		uint32_t version, size;
		uint64_t flags;
		int ret;
	} rows[] = {
		{ 0, 40, 0, 0 },
		{ 2, 40, 0, -EINVAL },
		{ 1, 40, 1ULL << 1, -EINVAL },
		{ 1, 40, 1ULL << 63, -EINVAL },
		{ 1, 39, 0, -EINVAL },
		{ 1, 0, 0, -EINVAL },
		{ 1, JITDUMP_RECORD_MAX, 0, 0 },
		{ 1, JITDUMP_RECORD_MAX + 1, 0, -EINVAL },
		{ 1, UINT32_MAX, 0, -EINVAL },
	};
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		memset(d, 0, sizeof(*d));
		header(d, rows[i].version, 40, rows[i].flags);
		memcpy(d->b + 8, &rows[i].size, 4);
		if (jitdump__parse_header(d->b, d->len, &h) != rows[i].ret)
			fail_msg("header row %zu", i);
	}
	/* not a jitdump: known at the fourth byte ("DTiJ" is the magic's bytes on little-endian) */
	static const char elf[] = { 0x7f, 'E', 'L', 'F' };
	assert_int_equal(jitdump__parse_header("JITD", 4, &h), -EINVAL);
	assert_int_equal(jitdump__parse_header(elf, 4, &h), -EINVAL);
	assert_int_equal(jitdump__parse_header("DTi", 3, &h), -EAGAIN);
	free(d);
}

static const char all_expect[] =
	"[0 ts=7f0000001064 sz=90 load 4242/4243 7f0000001000 7f0000001000 10 #7 "
	"'JS:*f [eval]:1:11' code=yes]"
	"[1 ts=5 sz=64 move 1/2 7f0000001000 7f0000001000->7f0000002000 10 #7]"
	"[2 ts=6 sz=76 debug 7f0000002000 n=2 (7f0000002004 12 -1 '[eval]') "
	"(7f0000002008 13 0 '\xff')]"
	"[4 ts=7 sz=52 unwind 12 4 16 'EHFRAME_HDR!']"
	"[99 ts=8 sz=22]"
	"[3 ts=9 sz=16]";

/* Parses d's records as a reader of a growing file would, step bytes at a time (0: all). */
static ssize_t feed(const struct jd *d, size_t step, struct jitdump_stats *st, struct seen *s)
{
	struct jitdump_header h;
	unsigned char *buf = malloc(d->len);
	size_t have = 0, off, end = d->len;
	ssize_t n;

	assert_non_null(buf);
	assert_int_equal(jitdump__parse_header(d->b, d->len, &h), 0);
	off = h.header_size;
	memset(st, 0, sizeof(*st));
	for (;;) {
		size_t take = step && step < end - off ? step : end - off;

		memcpy(buf + have, d->b + off, take);
		have += take;
		off += take;
		n = jitdump__parse_records(buf, have, h.swapped, st, seen__cb, s);
		if (n < 0)
			break;
		memmove(buf, buf + n, have - (size_t)n);
		have -= (size_t)n;
		if (off == end)
			break;
	}
	free(buf);
	return n < 0 ? n : (ssize_t)have;
}

static void test_all_records_both_orders(void **state)
{
	static const size_t steps[] = { 0, 1, 5, 16, 17, 100 };
	struct jd *d = calloc(1, sizeof(*d));
	struct seen *s = calloc(1, sizeof(*s));
	struct jitdump_stats st;

	(void)state;
	assert_non_null(d);
	assert_non_null(s);
	for (int swap = 0; swap < 2; swap++) {
		for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
			memset(d, 0, sizeof(*d));
			d->swap = swap;
			build_all(d);
			memset(s, 0, sizeof(*s));
			assert_int_equal(feed(d, steps[i], &st, s), 0);
			if (strcmp(s->text, all_expect))
				fail_msg("swap %d step %zu:\n%s\nwant\n%s", swap, steps[i], s->text,
					 all_expect);
			assert_int_equal(st.records, 6);
			assert_int_equal(st.unknown, 1);
			assert_int_equal(st.malformed, 0);
		}
	}
	free(d);
	free(s);
}

/* One record after a good load; what the parse makes of it. */
struct hostile {
	const char *what;
	void (*build)(struct jd *d);
	ssize_t ret; /* 0: all consumed */
	uint64_t records, malformed;
	const char *expect; /* what the callback saw, after the good load */
};

static void h_load_no_name_room(struct jd *d)
{
	load(d, 0x2000, 4, "x", false);
	rec_end(d, 56);
	d->len = d->rec + 56;
}

static void h_load_name_unterminated(struct jd *d)
{
	load(d, 0x2000, 4, "abc", false);
	d->len--; /* the NUL */
	rec_end(d, (uint32_t)(d->len - d->rec));
}

static void h_load_code_short(struct jd *d)
{
	load(d, 0x2000, 4, "abc", true);
	d->len--;
	rec_end(d, (uint32_t)(d->len - d->rec));
}

static void h_load_code_huge(struct jd *d)
{
	load(d, 0x2000, UINT64_MAX, "huge", false);
}

static void h_load_empty_name(struct jd *d)
{
	load(d, 0x2000, 0, "", false);
}

static void h_move_short(struct jd *d)
{
	rec_begin(d, JITDUMP_CODE_MOVE, 1);
	for (int i = 0; i < 5; i++)
		put64(d, 0x1000);
	put32(d, 0);
	rec_end(d, 0);
}

static void h_debug_too_many(struct jd *d)
{
	rec_begin(d, JITDUMP_CODE_DEBUG_INFO, 1);
	put64(d, 0x2000);
	put64(d, UINT64_MAX);
	put64(d, 0x2000);
	put32(d, 1);
	put32(d, 0);
	put(d, "f.js", 5);
	rec_end(d, 0);
}

static void h_debug_name_unterminated(struct jd *d)
{
	rec_begin(d, JITDUMP_CODE_DEBUG_INFO, 1);
	put64(d, 0x2000);
	put64(d, 1);
	put64(d, 0x2000);
	put32(d, 1);
	put32(d, 0);
	put(d, "f.js", 4);
	rec_end(d, 0);
}

static void h_debug_none(struct jd *d)
{
	rec_begin(d, JITDUMP_CODE_DEBUG_INFO, 1);
	put64(d, 0x2000);
	put64(d, 0);
	rec_end(d, 0);
}

static void h_debug_short(struct jd *d)
{
	rec_begin(d, JITDUMP_CODE_DEBUG_INFO, 1);
	put64(d, 0x2000);
	rec_end(d, 0);
}

static void h_unwind_past(struct jd *d)
{
	rec_begin(d, JITDUMP_CODE_UNWINDING_INFO, 1);
	put64(d, 13);
	put64(d, 4);
	put64(d, 16);
	put(d, "EHFRAME_HDR!", 12);
	rec_end(d, 0);
}

static void h_unwind_hdr_past(struct jd *d)
{
	rec_begin(d, JITDUMP_CODE_UNWINDING_INFO, 1);
	put64(d, 4);
	put64(d, 5);
	put64(d, 16);
	put(d, "EHFR", 4);
	rec_end(d, 0);
}

static void h_unwind_huge(struct jd *d)
{
	rec_begin(d, JITDUMP_CODE_UNWINDING_INFO, 1);
	put64(d, UINT64_MAX);
	put64(d, 0);
	put64(d, 0);
	rec_end(d, 0);
}

static void h_size_under_prefix(struct jd *d)
{
	rec_begin(d, JITDUMP_CODE_CLOSE, 1);
	rec_end(d, 15);
	load(d, 0x3000, 1, "never", false);
}

static void h_size_zero(struct jd *d)
{
	rec_begin(d, 7, 1);
	memset(d->b + d->rec + 4, 0, 4);
}

static void h_size_over_max(struct jd *d)
{
	rec_begin(d, 7, 1);
	rec_end(d, JITDUMP_RECORD_MAX + 1);
}

static void h_cut(struct jd *d)
{
	load(d, 0x3000, 1, "cut", true);
	d->len -= 3;
}

static void h_prefix_cut(struct jd *d)
{
	put32(d, 0);
	put32(d, 60);
}

#define GOOD "[0 ts=1064 sz=60 load 4242/4243 1000 1000 1 #7 'ok' code=yes]"

static const struct hostile hostiles[] = {
	{ "load without room for a name", h_load_no_name_room, 0, 1, 1, GOOD },
	{ "load name without NUL", h_load_name_unterminated, 0, 1, 1, GOOD },
	{ "load code one byte short", h_load_code_short, 0, 2, 0,
	  GOOD "[0 ts=2064 sz=63 load 4242/4243 2000 2000 4 #7 'abc' code=no]" },
	{ "load code_size UINT64_MAX", h_load_code_huge, 0, 2, 0,
	  GOOD "[0 ts=2064 sz=61 load 4242/4243 2000 2000 ffffffffffffffff #7 'huge' code=no]" },
	{ "load empty name", h_load_empty_name, 0, 2, 0,
	  GOOD "[0 ts=2064 sz=57 load 4242/4243 2000 2000 0 #7 '' code=yes]" },
	{ "move short", h_move_short, 0, 1, 1, GOOD },
	{ "debug nr_entry UINT64_MAX", h_debug_too_many, 0, 1, 1, GOOD },
	{ "debug file name without NUL", h_debug_name_unterminated, 0, 1, 1, GOOD },
	{ "debug without entries", h_debug_none, 0, 2, 0, GOOD "[2 ts=1 sz=32 debug 2000 n=0]" },
	{ "debug without nr_entry", h_debug_short, 0, 1, 1, GOOD },
	{ "unwinding past the record", h_unwind_past, 0, 1, 1, GOOD },
	{ "eh_frame_hdr past unwinding", h_unwind_hdr_past, 0, 1, 1, GOOD },
	{ "unwinding UINT64_MAX", h_unwind_huge, 0, 1, 1, GOOD },
	{ "total_size under the prefix", h_size_under_prefix, -EINVAL, 1, 0, GOOD },
	{ "total_size 0", h_size_zero, -EINVAL, 1, 0, GOOD },
	{ "total_size over the bound", h_size_over_max, -EINVAL, 1, 0, GOOD },
	{ "record cut", h_cut, 60, 1, 0, GOOD },
	{ "prefix cut", h_prefix_cut, 60, 1, 0, GOOD },
};

static void test_hostile(void **state)
{
	struct jd *d = calloc(1, sizeof(*d));
	struct seen *s = calloc(1, sizeof(*s));
	struct jitdump_stats st;

	(void)state;
	assert_non_null(d);
	assert_non_null(s);
	for (size_t i = 0; i < sizeof(hostiles) / sizeof(hostiles[0]); i++) {
		const struct hostile *h = &hostiles[i];

		for (int swap = 0; swap < 2; swap++) {
			unsigned char *exact;
			ssize_t n;

			memset(d, 0, sizeof(*d));
			memset(s, 0, sizeof(*s));
			memset(&st, 0, sizeof(st));
			d->swap = swap;
			load(d, 0x1000, 1, "ok", true);
			h->build(d);
			/* an exact-size copy: ASan sees any read past it */
			exact = malloc(d->len);
			assert_non_null(exact);
			memcpy(exact, d->b, d->len);
			n = jitdump__parse_records(exact, d->len, swap, &st, seen__cb, s);
			free(exact);
			if (n != (h->ret ? h->ret : (ssize_t)d->len) || st.records != h->records ||
			    st.malformed != h->malformed || strcmp(s->text, h->expect))
				fail_msg("%s (swap %d): ret %zd records %llu malformed %llu\n%s",
					 h->what, swap, n, (unsigned long long)st.records,
					 (unsigned long long)st.malformed, s->text);
		}
	}
	free(d);
	free(s);
}

static void test_callback_stops(void **state)
{
	struct jd *d = calloc(1, sizeof(*d));
	struct seen s = { .stop_at = 2 };

	(void)state;
	assert_non_null(d);
	load(d, 0x1000, 1, "a", true);
	load(d, 0x2000, 1, "b", true);
	load(d, 0x3000, 1, "c", true);
	assert_int_equal(jitdump__parse_records(d->b, d->len, false, NULL, seen__cb, &s),
			 -ECANCELED);
	assert_int_equal(s.nr, 2);
	free(d);
}

static void test_debug_entry_bounds(void **state)
{
	static const unsigned char raw[] = { 1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 'a' };
	struct jitdump_debug_info di = { .entries = raw, .entries_len = sizeof(raw) };
	struct jitdump_debug_entry e;
	size_t off = 0;

	(void)state;
	/* filled by hand without the name's NUL: refused, not read past */
	assert_int_equal(jitdump__debug_entry(&di, &off, &e), -EINVAL);
	assert_int_equal(off, 0);
	di.entries_len = 3;
	assert_int_equal(jitdump__debug_entry(&di, &off, &e), -EINVAL);
	di.entries_len = 0;
	assert_int_equal(jitdump__debug_entry(&di, &off, &e), -ENOENT);
	off = 5;
	assert_int_equal(jitdump__debug_entry(&di, &off, &e), -EINVAL);
}

/* node --perf-prof's dump (the fuzzer's seeds): every record read, the names right. */
static void check_node_dump(const char *name, bool want_swapped)
{
	char path[4096];
	unsigned char *buf = malloc(1 << 16);
	struct jitdump_header h;
	struct jitdump_stats st = { 0 };
	struct seen *s = calloc(1, sizeof(*s));
	size_t len;
	FILE *f;

	assert_non_null(buf);
	assert_non_null(s);
	fixture_path(path, sizeof(path), "../fuzz/corpus/fuzz_jitdump/%s", name);
	f = fopen(path, "rb");
	assert_non_null(f);
	len = fread(buf, 1, 1 << 16, f);
	fclose(f);
	assert_int_equal(jitdump__parse_header(buf, len, &h), 0);
	assert_int_equal(h.swapped, want_swapped);
	assert_int_equal(h.elf_mach, 62);
	assert_int_equal(h.header_size, 40);
	assert_int_equal(jitdump__parse_records(buf + 40, len - 40, h.swapped, &st, seen__cb, s),
			 len - 40);
	assert_int_equal(st.malformed, 0);
	assert_int_equal(st.records, 14);
	assert_non_null(strstr(s->text, "'JS:*f [eval]:1:11' code=yes]"));
	assert_non_null(strstr(s->text, "'JS:* [eval]:1:1' code=yes]"));
	assert_non_null(strstr(s->text, "[2 ts="));
	assert_non_null(strstr(s->text, "(7fb07a7c5dc0 1 11 '[eval]')"));
	assert_non_null(
		strstr(s->text, "'JS:^SafeMap node:internal/per_context/primordials:408:16'"));
	free(buf);
	free(s);
}

static void test_node_dump(void **state)
{
	(void)state;
	check_node_dump("node_js", false);
	check_node_dump("node_js_swapped", true);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_header),
		cmocka_unit_test(test_all_records_both_orders),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_callback_stops),
		cmocka_unit_test(test_debug_entry_bounds),
		cmocka_unit_test(test_node_dump),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
