// SPDX-License-Identifier: GPL-2.0-only
/*
 * --kcore's copy (writer/kcore.c): what kallsyms and modules say of the
 * kernel's code, hostile lines included, and the copy of a made-up kcore
 * in a temp dir: only the executable parts over the kernel text, the
 * modules and the trampolines, a segment inside the kernel's sharing its
 * bytes, the bytes themselves, and nothing left behind on failure.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "prec/kcore.h"

#define PAGE 4096ULL
#define TEXT 0xffffffff81000000ULL
#define MODS 0xffffffffc0000000ULL

static void test_parse_kallsyms(void **state)
{
	static const char text[] = "ffffffff81000000 T _stext\n"
				   "ffffffff81000100 t a_local\n"
				   "ffffffff81002345 T _etext\n"
				   "ffffffff81004000 W weak_one\n"
				   "ffffffff80000000 D not_code\n"
				   "ffffffff81003000 T __entry_SYSCALL_64_trampoline\n"
				   "ffffffffc0001000 t mod_fn\t[mod]\n"
				   "ffffffffc0005000 T mod_fn2\t[mod]\n"
				   "zzzz T garbage\n"
				   "ffffffff81000000T nospace\n"
				   "12345678901234567 T too_long\n"
				   "ffffffff80000010 T";
	struct kcore_syms s = { 0 };

	(void)state;
	kcore_syms__parse_kallsyms(&s, text, sizeof(text) - 1);
	assert_int_equal(s.stext, TEXT);
	assert_int_equal(s.etext, 0xffffffff81002345ULL);
	assert_int_equal(s.first_symbol, TEXT);
	assert_int_equal(s.last_symbol, 0xffffffff81004000ULL);
	assert_int_equal(s.first_module_symbol, MODS + 0x1000);
	assert_int_equal(s.last_module_symbol, MODS + 0x5000);
	assert_int_equal(s.nr_trampolines, 1);
	assert_int_equal(s.trampolines[0], 0xffffffff81003000ULL);
}

static void test_parse_modules(void **state)
{
	static const char text[] = "ext4 966656 1 mbcache,jbd2, Live 0xffffffffc0200000\n"
				   "tiny 16384 0 - Live 0xffffffffc0100000 (OE)\n"
				   "broken 1 2 3 Live 0xnothex\n"
				   "noaddr 1 0 - Live\n";
	struct kcore_syms s = { 0 };

	(void)state;
	kcore_syms__parse_modules(&s, text, sizeof(text) - 1);
	assert_int_equal(s.first_module, 0xffffffffc0100000ULL);
}

/* A made-up /proc in dir: kallsyms, modules, and a kcore whose segments
 * are: data (not executable), the text, and the modules, each page of the
 * text and modules holding its page number. */
static void make_proc(const char *dir, bool hide_addresses)
{
	char path[PATH_MAX];
	uint64_t text_len = 4 * PAGE, mod_len = 2 * PAGE, off = PAGE;
	Elf64_Ehdr eh;
	Elf64_Phdr ph[3];
	uint8_t page[PAGE];
	FILE *f;
	int fd;

	snprintf(path, sizeof(path), "%s/kallsyms", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "%016llx T _stext\n%016llx T _etext\n%016llx t mod_fn\t[mod]\n",
		hide_addresses ? 0ULL : TEXT, hide_addresses ? 0ULL : TEXT + 3 * PAGE + 10,
		hide_addresses ? 0ULL : MODS);
	fclose(f);
	snprintf(path, sizeof(path), "%s/modules", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "mod 8192 0 - Live 0x%llx\n", hide_addresses ? 0ULL : MODS);
	fclose(f);
	ph[0] = (Elf64_Phdr){ PT_LOAD, PF_R | PF_W, off, 0xffff888000000000ULL, 0, PAGE, PAGE, PAGE };
	off += PAGE;
	ph[1] = (Elf64_Phdr){ PT_LOAD, PF_R | PF_X, off, TEXT, 0, text_len, text_len, PAGE };
	off += text_len;
	ph[2] = (Elf64_Phdr){ PT_LOAD, PF_R | PF_X, off, MODS, 0, mod_len, mod_len, PAGE };
	eh = (Elf64_Ehdr){
		.e_ident = { ELFMAG0, ELFMAG1, ELFMAG2, ELFMAG3, ELFCLASS64, ELFDATA2LSB, EV_CURRENT },
		.e_type = ET_CORE, .e_machine = EM_X86_64, .e_version = EV_CURRENT,
		.e_phoff = sizeof(eh), .e_ehsize = sizeof(eh), .e_phentsize = sizeof(Elf64_Phdr),
		.e_phnum = 3,
	};
	snprintf(path, sizeof(path), "%s/kcore", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0);
	assert_int_equal(pwrite(fd, &eh, sizeof(eh), 0), sizeof(eh));
	assert_int_equal(pwrite(fd, ph, sizeof(ph), sizeof(eh)), sizeof(ph));
	for (uint64_t p = 0; p < 1 + 4 + 2; p++) {
		memset(page, (int)(0xa0 + p), sizeof(page));
		assert_int_equal(pwrite(fd, page, sizeof(page), (off_t)(PAGE + p * PAGE)),
				 sizeof(page));
	}
	close(fd);
}

struct dirs {
	char from[64], to[64];
};

static int dirs_setup(void **state)
{
	struct dirs *d = calloc(1, sizeof(*d));

	strcpy(d->from, "/tmp/prec-kcore-from.XXXXXX");
	strcpy(d->to, "/tmp/prec-kcore-to.XXXXXX");
	if (!mkdtemp(d->from) || !mkdtemp(d->to))
		return -1;
	*state = d;
	return 0;
}

static int dirs_teardown(void **state)
{
	struct dirs *d = *state;
	char cmd[200];

	snprintf(cmd, sizeof(cmd), "rm -rf %s %s", d->from, d->to);
	if (system(cmd))
		return -1;
	free(d);
	return 0;
}

static void test_copy(void **state)
{
	struct dirs *d = *state;
	char path[PATH_MAX];
	Elf64_Ehdr eh;
	Elf64_Phdr ph[2];
	uint8_t b;
	struct stat st;
	int fd;

	make_proc(d->from, false);
	assert_int_equal(kcore__check(d->from), 0);
	assert_int_equal(kcore__copy(d->from, d->to), 0);
	snprintf(path, sizeof(path), "%s/kallsyms", d->to);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0400);
	snprintf(path, sizeof(path), "%s/kcore", d->to);
	fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(pread(fd, &eh, sizeof(eh), 0), sizeof(eh));
	assert_int_equal(eh.e_type, ET_CORE);
	/* The data segment is left out: the text (_stext to _etext rounded
	 * up) and the modules (to the last module symbol + a page). */
	assert_int_equal(eh.e_phnum, 2);
	assert_int_equal(pread(fd, ph, sizeof(ph), (off_t)eh.e_phoff), sizeof(ph));
	assert_int_equal(ph[0].p_vaddr, TEXT);
	assert_int_equal(ph[0].p_filesz, 4 * PAGE);
	assert_int_equal(ph[0].p_offset, PAGE);
	assert_int_equal(ph[1].p_vaddr, MODS);
	assert_int_equal(ph[1].p_filesz, PAGE);
	assert_int_equal(ph[1].p_offset, 5 * PAGE);
	/* Each page's bytes came from its place in kcore. */
	assert_int_equal(pread(fd, &b, 1, (off_t)(ph[0].p_offset + 2 * PAGE)), 1);
	assert_int_equal(b, 0xa0 + 1 + 2);
	assert_int_equal(pread(fd, &b, 1, (off_t)ph[1].p_offset), 1);
	assert_int_equal(b, 0xa0 + 5);
	close(fd);
}

static void test_failures_leave_nothing(void **state)
{
	struct dirs *d = *state;
	char path[PATH_MAX];

	assert_int_equal(kcore__check(d->from), -ENOENT);
	make_proc(d->from, true);
	assert_int_equal(kcore__check(d->from), -EADDRNOTAVAIL);
	assert_int_equal(kcore__copy(d->from, d->to), -EADDRNOTAVAIL);
	snprintf(path, sizeof(path), "%s/kallsyms", d->to);
	assert_int_equal(access(path, F_OK), -1);
	snprintf(path, sizeof(path), "%s/modules", d->to);
	assert_int_equal(access(path, F_OK), -1);
	/* Not an ELF core. */
	make_proc(d->from, false);
	snprintf(path, sizeof(path), "%s/kcore", d->from);
	assert_int_equal(truncate(path, 10), 0);
	assert_int_equal(kcore__copy(d->from, d->to), -EINVAL);
	snprintf(path, sizeof(path), "%s/kcore", d->to);
	assert_int_equal(access(path, F_OK), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_kallsyms),
		cmocka_unit_test(test_parse_modules),
		cmocka_unit_test_setup_teardown(test_copy, dirs_setup, dirs_teardown),
		cmocka_unit_test_setup_teardown(test_failures_leave_nothing, dirs_setup,
						dirs_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
