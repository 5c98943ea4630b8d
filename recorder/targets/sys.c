// SPDX-License-Identifier: GPL-2.0-only
/* Thin syscall wrappers: the one seam unit tests can replace (-Wl,--wrap). */
#include <sys/syscall.h>
#include <unistd.h>

#include "targets/sys.h"

int sys_perf_event_open(struct perf_event_attr *attr, int pid, int cpu, int group_fd,
			unsigned long flags)
{
	return (int)syscall(SYS_perf_event_open, attr, pid, cpu, group_fd, flags);
}
