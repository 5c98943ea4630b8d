// SPDX-License-Identifier: GPL-2.0-only
/*
 * writer/jit_elf.c, its images read back with base/elf.c and the build-id
 * reader: the sections, program headers, symbols and note of a few symbols,
 * of none, of 100,000, of a 1 MiB name, at addresses next to UINT64_MAX;
 * the build-id equal to the SHA-1 of the image with the descriptor zeroed,
 * stable, and changed by any change of the input; the hostile table
 * (unsorted, duplicate, overlapping, wrapping, unnamed symbols; NULLs) and
 * an image over JIT_ELF_MAX. Each image is also streamed to a file by
 * jit_elf__write, which must answer the same and write the same bytes; its
 * own cases: a source that fails or changes between its walks, a file that
 * cannot be written.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "prec/buildid.h"
#include "prec/elf.h"
#include "prec/jit_elf.h"
#include "prec/sha1.h"

struct image {
	uint8_t *buf;
	size_t len;
	struct build_id bid;
	struct elf_src src;
	struct elf_mem mem;
	struct elf_file ef;
	uint8_t *shdrs, *names;
	uint64_t names_size;
};

/* jit_elf__write's source over an array; fail_walk and fail_at make the
 * walk of that number (1..3) fail at that symbol, more adds symbols to the
 * later walks, longer_at lengthens a name in them. */
struct array_src {
	const struct jit_elf_sym *syms;
	size_t nr, i;
	int walk, fail_walk, more;
	size_t fail_at, longer_at;
};

static int array_rewind(void *ctx)
{
	struct array_src *a = ctx;

	a->i = 0;
	return ++a->walk == a->fail_walk && a->fail_at == SIZE_MAX ? -EIO : 0;
}

static int array_next(void *ctx, struct jit_elf_sym *s)
{
	struct array_src *a = ctx;
	size_t nr = a->nr + (a->walk > 1 ? (size_t)a->more : 0);

	if (a->walk == a->fail_walk && a->i == a->fail_at)
		return -ENOTRECOVERABLE;
	if (a->i >= nr)
		return 0;
	*s = a->syms[a->i < a->nr ? a->i : a->nr - 1];
	if (a->walk > 1 && a->i == a->longer_at)
		s->name = "a longer name than any";
	a->i++;
	return 1;
}

/* The file jit_elf__write makes of a source, and its answer. */
static int stream(struct array_src *a, uint16_t machine, uint8_t **buf, size_t *len, size_t *nr,
		  struct build_id *bid)
{
	struct jit_elf_src src = { array_rewind, array_next, a };
	int fd = memfd_create("jit_elf", MFD_CLOEXEC), err;
	struct stat st;

	assert_true(fd >= 0);
	err = jit_elf__write(fd, &src, machine, nr, bid);
	assert_int_equal(fstat(fd, &st), 0);
	*len = (size_t)st.st_size;
	*buf = malloc(*len ? *len : 1);
	assert_non_null(*buf);
	assert_int_equal(pread(fd, *buf, *len, 0), (ssize_t)*len);
	close(fd);
	return err;
}

/* jit_elf__write of the same symbols: the same answer, the same bytes. */
static void assert_stream_same(const struct jit_elf_sym *syms, size_t nr, uint16_t machine, int err,
			       const struct image *im)
{
	struct array_src a = { .syms = syms, .nr = nr, .fail_at = SIZE_MAX, .longer_at = SIZE_MAX };
	struct build_id bid;
	size_t len, n = SIZE_MAX;
	uint8_t *buf;

	assert_int_equal(stream(&a, machine, &buf, &len, &n, &bid), err);
	if (!err) {
		assert_int_equal(n, nr);
		assert_int_equal(len, im->len);
		assert_memory_equal(buf, im->buf, len);
		assert_memory_equal(&bid, &im->bid, sizeof(bid));
	} else {
		assert_int_equal(len, 0); /* refused before the first byte */
	}
	free(buf);
}

static int build(const struct jit_elf_sym *syms, size_t nr, uint16_t machine, struct image *im)
{
	void *img = NULL;
	int err;

	memset(im, 0, sizeof(*im));
	err = jit_elf__build(syms, nr, machine, &img, &im->len, &im->bid);
	im->buf = img;
	/* An array that long is none the test has: only its length is refused. */
	if (nr <= JIT_ELF_MAX / sizeof(Elf64_Sym) && (syms || !nr))
		assert_stream_same(syms, nr, machine, err, im);
	return err;
}

/* Builds and opens with prec's ELF reader; fails the test on any error. */
static void build_open(const struct jit_elf_sym *syms, size_t nr, struct image *im)
{
	assert_int_equal(build(syms, nr, EM_X86_64, im), 0);
	assert_non_null(im->buf);
	elf_src__mem(&im->src, &im->mem, im->buf, im->len);
	assert_int_equal(elf__open(&im->ef, &im->src), 0);
	assert_int_equal(elf__read_shdrs(&im->ef, &im->shdrs), 0);
	assert_int_equal(elf__read_strtab(&im->ef, im->shdrs, 1 << 20, &im->names, &im->names_size),
			 0);
}

static void image_free(struct image *im)
{
	free(im->buf);
	free(im->shdrs);
	free(im->names);
}

/* The section named name: its header, and its index. */
static uint32_t section(const struct image *im, const char *name, struct elf_shdr *sh)
{
	for (uint32_t i = 1; i < im->ef.shnum; i++) {
		elf__shdr(&im->ef, im->shdrs, i, sh);
		if (elf__name_is(im->names, im->names_size, sh->name, name))
			return i;
	}
	fail_msg("no section %s", name);
	return 0;
}

/* The id must be the SHA-1 of the image with its own descriptor zeroed. */
static void assert_build_id(const struct image *im)
{
	struct build_id read;
	struct elf_shdr sh;
	uint8_t *copy = malloc(im->len), want[SHA1_DIGEST_LEN];

	assert_non_null(copy);
	assert_int_equal(buildid__from_elf(im->buf, im->len, &read), 0);
	assert_int_equal(read.size, 20);
	assert_memory_equal(read.data, im->bid.data, 20);
	assert_int_equal(im->bid.size, 20);
	section(im, ".note.gnu.build-id", &sh);
	assert_int_equal(sh.type, SHT_NOTE);
	assert_int_equal(sh.size, 36);
	memcpy(copy, im->buf, im->len);
	assert_memory_equal(copy + sh.offset + 16, im->bid.data, 20);
	memset(copy + sh.offset + 16, 0, 20);
	sha1(copy, im->len, want);
	assert_memory_equal(want, im->bid.data, 20);
	free(copy);
}

/* Every symbol as given, GLOBAL FUNC in .text, and .text spanning them. */
static void assert_symbols(const struct image *im, const struct jit_elf_sym *syms, size_t nr)
{
	struct elf_shdr text, symtab, strtab;
	uint32_t text_idx = section(im, ".text", &text), str_idx;
	uint64_t end;

	assert_int_equal(text.type, SHT_NOBITS);
	assert_int_equal(text.flags, SHF_ALLOC | SHF_EXECINSTR);
	assert_int_equal(text.addr, nr ? syms[0].addr : 0);
	assert_int_equal(text.offset, text.addr);
	end = nr ? syms[nr - 1].addr + (syms[nr - 1].size ? syms[nr - 1].size : 1) : 0;
	assert_int_equal(text.addr + text.size, end);
	section(im, ".symtab", &symtab);
	str_idx = section(im, ".strtab", &strtab);
	assert_int_equal(symtab.type, SHT_SYMTAB);
	assert_int_equal(symtab.link, str_idx);
	assert_int_equal(symtab.size, (nr + 1) * sizeof(Elf64_Sym));
	for (size_t i = 0; i <= nr; i++) {
		Elf64_Sym st;

		memcpy(&st, im->buf + symtab.offset + i * sizeof(st), sizeof(st));
		if (!i) {
			assert_int_equal(st.st_name | st.st_info | st.st_shndx | st.st_value, 0);
			continue;
		}
		assert_int_equal(st.st_info, ELF64_ST_INFO(STB_GLOBAL, STT_FUNC));
		assert_int_equal(st.st_shndx, text_idx);
		assert_int_equal(st.st_value, syms[i - 1].addr);
		assert_int_equal(st.st_size, syms[i - 1].size);
		assert_true(st.st_name > 0 && st.st_name < strtab.size);
		assert_string_equal((const char *)im->buf + strtab.offset + st.st_name,
				    syms[i - 1].name);
	}
}

static const struct jit_elf_sym three[] = {
	{ 0x7f0000001000, 0x40, "jit_alpha" },
	{ 0x7f0000001040, 0x10, "LazyCompile:*foo bar.js:12" },
	{ 0x7f0000002000, 0x200, "jit_gamma" },
};

static void test_jit_elf_three(void **state)
{
	struct image im;
	uint8_t *ph;
	struct elf_phdr load, note;
	struct elf_shdr sh;

	(void)state;
	build_open(three, 3, &im);
	assert_int_equal(im.ef.type, ET_DYN);
	assert_int_equal(im.ef.machine, EM_X86_64);
	assert_true(im.ef.is64);
	assert_false(im.ef.swap);
	assert_int_equal(im.ef.shnum, 6);
	assert_symbols(&im, three, 3);
	assert_build_id(&im);
	/* PT_LOAD: the text range, p_offset = p_vaddr; PT_NOTE: the note. */
	assert_int_equal(elf__read_phdrs(&im.ef, &ph), 0);
	assert_int_equal(im.ef.phnum, 2);
	elf__phdr(&im.ef, ph, 0, &load);
	elf__phdr(&im.ef, ph, 1, &note);
	free(ph);
	assert_int_equal(load.type, PT_LOAD);
	assert_int_equal(load.flags, PF_R | PF_X);
	assert_int_equal(load.vaddr, 0x7f0000001000);
	assert_int_equal(load.offset, load.vaddr);
	assert_int_equal(load.filesz, 0);
	assert_int_equal(load.memsz, 0x1200);
	assert_int_equal(note.type, PT_NOTE);
	section(&im, ".note.gnu.build-id", &sh);
	assert_int_equal(note.offset, sh.offset);
	assert_int_equal(note.filesz, sh.size);
	image_free(&im);
}

static void test_jit_elf_none(void **state)
{
	struct image im;

	(void)state;
	build_open(NULL, 0, &im);
	assert_symbols(&im, NULL, 0);
	assert_build_id(&im);
	image_free(&im);
}

/* Zero-size symbols are kept (perf grows them to the next symbol). */
static void test_jit_elf_zero_size(void **state)
{
	static const struct jit_elf_sym syms[] = {
		{ 0x1000, 0, "a" },
		{ 0x1001, 0, "b" },
		{ 0x1002, 8, "c" },
		{ 0x100a, 0, "d" },
	};
	struct image im;

	(void)state;
	build_open(syms, 4, &im);
	assert_symbols(&im, syms, 4);
	assert_build_id(&im);
	image_free(&im);
}

static void test_jit_elf_top_of_memory(void **state)
{
	static const struct jit_elf_sym syms[] = {
		{ 0, 1, "at_zero" },
		{ UINT64_MAX - 0x20, 0x10, "high" },
		{ UINT64_MAX - 0x10, 0x10, "last" },
	};
	static const struct jit_elf_sym zero_last[] = { { UINT64_MAX - 1, 0, "z" } };
	struct image im;

	(void)state;
	build_open(syms, 3, &im);
	assert_symbols(&im, syms, 3);
	image_free(&im);
	build_open(zero_last, 1, &im);
	assert_symbols(&im, zero_last, 1);
	image_free(&im);
}

static void test_jit_elf_big(void **state)
{
	size_t nr = 100000, name_len = 1 << 20;
	struct jit_elf_sym *syms = calloc(nr, sizeof(*syms));
	char *names = malloc(nr * 16), *long_name = malloc(name_len + 1);
	struct image im;

	(void)state;
	assert_non_null(syms);
	assert_non_null(names);
	assert_non_null(long_name);
	for (size_t i = 0; i < nr; i++) {
		snprintf(names + 16 * i, 16, "f%zu", i);
		syms[i] = (struct jit_elf_sym){ 0x10000 + 0x20 * i, 0x20, names + 16 * i };
	}
	memset(long_name, 'x', name_len);
	long_name[name_len] = 0;
	syms[nr / 2].name = long_name;
	build_open(syms, nr, &im);
	assert_symbols(&im, syms, nr);
	assert_build_id(&im);
	image_free(&im);
	free(syms);
	free(names);
	free(long_name);
}

static void test_jit_elf_hostile(void **state)
{
	static const struct {
		struct jit_elf_sym s[2];
		size_t nr;
	} rows[] = {
		{ { { 0x2000, 0x10, "b" }, { 0x1000, 0x10, "a" } }, 2 }, /* unsorted */
		{ { { 0x1000, 0x10, "a" }, { 0x1000, 0x10, "b" } }, 2 }, /* same address */
		{ { { 0x1000, 0, "a" }, { 0x1000, 0x10, "b" } }, 2 }, /* zero size, same address */
		{ { { 0x1000, 0x11, "a" }, { 0x1010, 0x10, "b" } }, 2 }, /* overlap */
		{ { { 0x1000, UINT64_MAX, "a" } }, 1 }, /* end wraps */
		{ { { UINT64_MAX, 1, "a" } }, 1 }, /* ends at 2^64 */
		{ { { UINT64_MAX, 0, "a" } }, 1 }, /* its one byte ends at 2^64 */
		{ { { UINT64_MAX - 0xf, 0x10, "a" } }, 1 }, /* ends at 2^64 */
		{ { { 0x1000, 0x10, "" } }, 1 }, /* no name: perf drops it */
		{ { { 0x1000, 0x10, NULL } }, 1 },
		{ { { 0x1000, 0x10, "a" }, { 0x2000, 0x10, "" } }, 2 },
	};
	struct image im;
	void *img;
	size_t len;
	struct build_id bid;

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		assert_int_equal(build(rows[i].s, rows[i].nr, EM_X86_64, &im), -EINVAL);
		assert_null(im.buf);
	}
	assert_int_equal(jit_elf__build(NULL, 1, EM_X86_64, &img, &len, &bid), -EINVAL);
	assert_int_equal(jit_elf__build(three, 3, EM_X86_64, NULL, &len, &bid), -EINVAL);
	assert_int_equal(jit_elf__build(three, 3, EM_X86_64, &img, NULL, &bid), -EINVAL);
	assert_int_equal(jit_elf__build(three, 3, EM_X86_64, &img, &len, NULL), -EINVAL);
}

/* Symbols sharing one 64 MiB name: three fit, four make a string table
 * just over 256 MiB. */
static void test_jit_elf_too_big(void **state)
{
	size_t n = 64u << 20;
	char *name = malloc(n + 1);
	struct jit_elf_sym syms[5];
	struct image im;

	(void)state;
	assert_non_null(name);
	memset(name, 'y', n);
	name[n] = 0;
	for (int i = 0; i < 5; i++)
		syms[i] = (struct jit_elf_sym){ 0x1000 * (i + 1), 0x10, name };
	assert_int_equal(build(syms, 3, EM_X86_64, &im), 0);
	assert_true(im.len < JIT_ELF_MAX);
	free(im.buf);
	assert_int_equal(build(syms, 4, EM_X86_64, &im), -EFBIG);
	assert_null(im.buf);
	assert_int_equal(build(syms, (size_t)JIT_ELF_MAX / sizeof(Elf64_Sym) + 1, EM_X86_64, &im),
			 -EFBIG);
	free(name);
}

static void test_jit_elf_id_follows_input(void **state)
{
	struct jit_elf_sym s[3];
	struct image a, b;

	(void)state;
	assert_int_equal(build(three, 3, EM_X86_64, &a), 0);
	assert_int_equal(build(three, 3, EM_X86_64, &b), 0);
	assert_int_equal(a.len, b.len);
	assert_memory_equal(a.buf, b.buf, a.len);
	free(b.buf);
	for (int change = 0; change < 6; change++) {
		uint16_t machine = EM_X86_64;
		size_t nr = 3;

		memcpy(s, three, sizeof(s));
		if (change == 0)
			s[1].addr += 1;
		else if (change == 1)
			s[2].size += 1;
		else if (change == 2)
			s[0].name = "jit_alphA";
		else if (change == 3)
			machine = EM_AARCH64;
		else if (change == 4)
			nr = 2;
		else
			s[2].name = "jit_gamma2";
		assert_int_equal(build(s, nr, machine, &b), 0);
		assert_memory_not_equal(a.bid.data, b.bid.data, 20);
		free(b.buf);
	}
	free(a.buf);
}

/* The source's errors, at each walk; a source that gives more symbols or a
 * longer name on a later walk is refused, never written past the layout. */
static void test_jit_elf_write_source(void **state)
{
	struct array_src a;
	struct image im;
	uint8_t *buf;
	size_t len;

	(void)state;
	build_open(three, 3, &im);
	for (int walk = 1; walk <= 3; walk++) {
		for (size_t at = 0; at <= 3; at++) {
			a = (struct array_src){ .syms = three,
						.nr = 3,
						.fail_walk = walk,
						.fail_at = at,
						.longer_at = SIZE_MAX };
			assert_int_equal(stream(&a, EM_X86_64, &buf, &len, NULL, NULL),
					 -ENOTRECOVERABLE);
			free(buf);
		}
		a = (struct array_src){ .syms = three,
					.nr = 3,
					.fail_walk = walk,
					.fail_at = SIZE_MAX,
					.longer_at = SIZE_MAX };
		assert_int_equal(stream(&a, EM_X86_64, &buf, &len, NULL, NULL), -EIO);
		free(buf);
	}
	for (int more = 1; more <= 2; more++) {
		a = (struct array_src){ .syms = three,
					.nr = 3,
					.more = more,
					.fail_at = SIZE_MAX,
					.longer_at = SIZE_MAX };
		assert_int_equal(stream(&a, EM_X86_64, &buf, &len, NULL, NULL), -EINVAL);
		assert_true(len <= im.len);
		free(buf);
	}
	for (size_t at = 0; at < 3; at++) {
		a = (struct array_src){
			.syms = three, .nr = 3, .fail_at = SIZE_MAX, .longer_at = at
		};
		assert_int_equal(stream(&a, EM_X86_64, &buf, &len, NULL, NULL), -EINVAL);
		assert_true(len <= im.len);
		free(buf);
	}
	/* NULL nr and bid are fine */
	a = (struct array_src){ .syms = three, .nr = 3, .fail_at = SIZE_MAX, .longer_at = SIZE_MAX };
	assert_int_equal(stream(&a, EM_X86_64, &buf, &len, NULL, NULL), 0);
	assert_int_equal(len, im.len);
	assert_memory_equal(buf, im.buf, len);
	free(buf);
	image_free(&im);
}

/* A file that takes no bytes, and the arguments. */
static void test_jit_elf_write_errors(void **state)
{
	struct array_src a = { .syms = three, .nr = 3, .fail_at = SIZE_MAX, .longer_at = SIZE_MAX };
	struct jit_elf_src src = { array_rewind, array_next, &a };
	struct jit_elf_src no_next = { array_rewind, NULL, &a };
	int fd = open("/dev/full", O_WRONLY | O_CLOEXEC);

	(void)state;
	if (fd >= 0) {
		assert_int_equal(jit_elf__write(fd, &src, EM_X86_64, NULL, NULL), -ENOSPC);
		close(fd);
	}
	fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	assert_int_equal(jit_elf__write(fd, &src, EM_X86_64, NULL, NULL), -EBADF);
	close(fd);
	assert_int_equal(jit_elf__write(-1, &src, EM_X86_64, NULL, NULL), -EINVAL);
	assert_int_equal(jit_elf__write(1, NULL, EM_X86_64, NULL, NULL), -EINVAL);
	assert_int_equal(jit_elf__write(1, &no_next, EM_X86_64, NULL, NULL), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_jit_elf_three),
		cmocka_unit_test(test_jit_elf_none),
		cmocka_unit_test(test_jit_elf_zero_size),
		cmocka_unit_test(test_jit_elf_top_of_memory),
		cmocka_unit_test(test_jit_elf_big),
		cmocka_unit_test(test_jit_elf_hostile),
		cmocka_unit_test(test_jit_elf_too_big),
		cmocka_unit_test(test_jit_elf_id_follows_input),
		cmocka_unit_test(test_jit_elf_write_source),
		cmocka_unit_test(test_jit_elf_write_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
