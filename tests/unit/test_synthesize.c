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
#include "prec/writer.h"
#include "recorder/synthesize.h"

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
	assert_int_equal(synth__kernel_mmap(t->w, t->proc, 24), 0);
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
	assert_int_equal(synth__kernel_mmap(t->w, t->proc, 0), 0);
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
	assert_int_equal(synth__kernel_mmap(t->w, t->proc, 8), 0);
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
		ret = synth__kernel_mmap(t->w, t->proc, 24);
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
	assert_int_equal(synth__module_mmaps(t->w, t->proc, 16), 0);
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
	assert_int_equal(synth__module_mmaps(t->w, t->proc, 24), 0);
	tw_proc_file(t, "modules", "");
	assert_int_equal(synth__module_mmaps(t->w, t->proc, 24), 0);
	/* kptr_restrict: all addresses zero, every module skipped */
	tw_proc_file(t, "modules", "ext4 1015808 3 - Live 0x0000000000000000\n");
	assert_int_equal(synth__module_mmaps(t->w, t->proc, 24), 0);
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
		assert_int_equal(synth__comm(t->w, 4242, 4243, comm_rows[i].comm,
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

	assert_int_equal(synth__comm(t->w, 1, 1, "x", 4096), -E2BIG);
	assert_int_equal(writer__data_size(t->w), 0);
}

static void test_thread_map(void **state)
{
	struct tw *t = *state;
	uint8_t got[64], want[40];
	uint32_t type = PERF_RECORD_THREAD_MAP;
	uint16_t misc = 0, size = 40;
	uint64_t nr = 1, pid = 31337;

	assert_int_equal(synth__thread_map(t->w, 31337), 0);
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
	{ "0-6", 32, 7, { 0, 1, 2, 3, 4, 5, 6 } },
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
		assert_int_equal(synth__cpu_map(t->w, &evlist), 0);
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

static void test_cpu_map_too_big(void **state)
{
	struct tw *t = *state;
	struct evlist evlist;

	memset(&evlist, 0, sizeof(evlist));
	assert_int_equal(cpu_map__parse(&evlist.cpus, "0-65535"), 0);
	assert_int_equal(synth__cpu_map(t->w, &evlist), -E2BIG);
	cpu_map__delete(evlist.cpus);
	assert_int_equal(writer__data_size(t->w), 0);
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
	assert_int_equal(synth__id_index(t->w, &evlist, 555), 0);
	cpu_map__delete(evlist.cpus);

	memcpy(&want[0], &h, 8);
	want[1] = 4;
	memcpy(&want[2], entries, sizeof(entries));
	assert_int_equal(tw_data(t, got, sizeof(got)), 144);
	assert_memory_equal(got, want, 144);
}

/* One record holds at most 2047 entries (u16 size). */
static void test_id_index_limit(void **state)
{
	struct tw *t = *state;
	struct evsel evsel;
	struct evlist evlist;
	uint64_t *ids = calloc(2048, sizeof(*ids));

	assert_non_null(ids);
	memset(&evsel, 0, sizeof(evsel));
	memset(&evlist, 0, sizeof(evlist));
	evsel.id = ids;
	evlist.evsel = &evsel;
	evlist.nr = 1;

	assert_int_equal(cpu_map__parse(&evlist.cpus, "0-2047"), 0);
	assert_int_equal(synth__id_index(t->w, &evlist, 1), -E2BIG);
	cpu_map__delete(evlist.cpus);
	assert_int_equal(writer__data_size(t->w), 0);

	assert_int_equal(cpu_map__parse(&evlist.cpus, "0-2046"), 0);
	assert_int_equal(synth__id_index(t->w, &evlist, 1), 0);
	cpu_map__delete(evlist.cpus);
	assert_int_equal(writer__data_size(t->w), 16 + 2047 * 32);
	free(ids);
}

static void test_marker(void **state)
{
	struct tw *t = *state;
	uint8_t got[32];
	struct perf_event_header h;

	assert_int_equal(synth__marker(t->w, PERF_RECORD_FINISHED_INIT), 0);
	assert_int_equal(synth__marker(t->w, PERF_RECORD_FINISHED_ROUND), 0);
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
		TW(test_cpu_map_too_big),
		TW(test_id_index),
		TW(test_id_index_limit),
		TW(test_marker),
	};
	/* clang-format on */

	return cmocka_run_group_tests(tests, NULL, NULL);
}
