// SPDX-License-Identifier: GPL-2.0-only
/*
 * sysinfo's pure parsers over plain buffers: hostile-input tables for
 * /proc/cpuinfo (CPUDESC, x86 CPUID), MIDR and /proc/meminfo (cpu lists and
 * numbers are base's: test_base_parsers.c).
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
		cmocka_unit_test(test_cpuinfo_find),
		cmocka_unit_test(test_cpudesc_table), cmocka_unit_test(test_x86_cpuid_table),
		cmocka_unit_test(test_midr_cpuid),    cmocka_unit_test(test_meminfo_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
