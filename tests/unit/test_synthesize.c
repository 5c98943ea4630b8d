// SPDX-License-Identifier: GPL-2.0-only
/*
 * The records prec synthesizes before the kernel's: the /proc line parsers
 * on hostile tables, then every synth__ function through a real writer into
 * a temp file, compared byte for byte with records built here by hand. The
 * kernel and module maps read a fixture proc dir made under mkdtemp.
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

#include "prec/cpu_map.h"
#include "prec/event.h"
#include "prec/evlist.h"
#include "prec/thread_map.h"
#include "prec/writer.h"
#include "recorder/synth/synthesize.h"

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

/* ---- a writer to a temp file, and a fixture proc dir ---- */

struct tw {
	char dir[64];
	char path[128];
	char proc[128];
	struct writer *w;
	uint64_t data_off;
};

static const uint64_t fake_ids[1] = { 1 };
static struct perf_event_attr fake_attr = {
	.type = PERF_TYPE_SOFTWARE,
	.size = sizeof(struct perf_event_attr),
	.config = PERF_COUNT_SW_CPU_CLOCK,
};
static const struct writer_event fake_event = {
	.attr = &fake_attr,
	.name = "cpu-clock",
	.ids = fake_ids,
	.nr_ids = 1,
};

static int tw_setup(void **state)
{
	struct tw *t = calloc(1, sizeof(*t));

	if (!t)
		return -1;
	strcpy(t->dir, "/tmp/prec-test-synth-XXXXXX");
	if (!mkdtemp(t->dir))
		return -1;
	snprintf(t->path, sizeof(t->path), "%s/perf.data", t->dir);
	snprintf(t->proc, sizeof(t->proc), "%s/proc", t->dir);
	if (mkdir(t->proc, 0700))
		return -1;
	if (writer__open(&t->w, t->path) || writer__begin(t->w, &fake_event, 1))
		return -1;
	t->data_off = writer__file_size(t->w);
	*state = t;
	return 0;
}

static int tw_teardown(void **state)
{
	struct tw *t = *state;
	char p[192];

	writer__abort(t->w);
	snprintf(p, sizeof(p), "%s/kallsyms", t->proc);
	unlink(p);
	snprintf(p, sizeof(p), "%s/modules", t->proc);
	unlink(p);
	rmdir(t->proc);
	rmdir(t->dir);
	free(t);
	return 0;
}

static void tw_proc_file(struct tw *t, const char *name, const char *text)
{
	char p[192];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", t->proc, name);
	f = fopen(p, "w");
	assert_non_null(f);
	assert_int_equal(fputs(text, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
}

/* Everything written to the data section so far (flushed first). */
static size_t tw_data(struct tw *t, uint8_t *buf, size_t cap)
{
	uint64_t n;
	int fd;

	/* An empty writev flushes the buffered records without adding any. */
	assert_int_equal(writer__writev(t->w, NULL, 0), 0);
	n = writer__data_size(t->w);
	assert_true(n <= cap);
	fd = open(t->path, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(pread(fd, buf, n, (off_t)t->data_off), (ssize_t)n);
	close(fd);
	return (size_t)n;
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

/* ---- COMM, THREAD_MAP, CPU_MAP, ID_INDEX, markers ---- */

struct comm_row {
	const char *comm;
	size_t id_hdr_size;
	const char *want_comm; /* as stored (at most 15 chars) */
	uint16_t want_size;
};

static const struct comm_row comm_rows[] = {
	{ "true", 24, "true", 48 },
	{ "true", 0, "true", 24 },
	{ "", 0, "", 24 },
	{ "sevench", 0, "sevench", 24 },
	{ "eightchr", 0, "eightchr", 32 },
	{ "abcdefghijklmno", 8, "abcdefghijklmno", 40 },
	{ "abcdefghijklmnop", 8, "abcdefghijklmno", 40 },
	{ "a-very-long-command-name-indeed", 48, "a-very-long-com", 80 },
};

static void test_comm(void **state)
{
	struct tw *t = *state;
	uint8_t got[2048];
	size_t n, off = 0;
	int failed = 0;

	for (size_t i = 0; i < sizeof(comm_rows) / sizeof(comm_rows[0]); i++)
		assert_int_equal(synth__comm(SYNTH_OUT(t->w), 4242, 4243, comm_rows[i].comm,
					     comm_rows[i].id_hdr_size),
				 0);
	n = tw_data(t, got, sizeof(got));
	for (size_t i = 0; i < sizeof(comm_rows) / sizeof(comm_rows[0]); i++) {
		const struct comm_row *r = &comm_rows[i];
		uint8_t want[128];
		uint32_t type = PERF_RECORD_COMM;
		uint16_t misc = 0;
		uint32_t pid = 4242, tid = 4243;

		memset(want, 0, sizeof(want));
		memcpy(want, &type, 4);
		memcpy(want + 4, &misc, 2);
		memcpy(want + 6, &r->want_size, 2);
		memcpy(want + 8, &pid, 4);
		memcpy(want + 12, &tid, 4);
		memcpy(want + 16, r->want_comm, strlen(r->want_comm));
		if (off + r->want_size > n || memcmp(got + off, want, r->want_size)) {
			uint16_t sz = 0;

			if (off + 8 <= n)
				memcpy(&sz, got + off + 6, 2);
			print_error("row %zu ('%s'): record differs (size %u, want %u)\n", i,
				    r->comm, sz, r->want_size);
			failed++;
			break; /* the rest is misaligned */
		}
		off += r->want_size;
	}
	assert_int_equal(failed, 0);
	assert_int_equal(off, n);
}

static void test_comm_too_big(void **state)
{
	struct tw *t = *state;

	assert_int_equal(synth__comm(SYNTH_OUT(t->w), 1, 1, "x", 4096), -E2BIG);
	assert_int_equal(writer__data_size(t->w), 0);
}

static void test_thread_map(void **state)
{
	struct tw *t = *state;
	uint8_t got[64], want[40];
	uint32_t type = PERF_RECORD_THREAD_MAP;
	uint16_t misc = 0, size = 40;
	uint64_t nr = 1, pid = 31337;

	assert_int_equal(synth__thread_map(SYNTH_OUT(t->w), 31337), 0);
	assert_int_equal(tw_data(t, got, sizeof(got)), 40);
	memset(want, 0, sizeof(want));
	memcpy(want, &type, 4);
	memcpy(want + 4, &misc, 2);
	memcpy(want + 6, &size, 2);
	memcpy(want + 8, &nr, 8);
	memcpy(want + 16, &pid, 8);
	/* comm[16] stays zero, as perf writes it */
	assert_memory_equal(got, want, 40);
}

struct cpu_map_row {
	const char *cpus;
	uint16_t want_size;
	uint16_t nr;
	uint16_t cpu[8];
};

static const struct cpu_map_row cpu_map_rows[] = {
	{ "0", 16, 1, { 0 } },
	{ "0-1", 16, 2, { 0, 1 } },
	{ "0-2", 24, 3, { 0, 1, 2 } },
	{ "0-2,5", 24, 4, { 0, 1, 2, 5 } },
	{ "3,7,300,65535", 24, 4, { 3, 7, 300, 65535 } },
	{ "0-4", 24, 5, { 0, 1, 2, 3, 4 } },
	{ "0-5", 24, 6, { 0, 1, 2, 3, 4, 5 } },
	/* from 7 CPUs below 64 on, the mask is no bigger: test_cpu_map_forms */
};

static void test_cpu_map(void **state)
{
	struct tw *t = *state;
	uint8_t got[512];
	size_t n, off = 0;
	int failed = 0;

	for (size_t i = 0; i < sizeof(cpu_map_rows) / sizeof(cpu_map_rows[0]); i++) {
		struct evlist evlist;

		memset(&evlist, 0, sizeof(evlist));
		assert_int_equal(cpu_map__parse(&evlist.cpus, cpu_map_rows[i].cpus), 0);
		assert_int_equal(synth__cpu_map(SYNTH_OUT(t->w), &evlist), 0);
		cpu_map__delete(evlist.cpus);
	}
	n = tw_data(t, got, sizeof(got));
	for (size_t i = 0; i < sizeof(cpu_map_rows) / sizeof(cpu_map_rows[0]); i++) {
		const struct cpu_map_row *r = &cpu_map_rows[i];
		uint8_t want[64];
		uint32_t type = PERF_RECORD_CPU_MAP;
		uint16_t zero = 0;

		memset(want, 0, sizeof(want));
		memcpy(want, &type, 4);
		memcpy(want + 4, &zero, 2);
		memcpy(want + 6, &r->want_size, 2);
		memcpy(want + 8, &zero, 2); /* u16 type: 0, the cpu list form */
		memcpy(want + 10, &r->nr, 2);
		memcpy(want + 12, r->cpu, r->nr * sizeof(uint16_t));
		if (off + r->want_size > n || memcmp(got + off, want, r->want_size)) {
			print_error("row %zu ('%s'): record differs\n", i, r->cpus);
			failed++;
			break;
		}
		off += r->want_size;
	}
	assert_int_equal(failed, 0);
	assert_int_equal(off, n);
}

/* A CPU_MAP record built by hand: header, then the payload bytes. */
static size_t build_cpu_map(uint8_t *buf, uint16_t size, const void *payload, size_t n)
{
	uint32_t type = PERF_RECORD_CPU_MAP;
	uint16_t misc = 0;

	memset(buf, 0, size);
	memcpy(buf, &type, 4);
	memcpy(buf + 4, &misc, 2);
	memcpy(buf + 6, &size, 2);
	memcpy(buf + 8, payload, n);
	return size;
}

static void test_cpu_map_forms(void **state)
{
	static const int seven[] = { 0, 1, 2, 3, 4, 5, 6 }, evens[] = { 0, 2, 4, 6, 8, 10, 12 },
			 range[] = { 4, 5, 6, 7 }, any_range[] = { -1, 0, 1 }, any[] = { -1 },
			 high[] = { 1, 64, 65535 },
			 two_words[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 64 };
	/* type, then the form's fields, little endian as on this machine */
	static const uint8_t mask64_seven[] = { 1, 0,	 1, 0, 8, 0, 0, 0, 0,
						0, 0x7f, 0, 0, 0, 0, 0, 0, 0 };
	static const uint8_t mask32_evens[] = { 1, 0, 1, 0, 4, 0, 0x55, 0x15, 0, 0 };
	static const uint8_t range_4_7[] = { 2, 0, 0, 0, 4, 0, 7, 0 };
	static const uint8_t range_any[] = { 2, 0, 1, 0, 0, 0, 1, 0 };
	static const uint8_t list_any[] = { 0, 0, 1, 0, 0xff, 0xff };
	static const uint8_t list_high[] = { 0, 0, 3, 0, 1, 0, 64, 0, 0xff, 0xff };
	static const uint8_t mask64_two[] = { 1, 0, 2, 0, 8, 0,	   0, 0, 0, 0, 0xff, 0x03, 0,
					      0, 0, 0, 0, 0, 0x01, 0, 0, 0, 0, 0,    0,	   0 };
	struct tw *t = *state;
	uint8_t got[512], want[512];
	size_t n, wn = 0;

	/* perf 5.x: the list unless {nr, long_size, longs} is smaller */
	assert_int_equal(synth__cpu_map_cpus(SYNTH_OUT(t->w), seven, 7, SYNTH_CPU_MAP_COMPAT), 0);
	wn += build_cpu_map(want + wn, 32, mask64_seven, sizeof(mask64_seven));
	assert_int_equal(synth__cpu_map_cpus(SYNTH_OUT(t->w), any, 1, SYNTH_CPU_MAP_COMPAT), 0);
	wn += build_cpu_map(want + wn, 16, list_any, sizeof(list_any));
	assert_int_equal(synth__cpu_map_cpus(SYNTH_OUT(t->w), high, 3, SYNTH_CPU_MAP_COMPAT), 0);
	wn += build_cpu_map(want + wn, 24, list_high, sizeof(list_high));
	assert_int_equal(synth__cpu_map_cpus(SYNTH_OUT(t->w), two_words, 11, SYNTH_CPU_MAP_COMPAT), 0);
	wn += build_cpu_map(want + wn, 40, mask64_two, sizeof(mask64_two));
	/* perf 6.1: a range when consecutive, else list or 32-bit mask */
	assert_int_equal(synth__cpu_map_cpus(SYNTH_OUT(t->w), range, 4, SYNTH_CPU_MAP_PERF61), 0);
	wn += build_cpu_map(want + wn, 16, range_4_7, sizeof(range_4_7));
	assert_int_equal(synth__cpu_map_cpus(SYNTH_OUT(t->w), any_range, 3, SYNTH_CPU_MAP_PERF61), 0);
	wn += build_cpu_map(want + wn, 16, range_any, sizeof(range_any));
	assert_int_equal(synth__cpu_map_cpus(SYNTH_OUT(t->w), evens, 7, SYNTH_CPU_MAP_PERF61), 0);
	wn += build_cpu_map(want + wn, 24, mask32_evens, sizeof(mask32_evens));
	assert_int_equal(synth__cpu_map_cpus(SYNTH_OUT(t->w), any, 1, SYNTH_CPU_MAP_PERF61), 0);
	wn += build_cpu_map(want + wn, 16, list_any, sizeof(list_any));
	/* the list, when the mask would be bigger (or -1 is present) */
	assert_int_equal(synth__cpu_map_cpus(SYNTH_OUT(t->w), high, 3, SYNTH_CPU_MAP_PERF61), 0);
	wn += build_cpu_map(want + wn, 24, list_high, sizeof(list_high));
	n = tw_data(t, got, sizeof(got));
	assert_int_equal(n, wn);
	assert_memory_equal(got, want, wn);
}

static void test_cpu_map_limits(void **state)
{
	static const int bad1[] = { 1, 0 }, bad2[] = { 0, 0 }, bad3[] = { 0, -1 },
			 bad4[] = { 65536 }, bad5[] = { -2 }, bad6[] = { -1, -1 };
	struct tw *t = *state;
	struct evlist evlist;
	uint8_t *got = malloc(65536);
	uint64_t w;

	assert_non_null(got);
	assert_int_equal(synth__cpu_map_cpus(SYNTH_OUT(t->w), bad1, 0, SYNTH_CPU_MAP_COMPAT), -EINVAL);
	assert_int_equal(synth__cpu_map_cpus(SYNTH_OUT(t->w), bad1, 2, SYNTH_CPU_MAP_COMPAT), -EINVAL);
	assert_int_equal(synth__cpu_map_cpus(SYNTH_OUT(t->w), bad2, 2, SYNTH_CPU_MAP_PERF61), -EINVAL);
	assert_int_equal(synth__cpu_map_cpus(SYNTH_OUT(t->w), bad3, 2, SYNTH_CPU_MAP_COMPAT), -EINVAL);
	assert_int_equal(synth__cpu_map_cpus(SYNTH_OUT(t->w), bad4, 1, SYNTH_CPU_MAP_COMPAT), -EINVAL);
	assert_int_equal(synth__cpu_map_cpus(SYNTH_OUT(t->w), bad5, 1, SYNTH_CPU_MAP_COMPAT), -EINVAL);
	assert_int_equal(synth__cpu_map_cpus(SYNTH_OUT(t->w), bad6, 2, SYNTH_CPU_MAP_PERF61), -EINVAL);
	assert_int_equal(writer__data_size(t->w), 0);

	/* Every u16 CPU: too many for a list, 1024 words of mask (8216 bytes). */
	memset(&evlist, 0, sizeof(evlist));
	assert_int_equal(cpu_map__parse(&evlist.cpus, "0-65535"), 0);
	assert_int_equal(synth__cpu_map(SYNTH_OUT(t->w), &evlist), 0);
	cpu_map__delete(evlist.cpus);
	assert_int_equal(tw_data(t, got, 65536), 8216);
	assert_int_equal(got[8], 1); /* mask */
	assert_int_equal(got[10] | got[11] << 8, 1024);
	for (int i = 0; i < 1024; i++) {
		memcpy(&w, got + 18 + 8 * i, 8);
		assert_true(w == ~0ULL);
	}
	free(got);
}

static void test_id_index(void **state)
{
	struct tw *t = *state;
	uint64_t ids0[2] = { 10, 11 }, ids1[2] = { 20, 21 };
	struct evsel evsel[2];
	struct evlist evlist;
	uint8_t got[256];
	uint64_t want[2 + 4 * 4];
	struct perf_event_header h = { .type = PERF_RECORD_ID_INDEX, .misc = 0, .size = 144 };
	const uint64_t entries[4][4] = {
		{ 10, 0, 0, 555 },
		{ 11, 1, 3, 555 },
		{ 20, 0, 0, 555 },
		{ 21, 1, 3, 555 },
	};

	memset(evsel, 0, sizeof(evsel));
	memset(&evlist, 0, sizeof(evlist));
	evsel[0].id = ids0;
	evsel[1].id = ids1;
	evlist.evsel = evsel;
	evlist.nr = 2;
	assert_int_equal(cpu_map__parse(&evlist.cpus, "0,3"), 0);
	assert_int_equal(synth__id_index(SYNTH_OUT(t->w), &evlist, 555), 0);
	cpu_map__delete(evlist.cpus);

	memcpy(&want[0], &h, 8);
	want[1] = 4;
	memcpy(&want[2], entries, sizeof(entries));
	assert_int_equal(tw_data(t, got, sizeof(got)), 144);
	assert_memory_equal(got, want, 144);
}

/* perf 6.1 puts at most 1364 entries in a record; ids of 0 (not open) are
 * left out. */
static void test_id_index_split(void **state)
{
	struct tw *t = *state;
	struct evsel evsel;
	struct evlist evlist;
	uint64_t *ids = calloc(2048, sizeof(*ids));
	uint8_t *got = malloc(2 * 65536);
	uint64_t nr, e[4];
	uint16_t size;

	assert_non_null(ids);
	assert_non_null(got);
	for (int i = 0; i < 2048; i++)
		ids[i] = 1000 + (uint64_t)i;
	ids[5] = 0;
	memset(&evsel, 0, sizeof(evsel));
	memset(&evlist, 0, sizeof(evlist));
	evsel.id = ids;
	evlist.evsel = &evsel;
	evlist.nr = 1;

	assert_int_equal(cpu_map__parse(&evlist.cpus, "0-2047"), 0);
	assert_int_equal(synth__id_index(SYNTH_OUT(t->w), &evlist, -1), 0);
	cpu_map__delete(evlist.cpus);
	/* 2047 open ids: 1364 + 683 */
	assert_int_equal(tw_data(t, got, 2 * 65536), 16 + 1364 * 32 + 16 + 683 * 32);
	memcpy(&size, got + 6, 2);
	memcpy(&nr, got + 8, 8);
	assert_int_equal(size, 16 + 1364 * 32);
	assert_int_equal(nr, 1364);
	memcpy(e, got + 16 + 5 * 32, 32); /* the sixth entry is CPU 6's */
	assert_int_equal(e[0], 1006);
	assert_int_equal(e[1], 6);
	assert_int_equal(e[2], 6);
	assert_int_equal(e[3], ~0ULL); /* tid -1 */
	memcpy(&size, got + size + 6, 2);
	memcpy(&nr, got + 16 + 1364 * 32 + 8, 8);
	assert_int_equal(size, 16 + 683 * 32);
	assert_int_equal(nr, 683);
	memcpy(e, got + 2 * 16 + 1364 * 32 + 682 * 32, 32);
	assert_int_equal(e[0], 1000 + 2047);
	assert_int_equal(e[2], 2047);

	/* nothing open, nothing written */
	memset(ids, 0, 2048 * sizeof(*ids));
	assert_int_equal(cpu_map__parse(&evlist.cpus, "0-3"), 0);
	assert_int_equal(synth__id_index(SYNTH_OUT(t->w), &evlist, -1), 0);
	cpu_map__delete(evlist.cpus);
	assert_int_equal(writer__data_size(t->w), 16 + 1364 * 32 + 16 + 683 * 32);
	free(got);
	free(ids);
}

/* Events opened per (cpu, thread): entries in that order, the thread map's
 * tids; with --per-thread (cpu -1) the ring index is the thread's. */
static void test_id_index_threads(void **state)
{
	struct tw *t = *state;
	uint64_t ids[4] = { 10, 11, 12, 13 }, pt_ids[2] = { 20, 21 };
	struct thread_map *threads = malloc(sizeof(*threads) + 2 * sizeof(pid_t));
	struct evsel evsel;
	struct evlist evlist;
	uint64_t got[2 * (2 + 4 * 4)];
	const uint64_t want[4][4] = {
		{ 10, 0, 1, 700 },
		{ 11, 0, 1, 701 },
		{ 12, 1, 3, 700 },
		{ 13, 1, 3, 701 },
	};
	const uint64_t want_pt[2][4] = {
		{ 20, 0, ~0ULL, 700 },
		{ 21, 1, ~0ULL, 701 },
	};

	assert_non_null(threads);
	threads->nr = 2;
	threads->pid[0] = 700;
	threads->pid[1] = 701;
	memset(&evsel, 0, sizeof(evsel));
	memset(&evlist, 0, sizeof(evlist));
	evsel.id = ids;
	evsel.nr_cpus = 2;
	evsel.nr_threads = 2;
	evlist.evsel = &evsel;
	evlist.nr = 1;
	evlist.threads = threads;
	assert_int_equal(cpu_map__parse(&evlist.cpus, "1,3"), 0);
	assert_int_equal(synth__id_index(SYNTH_OUT(t->w), &evlist, 555), 0);
	cpu_map__delete(evlist.cpus);

	evlist.cpus = malloc(sizeof(*evlist.cpus) + sizeof(int));
	assert_non_null(evlist.cpus);
	evlist.cpus->nr = 1;
	evlist.cpus->cpu[0] = -1;
	evsel.id = pt_ids;
	evsel.nr_cpus = 1;
	assert_int_equal(synth__id_index(SYNTH_OUT(t->w), &evlist, 555), 0);
	free(evlist.cpus);
	free(threads);

	assert_int_equal(tw_data(t, (uint8_t *)got, sizeof(got)), 16 + 4 * 32 + 16 + 2 * 32);
	assert_int_equal(got[1], 4);
	assert_memory_equal(&got[2], want, sizeof(want));
	assert_int_equal(got[2 + 16 + 1], 2);
	assert_memory_equal(&got[2 + 16 + 2], want_pt, sizeof(want_pt));
}

static void test_thread_map_n(void **state)
{
	struct tw *t = *state;
	const pid_t tids[3] = { 100, -1, 102 };
	const char *const comms[3] = { "a", NULL, "a-name-longer-than-sixteen" };
	pid_t *many = calloc(2730, sizeof(*many));
	uint8_t got[256], want[88];
	uint32_t type = PERF_RECORD_THREAD_MAP;
	uint16_t size = 88;
	uint64_t v;

	assert_non_null(many);
	assert_int_equal(synth__thread_map_n(SYNTH_OUT(t->w), tids, comms, 3), 0);
	assert_int_equal(tw_data(t, got, sizeof(got)), 88);
	memset(want, 0, sizeof(want));
	memcpy(want, &type, 4);
	memcpy(want + 6, &size, 2);
	v = 3;
	memcpy(want + 8, &v, 8);
	v = 100;
	memcpy(want + 16, &v, 8);
	want[24] = 'a';
	v = ~0ULL;
	memcpy(want + 40, &v, 8);
	v = 102;
	memcpy(want + 64, &v, 8);
	memcpy(want + 72, "a-name-longer-t", 15); /* NUL-terminated in 16 */
	assert_memory_equal(got, want, 88);

	assert_int_equal(synth__thread_map_n(SYNTH_OUT(t->w), tids, NULL, 0), -EINVAL);
	assert_int_equal(synth__thread_map_n(SYNTH_OUT(t->w), many, NULL, 2730), -E2BIG);
	assert_int_equal(synth__thread_map_n(SYNTH_OUT(t->w), many, NULL, 2729), 0);
	assert_int_equal(writer__data_size(t->w), 88 + 16 + 2729 * 24);
	free(many);
}

/* ---- FORK, KSYMBOL, BPF_EVENT, TIME_CONV ---- */

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
	assert_int_equal(
		synth__ksymbol(SYNTH_OUT(t->w), 0x1000, 7, PERF_RECORD_KSYMBOL_TYPE_BPF, 0, "abcdefg", 0), 0);
	/* 511 characters at most, as perf's KSYM_NAME_LEN */
	assert_int_equal(
		synth__ksymbol(SYNTH_OUT(t->w), 0x2000, 8, PERF_RECORD_KSYMBOL_TYPE_OOL, 1, longname, 8), 0);
	assert_int_equal(synth__bpf_event(SYNTH_OUT(t->w), PERF_BPF_EVENT_PROG_UNLOAD, 0, 7, tag, 8), 0);
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
		TW(test_kernel_mmap_no_etext),
		TW(test_kernel_mmap_errors),
		TW(test_module_mmaps),
		TW(test_module_mmaps_none),
		TW(test_comm),
		TW(test_comm_too_big),
		TW(test_thread_map),
		TW(test_cpu_map),
		TW(test_cpu_map_forms),
		TW(test_cpu_map_limits),
		TW(test_id_index),
		TW(test_id_index_split),
		TW(test_id_index_threads),
		TW(test_thread_map_n),
		TW(test_fork),
		TW(test_ksymbol_bpf_event),
		TW(test_time_conv),
		TW(test_marker),
	};
	/* clang-format on */

	return cmocka_run_group_tests(tests, NULL, NULL);
}
