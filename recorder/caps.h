#ifndef PREC_RECORDER_CAPS_H
#define PREC_RECORDER_CAPS_H
/* Privilege checks behind the permission errors' advice (libcap). */
#include <stdbool.h>
#include <stddef.h>

/* True when the effective set holds CAP_PERFMON or CAP_SYS_ADMIN. */
bool caps__can_perfmon(void);

/* True when the effective set holds CAP_IPC_LOCK: the rings may pass
 * perf_event_mlock_kb. */
bool caps__can_lock_memory(void);

/* kernel.perf_event_paranoid (2, perf's assumption, when unreadable). */
int caps__paranoid(void);

/*
 * perf 6.1's perf_event_paranoid_check(1), which decides whether its default
 * event samples the kernel: CAP_PERFMON/CAP_SYS_ADMIN, or a paranoid level <= 1.
 */
bool caps__can_profile_kernel(void);

/*
 * Writes one line of advice for an EACCES/EPERM from perf_event_open or mmap:
 * what prec lacks (capability, paranoid level) and how to get it. Returns buf.
 */
const char *caps__advice(char *buf, size_t len);

#endif
