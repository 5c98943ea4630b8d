// SPDX-License-Identifier: GPL-2.0-only
/*
 * names_hook's pure functions (names_hook.h): names_hook__is_anon_exec on
 * the MMAP2 records the kernel writes for anonymous and file memory, and
 * names_hook__place building the record that places a JIT ELF over one:
 * what it keeps (range, prot, flags, misc, the sample_id trailer), what it
 * sets (pgoff = start, no device or inode, the name NUL-padded to 8), and
 * hostile records (no NUL, shorter than the fixed part, a name that would
 * pass 65535 bytes, too little room).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <linux/perf_event.h>

#include "prec/event.h"
#include "recorder/names/names_hook.h"

/* A kernel MMAP2 in buf: name padded to 8, then a sample_id trailer of
 * pid/tid, TIME, ID (24 bytes) unless no_trailer. Its size. */
static size_t make_mmap2(uint8_t *buf, size_t cap, const char *name, uint32_t prot, uint16_t misc,
			 bool no_trailer)
{
	struct prec_mmap2_event *k = (struct prec_mmap2_event *)buf;
	size_t nlen = (strlen(name) + 1 + 7) & ~(size_t)7;
	size_t trailer = no_trailer ? 0 : 24;
	size_t size = sizeof(*k) + nlen + trailer;
	uint64_t tr[3] = { 0x0000006500000064ULL, 123456789, 42 };

	assert_true(size <= cap);
	memset(buf, 0, size);
	k->header.type = PERF_RECORD_MMAP2;
	k->header.misc = misc;
	k->header.size = (uint16_t)size;
	k->pid = 100;
	k->tid = 101;
	k->start = 0x7f0000001000ULL;
	k->len = 0x20000;
	k->pgoff = 0x5000;
	k->maj = 8;
	k->min = 1;
	k->ino = 77;
	k->ino_generation = 3;
	k->prot = prot;
	k->flags = MAP_PRIVATE;
	strcpy(k->filename, name);
	memcpy(buf + sizeof(*k) + nlen, tr, trailer);
	return size;
}

static void test_is_anon_exec(void **state)
{
	uint8_t buf[256];
	const struct prec_mmap2_event *k = (const void *)buf;
	size_t n;

	(void)state;
	n = make_mmap2(buf, sizeof(buf), "//anon", PROT_READ | PROT_EXEC, PERF_RECORD_MISC_USER,
		       false);
	assert_true(names_hook__is_anon_exec(k, n));
	n = make_mmap2(buf, sizeof(buf), "/dev/zero (deleted)", PROT_EXEC, PERF_RECORD_MISC_USER,
		       true);
	assert_true(names_hook__is_anon_exec(k, n));
	/* Not executable, a file, the kernel's, another record type. */
	n = make_mmap2(buf, sizeof(buf), "//anon", PROT_READ | PROT_WRITE, PERF_RECORD_MISC_USER,
		       false);
	assert_false(names_hook__is_anon_exec(k, n));
	n = make_mmap2(buf, sizeof(buf), "/usr/lib/libc.so.6", PROT_EXEC, PERF_RECORD_MISC_USER,
		       false);
	assert_false(names_hook__is_anon_exec(k, n));
	n = make_mmap2(buf, sizeof(buf), "//anon", PROT_EXEC, PERF_RECORD_MISC_KERNEL, false);
	assert_false(names_hook__is_anon_exec(k, n));
	n = make_mmap2(buf, sizeof(buf), "//anon", PROT_EXEC, PERF_RECORD_MISC_USER, false);
	buf[0] = PERF_RECORD_MMAP;
	assert_false(names_hook__is_anon_exec(k, n));
	/* No NUL in its size; no name at all. */
	n = make_mmap2(buf, sizeof(buf), "//anon", PROT_EXEC, PERF_RECORD_MISC_USER, true);
	memset(buf + sizeof(*k) + 6, 'x', 2);
	assert_false(names_hook__is_anon_exec(k, n));
	assert_false(names_hook__is_anon_exec(k, sizeof(*k)));
	assert_false(names_hook__is_anon_exec(k, 8));
}

static void test_place(void **state)
{
	static const char jit[] = "/root/.debug/.build-id/ab/jitted-100.so"; /* 39 + NUL: 40 */
	uint8_t in[256], out[512];
	const struct prec_mmap2_event *k = (const void *)in;
	const struct prec_mmap2_event *ev = (const void *)out;
	size_t n, got, want;

	(void)state;
	n = make_mmap2(in, sizeof(in), "//anon", PROT_READ | PROT_EXEC,
		       PERF_RECORD_MISC_USER | PERF_RECORD_MISC_MMAP_BUILD_ID, false);
	memset(out, 0xa5, sizeof(out));
	want = sizeof(*k) + 40 + 24;
	got = names_hook__place(out, sizeof(out), k, n, jit);
	assert_int_equal(got, want);
	assert_int_equal(ev->header.type, PERF_RECORD_MMAP2);
	assert_int_equal(ev->header.misc, PERF_RECORD_MISC_USER); /* no build-id: an inode */
	assert_int_equal(ev->header.size, want);
	assert_int_equal(ev->pid, 100);
	assert_int_equal(ev->tid, 101);
	assert_int_equal(ev->start, k->start);
	assert_int_equal(ev->len, k->len);
	assert_int_equal(ev->pgoff, k->start);
	assert_int_equal(ev->maj, 0);
	assert_int_equal(ev->min, 0);
	assert_int_equal(ev->ino, 0);
	assert_int_equal(ev->ino_generation, 0);
	assert_int_equal(ev->prot, PROT_READ | PROT_EXEC);
	assert_int_equal(ev->flags, MAP_PRIVATE);
	assert_string_equal(ev->filename, jit);
	/* The sample_id trailer (pid/tid, TIME, ID) as the kernel's. */
	assert_memory_equal(out + sizeof(*k) + 40, in + n - 24, 24);
	assert_int_equal(out[want], 0xa5); /* nothing written past it */

	/* A name padded with NULs to 8; exactly the room it needs. */
	memset(out, 0xa5, sizeof(out));
	want = sizeof(*k) + 8 + 24;
	assert_int_equal(names_hook__place(out, want, k, n, "/j.so"), want);
	assert_memory_equal(ev->filename, "/j.so\0\0\0", 8);
	assert_memory_equal(out + sizeof(*k) + 8, in + n - 24, 24);
	assert_int_equal(out[want], 0xa5);
	/* No trailer (sample_id_all off): none. */
	n = make_mmap2(in, sizeof(in), "//anon", PROT_EXEC, PERF_RECORD_MISC_USER, true);
	assert_int_equal(names_hook__place(out, sizeof(out), k, n, "/j.so"), sizeof(*k) + 8);
}

static void test_place_hostile(void **state)
{
	uint8_t *in = calloc(1, 256), *out = malloc(70000), *name = malloc(70000);
	const struct prec_mmap2_event *k = (const void *)in;
	size_t n, fixed = sizeof(*k);

	(void)state;
	assert_non_null(in);
	assert_non_null(out);
	assert_non_null(name);
	n = make_mmap2(in, 256, "//anon", PROT_EXEC, PERF_RECORD_MISC_USER, false);
	/* Too little room, by one byte. */
	assert_int_equal(names_hook__place(out, fixed + 8 + 24 - 1, k, n, "/j.so"), 0);
	/* A name that takes the record to 65535 + 1 and beyond; the largest fits. */
	memset(name, 'n', 70000);
	name[65536 - fixed - 24 - 1] = '\0';
	assert_int_equal(names_hook__place(out, 70000, k, n, (char *)name), 0);
	name[65536 - fixed - 24 - 1] = 'n';
	name[65536 - fixed - 24 - 9] = '\0';
	assert_int_equal(names_hook__place(out, 70000, k, n, (char *)name), 65528);
	name[65536 - fixed - 24 - 9] = 'n';
	name[69999] = '\0';
	assert_int_equal(names_hook__place(out, 70000, k, n, (char *)name), 0);
	/* The kernel's name has no NUL within the record. */
	memset(in + fixed, 'x', n - fixed);
	assert_int_equal(names_hook__place(out, 70000, k, n, "/j.so"), 0);
	/* Shorter than its fixed part, or exactly that (no name): not whole.
	 * The record is the last thing in its buffer, so a read past size
	 * is caught by the sanitizer build. */
	free(in);
	in = malloc(fixed);
	assert_non_null(in);
	memset(in, 'x', fixed);
	k = (const void *)in;
	assert_int_equal(names_hook__place(out, 70000, k, fixed, "/j.so"), 0);
	assert_int_equal(names_hook__place(out, 70000, k, fixed - 8, "/j.so"), 0);
	assert_int_equal(names_hook__place(out, 70000, k, 8, "/j.so"), 0);
	free(in);
	free(out);
	free(name);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_is_anon_exec),
		cmocka_unit_test(test_place),
		cmocka_unit_test(test_place_hostile),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
