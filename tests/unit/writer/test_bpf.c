// SPDX-License-Identifier: GPL-2.0-only
/*
 * BPF_PROG_INFO and BPF_BTF: the encoders' bytes (empty, hand-made sets
 * checked against perf 6.1's layout written out by offset), the BTF name
 * lookup over hostile blobs, perf's ksym names, and, when the machine lets
 * us load a program, the live reader against tests/fixtures' prec_bpf_hold.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/btf.h>

#include "prec/sysinfo.h"
#include "prec/bpf.h"
#include "writer/features.h"

/* ---- an expected-bytes builder, independent of the encoders ---------- */

struct exp {
	uint8_t buf[4096];
	size_t len;
};

static void exp_bytes(struct exp *e, const void *p, size_t n)
{
	assert_true(e->len + n <= sizeof(e->buf));
	memcpy(e->buf + e->len, p, n);
	e->len += n;
}

static void exp_u32(struct exp *e, uint32_t v)
{
	exp_bytes(e, &v, sizeof(v));
}

static void exp_u64(struct exp *e, uint64_t v)
{
	exp_bytes(e, &v, sizeof(v));
}

static void raw_u32(uint8_t *raw, size_t off, uint32_t v)
{
	memcpy(raw + off, &v, sizeof(v));
}

static void raw_u64(uint8_t *raw, size_t off, uint64_t v)
{
	memcpy(raw + off, &v, sizeof(v));
}

static uint32_t get_u32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static uint64_t get_u64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/*
 * struct bpf_prog_info as perf 6.1 writes it (232 bytes), by offset, so the
 * test does not trust the struct the code under test uses.
 */
enum {
	OFF_TYPE = 0,
	OFF_ID = 4,
	OFF_TAG = 8,
	OFF_JITED_PROG_LEN = 16,
	OFF_XLATED_PROG_LEN = 20,
	OFF_JITED_PROG_INSNS = 24,
	OFF_NAME = 64,
	OFF_NR_JITED_KSYMS = 104,
	OFF_NR_JITED_FUNC_LENS = 108,
	OFF_JITED_KSYMS = 112,
	OFF_JITED_FUNC_LENS = 120,
	OFF_BTF_ID = 128,
	OFF_FUNC_INFO_REC_SIZE = 132,
	OFF_FUNC_INFO = 136,
	OFF_NR_FUNC_INFO = 144,
	OFF_NR_LINE_INFO = 148,
	OFF_LINE_INFO = 152,
	OFF_JITED_LINE_INFO = 160,
	OFF_NR_PROG_TAGS = 180,
	OFF_PROG_TAGS = 184,
	INFO_LEN = 232,
};

static void test_layout_facts(void **state)
{
	(void)state;
	assert_int_equal(SYSINFO_BPF_INFO_LEN, INFO_LEN);
	assert_int_equal(SYSINFO_BPF_ARRAYS, 0x1f9);
	assert_int_equal(offsetof(struct bpf_prog_info, id), OFF_ID);
	assert_int_equal(offsetof(struct bpf_prog_info, jited_prog_insns), OFF_JITED_PROG_INSNS);
	assert_int_equal(offsetof(struct bpf_prog_info, name), OFF_NAME);
	assert_int_equal(offsetof(struct bpf_prog_info, jited_ksyms), OFF_JITED_KSYMS);
	assert_int_equal(offsetof(struct bpf_prog_info, func_info), OFF_FUNC_INFO);
	assert_int_equal(offsetof(struct bpf_prog_info, prog_tags), OFF_PROG_TAGS);
}

/* ---- encoders --------------------------------------------------------- */

static void encode(int id, const struct sysinfo *si, struct feat_sink *s)
{
	struct writer_meta m = { .si = si };

	feat_sink__init(s);
	assert_int_equal(features__encode_one(id, si ? &m : NULL, s), 0);
}

static void test_empty(void **state)
{
	static const uint8_t zero[4];
	struct sysinfo si;
	struct sysinfo_bpf empty = { 0 };
	const int ids[] = { HEADER_BPF_PROG_INFO, HEADER_BPF_BTF };
	struct feat_sink s;

	(void)state;
	memset(&si, 0, sizeof(si));
	for (size_t i = 0; i < 2; i++) {
		/* No metadata, no snapshot, no set, an empty set: all "u32 0". */
		encode(ids[i], NULL, &s);
		assert_int_equal(feat_sink__len(&s), 4);
		assert_memory_equal(feat_sink__data(&s), zero, 4);
		feat_sink__exit(&s);

		si.bpf = NULL;
		encode(ids[i], &si, &s);
		assert_int_equal(feat_sink__len(&s), 4);
		assert_memory_equal(feat_sink__data(&s), zero, 4);
		feat_sink__exit(&s);

		si.bpf = &empty;
		encode(ids[i], &si, &s);
		assert_int_equal(feat_sink__len(&s), 4);
		assert_memory_equal(feat_sink__data(&s), zero, 4);
		feat_sink__exit(&s);
	}
	/* The direct entry points say the same. */
	{
		struct writer_meta m = { .si = NULL };

		feat_sink__init(&s);
		assert_int_equal(feat_bpf_prog_info__write(&s, &m), 0);
		assert_int_equal(feat_bpf_btf__write(&s, &m), 0);
		assert_int_equal(feat_sink__len(&s), 8);
		assert_memory_equal(feat_sink__data(&s), "\0\0\0\0\0\0\0\0", 8);
		feat_sink__exit(&s);
	}
}

/* The BTF prec_bpf_hold loads: int, int (void), FUNCs "prec_test_prog" and
 * "prec_test_sub"; strings NUL-padded to 4. */
static size_t make_btf(uint8_t *b)
{
	static const char strs[36] = "\0int\0prec_test_prog\0prec_test_sub";
	struct btf_header h = {
		.magic = BTF_MAGIC,
		.version = BTF_VERSION,
		.hdr_len = sizeof(h),
		.type_off = 0,
		.type_len = 52,
		.str_off = 52,
		.str_len = sizeof(strs),
	};
	uint32_t types[13] = {
		1,  BTF_KIND_INT << 24,
		4,  (BTF_INT_SIGNED << 24) | 32, /* 1 */
		0,  BTF_KIND_FUNC_PROTO << 24,
		1, /* 2 */
		5,  (BTF_KIND_FUNC << 24) | BTF_FUNC_GLOBAL,
		2, /* 3 */
		20, (BTF_KIND_FUNC << 24) | BTF_FUNC_STATIC,
		2, /* 4 */
	};

	memcpy(b, &h, sizeof(h));
	memcpy(b + sizeof(h), types, sizeof(types));
	memcpy(b + sizeof(h) + sizeof(types), strs, sizeof(strs));
	return sizeof(h) + sizeof(types) + sizeof(strs);
}

static const uint8_t tag_a[8] = { 0x59, 0xf4, 0xa9, 0x31, 0x74, 0x4d, 0xcd, 0xc6 };
static const uint8_t tag_b0[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
static const uint8_t tag_b1[8] = { 0xa0, 0xb1, 0xc2, 0xd3, 0xe4, 0xf5, 0x06, 0x17 };

/*
 * Two fake programs in the linear form:
 *   A (id 7): one function, 5 bytes of code, no BTF, name "a".
 *     data: insns [0,8) ksyms [8,16) lens [16,24) tags [24,32)
 *   B (id 9): two functions, BTF 3 with func_info (rec 8) for both.
 *     data: insns 12 [0,16) ksyms [16,32) lens [32,40) finfo [40,56) tags [56,72)
 */
static struct sysinfo_bpf *make_set(uint8_t *btf_raw, size_t btf_len)
{
	struct sysinfo_bpf *bpf = calloc(1, sizeof(*bpf));
	struct sysinfo_bpf_prog *a, *b;
	uint64_t v;
	uint32_t w;

	assert_non_null(bpf);
	bpf->progs = calloc(2, sizeof(*bpf->progs));
	bpf->btfs = calloc(2, sizeof(*bpf->btfs));
	assert_non_null(bpf->progs);
	assert_non_null(bpf->btfs);
	bpf->nr_progs = 2;
	bpf->nr_btfs = 2;

	a = &bpf->progs[0];
	a->info.type = BPF_PROG_TYPE_SOCKET_FILTER;
	a->info.id = 7;
	memcpy(a->info.tag, tag_a, 8);
	a->info.jited_prog_len = 5;
	a->info.xlated_prog_len = 16;
	strcpy(a->info.name, "a");
	a->info.nr_jited_ksyms = 1;
	a->info.nr_jited_func_lens = 1;
	a->info.nr_prog_tags = 1;
	a->info.jited_prog_insns = 0;
	a->info.jited_ksyms = 8;
	a->info.jited_func_lens = 16;
	a->info.func_info = 24;
	a->info.line_info = 24;
	a->info.jited_line_info = 24;
	a->info.prog_tags = 24;
	a->arrays = SYSINFO_BPF_ARRAYS;
	a->data_len = 32;
	a->data = calloc(1, 32);
	assert_non_null(a->data);
	memcpy(a->data, "\x31\xc0\xc3\x90\x90", 5);
	v = 0xffffffffc0001000ULL;
	memcpy(a->data + 8, &v, 8);
	w = 5;
	memcpy(a->data + 16, &w, 4);
	memcpy(a->data + 24, tag_a, 8);

	b = &bpf->progs[1];
	b->info.type = BPF_PROG_TYPE_KPROBE;
	b->info.id = 9;
	memcpy(b->info.tag, tag_b0, 8);
	b->info.jited_prog_len = 12;
	strcpy(b->info.name, "b_main");
	b->info.nr_jited_ksyms = 2;
	b->info.nr_jited_func_lens = 2;
	b->info.nr_prog_tags = 2;
	b->info.btf_id = 3;
	b->info.func_info_rec_size = 8;
	b->info.nr_func_info = 2;
	b->info.line_info_rec_size = 16;
	b->info.jited_line_info_rec_size = 8;
	b->info.jited_prog_insns = 0;
	b->info.jited_ksyms = 16;
	b->info.jited_func_lens = 32;
	b->info.func_info = 40;
	b->info.line_info = 56;
	b->info.jited_line_info = 56;
	b->info.prog_tags = 56;
	b->arrays = SYSINFO_BPF_ARRAYS;
	b->data_len = 72;
	b->data = calloc(1, 72);
	assert_non_null(b->data);
	memset(b->data, 0xcc, 12);
	v = 0xffffffffc0002000ULL;
	memcpy(b->data + 16, &v, 8);
	v = 0xffffffffc0002800ULL;
	memcpy(b->data + 24, &v, 8);
	w = 8;
	memcpy(b->data + 32, &w, 4);
	w = 4;
	memcpy(b->data + 36, &w, 4);
	/* func_info: {insn_off 0, type_id 3}, {insn_off 2, type_id 1} */
	w = 0;
	memcpy(b->data + 40, &w, 4);
	w = 3;
	memcpy(b->data + 44, &w, 4);
	w = 2;
	memcpy(b->data + 48, &w, 4);
	w = 1;
	memcpy(b->data + 52, &w, 4);
	memcpy(b->data + 56, tag_b0, 8);
	memcpy(b->data + 64, tag_b1, 8);

	bpf->btfs[0].id = 3;
	bpf->btfs[0].size = (uint32_t)btf_len;
	bpf->btfs[0].data = malloc(btf_len);
	assert_non_null(bpf->btfs[0].data);
	memcpy(bpf->btfs[0].data, btf_raw, btf_len);
	bpf->btfs[1].id = 12;
	bpf->btfs[1].size = 3;
	bpf->btfs[1].data = malloc(3);
	assert_non_null(bpf->btfs[1].data);
	memcpy(bpf->btfs[1].data, "xyz", 3);
	return bpf;
}

static void test_two_programs(void **state)
{
	uint8_t btf_raw[128], raw[INFO_LEN];
	size_t btf_len = make_btf(btf_raw);
	struct sysinfo_bpf *bpf = make_set(btf_raw, btf_len);
	struct sysinfo si;
	struct feat_sink s;
	struct exp e = { .len = 0 };

	(void)state;
	memset(&si, 0, sizeof(si));
	si.bpf = bpf;

	exp_u32(&e, 2);
	/* A */
	exp_u32(&e, INFO_LEN);
	exp_u32(&e, 32);
	exp_u64(&e, 0x1f9);
	memset(raw, 0, sizeof(raw));
	raw_u32(raw, OFF_TYPE, BPF_PROG_TYPE_SOCKET_FILTER);
	raw_u32(raw, OFF_ID, 7);
	memcpy(raw + OFF_TAG, tag_a, 8);
	raw_u32(raw, OFF_JITED_PROG_LEN, 5);
	raw_u32(raw, OFF_XLATED_PROG_LEN, 16);
	memcpy(raw + OFF_NAME, "a", 1);
	raw_u32(raw, OFF_NR_JITED_KSYMS, 1);
	raw_u32(raw, OFF_NR_JITED_FUNC_LENS, 1);
	raw_u64(raw, OFF_JITED_KSYMS, 8);
	raw_u64(raw, OFF_JITED_FUNC_LENS, 16);
	raw_u64(raw, OFF_FUNC_INFO, 24);
	raw_u64(raw, OFF_LINE_INFO, 24);
	raw_u64(raw, OFF_JITED_LINE_INFO, 24);
	raw_u32(raw, OFF_NR_PROG_TAGS, 1);
	raw_u64(raw, OFF_PROG_TAGS, 24);
	exp_bytes(&e, raw, sizeof(raw));
	exp_bytes(&e, "\x31\xc0\xc3\x90\x90\0\0\0", 8);
	exp_u64(&e, 0xffffffffc0001000ULL);
	exp_u64(&e, 5);
	exp_bytes(&e, tag_a, 8);
	/* B */
	exp_u32(&e, INFO_LEN);
	exp_u32(&e, 72);
	exp_u64(&e, 0x1f9);
	memset(raw, 0, sizeof(raw));
	raw_u32(raw, OFF_TYPE, BPF_PROG_TYPE_KPROBE);
	raw_u32(raw, OFF_ID, 9);
	memcpy(raw + OFF_TAG, tag_b0, 8);
	raw_u32(raw, OFF_JITED_PROG_LEN, 12);
	memcpy(raw + OFF_NAME, "b_main", 6);
	raw_u32(raw, OFF_NR_JITED_KSYMS, 2);
	raw_u32(raw, OFF_NR_JITED_FUNC_LENS, 2);
	raw_u64(raw, OFF_JITED_KSYMS, 16);
	raw_u64(raw, OFF_JITED_FUNC_LENS, 32);
	raw_u32(raw, OFF_BTF_ID, 3);
	raw_u32(raw, OFF_FUNC_INFO_REC_SIZE, 8);
	raw_u64(raw, OFF_FUNC_INFO, 40);
	raw_u32(raw, OFF_NR_FUNC_INFO, 2);
	raw_u64(raw, OFF_LINE_INFO, 56);
	raw_u64(raw, OFF_JITED_LINE_INFO, 56);
	raw_u32(raw, 172, 16); /* line_info_rec_size */
	raw_u32(raw, 176, 8); /* jited_line_info_rec_size */
	raw_u32(raw, OFF_NR_PROG_TAGS, 2);
	raw_u64(raw, OFF_PROG_TAGS, 56);
	exp_bytes(&e, raw, sizeof(raw));
	exp_bytes(&e, "\xcc\xcc\xcc\xcc\xcc\xcc\xcc\xcc\xcc\xcc\xcc\xcc\0\0\0\0", 16);
	exp_u64(&e, 0xffffffffc0002000ULL);
	exp_u64(&e, 0xffffffffc0002800ULL);
	exp_u32(&e, 8);
	exp_u32(&e, 4);
	exp_u32(&e, 0);
	exp_u32(&e, 3);
	exp_u32(&e, 2);
	exp_u32(&e, 1);
	exp_bytes(&e, tag_b0, 8);
	exp_bytes(&e, tag_b1, 8);

	encode(HEADER_BPF_PROG_INFO, &si, &s);
	assert_int_equal(feat_sink__len(&s), 4 + (16 + INFO_LEN + 32) + (16 + INFO_LEN + 72));
	assert_int_equal(feat_sink__len(&s), e.len);
	assert_memory_equal(feat_sink__data(&s), e.buf, e.len);
	feat_sink__exit(&s);

	/* BTF: u32 count, then {u32 id, u32 size, bytes} each, no padding. */
	e.len = 0;
	exp_u32(&e, 2);
	exp_u32(&e, 3);
	exp_u32(&e, (uint32_t)btf_len);
	exp_bytes(&e, btf_raw, btf_len);
	exp_u32(&e, 12);
	exp_u32(&e, 3);
	exp_bytes(&e, "xyz", 3);
	encode(HEADER_BPF_BTF, &si, &s);
	assert_int_equal(feat_sink__len(&s), e.len);
	assert_memory_equal(feat_sink__data(&s), e.buf, e.len);
	feat_sink__exit(&s);

	/* --no-bpf-event as perf 6.1: no programs, the BTFs stay. */
	sysinfo_bpf__clear_progs(bpf);
	encode(HEADER_BPF_PROG_INFO, &si, &s);
	assert_int_equal(feat_sink__len(&s), 4);
	assert_int_equal(get_u32(feat_sink__data(&s)), 0);
	feat_sink__exit(&s);
	encode(HEADER_BPF_BTF, &si, &s);
	assert_int_equal(feat_sink__len(&s), e.len);
	feat_sink__exit(&s);

	sysinfo_bpf__delete(bpf);
	sysinfo_bpf__delete(NULL);
	sysinfo_bpf__clear_progs(NULL);
}

/* An inconsistent set (data_len without data) is refused, and rolled back. */
static void test_inconsistent(void **state)
{
	struct sysinfo_bpf_prog p = { .data_len = 8, .data = NULL };
	struct sysinfo_btf b = { .id = 1, .size = 4, .data = NULL };
	struct sysinfo_bpf bpf = { .progs = &p, .nr_progs = 1, .btfs = &b, .nr_btfs = 1 };
	struct sysinfo si;
	struct writer_meta m = { .si = &si };
	struct feat_sink s;

	(void)state;
	memset(&si, 0, sizeof(si));
	si.bpf = &bpf;
	feat_sink__init(&s);
	assert_int_equal(features__encode_one(HEADER_BPF_PROG_INFO, &m, &s), -EINVAL);
	assert_int_equal(features__encode_one(HEADER_BPF_BTF, &m, &s), -EINVAL);
	assert_int_equal(feat_sink__len(&s), 0);
	feat_sink__exit(&s);
}

/* ---- BTF names and ksym names ----------------------------------------- */

static void test_btf_type_name(void **state)
{
	uint8_t b[128], bad[128];
	size_t n = make_btf(b);

	(void)state;
	assert_string_equal(sysinfo_btf__type_name(b, n, 1), "int");
	assert_null(sysinfo_btf__type_name(b, n, 2)); /* the proto has no name */
	assert_string_equal(sysinfo_btf__type_name(b, n, 3), "prec_test_prog");
	assert_string_equal(sysinfo_btf__type_name(b, n, 4), "prec_test_sub");
	assert_null(sysinfo_btf__type_name(b, n, 0));
	assert_null(sysinfo_btf__type_name(b, n, 5));
	assert_null(sysinfo_btf__type_name(NULL, n, 1));

	/* Every truncation: no read past the end, never a wrong answer. */
	for (size_t len = 0; len < n; len++) {
		/* A copy of exactly len bytes, so valgrind sees any overread. */
		uint8_t *copy = malloc(len ? len : 1);

		assert_non_null(copy);
		memcpy(copy, b, len);
		assert_null(sysinfo_btf__type_name(copy, len, 3));
		assert_null(sysinfo_btf__type_name(copy, len, 1));
		free(copy);
	}

	/* Bad magic, a name offset past the strings, an unknown kind. */
	memcpy(bad, b, n);
	bad[0] ^= 0xff;
	assert_null(sysinfo_btf__type_name(bad, n, 1));
	memcpy(bad, b, n);
	raw_u32(bad, 24 + 28, 1000); /* type 3's name_off */
	assert_null(sysinfo_btf__type_name(bad, n, 3));
	memcpy(bad, b, n);
	raw_u32(bad, 24 + 4, 31U << 24); /* type 1's kind */
	assert_null(sysinfo_btf__type_name(bad, n, 3));
	/* A string section with no NUL after the name. */
	memcpy(bad, b, n);
	raw_u32(bad, 20, 7); /* str_len: "\0int\0pr" */
	assert_null(sysinfo_btf__type_name(bad, n, 3));
	assert_string_equal(sysinfo_btf__type_name(bad, n, 1), "int");
}

static void test_ksym_names(void **state)
{
	uint8_t btf_raw[128];
	size_t btf_len = make_btf(btf_raw);
	struct sysinfo_bpf *bpf = make_set(btf_raw, btf_len);
	const struct sysinfo_btf *btf = sysinfo_bpf__find_btf(bpf, 3);
	const uint64_t *addrs;
	char name[128];

	(void)state;
	assert_non_null(btf);
	assert_null(sysinfo_bpf__find_btf(bpf, 4));
	assert_null(sysinfo_bpf__find_btf(NULL, 3));

	/* One function, no BTF: the program name. */
	assert_int_equal(sysinfo_bpf_prog__ksym_name(&bpf->progs[0], NULL, 0, name, sizeof(name)),
			 strlen("bpf_prog_59f4a931744dcdc6_a"));
	assert_string_equal(name, "bpf_prog_59f4a931744dcdc6_a");
	assert_int_equal(sysinfo_bpf_prog__ksym_name(&bpf->progs[0], NULL, 1, name, sizeof(name)),
			 -EINVAL);
	/* Truncated to the buffer, still terminated. */
	assert_int_equal(sysinfo_bpf_prog__ksym_name(&bpf->progs[0], NULL, 0, name, 10), 9);
	assert_string_equal(name, "bpf_prog_");
	/* No name at all: the tag only. */
	bpf->progs[0].info.name[0] = '\0';
	sysinfo_bpf_prog__ksym_name(&bpf->progs[0], NULL, 0, name, sizeof(name));
	assert_string_equal(name, "bpf_prog_59f4a931744dcdc6");

	/* Sub-programs with BTF: the BTF function names (type 3, then type 1). */
	sysinfo_bpf_prog__ksym_name(&bpf->progs[1], btf, 0, name, sizeof(name));
	assert_string_equal(name, "bpf_prog_0102030405060708_prec_test_prog");
	sysinfo_bpf_prog__ksym_name(&bpf->progs[1], btf, 1, name, sizeof(name));
	assert_string_equal(name, "bpf_prog_a0b1c2d3e4f50617_int");
	/* ... and without: "F". */
	sysinfo_bpf_prog__ksym_name(&bpf->progs[1], NULL, 1, name, sizeof(name));
	assert_string_equal(name, "bpf_prog_a0b1c2d3e4f50617_F");

	/* Arrays are bounded by data_len. */
	addrs = sysinfo_bpf_prog__array(&bpf->progs[1], bpf->progs[1].info.jited_ksyms, 2, 8);
	assert_non_null(addrs);
	assert_true(get_u64((const uint8_t *)&addrs[1]) == 0xffffffffc0002800ULL);
	assert_null(sysinfo_bpf_prog__array(&bpf->progs[1], 64, 2, 8));
	assert_null(sysinfo_bpf_prog__array(&bpf->progs[1], 72, 1, 1));
	assert_null(sysinfo_bpf_prog__array(&bpf->progs[1], UINT64_MAX, 1, 1));
	assert_null(sysinfo_bpf_prog__array(&bpf->progs[1], 0, 0, 8));
	assert_non_null(sysinfo_bpf_prog__array(&bpf->progs[1], 64, 1, 8));
	sysinfo_bpf__delete(bpf);
}

/* ---- live: the program prec_bpf_hold keeps loaded ----------------------- */

static int find_hold(char *path, size_t size)
{
	const char *dir = getenv("PREC_WORKLOAD_DIR");
	char exe[PATH_MAX];
	ssize_t n;

	if (dir && *dir) {
		snprintf(path, size, "%s/prec_bpf_hold", dir);
		if (!access(path, X_OK))
			return 0;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return -1;
	exe[n] = '\0';
	dir = dirname(exe);
	/* build/tests/test_bpf -> build/tests/fixtures/prec_bpf_hold */
	snprintf(path, size, "%s/fixtures/prec_bpf_hold", dir);
	if (!access(path, X_OK))
		return 0;
	snprintf(path, size, "%s/../fixtures/prec_bpf_hold", dir);
	return access(path, X_OK);
}

struct hold {
	pid_t pid;
	uint32_t prog_id;
	uint32_t btf_id;
	uint32_t multi_id; /* 0: the two-function program did not load */
};

/* Starts prec_bpf_hold; 0, or -1 when it cannot run or load (skip). */
static int hold_start(struct hold *h)
{
	char path[PATH_MAX + 64], line[128];
	int pfd[2], status;
	FILE *f;

	if (find_hold(path, sizeof(path)))
		return -1;
	assert_int_equal(pipe(pfd), 0);
	h->pid = fork();
	assert_true(h->pid >= 0);
	if (h->pid == 0) {
		dup2(pfd[1], 1);
		close(pfd[0]);
		close(pfd[1]);
		execl(path, path, "60", (char *)NULL);
		_exit(127);
	}
	close(pfd[1]);
	f = fdopen(pfd[0], "r");
	assert_non_null(f);
	if (!fgets(line, sizeof(line), f) || sscanf(line, "prog_id=%u btf_id=%u multi_id=%u",
						    &h->prog_id, &h->btf_id, &h->multi_id) != 3) {
		fclose(f);
		waitpid(h->pid, &status, 0);
		return -1;
	}
	fclose(f);
	return 0;
}

static void hold_stop(struct hold *h)
{
	int status;

	kill(h->pid, SIGKILL);
	waitpid(h->pid, &status, 0);
}

static const struct sysinfo_bpf_prog *find_prog(const struct sysinfo_bpf *bpf, uint32_t id)
{
	for (uint32_t i = 0; i < bpf->nr_progs; i++) {
		if (bpf->progs[i].info.id == id)
			return &bpf->progs[i];
	}
	return NULL;
}

static void test_live(void **state)
{
	struct sysinfo_bpf *bpf = NULL;
	const struct sysinfo_bpf_prog *p;
	const struct sysinfo_btf *btf;
	const uint8_t *tags;
	const uint64_t *ksyms;
	const uint32_t *lens;
	struct sysinfo si;
	struct feat_sink s;
	struct hold h;
	char name[256], want[256], hex[17];
	size_t off;
	int found = 0;

	(void)state;
	if (hold_start(&h)) {
		print_message(
			"prec_bpf_hold cannot load a program here (not root?): live part skipped\n");
		skip();
	}
	assert_int_equal(sysinfo__read_bpf(&bpf), 0);
	assert_non_null(bpf);

	/* Ascending, unique ids; BTFs ascending and unique too. */
	for (uint32_t i = 1; i < bpf->nr_progs; i++)
		assert_true(bpf->progs[i - 1].info.id < bpf->progs[i].info.id);
	for (uint32_t i = 1; i < bpf->nr_btfs; i++)
		assert_true(bpf->btfs[i - 1].id < bpf->btfs[i].id);

	p = find_prog(bpf, h.prog_id);
	assert_non_null(p);
	assert_int_equal(p->info.type, BPF_PROG_TYPE_SOCKET_FILTER);
	assert_string_equal(p->info.name, "prec_test_prog");
	assert_true(p->info.jited_prog_len > 0);
	assert_int_equal(p->info.xlated_prog_len, 16); /* two instructions */
	assert_int_equal(p->arrays, SYSINFO_BPF_ARRAYS);
	assert_int_equal(p->data_len % 8, 0);
	assert_int_equal(p->info.nr_jited_ksyms, 1);
	assert_int_equal(p->info.nr_jited_func_lens, 1);
	assert_int_equal(p->info.nr_prog_tags, 1);
	assert_int_equal(p->info.nr_func_info, 1);
	assert_int_equal(p->info.btf_id, h.btf_id);
	/* Not asked for: the kernel says how many, the pointer stays 0. */
	assert_int_equal(p->info.xlated_prog_insns, 0);
	/* The arrays, as offsets inside data: code first. */
	assert_int_equal(p->info.jited_prog_insns, 0);
	assert_non_null(
		sysinfo_bpf_prog__array(p, p->info.jited_prog_insns, p->info.jited_prog_len, 1));
	ksyms = sysinfo_bpf_prog__array(p, p->info.jited_ksyms, 1, 8);
	lens = sysinfo_bpf_prog__array(p, p->info.jited_func_lens, 1, 4);
	tags = sysinfo_bpf_prog__array(p, p->info.prog_tags, 1, 8);
	assert_non_null(ksyms);
	assert_non_null(lens);
	assert_non_null(tags);
	assert_true(get_u64((const uint8_t *)ksyms) != 0);
	assert_int_equal(get_u32((const uint8_t *)lens), p->info.jited_prog_len);
	assert_memory_equal(tags, p->info.tag, 8);
	assert_memory_not_equal(p->info.tag, "\0\0\0\0\0\0\0\0", 8);

	btf = sysinfo_bpf__find_btf(bpf, h.btf_id);
	assert_non_null(btf);
	{
		uint8_t raw[128];
		size_t n = make_btf(raw);

		assert_int_equal(btf->size, n);
		assert_memory_equal(btf->data, raw, n);
	}
	for (int i = 0; i < 8; i++)
		snprintf(hex + 2 * i, 3, "%02x", p->info.tag[i]);
	snprintf(want, sizeof(want), "bpf_prog_%s_prec_test_prog", hex);
	assert_true(sysinfo_bpf_prog__ksym_name(p, btf, 0, name, sizeof(name)) > 0);
	assert_string_equal(name, want);

	/* The two-function program: per-function addresses, lengths, tags and
	 * BTF names, and the BTF it shares kept once. */
	if (h.multi_id) {
		const struct sysinfo_bpf_prog *m = find_prog(bpf, h.multi_id);
		uint32_t same = 0;

		assert_non_null(m);
		assert_string_equal(m->info.name, "prec_test_multi");
		assert_int_equal(m->info.nr_jited_ksyms, 2);
		assert_int_equal(m->info.nr_jited_func_lens, 2);
		assert_int_equal(m->info.nr_prog_tags, 2);
		assert_int_equal(m->info.nr_func_info, 2);
		assert_int_equal(m->info.btf_id, h.btf_id);
		ksyms = sysinfo_bpf_prog__array(m, m->info.jited_ksyms, 2, 8);
		lens = sysinfo_bpf_prog__array(m, m->info.jited_func_lens, 2, 4);
		tags = sysinfo_bpf_prog__array(m, m->info.prog_tags, 2, 8);
		assert_non_null(ksyms);
		assert_non_null(lens);
		assert_non_null(tags);
		assert_true(get_u64((const uint8_t *)&ksyms[0]) !=
			    get_u64((const uint8_t *)&ksyms[1]));
		assert_int_equal(get_u32((const uint8_t *)&lens[0]) +
					 get_u32((const uint8_t *)&lens[1]),
				 m->info.jited_prog_len);
		for (int i = 0; i < 8; i++)
			snprintf(hex + 2 * i, 3, "%02x", tags[8 + i]);
		snprintf(want, sizeof(want), "bpf_prog_%s_prec_test_sub", hex);
		sysinfo_bpf_prog__ksym_name(m, btf, 1, name, sizeof(name));
		assert_string_equal(name, want);
		for (int i = 0; i < 8; i++)
			snprintf(hex + 2 * i, 3, "%02x", tags[i]);
		snprintf(want, sizeof(want), "bpf_prog_%s_prec_test_prog", hex);
		sysinfo_bpf_prog__ksym_name(m, btf, 0, name, sizeof(name));
		assert_string_equal(name, want);
		for (uint32_t i = 0; i < bpf->nr_btfs; i++)
			same += bpf->btfs[i].id == h.btf_id;
		assert_int_equal(same, 1);
	}

	/* Through the encoder: our program is one of the records. */
	memset(&si, 0, sizeof(si));
	si.bpf = bpf;
	encode(HEADER_BPF_PROG_INFO, &si, &s);
	{
		const uint8_t *d = feat_sink__data(&s);
		uint32_t nr = get_u32(d);

		assert_int_equal(nr, bpf->nr_progs);
		off = 4;
		for (uint32_t i = 0; i < nr; i++) {
			uint32_t info_len = get_u32(d + off), data_len = get_u32(d + off + 4);

			assert_int_equal(info_len, INFO_LEN);
			if (get_u32(d + off + 16 + OFF_ID) == h.prog_id) {
				found = 1;
				assert_int_equal(get_u64(d + off + 8), 0x1f9);
				assert_int_equal(data_len, p->data_len);
				assert_memory_equal(d + off + 16 + INFO_LEN, p->data, data_len);
			}
			off += 16 + info_len + data_len;
		}
		assert_int_equal(off, feat_sink__len(&s));
	}
	assert_true(found);
	feat_sink__exit(&s);
	sysinfo_bpf__delete(bpf);

	/* Unloaded with its process: gone from the next snapshot. */
	hold_stop(&h);
	assert_int_equal(sysinfo__read_bpf(&bpf), 0);
	assert_null(find_prog(bpf, h.prog_id));
	if (h.multi_id)
		assert_null(find_prog(bpf, h.multi_id));
	sysinfo_bpf__delete(bpf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout_facts),  cmocka_unit_test(test_empty),
		cmocka_unit_test(test_two_programs),  cmocka_unit_test(test_inconsistent),
		cmocka_unit_test(test_btf_type_name), cmocka_unit_test(test_ksym_names),
		cmocka_unit_test(test_live),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
