#ifndef PREC_RECORDER_SYS_H
#define PREC_RECORDER_SYS_H
/*
 * The syscall seam: the one place prec calls perf_event_open, so the unit
 * tests can answer for the kernel (-Wl,--wrap=sys_perf_event_open).
 */
#include <linux/perf_event.h>

/* perf_event_open(2); returns the fd or -1 with errno set. */
int sys_perf_event_open(struct perf_event_attr *attr, int pid, int cpu, int group_fd,
			unsigned long flags);

#endif
