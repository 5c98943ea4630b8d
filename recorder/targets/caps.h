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

/* May this process load BPF tracing programs (CAP_BPF + CAP_PERFMON, or CAP_SYS_ADMIN)? */
bool caps__can_load_bpf(void);

/* kernel.perf_event_paranoid (2, perf's assumption, when unreadable). */
int caps__paranoid(void);

/*
 * perf 6.1's perf_event_paranoid_check(1), which decides whether its default
 * event samples the kernel: CAP_PERFMON/CAP_SYS_ADMIN, or a paranoid level <= 1.
 */
bool caps__can_profile_kernel(void);

/*
 * The capability that lifts perf_event_paranoid for setcap: "cap_perfmon",
 * or "cap_sys_admin" on a kernel before 5.8 (no CAP_PERFMON). Static.
 */
const char *caps__perfmon_name(void);

/* prec's own path (/proc/self/exe) in buf, the file setcap must name;
 * "prec" when it cannot be read. Returns buf or that string. */
const char *caps__exe(char *buf, size_t len);

#endif
