/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The one BPF layer under --off-cpu and BPF sample filters: whether prec was
 * built with its programs, whether this machine and this process can load
 * them (BTF, privileges), libbpf's messages, and a failure as one line that
 * names the fix.
 */
#ifndef PREC_BPF_LAYER_H
#define PREC_BPF_LAYER_H

#include <stdbool.h>
#include <stddef.h>

#include "prec/error.h"

/* Whether this prec was built with its BPF programs (clang, bpftool, libbpf). */
bool bpf_layer__built(void);

/*
 * Whether OPTION ("--off-cpu", "--filter") can load a BPF program here: built
 * with the programs, the kernel has BTF, and the process may load BPF and
 * open system-wide events. 0, or -errno (-EOPNOTSUPP: not built with them;
 * the BTF's -errno; -EPERM: no privileges) with one line in e naming the fix.
 * btf_path: the kernel's BTF (NULL: /sys/kernel/btf/vmlinux), a test seam.
 */
int bpf_layer__check(const char *option, const char *btf_path, struct prec_err *e);

/* Route libbpf's messages into a buffer instead of stderr (verbose: both). */
void bpf_layer__capture(bool verbose);

/*
 * A failure of STEP ("load", "attach", ...) of OPTION's program with errno
 * err (positive), as one line in e: what failed, libbpf's reason, the fix.
 * Returns -err.
 */
int bpf_layer__explain(struct prec_err *e, const char *option, const char *step, int err);

#endif
