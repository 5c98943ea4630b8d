// SPDX-License-Identifier: GPL-2.0-only
/*
 * sysinfo's pure parsers over plain buffers: hostile-input tables for cpu
 * lists, numbers, /proc/cpuinfo (CPUDESC, x86 CPUID), MIDR and /proc/meminfo.
 * Every row either parses to the exact value or is refused with the exact
 * errno; a refusal never touches the output.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sysinfo/fsread.h"
#include "sysinfo/sysinfo_int.h"

/* ---- cpu lists ---------------------------------------------------------- */

struct cpulist_case {
	const char *in;
	int err;
	uint32_t count;
	int max;
};

static const struct cpulist_case cpulist_cases[] = {
	/* accepted: what sysfs prints, and what the kernel's parser tolerates */
	{ "0", 0, 1, 0 },
	{ "0\n", 0, 1, 0 },
	{ "0-1\n", 0, 2, 1 },
	{ "0-3,8,10-11", 0, 7, 11 },
	{ "  0-3,8,10-11 \n", 0, 7, 11 },
	{ "\t5\t", 0, 1, 5 },
	{ "63", 0, 1, 63 },
	{ "64", 0, 1, 64 },
	{ "63-64", 0, 2, 64 },
	{ "0-127", 0, 128, 127 },
	{ "1,3", 0, 2, 3 },
	{ "3,1", 0, 2, 3 },
	{ "0-3,2-5", 0, 6, 5 },
	{ "2,2,2", 0, 1, 2 },
	{ "7-7", 0, 1, 7 },
	{ "007", 0, 1, 7 },
	{ "0-1048575", 0, 1048576, 1048575 },
	{ "1048575", 0, 1, 1048575 },
	{ "0,1048575", 0, 2, 1048575 },
	/* empty: told apart so callers can accept a CPU-less node's "\n" */
	{ "", -ENODATA, 0, -1 },
	{ "\n", -ENODATA, 0, -1 },
	{ "   \t\n", -ENODATA, 0, -1 },
	/* rejected */
	{ "1-", -EINVAL, 0, -1 },
	{ "-1", -EINVAL, 0, -1 },
	{ "-", -EINVAL, 0, -1 },
	{ "3-1", -EINVAL, 0, -1 },
	{ "a", -EINVAL, 0, -1 },
	{ "abc", -EINVAL, 0, -1 },
	{ "0x1", -EINVAL, 0, -1 },
	{ "1,", -EINVAL, 0, -1 },
	{ ",1", -EINVAL, 0, -1 },
	{ "1,,2", -EINVAL, 0, -1 },
	{ ",", -EINVAL, 0, -1 },
	{ "1 2", -EINVAL, 0, -1 },
	{ "1, 2", -EINVAL, 0, -1 },
	{ "1 -2", -EINVAL, 0, -1 },
	{ "1- 2", -EINVAL, 0, -1 },
	{ "1-2-3", -EINVAL, 0, -1 },
	{ "1--2", -EINVAL, 0, -1 },
	{ "+1", -EINVAL, 0, -1 },
	{ "1.5", -EINVAL, 0, -1 },
	{ "0-31:4/8", -EINVAL, 0, -1 }, /* kernel stride syntax: sysfs never prints it */
	{ "N", -EINVAL, 0, -1 },
	{ "all", -EINVAL, 0, -1 },
	{ "ff", -EINVAL, 0, -1 },
	{ "1;2", -EINVAL, 0, -1 },
	{ "1\n2", -EINVAL, 0, -1 },
	{ "1048576", -ERANGE, 0, -1 },
	{ "0-1048576", -ERANGE, 0, -1 },
	{ "4294967295", -ERANGE, 0, -1 },
	{ "4294967296", -ERANGE, 0, -1 },
	{ "18446744073709551617", -ERANGE, 0, -1 },
	{ "99999999999999999999999999999999", -ERANGE, 0, -1 },
	{ "0-99999999999999999999", -ERANGE, 0, -1 },
};

static void test_cpulist_table(void **state)
{
	for (size_t i = 0; i < sizeof(cpulist_cases) / sizeof(cpulist_cases[0]); i++) {
		const struct cpulist_case *c = &cpulist_cases[i];
		struct cpulist cl = { (uint64_t *)1, 99 }; /* must be zeroed on failure */
		int err = cpulist__parse(c->in, strlen(c->in), &cl);

		if (err != c->err)
			fail_msg("cpulist \"%s\": got %d, want %d", c->in, err, c->err);
		if (err) {
			assert_null(cl.bits);
			assert_int_equal(cl.nr_bits, 0);
		}
		if (cpulist__count(&cl) != c->count || cpulist__max(&cl) != c->max)
			fail_msg("cpulist \"%s\": count %u max %d, want %u %d", c->in,
				 cpulist__count(&cl), cpulist__max(&cl), c->count, c->max);
		cpulist__exit(&cl);
		cpulist__exit(&cl);
	}
}

static void test_cpulist_members(void **state)
{
	static const char in[] = "0-3,8,10-11,64,127";
	static const int want[] = { 0, 1, 2, 3, 8, 10, 11, 64, 127 };
	struct cpulist cl;
	size_t n = 0;

	assert_int_equal(cpulist__parse(in, strlen(in), &cl), 0);
	for (int c = cpulist__next(&cl, 0); c >= 0; c = cpulist__next(&cl, (uint32_t)c + 1)) {
		assert_true(n < sizeof(want) / sizeof(want[0]));
		assert_int_equal(c, want[n++]);
	}
	assert_int_equal(n, sizeof(want) / sizeof(want[0]));
	assert_true(cpulist__has(&cl, 8));
	assert_false(cpulist__has(&cl, 9));
	assert_false(cpulist__has(&cl, 128));
	assert_false(cpulist__has(&cl, UINT32_MAX));
	assert_int_equal(cpulist__next(&cl, 128), -1);
	cpulist__exit(&cl);
	cpulist__exit(NULL);

	/* Length-bounded: bytes past len are not part of the list. */
	assert_int_equal(cpulist__parse("0-3garbage", 3, &cl), 0);
	assert_int_equal(cpulist__count(&cl), 4);
	cpulist__exit(&cl);
	/* A NUL inside the buffer is garbage, not an end. */
	assert_int_equal(cpulist__parse("1\0002", 3, &cl), -EINVAL);
}

/* ---- numbers ------------------------------------------------------------ */

struct u64_case {
	const char *in;
	unsigned int base;
	int err;
	uint64_t val;
};

static const struct u64_case u64_cases[] = {
	{ "0", 10, 0, 0 },
	{ "1", 10, 0, 1 },
	{ "42\n", 10, 0, 42 },
	{ " \t42 \n", 10, 0, 42 },
	{ "007", 10, 0, 7 },
	{ "4294967296", 10, 0, UINT64_C(4294967296) },
	{ "18446744073709551615", 10, 0, UINT64_MAX },
	{ "018446744073709551615", 10, 0, UINT64_MAX },
	{ "18446744073709551616", 10, -ERANGE, 0 },
	{ "18446744073709551620", 10, -ERANGE, 0 },
	{ "99999999999999999999999", 10, -ERANGE, 0 },
	{ "", 10, -EINVAL, 0 },
	{ " ", 10, -EINVAL, 0 },
	{ "\n", 10, -EINVAL, 0 },
	{ "-1", 10, -EINVAL, 0 },
	{ "+1", 10, -EINVAL, 0 },
	{ "- 1", 10, -EINVAL, 0 },
	{ "1 2", 10, -EINVAL, 0 },
	{ "12a", 10, -EINVAL, 0 },
	{ "a12", 10, -EINVAL, 0 },
	{ "0x10", 10, -EINVAL, 0 },
	{ "1e3", 10, -EINVAL, 0 },
	{ "1.0", 10, -EINVAL, 0 },
	{ "1,000", 10, -EINVAL, 0 },
	{ "1_000", 10, -EINVAL, 0 },
	{ "99999999999999999999999x", 10, -EINVAL, 0 }, /* garbage wins over overflow */
	{ "inf", 10, -EINVAL, 0 },
	{ "nan", 10, -EINVAL, 0 },
	{ "\xef\xbc\x91", 10, -EINVAL, 0 }, /* fullwidth 1 */
	{ "0", 16, 0, 0 },
	{ "8000000\n", 16, 0, 0x8000000 }, /* memory/block_size_bytes */
	{ "0x00000000412fd050\n", 16, 0, 0x412fd050 }, /* midr_el1 */
	{ "0XABCdef", 16, 0, 0xabcdef },
	{ "ffffffffffffffff", 16, 0, UINT64_MAX },
	{ "0x0000ffffffffffffffff", 16, 0, UINT64_MAX },
	{ "10000000000000000", 16, -ERANGE, 0 },
	{ "0x", 16, -EINVAL, 0 },
	{ "0x\n", 16, -EINVAL, 0 },
	{ "x10", 16, -EINVAL, 0 },
	{ "0x0x1", 16, -EINVAL, 0 },
	{ "g", 16, -EINVAL, 0 },
	{ "-0x1", 16, -EINVAL, 0 },
	{ "1", 8, -EINVAL, 0 },
	{ "1", 0, -EINVAL, 0 },
	{ "1", 2, -EINVAL, 0 },
};

static void test_u64_table(void **state)
{
	for (size_t i = 0; i < sizeof(u64_cases) / sizeof(u64_cases[0]); i++) {
		const struct u64_case *c = &u64_cases[i];
		uint64_t v = 12345;
		int err = u64__parse(c->in, strlen(c->in), c->base, &v);

		if (err != c->err)
			fail_msg("u64 \"%s\" base %u: got %d, want %d", c->in, c->base, err,
				 c->err);
		if (!err && v != c->val)
			fail_msg("u64 \"%s\": got %llu", c->in, (unsigned long long)v);
		if (err && v != 12345)
			fail_msg("u64 \"%s\": value touched on failure", c->in);
	}
	/* Embedded NUL and length bounds. */
	uint64_t v;
	assert_int_equal(u64__parse("1\0002", 3, 10, &v), -EINVAL);
	assert_int_equal(u64__parse("12345", 2, 10, &v), 0);
	assert_true(v == 12);
}

/* ---- cpuinfo ------------------------------------------------------------ */

static const char x86_cpuinfo[] = "processor\t: 0\n"
				  "vendor_id\t: GenuineIntel\n"
				  "cpu family\t: 6\n"
				  "model\t\t: 167\n"
				  "model name\t: Intel(R) Xeon(R)   Processor  \n"
				  "stepping\t: 1\n"
				  "flags\t\t: fpu vme\n"
				  "\n"
				  "processor\t: 1\n"
				  "vendor_id\t: AuthenticAMD\n"
				  "cpu family\t: 25\n"
				  "model\t\t: 1\n"
				  "model name\t: Other\n"
				  "stepping\t: 2\n";

static void test_cpuinfo_find(void **state)
{
	const char *v;
	size_t n;

	assert_int_equal(cpuinfo__find(x86_cpuinfo, strlen(x86_cpuinfo), "model", true, &v, &n), 0);
	assert_int_equal(n, 3);
	assert_memory_equal(v, "167", 3);
	/* Exact key match: "model" is not "model name", "cpu" is not "cpu family". */
	assert_int_equal(cpuinfo__find(x86_cpuinfo, strlen(x86_cpuinfo), "cpu", false, &v, &n),
			 -ENOENT);
	assert_int_equal(cpuinfo__find(x86_cpuinfo, strlen(x86_cpuinfo), "model nam", false, &v,
				       &n),
			 -ENOENT);
	/* first_block stops at the blank line after processor 0. */
	assert_int_equal(cpuinfo__find(x86_cpuinfo, strlen(x86_cpuinfo), "flags", true, &v, &n), 0);
	assert_int_equal(cpuinfo__find("processor : 0\n\nfoo : 1\n", 22, "foo", true, &v, &n),
			 -ENOENT);
	assert_int_equal(cpuinfo__find("processor : 0\n\nfoo : 1\n", 22, "foo", false, &v, &n), 0);
	/* Leading blank lines do not end the first block. */
	assert_int_equal(cpuinfo__find("\n\n  \nfoo : 1\n", 13, "foo", true, &v, &n), 0);
	assert_int_equal(cpuinfo__find("", 0, "foo", false, &v, &n), -ENOENT);
	assert_int_equal(cpuinfo__find("foo", 3, "foo", false, &v, &n), -ENOENT); /* no colon */
	assert_int_equal(cpuinfo__find("foo:", 4, "foo", false, &v, &n), 0);
	assert_int_equal(n, 0);
	assert_int_equal(cpuinfo__find("foo:bar", 7, "foo", false, &v, &n), 0); /* no newline */
	assert_int_equal(n, 3);
	assert_int_equal(cpuinfo__find("x : a:b\n", 8, "x", false, &v, &n), 0);
	assert_memory_equal(v, "a:b", 3);
}

struct cpudesc_case {
	const char *arch, *cpuinfo, *want; /* want NULL: -ENOENT */
};

static const struct cpudesc_case cpudesc_cases[] = {
	{ "x86_64", "model name\t: Intel(R) Xeon(R) Processor\n", "Intel(R) Xeon(R) Processor" },
	{ "x86_64", "model name\t:   Intel(R)  Core(TM)\ti7 \t CPU   \n",
	  "Intel(R) Core(TM) i7 CPU" },
	{ "x86_64", "model name\t: AMD EPYC 7B13\n", "AMD EPYC 7B13" },
	{ "x86_64", "model name\t:\n", NULL },
	{ "x86_64", "model name\t:    \n", NULL },
	{ "x86_64", "vendor_id\t: GenuineIntel\n", NULL },
	{ "x86_64", "", NULL },
	{ "x86_64", "model name : first\nmodel name : second\n", "first" },
	{ "i686", "model name\t: Pentium\n", "Pentium" },
	{ "aarch64", "processor\t: 0\nCPU part\t: 0xd05\n", NULL },
	{ "aarch64", "model name\t: ARMv8 Processor rev 4 (v8l)\n", "ARMv8 Processor rev 4 (v8l)" },
	{ "armv7l", "Processor\t: ARMv7 Processor rev 10 (v7l)\n", "ARMv7 Processor rev 10 (v7l)" },
	{ "armv7l", "model name\t: ARMv7 rev 10\nProcessor\t: other\n", "ARMv7 rev 10" },
	{ "ppc64le", "processor\t: 0\ncpu\t\t: POWER9 (raw), altivec supported\n",
	  "POWER9 (raw), altivec supported" },
	{ "s390x", "vendor_id       : IBM/S390\n", "IBM/S390" },
	{ "mips64", "cpu model\t\t: Loongson-3 V0.4  FPU V0.1\n", "Loongson-3 V0.4 FPU V0.1" },
	{ "sh4", "cpu type\t: SH7751R\n", "SH7751R" },
	{ "xtensa", "core ID\t\t: test_kc705_hifi\n", "test_kc705_hifi" },
	{ "riscv64", "model name\t: whatever\n", "whatever" },
	{ "", "model name\t: unknown arch\n", "unknown arch" },
	{ "x86_64", "model name\t: a\0b\n", "a" }, /* strlen stops at the NUL */
};

static void test_cpudesc_table(void **state)
{
	for (size_t i = 0; i < sizeof(cpudesc_cases) / sizeof(cpudesc_cases[0]); i++) {
		const struct cpudesc_case *c = &cpudesc_cases[i];
		char *desc = (char *)1;
		int err = cpuinfo__cpudesc(c->cpuinfo, strlen(c->cpuinfo), c->arch, &desc);

		if (c->want) {
			if (err || !desc || strcmp(desc, c->want))
				fail_msg("cpudesc %s \"%s\": got %d \"%s\"", c->arch, c->cpuinfo,
					 err, desc ? desc : "(null)");
		} else if (err != -ENOENT || desc) {
			fail_msg("cpudesc %s \"%s\": got %d, want -ENOENT", c->arch, c->cpuinfo,
				 err);
		}
		free(desc);
	}
	/* A NUL inside the value (within len) is refused, not cut short. */
	char *desc;
	assert_int_equal(cpuinfo__cpudesc("model name : a\0b\n", 17, "x86_64", &desc), -ENOENT);
	assert_null(desc);
	assert_string_equal(cpudesc__keys(NULL)[0], "model name");
	assert_string_equal(cpudesc__keys("arm64")[0], "model name");
	assert_null(cpudesc__keys("arm64")[1]);
	assert_string_equal(cpudesc__keys("armv6l")[1], "Processor");
	assert_string_equal(cpudesc__keys("sparc64")[0], "cpu");
	assert_string_equal(cpudesc__keys("alpha")[0], "cpu model");
	assert_string_equal(cpudesc__keys("arc")[0], "Processor");
}

struct x86_cpuid_case {
	const char *cpuinfo, *want; /* want NULL: refused */
};

#define X86(v, f, m, s) \
	"vendor_id\t: " v "\ncpu family\t: " f "\nmodel\t\t: " m "\nstepping\t: " s "\n"

static const struct x86_cpuid_case x86_cpuid_cases[] = {
	{ X86("GenuineIntel", "6", "167", "1"), "GenuineIntel,6,167,1" },
	{ X86("AuthenticAMD", "25", "1", "1"), "AuthenticAMD,25,1,1" },
	{ X86("HygonGenuine", "24", "0", "2"), "HygonGenuine,24,0,2" },
	{ X86("GenuineIntel", "06", "0167", "01"), "GenuineIntel,6,167,1" },
	{ X86("GenuineIntel", "4294967295", "0", "0"), "GenuineIntel,4294967295,0,0" },
	{ X86("GenuineIntel", "4294967296", "0", "0"), NULL },
	{ X86("GenuineIntel", "6", "0xa7", "1"), NULL },
	{ X86("GenuineIntel", "6", "-1", "1"), NULL },
	{ X86("GenuineIntel", "6", "167", ""), NULL },
	{ X86("GenuineIntel", "6", "167", "unknown"), NULL },
	{ X86("", "6", "167", "1"), NULL },
	{ X86("Genuine Intel", "6", "167", "1"), NULL },
	{ X86("Genuine,Intel", "6", "167", "1"), NULL },
	{ X86("GenuineIntelXX", "6", "167", "1"), NULL },
	{ "vendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 167\n", NULL },
	{ "vendor_id\t: GenuineIntel\ncpu family\t: 6\n\nmodel\t\t: 167\nstepping\t: 1\n", NULL },
	{ "model name\t: Intel\n", NULL },
	{ "", NULL },
	/* The first processor block decides, as perf asks the CPU it runs on. */
	{ X86("GenuineIntel", "6", "167", "1") "\n" X86("AuthenticAMD", "25", "1", "1"),
	  "GenuineIntel,6,167,1" },
	/* "model" must not be taken from "model name". */
	{ "vendor_id : GenuineIntel\ncpu family : 6\nmodel name : X\nmodel : 85\nstepping : 7\n",
	  "GenuineIntel,6,85,7" },
};

static void test_x86_cpuid_table(void **state)
{
	for (size_t i = 0; i < sizeof(x86_cpuid_cases) / sizeof(x86_cpuid_cases[0]); i++) {
		const struct x86_cpuid_case *c = &x86_cpuid_cases[i];
		char *cpuid = (char *)1;
		int err = cpuinfo__x86_cpuid(c->cpuinfo, strlen(c->cpuinfo), &cpuid);

		if (c->want) {
			if (err || !cpuid || strcmp(cpuid, c->want))
				fail_msg("cpuid case %zu: got %d \"%s\"", i, err,
					 cpuid ? cpuid : "(null)");
		} else if (!err || cpuid) {
			fail_msg("cpuid case %zu: accepted \"%s\"", i, cpuid);
		}
		free(cpuid);
	}
}

static void test_midr_cpuid(void **state)
{
	static const struct {
		uint64_t midr;
		const char *want;
	} cases[] = {
		{ 0x412fd050, "0x00000000410fd050" }, /* Cortex-A55 r2p0 */
		{ 0x414fd0b1, "0x00000000410fd0b0" }, /* Cortex-A76 r4p1 */
		{ 0x410fd0c0, "0x00000000410fd0c0" }, /* Neoverse-N1 r0p0 */
		{ 0x611f0221, "0x00000000610f0220" }, /* Apple */
		{ UINT64_MAX, "0xffffffffff0ffff0" },
		{ 0x00f0000f, NULL }, /* nothing left after masking: perf writes none */
		{ 0, NULL },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *cpuid = (char *)1;
		int err = midr__cpuid(cases[i].midr, &cpuid);

		if (cases[i].want) {
			assert_int_equal(err, 0);
			assert_string_equal(cpuid, cases[i].want);
		} else {
			assert_int_equal(err, -EINVAL);
			assert_null(cpuid);
		}
		free(cpuid);
	}
}

/* ---- meminfo ------------------------------------------------------------ */

static void test_meminfo_table(void **state)
{
	static const struct {
		const char *in;
		int err;
		uint64_t kb;
	} cases[] = {
		{ "MemTotal:       24684084 kB\nMemFree:  1 kB\n", 0, 24684084 },
		{ "MemFree:  1 kB\nMemTotal: 7 kB\n", 0, 7 },
		{ "MemTotal: 7", 0, 7 },
		{ "MemTotal:\t7\tkB\t\n", 0, 7 },
		{ "MemTotal: 0 kB\n", 0, 0 },
		{ "MemTotal: 18446744073709551615 kB\n", 0, UINT64_MAX },
		{ "MemTotal: 18446744073709551616 kB\n", -ERANGE, 0 },
		{ "MemTotal:       99999999999999999999999 kB\n", -ERANGE, 0 },
		{ "MemTotal: 1024 MB\n", -EINVAL, 0 },
		{ "MemTotal: -1 kB\n", -EINVAL, 0 },
		{ "MemTotal: kB\n", -EINVAL, 0 },
		{ "MemTotal:\n", -EINVAL, 0 },
		{ "MemTotal: 1 2 kB\n", -EINVAL, 0 },
		{ "MemTotal: 0x10 kB\n", -EINVAL, 0 },
		{ " MemTotal: 7 kB\n", -ENOENT, 0 },
		{ "memtotal: 7 kB\n", -ENOENT, 0 },
		{ "MemTotal 7 kB\n", -ENOENT, 0 },
		{ "Node 0 MemTotal: 7 kB\n", -ENOENT, 0 },
		{ "", -ENOENT, 0 },
		{ "\n\n\n", -ENOENT, 0 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t kb = 12345;
		int err = meminfo__total_kb(cases[i].in, strlen(cases[i].in), &kb);

		if (err != cases[i].err)
			fail_msg("meminfo \"%s\": got %d, want %d", cases[i].in, err, cases[i].err);
		if (!err && kb != cases[i].kb)
			fail_msg("meminfo \"%s\": got %llu", cases[i].in, (unsigned long long)kb);
		if (err && kb != 12345)
			fail_msg("meminfo \"%s\": value touched on failure", cases[i].in);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpulist_table), cmocka_unit_test(test_cpulist_members),
		cmocka_unit_test(test_u64_table),     cmocka_unit_test(test_cpuinfo_find),
		cmocka_unit_test(test_cpudesc_table), cmocka_unit_test(test_x86_cpuid_table),
		cmocka_unit_test(test_midr_cpuid),    cmocka_unit_test(test_meminfo_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
