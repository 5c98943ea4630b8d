// SPDX-License-Identifier: GPL-2.0-only
/*
 * The BPF --filter grammar (recorder/events/bpf_filter_parse.c): every term with the
 * sample bit and part it reads, every operator, the symbolic memory values,
 * ',' and '||' groups (bare, as perf writes them, and in parentheses), the
 * 64-entry limit, the table of bits and options, perf 6.12's cgroup term and
 * where its path is, and one line naming the offending token for every kind
 * of mistake.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "recorder/events/bpf_filter_parse.h"

static struct filter_terms f;
static struct prec_err e = PREC_ERR_INIT;

static void parse_ok(const char *s)
{
	prec_err__clear(&e);
	if (filter_terms__parse(s, &f, &e))
		fail_msg("'%s' refused: %s", s, prec_err__msg(&e));
}

/* Refused with -EINVAL (or ret), one line holding each of the words. */
static void parse_bad(const char *s, int ret, const char *w1, const char *w2)
{
	prec_err__clear(&e);
	assert_int_equal(filter_terms__parse(s, &f, &e), ret);
	assert_null(strchr(prec_err__msg(&e), '\n'));
	if (!strstr(prec_err__msg(&e), w1) || (w2 && !strstr(prec_err__msg(&e), w2)))
		fail_msg("'%s': '%s' lacks '%s' or '%s'", s, prec_err__msg(&e), w1, w2 ? w2 : "");
}

static void test_terms(void **state)
{
	static const struct {
		const char *name;
		uint64_t sample;
		uint16_t part;
		uint16_t helper;
	} t[] = {
		{ "ip", PERF_SAMPLE_IP, 0, 0 },
		{ "id", PERF_SAMPLE_ID, 0, 0 },
		{ "tid", PERF_SAMPLE_TID, 0, 0 },
		{ "pid", PERF_SAMPLE_TID, 1, 0 },
		{ "cpu", PERF_SAMPLE_CPU, 0, 0 },
		{ "time", PERF_SAMPLE_TIME, 0, 0 },
		{ "addr", PERF_SAMPLE_ADDR, 0, 0 },
		{ "period", PERF_SAMPLE_PERIOD, 0, 0 },
		{ "txn", PERF_SAMPLE_TRANSACTION, 0, 0 },
		{ "weight", PERF_SAMPLE_WEIGHT, 0, 0 },
		{ "weight1", PERF_SAMPLE_WEIGHT_STRUCT, 1, 0 },
		{ "weight2", PERF_SAMPLE_WEIGHT_STRUCT, 2, 0 },
		{ "weight3", PERF_SAMPLE_WEIGHT_STRUCT, 3, 0 },
		{ "ins_lat", PERF_SAMPLE_WEIGHT_STRUCT, 2, 0 },
		{ "retire_lat", PERF_SAMPLE_WEIGHT_STRUCT, 3, 0 },
		{ "p_stage_cyc", PERF_SAMPLE_WEIGHT_STRUCT, 3, 0 },
		{ "phys_addr", PERF_SAMPLE_PHYS_ADDR, 0, 0 },
		{ "code_pgsz", PERF_SAMPLE_CODE_PAGE_SIZE, 0, 0 },
		{ "data_pgsz", PERF_SAMPLE_DATA_PAGE_SIZE, 0, 0 },
		{ "mem_op", PERF_SAMPLE_DATA_SRC, 1, 0 },
		{ "mem_lvl", PERF_SAMPLE_DATA_SRC, 2, 0 },
		{ "mem_lvlnum", PERF_SAMPLE_DATA_SRC, 2, 0 },
		{ "mem_snoop", PERF_SAMPLE_DATA_SRC, 3, 0 },
		{ "mem_remote", PERF_SAMPLE_DATA_SRC, 4, 0 },
		{ "mem_lock", PERF_SAMPLE_DATA_SRC, 5, 0 },
		{ "mem_dtlb", PERF_SAMPLE_DATA_SRC, 6, 0 },
		{ "mem_blk", PERF_SAMPLE_DATA_SRC, 7, 0 },
		{ "mem_hops", PERF_SAMPLE_DATA_SRC, 8, 0 },
		{ "uid", 0, 0, SF_HELPER_UID },
		{ "gid", 0, 0, SF_HELPER_GID },
	};
	char s[64];

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		snprintf(s, sizeof(s), "%s == 7", t[i].name);
		parse_ok(s);
		assert_int_equal(f.nr, 1);
		assert_int_equal(f.v[0].op, SF_OP_EQ);
		assert_int_equal(f.v[0].value, 7);
		if (f.v[0].sample != t[i].sample || f.v[0].part != t[i].part ||
		    f.v[0].helper != t[i].helper)
			fail_msg("%s: sample %#llx part %u helper %u", t[i].name,
				 (unsigned long long)f.v[0].sample, f.v[0].part, f.v[0].helper);
		assert_int_equal(f.v[1].op, SF_OP_DONE);
		assert_int_equal(f.at[0], 0);
		assert_int_equal(f.len[0], strlen(s));
	}
}

static void test_ops_and_numbers(void **state)
{
	static const struct {
		const char *s;
		uint32_t op;
		uint64_t value;
	} t[] = {
		{ "ip==1", SF_OP_EQ, 1 },
		{ "ip != 2", SF_OP_NE, 2 },
		{ "ip > 3", SF_OP_GT, 3 },
		{ "ip >= 4", SF_OP_GE, 4 },
		{ "ip < 5", SF_OP_LT, 5 },
		{ "ip <= 6", SF_OP_LE, 6 },
		{ "ip & 0x10", SF_OP_AND, 16 },
		{ "ip < 0xffffffff00000000", SF_OP_LT, 0xffffffff00000000ULL },
		{ "ip < 0XaBcD", SF_OP_LT, 0xabcd },
		{ "ip == 18446744073709551615", SF_OP_EQ, UINT64_MAX },
		{ "ip == 0xffffffffffffffff", SF_OP_EQ, UINT64_MAX },
		{ "\t ip\t<=\n0 ", SF_OP_LE, 0 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		parse_ok(t[i].s);
		assert_int_equal(f.nr, 1);
		assert_int_equal(f.v[0].op, t[i].op);
		assert_true(f.v[0].value == t[i].value);
	}
}

static void test_symbols(void **state)
{
	static const struct {
		const char *s;
		uint64_t value;
	} t[] = {
		{ "mem_op == na", PERF_MEM_OP_NA },
		{ "mem_op == load", PERF_MEM_OP_LOAD },
		{ "mem_op == store", PERF_MEM_OP_STORE },
		{ "mem_op == pfetch", PERF_MEM_OP_PFETCH },
		{ "mem_op == exec", PERF_MEM_OP_EXEC },
		{ "mem_lvl == l1", PERF_MEM_LVLNUM_L1 },
		{ "mem_lvl == l2", PERF_MEM_LVLNUM_L2 },
		{ "mem_lvl == l3", PERF_MEM_LVLNUM_L3 },
		{ "mem_lvl == l4", PERF_MEM_LVLNUM_L4 },
		{ "mem_lvl == cxl", PERF_MEM_LVLNUM_CXL },
		{ "mem_lvl == io", PERF_MEM_LVLNUM_IO },
		{ "mem_lvl == any_cache", PERF_MEM_LVLNUM_ANY_CACHE },
		{ "mem_lvl == lfb", PERF_MEM_LVLNUM_LFB },
		{ "mem_lvlnum == ram", PERF_MEM_LVLNUM_RAM },
		{ "mem_lvl == pmem", PERF_MEM_LVLNUM_PMEM },
		{ "mem_snoop == none", PERF_MEM_SNOOP_NONE },
		{ "mem_snoop == hit", PERF_MEM_SNOOP_HIT },
		{ "mem_snoop == miss", PERF_MEM_SNOOP_MISS },
		{ "mem_snoop == hitm", PERF_MEM_SNOOP_HITM },
		/* snoopx sits above snoop's 5 bits in what the program reads */
		{ "mem_snoop & fwd", PERF_MEM_SNOOPX_FWD << 5 },
		{ "mem_snoop & peer", PERF_MEM_SNOOPX_PEER << 5 },
		{ "mem_remote == remote", PERF_MEM_REMOTE_REMOTE },
		{ "mem_lock == locked", PERF_MEM_LOCK_LOCKED },
		{ "mem_dtlb == l1_hit", PERF_MEM_TLB_L1 | PERF_MEM_TLB_HIT },
		{ "mem_dtlb == l1_miss", PERF_MEM_TLB_L1 | PERF_MEM_TLB_MISS },
		{ "mem_dtlb == l2_hit", PERF_MEM_TLB_L2 | PERF_MEM_TLB_HIT },
		{ "mem_dtlb == l2_miss", PERF_MEM_TLB_L2 | PERF_MEM_TLB_MISS },
		{ "mem_dtlb & any_hit", PERF_MEM_TLB_HIT },
		{ "mem_dtlb & any_miss", PERF_MEM_TLB_MISS },
		{ "mem_dtlb & walk", PERF_MEM_TLB_WK },
		{ "mem_dtlb & os", PERF_MEM_TLB_OS },
		{ "mem_dtlb & fault", PERF_MEM_TLB_OS },
		{ "mem_blk == by_data", PERF_MEM_BLK_DATA },
		{ "mem_blk == by_addr", PERF_MEM_BLK_ADDR },
		{ "mem_hops == hops0", PERF_MEM_HOPS_0 },
		{ "mem_hops == hops1", PERF_MEM_HOPS_1 },
		{ "mem_hops == hops2", PERF_MEM_HOPS_2 },
		{ "mem_hops == hops3", PERF_MEM_HOPS_3 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		parse_ok(t[i].s);
		if (f.v[0].value != t[i].value)
			fail_msg("'%s': %#llx", t[i].s, (unsigned long long)f.v[0].value);
	}
	/* a symbol is a value of its own term only, and numbers still do */
	parse_bad("cpu == load", -EINVAL, "'load' at offset 7 is not a value of 'cpu'",
		  "(a number)");
	parse_bad("mem_op == l1", -EINVAL, "not a value of 'mem_op'",
		  "one of na, load, store, pfetch, exec");
	parse_ok("mem_op == 2");
	assert_int_equal(f.v[0].value, 2);
}

static void test_groups(void **state)
{
	(void)state;
	/* ',' joins terms that must all hold */
	parse_ok("ip < 10, cpu == 1, pid != 3");
	assert_int_equal(f.nr, 3);
	assert_int_equal(f.v[1].sample, PERF_SAMPLE_CPU);
	assert_int_equal(f.at[1], 9);
	assert_int_equal(f.len[1], 8);
	assert_int_equal(f.v[3].op, SF_OP_DONE);
	/* perf's '||': one of the terms so joined holds */
	parse_ok("period > 1000 || ip > 0");
	assert_int_equal(f.nr, 4);
	assert_int_equal(f.v[0].op, SF_OP_GROUP_BEGIN);
	assert_int_equal(f.v[1].sample, PERF_SAMPLE_PERIOD);
	assert_int_equal(f.v[1].value, 1000);
	assert_int_equal(f.v[2].sample, PERF_SAMPLE_IP);
	assert_int_equal(f.v[3].op, SF_OP_GROUP_END);
	assert_int_equal(f.at[0], 0);
	assert_int_equal(f.len[0], strlen("period > 1000 || ip > 0"));
	assert_int_equal(f.at[1], 0);
	assert_int_equal(f.len[1], strlen("period > 1000"));
	/* a group, then a term; parentheses around a group change nothing */
	parse_ok("(cpu == 0 || cpu == 2 || cpu == 4), ip < 5");
	assert_int_equal(f.nr, 6);
	assert_int_equal(f.v[0].op, SF_OP_GROUP_BEGIN);
	assert_int_equal(f.v[3].value, 4);
	assert_int_equal(f.v[4].op, SF_OP_GROUP_END);
	assert_int_equal(f.v[5].sample, PERF_SAMPLE_IP);
	parse_ok("ip < 5, cpu == 0 || cpu == 2");
	assert_int_equal(f.nr, 5);
	assert_int_equal(f.v[1].op, SF_OP_GROUP_BEGIN);
	assert_int_equal(f.v[4].op, SF_OP_GROUP_END);
	parse_ok("( ip < 5 )");
	assert_int_equal(f.nr, 1);
}

static void test_limit(void **state)
{
	char s[2048];
	size_t n = 0;

	(void)state;
	/* 64 entries fill the map: no room, no need for the end marker */
	for (int i = 0; i < 64; i++)
		n += (size_t)snprintf(s + n, sizeof(s) - n, "%sip != %d", i ? ", " : "", i);
	parse_ok(s);
	assert_int_equal(f.nr, 64);
	assert_int_equal(f.v[63].value, 63);
	snprintf(s + n, sizeof(s) - n, ", ip != 64");
	parse_bad(s, -E2BIG, "too many terms", "64 entries");
	/* a group's markers count */
	n = 0;
	for (int i = 0; i < 62; i++)
		n += (size_t)snprintf(s + n, sizeof(s) - n, "%sip != %d", i ? ", " : "", i);
	snprintf(s + n, sizeof(s) - n, ", cpu == 1 || cpu == 2");
	parse_bad(s, -E2BIG, "too many terms", NULL);
}

static void test_errors(void **state)
{
	(void)state;
	parse_bad("", -EINVAL, "the filter is empty", "ip < 0xffffffff00000000");
	parse_bad(" \t", -EINVAL, "the filter is empty", NULL);
	parse_bad("foo == 1", -EINVAL, "unknown term 'foo' at offset 0", "terms: ip, id, tid");
	parse_bad("ip < 1, ipx == 2", -EINVAL, "unknown term 'ipx' at offset 8", NULL);
	parse_bad("cgroups == /a", -EINVAL, "unknown term 'cgroups'", "uid, gid, cgroup)");
	parse_bad("ip", -EINVAL, "expected an operator after 'ip', found the end",
		  "==, !=, >, >=, <, <=, &");
	parse_bad("ip = 1", -EINVAL, "found '=' at offset 3", NULL);
	parse_bad("ip =< 1", -EINVAL, "found '=' at offset 3", NULL);
	parse_bad("ip <", -EINVAL, "expected a value for 'ip', found the end", "(a number)");
	parse_bad("ip < -1", -EINVAL, "found '-' at offset 5", NULL);
	parse_bad("ip < 12ab", -EINVAL, "'12ab' at offset 5 is not a number", "0x and hex");
	parse_bad("ip < 0x", -EINVAL, "'0x' at offset 5 is not a number", NULL);
	parse_bad("ip < 0xfg", -EINVAL, "'0xfg' at offset 5 is not a number", NULL);
	parse_bad("ip < 18446744073709551616", -EINVAL, "offset 5 does not fit in 64 bits", NULL);
	parse_bad("ip < 0x10000000000000000", -EINVAL, "does not fit in 64 bits", NULL);
	parse_bad("ip < 1,", -EINVAL, "expected a term, found the end", NULL);
	parse_bad(", ip < 1", -EINVAL, "expected a term, found ',' at offset 0", NULL);
	parse_bad("ip < 1 ip > 0", -EINVAL, "unexpected 'ip' at offset 7", "joined by ',' or '||'");
	parse_bad("ip < 1 | ip > 0", -EINVAL, "unexpected '|' at offset 7", NULL);
	parse_bad("ip < 1 && ip > 0", -EINVAL, "unexpected '&' at offset 7", NULL);
	parse_bad("ip < 1 ||", -EINVAL, "expected a term, found the end", NULL);
	parse_bad("|| ip < 1", -EINVAL, "expected a term, found '|' at offset 0", NULL);
	parse_bad("(ip < 1 || ip > 2", -EINVAL, "expected ')' to close the group at offset 0",
		  "found the end");
	parse_bad("(ip < 1, ip > 2)", -EINVAL, "expected ')'", "found ',' at offset 7");
	parse_bad("((ip < 1))", -EINVAL, "expected a term, found '(' at offset 1", NULL);
	parse_bad("ip < 1)", -EINVAL, "unexpected ')' at offset 6", NULL);
	parse_bad("ip < 1\x01", -EINVAL, "byte 0x01 at offset 6", NULL);
	parse_bad("ip < \xff", -EINVAL, "byte 0xff at offset 5", NULL);
	/* a long token is cut in the message */
	parse_bad("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa == 1", -EINVAL,
		  "unknown term 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' at offset 0", NULL);
}

/* The path of entry i, as the string holds it. */
static void assert_path(const char *s, int i, const char *path)
{
	assert_int_equal(f.path_len[i], strlen(path));
	assert_memory_equal(s + f.path_at[i], path, strlen(path));
}

static void test_cgroup(void **state)
{
	const char *s;

	(void)state;
	s = "cgroup == /abc/def";
	parse_ok(s);
	assert_int_equal(f.nr, 1);
	assert_int_equal(f.v[0].sample, PERF_SAMPLE_CGROUP);
	assert_int_equal(f.v[0].op, SF_OP_EQ);
	assert_int_equal(f.v[0].value, 0);
	assert_path(s, 0, "/abc/def");
	assert_int_equal(f.len[0], strlen(s));
	/* a relative path, !=, then other terms: a space ends the path */
	s = "ip > 0, cgroup!=system.slice , pid == 3";
	parse_ok(s);
	assert_int_equal(f.nr, 3);
	assert_int_equal(f.v[1].op, SF_OP_NE);
	assert_path(s, 1, "system.slice");
	assert_int_equal(f.path_len[0], 0);
	assert_int_equal(f.path_len[2], 0);
	/* perf's lexer: ',' and ')' belong to a path that no space ends */
	s = "cgroup == /a,ip";
	parse_ok(s);
	assert_int_equal(f.nr, 1);
	assert_path(s, 0, "/a,ip");
	parse_bad("cgroup == /a,ip > 0", -EINVAL, "unexpected '>' at offset 16", NULL);
	parse_bad("(cgroup == /a)", -EINVAL, "expected ')'", "found the end");
	/* in a group the first term moves behind the marker, its path with it */
	s = "cgroup == /x || cgroup == /yy";
	parse_ok(s);
	assert_int_equal(f.nr, 4);
	assert_int_equal(f.v[0].op, SF_OP_GROUP_BEGIN);
	assert_int_equal(f.path_len[0], 0);
	assert_path(s, 1, "/x");
	assert_path(s, 2, "/yy");
	assert_int_equal(f.path_len[3], 0);
	/* a path is no value elsewhere, and cgroup takes == and != only */
	parse_bad("ip == /a", -EINVAL, "expected a value for 'ip', found '/' at offset 6", NULL);
	parse_bad("cgroup > /a", -EINVAL, "'cgroup' takes == or != only", "cgroup == /PATH");
	parse_bad("cgroup & /a", -EINVAL, "== or != only", NULL);
	parse_bad("cgroup ==", -EINVAL, "expected a cgroup path for 'cgroup', found the end",
		  "cgroup2 mount");
	parse_bad("cgroup ==  \t", -EINVAL, "expected a cgroup path", NULL);
	/* bytes a path may hold: anything but a space, tab or newline */
	s = "cgroup == /\xff\x01z";
	parse_ok(s);
	assert_path(s, 0, "/\xff\x01z");
}

static void test_bits(void **state)
{
	(void)state;
	/* perf's table of the options that add each bit */
	assert_string_equal(filter_terms__bit_name(PERF_SAMPLE_CPU), "PERF_SAMPLE_CPU");
	assert_string_equal(filter_terms__bit_option(PERF_SAMPLE_CPU), "--sample-cpu");
	assert_string_equal(filter_terms__bit_option(PERF_SAMPLE_ID), "--sample-identifier");
	assert_string_equal(filter_terms__bit_option(PERF_SAMPLE_TIME), "-T");
	assert_string_equal(filter_terms__bit_option(PERF_SAMPLE_ADDR), "-d");
	assert_string_equal(filter_terms__bit_option(PERF_SAMPLE_DATA_SRC), "-d");
	assert_string_equal(filter_terms__bit_option(PERF_SAMPLE_PHYS_ADDR), "--phys-data");
	assert_string_equal(filter_terms__bit_option(PERF_SAMPLE_WEIGHT), "-W");
	assert_string_equal(filter_terms__bit_option(PERF_SAMPLE_WEIGHT_STRUCT), "-W");
	assert_string_equal(filter_terms__bit_option(PERF_SAMPLE_TRANSACTION), "--transaction");
	assert_string_equal(filter_terms__bit_option(PERF_SAMPLE_CODE_PAGE_SIZE),
			    "--code-page-size");
	assert_string_equal(filter_terms__bit_option(PERF_SAMPLE_DATA_PAGE_SIZE),
			    "--data-page-size");
	assert_string_equal(filter_terms__bit_option(PERF_SAMPLE_PERIOD), "--period");
	assert_string_equal(filter_terms__bit_option(PERF_SAMPLE_CGROUP), "--all-cgroups");
	assert_string_equal(filter_terms__bit_name(PERF_SAMPLE_CGROUP), "PERF_SAMPLE_CGROUP");
	assert_null(filter_terms__bit_option(PERF_SAMPLE_IP));
	assert_null(filter_terms__bit_option(PERF_SAMPLE_TID));
	assert_null(filter_terms__bit_option(PERF_SAMPLE_RAW));
	assert_string_equal(filter_terms__bit_name(PERF_SAMPLE_RAW), "an unknown PERF_SAMPLE bit");

	/* the first term whose field the event does not sample */
	parse_ok("ip < 5, uid == 0, cpu == 1 || code_pgsz > 4096");
	assert_int_equal(filter_terms__missing(&f, PERF_SAMPLE_IP), 3);
	assert_int_equal(filter_terms__missing(&f, PERF_SAMPLE_IP | PERF_SAMPLE_CPU), 4);
	assert_int_equal(filter_terms__missing(&f, PERF_SAMPLE_IP | PERF_SAMPLE_CPU |
							   PERF_SAMPLE_CODE_PAGE_SIZE),
			 -1);
	assert_int_equal(filter_terms__missing(&f, 0), 0);
	/* id comes with IDENTIFIER too, weight with WEIGHT_STRUCT */
	parse_ok("id != 0, weight > 1");
	assert_int_equal(
		filter_terms__missing(&f, PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_WEIGHT_STRUCT), -1);
	assert_int_equal(filter_terms__missing(&f, PERF_SAMPLE_IDENTIFIER), 1);
	parse_ok("weight1 > 1");
	assert_int_equal(filter_terms__missing(&f, PERF_SAMPLE_WEIGHT), 0);
}

int main(void)
{
	/* clang-format off */
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_terms),
		cmocka_unit_test(test_ops_and_numbers),
		cmocka_unit_test(test_symbols),
		cmocka_unit_test(test_groups),
		cmocka_unit_test(test_limit),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_cgroup),
		cmocka_unit_test(test_bits),
	};
	/* clang-format on */

	return cmocka_run_group_tests(tests, NULL, NULL);
}
