/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_KCORE_H
#define PREC_KCORE_H
/*
 * --kcore (writer/kcore.c): the kcore_dir/ of a perf.data directory as perf
 * record 6.1's kcore_copy makes it. kallsyms and modules are copied whole
 * (mode 0400); kcore becomes a small ELF core file (0400) holding only the
 * executable PT_LOAD parts of /proc/kcore that cover the kernel text
 * (_stext.._etext, else the lowest to the highest function symbol plus a
 * page), the modules (the lowest module address to the highest module
 * symbol plus a page) and the entry trampolines, laid out back to back,
 * segments that lie inside the kernel's sharing its bytes. perf report,
 * script and annotate read kernel symbols and code from it.
 */
#include <stddef.h>
#include <stdint.h>

/* What the kallsyms and modules texts say of the kernel's code, as perf's
 * kcore_copy__calc_maps reads them (before rounding to pages). */
struct kcore_syms {
	uint64_t stext, etext; /* _stext, _etext; 0 when absent */
	uint64_t first_symbol, last_symbol; /* kernel function symbols */
	uint64_t first_module; /* lowest module address of modules */
	uint64_t first_module_symbol, last_module_symbol; /* "[mod]" functions */
	uint64_t trampolines[8]; /* __entry_SYSCALL_64_trampoline, one per CPU area */
	unsigned int nr_trampolines;
};

/* Adds what the /proc/kallsyms text buf[0..len) says to s (zero it first).
 * Pure; malformed lines are skipped, as perf's parser does. */
void kcore_syms__parse_kallsyms(struct kcore_syms *s, const char *buf, size_t len);

/* Adds the module load addresses of the /proc/modules text buf[0..len). Pure. */
void kcore_syms__parse_modules(struct kcore_syms *s, const char *buf, size_t len);

/*
 * Whether from_dir ("/proc", or a sysroot's) has a kcore that can be read
 * and kernel addresses in its kallsyms. 0; -ENOENT when there is no kcore
 * (a kernel without CONFIG_PROC_KCORE); -EACCES/-EPERM when it cannot be
 * opened (not root: CAP_SYS_RAWIO); -EADDRNOTAVAIL when kallsyms shows no
 * addresses (kernel.kptr_restrict); another -errno of the open.
 */
int kcore__check(const char *from_dir);

/*
 * Copies from_dir's kallsyms, modules and kcore into to_dir (which exists),
 * as described above. 0; -EADDRNOTAVAIL as kcore__check; -EINVAL when
 * kcore is not a native-endian ELF64 core or no code segment was found;
 * -EAGAIN when kallsyms changed during the copy (a module came or went:
 * record again); another -errno. On error nothing is left in to_dir.
 */
int kcore__copy(const char *from_dir, const char *to_dir);

#endif
