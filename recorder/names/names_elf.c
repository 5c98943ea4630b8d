// SPDX-License-Identifier: GPL-2.0-only
/*
 * A JIT process's ELF file (names_elf.h): its symbol table's view walked as
 * jit_elf__write's source, into a temporary file renamed over the path.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "names/names_elf.h"
#include "prec/jit_elf.h"

uint16_t names_elf__host_machine(void)
{
#if defined(__x86_64__)
	return 62; /* EM_X86_64 */
#elif defined(__aarch64__)
	return 183; /* EM_AARCH64 */
#elif defined(__i386__)
	return 3; /* EM_386 */
#elif defined(__powerpc64__)
	return 21; /* EM_PPC64 */
#elif defined(__s390x__)
	return 22; /* EM_S390 */
#elif defined(__riscv)
	return 243; /* EM_RISCV */
#else
	return 0; /* EM_NONE: perf does not check it */
#endif
}

static int names_elf__rewind(void *ctx)
{
	jit_syms__iter_rewind(ctx);
	return 0;
}

static int names_elf__next(void *ctx, struct jit_elf_sym *s)
{
	struct jit_sym sym;
	int ret = jit_syms__iter_next(ctx, &sym);

	if (ret > 0)
		*s = (struct jit_elf_sym){ .addr = sym.addr, .size = sym.size, .name = sym.name };
	return ret;
}

/* The image into a new temporary file beside path, renamed over it. */
static int names_elf__file(const char *path, struct jit_syms_iter *it, uint16_t machine, size_t *nr)
{
	struct jit_elf_src src = { names_elf__rewind, names_elf__next, it };
	char tmp[PATH_MAX];
	int fd, err;

	if (snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return -errno;
	err = fchmod(fd, 0644) ? -errno : jit_elf__write(fd, &src, machine, nr, NULL);
	if (close(fd) && !err)
		err = -errno;
	if (!err && rename(tmp, path))
		err = -errno;
	if (err)
		unlink(tmp);
	return err;
}

int names_elf__write(const char *path, struct jit_syms *t, uint16_t machine, size_t *nr_syms_out)
{
	struct jit_syms_iter it;
	struct jit_sym first;
	size_t nr = 0;
	int err;

	if (nr_syms_out)
		*nr_syms_out = 0;
	if (!path || !t)
		return -EINVAL;
	err = jit_syms__iter_start(&it, t);
	if (err)
		return err;
	err = jit_syms__iter_next(&it, &first);
	/* No symbol: no file (an ELF naming nothing names no sample). */
	if (err > 0)
		err = names_elf__file(path, &it, machine, &nr);
	jit_syms__iter_end(&it);
	if (err < 0)
		return err;
	if (nr_syms_out)
		*nr_syms_out = nr;
	return 0;
}
