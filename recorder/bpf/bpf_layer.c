// SPDX-License-Identifier: GPL-2.0-only
/*
 * The one BPF layer: may prec load a BPF program here, and when it cannot,
 * one line that says why and what to change. The checks run before any
 * file or event exists, in the order a user fixes them: a prec built
 * without its programs, a kernel without BTF (CO-RE needs it), a process
 * without CAP_BPF + CAP_PERFMON (or CAP_SYS_ADMIN).
 */
#include "bpf/bpf_layer.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef PREC_HAVE_BPF
#include <bpf/libbpf.h>
#endif

#include "targets/caps.h"

#define DEFAULT_BTF "/sys/kernel/btf/vmlinux"

/* libbpf's print hook takes no context: its last line is kept here (heap,
 * replaced by the next), for the one line bpf_layer__explain builds. */
static char *last_message;
static bool echo_messages;

bool bpf_layer__built(void)
{
#ifdef PREC_HAVE_BPF
	return true;
#else
	return false;
#endif
}

int bpf_layer__check(const char *option, const char *btf_path, struct prec_err *e)
{
	const char *btf = btf_path ? btf_path : DEFAULT_BTF;
	char exe[4096];

	if (!bpf_layer__built() && !*PREC_BPF_MISSING)
		return prec_err__set(
			e, -EOPNOTSUPP,
			"%s needs prec built with its BPF programs: this one was configured with -DPREC_BPF=OFF (rebuild with -DPREC_BPF=ON)",
			option);
	if (!bpf_layer__built())
		return prec_err__set(
			e, -EOPNOTSUPP,
			"%s needs prec built with its BPF programs: install %s (apt-get install %s, or scripts/bootstrap) and rebuild prec",
			option, PREC_BPF_MISSING, PREC_BPF_MISSING);
	if (access(btf, R_OK) < 0) {
		int ret = -errno;

		return prec_err__set(
			e, ret,
			"%s needs the kernel's BTF type information (%s: %s): boot a kernel built with CONFIG_DEBUG_INFO_BTF=y (most distribution kernels since 2021 are)",
			option, btf, strerror(-ret));
	}
	if (!caps__can_load_bpf())
		return prec_err__set(
			e, -EPERM,
			"%s loads a BPF program, which needs CAP_BPF and CAP_PERFMON (or root): run prec as root, or give it both with 'setcap cap_bpf,cap_perfmon+ep %s'%s",
			option, caps__exe(exe, sizeof(exe)),
			/* perf 6.12's way for users: root pins the filter once. */
			strcmp(option, "--filter") ?
				"" :
				", or have root run 'prec --setup-filter pin' once");
	return 0;
}

#ifdef PREC_HAVE_BPF
static int keep_message(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	char line[512], *keep;
	va_list copy;
	size_t n;

	va_copy(copy, ap);
	if (echo_messages)
		vfprintf(stderr, fmt, copy);
	va_end(copy);
	if (level == LIBBPF_DEBUG)
		return 0;
	vsnprintf(line, sizeof(line), fmt, ap);
	n = strcspn(line, "\n");
	line[n] = '\0';
	keep = n ? strdup(line) : NULL;
	if (keep) { /* else the line before stands */
		free(last_message);
		last_message = keep;
	}
	return 0;
}
#endif

void bpf_layer__capture(bool verbose)
{
	echo_messages = verbose;
	free(last_message);
	last_message = NULL;
#ifdef PREC_HAVE_BPF
	libbpf_set_print(keep_message);
#endif
}

int bpf_layer__explain(struct prec_err *e, const char *option, const char *step, int err)
{
	const char *why = last_message ? last_message : strerror(err);
	const char *fix;

	switch (err) {
	case EPERM:
	case EACCES:
		fix = "run prec as root, or with CAP_BPF and CAP_PERFMON; a seccomp profile or LSM that blocks bpf(2) must allow it";
		break;
	case ENOSYS:
		fix = "the kernel has no bpf(2) (CONFIG_BPF_SYSCALL): use a kernel built with it";
		break;
	case E2BIG:
	case EINVAL:
	case ENOENT:
	case ESRCH:
		fix = "the running kernel lacks what the program needs (Linux 5.11 or later with BTF)";
		break;
	case ENOMEM:
		fix = "raise the locked-memory limit (ulimit -l) or free memory";
		break;
	default:
		fix = "run with -v to see libbpf's messages";
		break;
	}
	return prec_err__set(e, -err, "%s: cannot %s its BPF program: %s: %s", option, step, why,
			     fix);
}
