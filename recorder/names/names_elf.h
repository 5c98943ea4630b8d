/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_RECORDER_NAMES_NAMES_ELF_H
#define PREC_RECORDER_NAMES_NAMES_ELF_H
/*
 * One JIT process's symbols as an ELF file (names_elf.c): the resolved view
 * of its table streamed through prec/jit_elf.h's writer into a file that
 * appears whole or not at all, with memory bounded whatever the table's size
 * (the walk's address order and a 64 KiB buffer).
 */
#include <stddef.h>
#include <stdint.h>

#include "names/jit_syms.h"

/* The e_machine of the JIT ELFs: the code ran here (EM_NONE elsewhere:
 * perf does not check it). */
uint16_t names_elf__host_machine(void);

/*
 * Writes the ELF of t's view (jit_elf__write's image) to path: a temporary
 * file beside it (path.XXXXXX), mode 0644, renamed over path, removed on
 * failure. *nr_syms_out (may be NULL) is the number of symbols written; a
 * table with none writes nothing (and returns 0). t must not change
 * meanwhile. Returns 0 or -errno (-ENAMETOOLONG, jit_elf__write's, the
 * file's).
 */
int names_elf__write(const char *path, struct jit_syms *t, uint16_t machine, size_t *nr_syms_out);

#endif
