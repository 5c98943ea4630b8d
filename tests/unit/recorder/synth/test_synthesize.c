// SPDX-License-Identifier: GPL-2.0-only
/*
 * The records prec synthesizes for the kernel and the machine before the
 * kernel's own: the /proc line parsers (kallsyms, modules) on hostile
 * tables, then the kernel and module MMAPs (from a fixture proc dir made
 * under mkdtemp), FORK, KSYMBOL, BPF_EVENT, TIME_CONV and the round marker,
 * each through a real writer into a temp file and compared byte for byte
 * with records built here by hand (synth_expect.h). COMM, the maps and the
 * ids are test_synthesize_tables.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "recorder/targets/cpu_map.h"
#include "prec/event.h"
#include "recorder/evlist/evlist.h"
#include "recorder/targets/thread_map.h"
#include "prec/writer.h"
#include "recorder/synth/synthesize.h"
#include "synth_expect.h"

/* ---- kallsyms__parse_line ---- */

struct ksym_row {
	const char *line;
	int ret;
	uint64_t addr;
	char type;
	const char *name;
};

static const struct ksym_row ksym_rows[] = {
	{ "ffffffff81000000 T _text", 0, 0xffffffff81000000ULL, 'T', "_text" },
	{ "ffffffff81000000 T _text\n", 0, 0xffffffff81000000ULL, 'T', "_text" },
	{ "ffffffff82e00000 D _etext\n", 0, 0xffffffff82e00000ULL, 'D', "_etext" },
	{ "ffffffffc0a01000 t ext4_fill_super\t[ext4]\n", 0, 0xffffffffc0a01000ULL, 't',
	  "ext4_fill_super" },
	{ "ffffffffc0a01000 t ext4_fill_super\t[ext4]", 0, 0xffffffffc0a01000ULL, 't',
	  "ext4_fill_super" },
	{ "0000000000000000 A fixed_percpu_data\n", 0, 0, 'A', "fixed_percpu_data" },
	{ "0000000000000000 T _text\n", 0, 0, 'T', "_text" },
	{ "0 T x", 0, 0, 'T', "x" },
	{ "ffffffff81234567 t foo.cold.12\n", 0, 0xffffffff81234567ULL, 't', "foo.cold.12" },
	{ "FFFFFFFF81000000 W Upper\n", 0, 0xffffffff81000000ULL, 'W', "Upper" },
	{ "ffffffff81000000 T name extra\n", 0, 0xffffffff81000000ULL, 'T', "name" },
	{ "c0100000 T _text\n", 0, 0xc0100000ULL, 'T', "_text" }, /* 32-bit kernels */
	/* rejected */
	{ "", -EINVAL, 0, 0, NULL },
	{ "\n", -EINVAL, 0, 0, NULL },
	{ "ffffffff81000000", -EINVAL, 0, 0, NULL },
	{ "ffffffff81000000\n", -EINVAL, 0, 0, NULL },
	{ "ffffffff81000000 ", -EINVAL, 0, 0, NULL },
	{ "ffffffff81000000 T", -EINVAL, 0, 0, NULL },
	{ "ffffffff81000000 T\n", -EINVAL, 0, 0, NULL },
	{ "ffffffff81000000 T ", -EINVAL, 0, 0, NULL },
	{ "ffffffff81000000 T \n", -EINVAL, 0, 0, NULL },
	{ "ffffffff81000000 T \t[ext4]", -EINVAL, 0, 0, NULL },
	{ "ffffffff81000000 T\t_text", -EINVAL, 0, 0, NULL },
	{ "ffffffff81000000\tT _text", -EINVAL, 0, 0, NULL },
	{ "ffffffff81000000  T _text", -EINVAL, 0, 0, NULL },
	{ "ffffffff81000000 TT _text", -EINVAL, 0, 0, NULL },
	{ "zzzzzzzz T _text", -EINVAL, 0, 0, NULL },
	{ "ffffffffz1000000 T _text", -EINVAL, 0, 0, NULL },
	{ "T _text", -EINVAL, 0, 0, NULL },
	{ "_text", -EINVAL, 0, 0, NULL },
};

static void test_kallsyms_parse_line(void **state)
{
	int failed = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(ksym_rows) / sizeof(ksym_rows[0]); i++) {
		const struct ksym_row *r = &ksym_rows[i];
		char line[256];
		struct ksym sym = { 0 };
		int ret;

		snprintf(line, sizeof(line), "%s", r->line);
		ret = kallsyms__parse_line(line, &sym);
		if (ret != r->ret) {
			print_error("row %zu: ret %d, want %d\n", i, ret, r->ret);
			failed++;
			continue;
		}
		if (ret)
			continue;
		if (sym.addr != r->addr || sym.type != r->type || !sym.name ||
		    sym.name_len != strlen(r->name) || strcmp(sym.name, r->name) ||
		    sym.name < line || sym.name >= line + sizeof(line)) {
			print_error("row %zu: addr %llx type '%c' name '%s' (%zu)\n", i,
				    (unsigned long long)sym.addr, sym.type,
				    sym.name ? sym.name : "(null)", sym.name_len);
			failed++;
		}
	}
	assert_int_equal(failed, 0);
}

/* ---- modules__parse_line ---- */

struct module_row {
	const char *line;
	size_t name_len; /* buffer size given to the parser */
	int ret;
	const char *name;
	uint64_t size, addr;
};

static const struct module_row module_rows[] = {
	{ "ext4 1015808 3 - Live 0xffffffffc0400000\n", 64, 0, "ext4", 1015808,
	  0xffffffffc0400000ULL },
	{ "ext4 1015808 3 mbcache,jbd2, Live 0xffffffffc0400000", 64, 0, "ext4", 1015808,
	  0xffffffffc0400000ULL },
	{ "nvidia 56823808 1 nvidia_modeset, Live 0xffffffffc1000000 (POE)\n", 64, 0, "nvidia",
	  56823808, 0xffffffffc1000000ULL },
	{ "kvm_intel 372736 0 - Live 0x0000000000000000\n", 64, 0, "kvm_intel", 372736, 0 },
	{ "crc32c_intel 24576 2 - Loading 0xffffffffc0300000\n", 64, 0, "crc32c_intel", 24576,
	  0xffffffffc0300000ULL },
	{ "x 1 0 - Live 0x1\n", 64, 0, "x", 1, 1 },
	{ "ext4 1015808 3 - Live 0xffffffffc0400000\n", 5, 0, "ext4", 1015808,
	  0xffffffffc0400000ULL },
	/* rejected */
	{ "ext4 1015808 3 - Live 0xffffffffc0400000\n", 4, -EINVAL, NULL, 0, 0 },
	{ "", 64, -EINVAL, NULL, 0, 0 },
	{ "\n", 64, -EINVAL, NULL, 0, 0 },
	{ "ext4", 64, -EINVAL, NULL, 0, 0 },
	{ "ext4 1015808", 64, -EINVAL, NULL, 0, 0 },
	{ "ext4 1015808 3 - Live", 64, -EINVAL, NULL, 0, 0 },
	{ "ext4 1015808 3 - Live\n", 64, -EINVAL, NULL, 0, 0 },
	{ "ext4 abc 3 - Live 0xffffffffc0400000", 64, -EINVAL, NULL, 0, 0 },
	{ "ext4 1015808 3 - Live ffffffffc0400000", 64, -EINVAL, NULL, 0, 0 },
	{ "ext4 1015808 3 - Live 0xzz", 64, -EINVAL, NULL, 0, 0 },
	{ "a_module_name_that_is_much_longer_than_sixty_three_characters_in_all 1 0 - Live 0x1", 64,
	  -EINVAL, NULL, 0, 0 },
};

static void test_modules_parse_line(void **state)
{
	int failed = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(module_rows) / sizeof(module_rows[0]); i++) {
		const struct module_row *r = &module_rows[i];
		char name[64];
		uint64_t size = 0xdead, addr = 0xdead;
		int ret;

		memset(name, 'X', sizeof(name));
		ret = modules__parse_line(r->line, name, r->name_len, &size, &addr);
		if (ret != r->ret) {
			print_error("row %zu: ret %d, want %d\n", i, ret, r->ret);
			failed++;
			continue;
		}
		if (ret)
			continue;
		if (strcmp(name, r->name) || size != r->size || addr != r->addr) {
			print_error("row %zu: name '%s' size %llu addr %llx\n", i, name,
				    (unsigned long long)size, (unsigned long long)addr);
			failed++;
		}
	}
	assert_int_equal(failed, 0);
}

/* The MMAP record perf writes for the kernel and modules, built by hand. */
static size_t build_mmap(uint8_t *buf, const char *filename, uint64_t start, uint64_t len,
			 uint64_t pgoff, size_t id_hdr_size)
{
	size_t fl = (strlen(filename) + 1 + 7) / 8 * 8;
	size_t size = 8 + 4 + 4 + 8 + 8 + 8 + fl + id_hdr_size;
	uint32_t type = PERF_RECORD_MMAP;
	uint16_t misc = PERF_RECORD_MISC_KERNEL, sz = (uint16_t)size;
	uint32_t pid = 0xffffffffu, tid = 0;

	memset(buf, 0, size);
	memcpy(buf + 0, &type, 4);
	memcpy(buf + 4, &misc, 2);
	memcpy(buf + 6, &sz, 2);
	memcpy(buf + 8, &pid, 4);
	memcpy(buf + 12, &tid, 4);
	memcpy(buf + 16, &start, 8);
	memcpy(buf + 24, &len, 8);
	memcpy(buf + 32, &pgoff, 8);
	memcpy(buf + 40, filename, strlen(filename));
	return size;
}

static const char kallsyms_ok[] = "0000000000000000 A fixed_percpu_data\n"
				  "0000000000000000 A __per_cpu_start\n"
				  "ffffffff81000000 T startup_64\n"
				  "ffffffff81000000 T _text\n"
				  "ffffffff81000040 T secondary_startup_64\n"
				  "garbage that is not a symbol line\n"
				  "ffffffff81e00000 T _etext\n"
				  "ffffffff82000000 D _sdata\n"
				  "ffffffffc0a01000 t ext4_fill_super\t[ext4]\n";

static void test_kernel_mmap(void **state)
{
	struct tw *t = *state;
	uint8_t got[256], want[256];
	size_t n, wn;

	tw_proc_file(t, "kallsyms", kallsyms_ok);
	assert_int_equal(synth__kernel_mmap(SYNTH_OUT(t->w), t->proc, 24), 0);
	n = tw_data(t, got, sizeof(got));
	wn = build_mmap(want, "[kernel.kallsyms]_text", 0xffffffff81000000ULL, 0xe00000,
			0xffffffff81000000ULL, 24);
	assert_int_equal(wn, 88);
	assert_int_equal(n, wn);
	assert_memory_equal(got, want, wn);

	/* Field by field, through the public struct. */
	const struct prec_mmap_event *ev = (const void *)got;

	assert_int_equal(ev->header.type, PERF_RECORD_MMAP);
	assert_int_equal(ev->header.misc, PERF_RECORD_MISC_KERNEL);
	assert_int_equal(ev->header.size, 88);
	assert_int_equal(ev->header.size % 8, 0);
	assert_int_equal(ev->pid, 0xffffffffu);
	assert_int_equal(ev->tid, 0);
	assert_int_equal(ev->start, 0xffffffff81000000ULL);
	assert_int_equal(ev->len, 0xe00000);
	assert_int_equal(ev->pgoff, 0xffffffff81000000ULL);
	assert_string_equal(ev->filename, "[kernel.kallsyms]_text");
}

static void test_kernel_mmap_no_id_hdr(void **state)
{
	struct tw *t = *state;
	uint8_t got[256], want[256];
	size_t n, wn;

	/* _etext before _text in the file: order does not matter. */
	tw_proc_file(t, "kallsyms",
		     "ffffffffa0e00000 T _etext\n"
		     "ffffffffa0000000 T _text\n");
	assert_int_equal(synth__kernel_mmap(SYNTH_OUT(t->w), t->proc, 0), 0);
	n = tw_data(t, got, sizeof(got));
	wn = build_mmap(want, "[kernel.kallsyms]_text", 0xffffffffa0000000ULL, 0xe00000,
			0xffffffffa0000000ULL, 0);
	assert_int_equal(wn, 64);
	assert_int_equal(n, wn);
	assert_memory_equal(got, want, wn);
}

/* A KALLSYMS_ALL kernel: since 6.6 perf's map ends at _edata (any type), so
 * data addresses in the image resolve; a module's _edata or an _edata below
 * _text is not used. */
static void test_kernel_mmap_edata(void **state)
{
	static const struct {
		const char *kallsyms;
		uint64_t len;
	} rows[] = {
		{ "ffffffff81000000 T _text\n"
		  "ffffffff81e00000 T _etext\n"
		  "ffffffff82000000 D _sdata\n"
		  "ffffffff8272a000 D _edata\n"
		  "ffffffff83000000 B _end\n",
		  0x172a000 },
		/* before _etext in the file, lower case: still the end */
		{ "ffffffff8272a000 d _edata\n"
		  "ffffffff81000000 T _text\n"
		  "ffffffff81e00000 T _etext\n",
		  0x172a000 },
		/* without _etext */
		{ "ffffffff81000000 T _text\n"
		  "ffffffff8272a000 D _edata\n",
		  0x172a000 },
		{ "ffffffff81000000 T _text\n"
		  "ffffffff81e00000 T _etext\n"
		  "ffffffffc0a02000 d _edata\t[ext4]\n",
		  0xe00000 },
		{ "ffffffff81000000 T _text\n"
		  "ffffffff81e00000 T _etext\n"
		  "ffffffff80000000 D _edata\n",
		  0xe00000 },
	};
	struct tw *t = *state;
	uint8_t got[512];

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct prec_mmap_event *ev = (const void *)(got + i * 72);

		tw_proc_file(t, "kallsyms", rows[i].kallsyms);
		assert_int_equal(synth__kernel_mmap(SYNTH_OUT(t->w), t->proc, 8), 0);
		/* The records so far, 72 bytes each: this row's is the last. */
		assert_int_equal(tw_data(t, got, sizeof(got)), (i + 1) * 72);
		assert_int_equal(ev->start, 0xffffffff81000000ULL);
		if (ev->len != rows[i].len)
			fail_msg("row %zu: len %#llx, want %#llx", i, (unsigned long long)ev->len,
				 (unsigned long long)rows[i].len);
		assert_int_equal(ev->pgoff, 0xffffffff81000000ULL);
	}
}

/* Without _etext, perf's map runs to the end of the address space. */
static void test_kernel_mmap_no_etext(void **state)
{
	struct tw *t = *state;
	uint8_t got[256], want[256];
	size_t n, wn;

	tw_proc_file(t, "kallsyms", "ffffffff81000000 T _text\n");
	assert_int_equal(synth__kernel_mmap(SYNTH_OUT(t->w), t->proc, 8), 0);
	n = tw_data(t, got, sizeof(got));
	wn = build_mmap(want, "[kernel.kallsyms]_text", 0xffffffff81000000ULL,
			~0ULL - 0xffffffff81000000ULL, 0xffffffff81000000ULL, 8);
	assert_int_equal(n, wn);
	assert_memory_equal(got, want, wn);
}

static void test_kernel_mmap_errors(void **state)
{
	static const struct {
		const char *kallsyms; /* NULL: no file at all */
		int ret;
	} rows[] = {
		/* kptr_restrict: every address reads as zero */
		{ "0000000000000000 T startup_64\n"
		  "0000000000000000 T _text\n"
		  "0000000000000000 T _etext\n",
		  -EACCES },
		{ "0000000000000000 T _text\n", -EACCES },
		/* no _text at all */
		{ "ffffffff81000000 T startup_64\n"
		  "ffffffff81e00000 T _etext\n",
		  -ENOENT },
		{ "ffffffff81000000 T _text_start\n", -ENOENT },
		{ "", -ENOENT },
		{ "not a kallsyms file\n", -ENOENT },
		{ NULL, -ENOENT },
	};
	struct tw *t = *state;
	char p[192];
	int failed = 0;

	snprintf(p, sizeof(p), "%s/kallsyms", t->proc);
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		int ret;

		unlink(p);
		if (rows[i].kallsyms)
			tw_proc_file(t, "kallsyms", rows[i].kallsyms);
		ret = synth__kernel_mmap(SYNTH_OUT(t->w), t->proc, 24);
		if (ret != rows[i].ret) {
			print_error("row %zu: ret %d, want %d\n", i, ret, rows[i].ret);
			failed++;
		}
	}
	assert_int_equal(failed, 0);
	/* Nothing was written by any of them. */
	assert_int_equal(writer__data_size(t->w), 0);
}

static void test_module_mmaps(void **state)
{
	struct tw *t = *state;
	uint8_t got[512], want[512];
	size_t n, wn = 0;

	tw_proc_file(t, "modules",
		     "ext4 1015808 3 mbcache,jbd2, Live 0xffffffffc0400000\n"
		     "hidden 4096 0 - Live 0x0000000000000000\n"
		     "garbage\n"
		     "kvm_intel 372736 0 - Live 0xffffffffc0200000 (O)\n"
		     /* 62 characters: the longest names still fit */
		     "a_long_module_name_0123456789_0123456789_0123456789_0123456789 8192 0 - Live "
		     "0xffffffffc0100000\n");
	assert_int_equal(synth__module_mmaps(SYNTH_OUT(t->w), t->proc, 16), 0);
	n = tw_data(t, got, sizeof(got));
	wn += build_mmap(want + wn, "[ext4]", 0xffffffffc0400000ULL, 1015808, 0, 16);
	wn += build_mmap(want + wn, "[kvm_intel]", 0xffffffffc0200000ULL, 372736, 0, 16);
	wn += build_mmap(want + wn,
			 "[a_long_module_name_0123456789_0123456789_0123456789_0123456789]",
			 0xffffffffc0100000ULL, 8192, 0, 16);
	assert_int_equal(wn, 64 + 72 + 128);
	assert_int_equal(n, wn);
	assert_memory_equal(got, want, wn);
}

static void test_module_mmaps_none(void **state)
{
	struct tw *t = *state;

	/* A kernel without modules has no /proc/modules: nothing to do. */
	assert_int_equal(synth__module_mmaps(SYNTH_OUT(t->w), t->proc, 24), 0);
	tw_proc_file(t, "modules", "");
	assert_int_equal(synth__module_mmaps(SYNTH_OUT(t->w), t->proc, 24), 0);
	/* kptr_restrict: all addresses zero, every module skipped */
	tw_proc_file(t, "modules", "ext4 1015808 3 - Live 0x0000000000000000\n");
	assert_int_equal(synth__module_mmaps(SYNTH_OUT(t->w), t->proc, 24), 0);
	assert_int_equal(writer__data_size(t->w), 0);
}

/* ---- FORK, KSYMBOL, BPF_EVENT, TIME_CONV, markers ---- */

static void test_fork(void **state)
{
	struct tw *t = *state;
	uint8_t got[128], want[64];
	uint32_t hdr[2] = { PERF_RECORD_FORK, (uint32_t)PERF_RECORD_MISC_FORK_EXEC | 64u << 16 };
	uint32_t ids[4] = { 14859, 14859, 17169, 14859 };

	assert_int_equal(synth__fork(SYNTH_OUT(t->w), 14859, 14859, 17169, 14859, 32), 0);
	assert_int_equal(synth__fork(SYNTH_OUT(t->w), 1, 0, 1, 0, 1024), -E2BIG);
	/* perf 6.1's bytes for a thread of a running process (-a) */
	memset(want, 0, sizeof(want));
	memcpy(want, hdr, 8);
	memcpy(want + 8, ids, 16);
	assert_int_equal(want[5], 0x20);
	assert_int_equal(tw_data(t, got, sizeof(got)), 64);
	assert_memory_equal(got, want, 64);
}

static void test_ksymbol_bpf_event(void **state)
{
	struct tw *t = *state;
	char longname[700];
	uint8_t got[1024];
	static const uint8_t tag[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };

	memset(longname, 'x', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	assert_int_equal(synth__ksymbol(SYNTH_OUT(t->w), 0x1000, 7, PERF_RECORD_KSYMBOL_TYPE_BPF, 0,
					"abcdefg", 0),
			 0);
	/* 511 characters at most, as perf's KSYM_NAME_LEN */
	assert_int_equal(synth__ksymbol(SYNTH_OUT(t->w), 0x2000, 8, PERF_RECORD_KSYMBOL_TYPE_OOL, 1,
					longname, 8),
			 0);
	assert_int_equal(
		synth__bpf_event(SYNTH_OUT(t->w), PERF_BPF_EVENT_PROG_UNLOAD, 0, 7, tag, 8), 0);
	assert_int_equal(synth__ksymbol(SYNTH_OUT(t->w), 0, 0, 1, 0, "x", 100), -E2BIG);
	assert_int_equal(synth__bpf_event(SYNTH_OUT(t->w), 1, 0, 1, tag, 100), -E2BIG);
	assert_int_equal(tw_data(t, got, sizeof(got)), 32 + (24 + 512 + 8) + 32);
	assert_int_equal(got[6], 32);
	assert_string_equal((char *)got + 24, "abcdefg");
	assert_int_equal(got[32 + 6] | got[32 + 7] << 8, 24 + 512 + 8);
	assert_int_equal(got[32 + 20], PERF_RECORD_KSYMBOL_TYPE_OOL);
	assert_int_equal(got[32 + 22], 1);
	assert_int_equal(strlen((char *)got + 32 + 24), 511);
	assert_int_equal(got[576], PERF_RECORD_BPF_EVENT);
	assert_int_equal(got[576 + 6], 32);
	assert_int_equal(got[576 + 8], PERF_BPF_EVENT_PROG_UNLOAD);
	assert_int_equal(got[576 + 12], 7);
	assert_memory_equal(got + 576 + 16, tag, 8);
}

static void test_time_conv(void **state)
{
	struct tw *t = *state;
	struct perf_event_mmap_page *pc = calloc(1, 4096);
	uint64_t want[7], got[16];

	assert_non_null(pc);
	pc->time_shift = 10;
	pc->time_mult = 524288000;
	pc->time_zero = 0x123456789aULL;
	pc->time_cycles = 0x1111;
	pc->time_mask = 0xffffffff;
	/* no cap_user_time_zero: perf writes nothing */
	assert_int_equal(synth__time_conv(SYNTH_OUT(t->w), pc), 0);
	assert_int_equal(synth__time_conv(SYNTH_OUT(t->w), NULL), 0);
	assert_int_equal(writer__data_size(t->w), 0);

	pc->cap_user_time_zero = 1;
	assert_int_equal(synth__time_conv(SYNTH_OUT(t->w), pc), 0);
	pc->cap_user_time_short = 1;
	assert_int_equal(synth__time_conv(SYNTH_OUT(t->w), pc), 0);
	/* a page the kernel is forever updating (odd sequence) */
	pc->lock = 1;
	assert_int_equal(synth__time_conv(SYNTH_OUT(t->w), pc), -EBUSY);
	free(pc);

	assert_int_equal(tw_data(t, (uint8_t *)got, sizeof(got)), 112);
	want[0] = PERF_RECORD_TIME_CONV | 56ULL << 48;
	want[1] = 10;
	want[2] = 524288000;
	want[3] = 0x123456789aULL;
	want[4] = 0x1111;
	want[5] = 0xffffffff;
	want[6] = 1; /* cap_user_time_zero, short 0, reserved */
	assert_memory_equal(got, want, 56);
	want[6] = 0x101;
	assert_memory_equal(got + 7, want, 56);
}

static void test_marker(void **state)
{
	struct tw *t = *state;
	uint8_t got[32];
	struct perf_event_header h;

	assert_int_equal(synth__marker(SYNTH_OUT(t->w), PERF_RECORD_FINISHED_INIT), 0);
	assert_int_equal(synth__marker(SYNTH_OUT(t->w), PERF_RECORD_FINISHED_ROUND), 0);
	assert_int_equal(tw_data(t, got, sizeof(got)), 16);
	memcpy(&h, got, 8);
	assert_int_equal(h.type, PERF_RECORD_FINISHED_INIT);
	assert_int_equal(h.misc, 0);
	assert_int_equal(h.size, 8);
	memcpy(&h, got + 8, 8);
	assert_int_equal(h.type, PERF_RECORD_FINISHED_ROUND);
	assert_int_equal(h.size, 8);
}

#define TW(fn) cmocka_unit_test_setup_teardown(fn, tw_setup, tw_teardown)

int main(void)
{
	/* clang-format off */
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kallsyms_parse_line),
		cmocka_unit_test(test_modules_parse_line),
		TW(test_kernel_mmap),
		TW(test_kernel_mmap_no_id_hdr),
		TW(test_kernel_mmap_edata),
		TW(test_kernel_mmap_no_etext),
		TW(test_kernel_mmap_errors),
		TW(test_module_mmaps),
		TW(test_module_mmaps_none),
		TW(test_fork),
		TW(test_ksymbol_bpf_event),
		TW(test_time_conv),
		TW(test_marker),
	};
	/* clang-format on */

	return cmocka_run_group_tests(tests, NULL, NULL);
}
