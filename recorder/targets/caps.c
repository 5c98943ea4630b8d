// SPDX-License-Identifier: GPL-2.0-only
/* Privilege checks: what prec may do, and what to change when it may not. */
#include <sys/capability.h>
#include <unistd.h>

#include "targets/caps.h"
#include "prec/sysinfo.h"

static bool cap_effective(cap_value_t cap)
{
	cap_flag_value_t v = CAP_CLEAR;
	cap_t caps = cap_get_proc();

	if (!caps)
		return false;
	if (cap_get_flag(caps, cap, CAP_EFFECTIVE, &v) < 0)
		v = CAP_CLEAR;
	cap_free(caps);
	return v == CAP_SET;
}

bool caps__can_perfmon(void)
{
	/* CAP_PERFMON exists since Linux 5.8; older kernels only know SYS_ADMIN. */
#ifdef CAP_PERFMON
	if (CAP_IS_SUPPORTED(CAP_PERFMON) && cap_effective(CAP_PERFMON))
		return true;
#endif
	return cap_effective(CAP_SYS_ADMIN);
}

/* CAP_BPF exists since Linux 5.8; before it loading took CAP_SYS_ADMIN. */
bool caps__can_load_bpf(void)
{
	if (cap_effective(CAP_SYS_ADMIN))
		return true;
#ifdef CAP_BPF
	if (CAP_IS_SUPPORTED(CAP_BPF) && cap_effective(CAP_BPF))
		return caps__can_perfmon();
#endif
	return false;
}

bool caps__can_lock_memory(void)
{
	return cap_effective(CAP_IPC_LOCK);
}

int caps__paranoid(void)
{
	return (int)sysinfo__sysctl_or("kernel/perf_event_paranoid", 2);
}

bool caps__can_profile_kernel(void)
{
	return caps__can_perfmon() || caps__paranoid() <= 1;
}

const char *caps__perfmon_name(void)
{
#ifdef CAP_PERFMON
	if (CAP_IS_SUPPORTED(CAP_PERFMON))
		return "cap_perfmon";
#endif
	return "cap_sys_admin";
}

const char *caps__exe(char *buf, size_t len)
{
	ssize_t n = len ? readlink("/proc/self/exe", buf, len - 1) : -1;

	if (n <= 0)
		return "prec";
	buf[n] = '\0';
	return buf;
}
