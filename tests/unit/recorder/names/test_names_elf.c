// SPDX-License-Identifier: GPL-2.0-only
/*
 * recorder/names/names_elf.c: the file of a JIT symbol table is the image
 * jit_elf__build makes of its view, byte for byte (a few symbols with
 * overlaps, 200,000 in the order a long-lived JIT writes them), read back
 * by base/elf.c; it appears whole, mode 0644 whatever the umask, over an
 * older file, with no temporary file left, after a failure neither; an
 * empty table writes nothing; the host's e_machine.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "prec/elf.h"
#include "prec/jit_elf.h"
#include "recorder/names/jit_syms.h"
#include "recorder/names/names_elf.h"

static char dir[PATH_MAX], path[PATH_MAX + 32];

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "%s/test_names_elf.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(dir))
		return -1;
	snprintf(path, sizeof(path), "%s/jitted-42.so", dir);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	unlink(path);
	return rmdir(dir);
}

/* The names in dir: the file itself or nothing, never a temporary one. */
static int files_in_dir(void)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	assert_non_null(d);
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..")) {
			assert_string_equal(de->d_name, "jitted-42.so");
			n++;
		}
	closedir(d);
	return n;
}

static uint8_t *read_file(size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	uint8_t *buf;

	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0644);
	*len = (size_t)st.st_size;
	buf = malloc(*len);
	assert_non_null(buf);
	assert_int_equal(read(fd, buf, *len), (ssize_t)*len);
	close(fd);
	return buf;
}

/* names_elf__write's file against jit_elf__build of the table's view. */
static void assert_file_is_view(struct jit_syms *t, size_t nr_written)
{
	const struct jit_sym *v;
	struct jit_elf_sym *es;
	struct build_id bid;
	size_t nr, len, img_len;
	void *img;
	uint8_t *buf;

	assert_int_equal(jit_syms__sorted(t, &v, &nr), 0);
	assert_int_equal(nr_written, nr);
	es = calloc(nr, sizeof(*es));
	assert_non_null(es);
	for (size_t i = 0; i < nr; i++)
		es[i] = (struct jit_elf_sym){ v[i].addr, v[i].size, v[i].name };
	assert_int_equal(jit_elf__build(es, nr, names_elf__host_machine(), &img, &img_len, &bid),
			 0);
	buf = read_file(&len);
	assert_int_equal(len, img_len);
	assert_memory_equal(buf, img, len);
	free(buf);
	free(img);
	free(es);
	assert_int_equal(files_in_dir(), 1);
}

static void test_names_elf_few(void **state)
{
	struct jit_syms t;
	struct elf_src src;
	struct elf_file ef;
	struct elf_shdr sh;
	uint8_t *shdrs, *buf;
	Elf64_Sym st;
	size_t nr = 99, len;
	mode_t old;
	int fd;

	(void)state;
	jit_syms__init(&t);
	assert_int_equal(jit_syms__add(&t, 0x7f0000001000, 0x100, "LazyCompile:~a a.js:1:1", 23),
			 0);
	assert_int_equal(jit_syms__add(&t, 0x7f0000001040, 0x20, "LazyCompile:*b b.js:2:2", 23), 0);
	assert_int_equal(jit_syms__add(&t, 0x7f0000000f00, 0x10, "Builtin:c", 9), 0);
	old = umask(077);
	assert_int_equal(names_elf__write(path, &t, names_elf__host_machine(), &nr), 0);
	umask(old);
	assert_int_equal(nr, 4); /* c, a, b, the rest of a */
	assert_file_is_view(&t, nr);

	/* read back: the machine, and the first symbol of .symtab */
	fd = open(path, O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	buf = read_file(&len);
	elf_src__fd(&src, &fd, len);
	assert_int_equal(elf__open(&ef, &src), 0);
	assert_int_equal(ef.machine, names_elf__host_machine());
	assert_int_equal(elf__read_shdrs(&ef, &shdrs), 0);
	elf__shdr(&ef, shdrs, 3, &sh);
	assert_int_equal(sh.type, SHT_SYMTAB);
	assert_int_equal(sh.size, 5 * sizeof(st));
	memcpy(&st, buf + sh.offset + sizeof(st), sizeof(st));
	assert_int_equal(st.st_value, 0x7f0000000f00);
	assert_int_equal(st.st_size, 0x10);
	elf__shdr(&ef, shdrs, 4, &sh);
	assert_string_equal((const char *)buf + sh.offset + st.st_name, "Builtin:c");
	free(shdrs);
	free(buf);
	close(fd);

	/* a later write replaces it whole */
	assert_int_equal(jit_syms__add(&t, 0x7f0000002000, 0x10, "d", 1), 0);
	assert_int_equal(names_elf__write(path, &t, names_elf__host_machine(), &nr), 0);
	assert_int_equal(nr, 5);
	assert_file_is_view(&t, nr);
	assert_int_equal(names_elf__write(path, &t, names_elf__host_machine(), NULL), 0);
	assert_file_is_view(&t, 5);
	jit_syms__exit(&t);
}

/* 200,000 symbols as a long-lived JIT writes them: mostly rising, code
 * reused lower down now and then. */
static void test_names_elf_many(void **state)
{
	struct jit_syms t;
	uint64_t addr = 0x7f0000000000, x = 88172645463325252ULL;
	char name[96];
	size_t nr;

	(void)state;
	jit_syms__init(&t);
	for (int i = 0; i < 200000; i++) {
		int n = snprintf(name, sizeof(name),
				 "LazyCompile:~func%d /srv/app/lib/file%d.js:%d:%d", i, i % 300,
				 i % 5000, i % 80);

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		if (x % 10 == 0)
			addr -= x % (1 << 20);
		assert_int_equal(jit_syms__add(&t, addr, 0x40 + x % 0x400, name, (size_t)n), 0);
		addr += 0x40 + x % 0x300;
	}
	assert_true(t.unsorted);
	assert_int_equal(names_elf__write(path, &t, names_elf__host_machine(), &nr), 0);
	assert_true(nr > 100000);
	assert_file_is_view(&t, nr);
	jit_syms__exit(&t);
}

/* Nothing to write, nowhere to write: no file, and no temporary one. */
static void test_names_elf_none(void **state)
{
	struct jit_syms t;
	char long_path[2 * PATH_MAX];
	size_t nr = 99;

	(void)state;
	jit_syms__init(&t);
	assert_int_equal(names_elf__write(path, &t, names_elf__host_machine(), &nr), 0);
	assert_int_equal(nr, 0);
	assert_int_equal(files_in_dir(), 0);
	assert_int_equal(jit_syms__add(&t, 0x1000, 0x10, "f", 1), 0);
	snprintf(long_path, sizeof(long_path), "%s/missing/jitted-42.so", dir);
	nr = 99;
	assert_int_equal(names_elf__write(long_path, &t, 62, &nr), -ENOENT);
	assert_int_equal(nr, 0);
	memset(long_path, 'x', sizeof(long_path) - 1);
	long_path[0] = '/';
	long_path[sizeof(long_path) - 1] = 0;
	assert_int_equal(names_elf__write(long_path, &t, 62, &nr), -ENAMETOOLONG);
	assert_int_equal(names_elf__write(NULL, &t, 62, &nr), -EINVAL);
	assert_int_equal(files_in_dir(), 0);
	jit_syms__exit(&t);
}

static void test_names_elf_machine(void **state)
{
	(void)state;
#if defined(__x86_64__)
	assert_int_equal(names_elf__host_machine(), EM_X86_64);
#elif defined(__aarch64__)
	assert_int_equal(names_elf__host_machine(), EM_AARCH64);
#else
	skip();
#endif
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_names_elf_few, setup, teardown),
		cmocka_unit_test_setup_teardown(test_names_elf_many, setup, teardown),
		cmocka_unit_test_setup_teardown(test_names_elf_none, setup, teardown),
		cmocka_unit_test(test_names_elf_machine),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
