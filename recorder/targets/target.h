#ifndef PREC_RECORDER_TARGET_H
#define PREC_RECORDER_TARGET_H
/*
 * -a, -C, -p, -t, -u, --per-thread, -G: the CPUs and threads events are
 * opened for. A function that fails returns -errno and explains it in the
 * caller's struct prec_err (prec/error.h), one line; it prints nothing.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct cpu_map;
struct prec_err;
struct thread_map;

/* The target as the command line names it: filled once from the final
 * options (target_config__init, recorder/record_prepare.c), read here and
 * by bpf/off_cpu_target.c. NULL or false is "not given". */
struct target_config {
	bool system_wide; /* -a */
	const char *cpu_list; /* -C as written */
	const char *pid_list; /* -p */
	const char *tid_list; /* -t */
	const char *uid_str; /* -u: a user name or uid */
	bool per_thread; /* --per-thread: the single "any CPU" */
	const char *cgroup; /* -G's cgroup name */
	bool command; /* a command runs under prec */
};

/* Whether the recording ends when every target thread is gone (-p, -t, -u:
 * no command, no -a/-C). */
bool target__ends_with_threads(const struct target_config *t);

/*
 * The CPUs: -C's list (every CPU must be online), all online CPUs, or the
 * single "any CPU" of --per-thread. Returns 0 and *out, or -errno with its
 * line in e (none for -ENOMEM).
 */
int target__cpus(const struct target_config *t, struct cpu_map **out, struct prec_err *e);

/*
 * The threads: -p, -t or -u's threads; the single "any thread" for -a/-C;
 * workload_pid for a command on its own. A -p/-t thread whose
 * /proc/TID/maps cannot be read (a process prec may not trace) is refused,
 * as perf fails on it. Returns 0 and *out, or -errno with its line in e
 * (none for -ENOMEM).
 */
int target__threads(const struct target_config *t, pid_t workload_pid, struct thread_map **out,
		    struct prec_err *e);

/* The cgroup2 mount point, from /proc/mounts; "/sys/fs/cgroup" if none is found. */
void target__cgroup_root(char *buf, size_t len);

/* -G: opens the cgroup's directory under the cgroup2 mount. fd, or -errno
 * with its line in e. */
int target__cgroup_fd(const char *name, struct prec_err *e);

/* The cgroup id (its kernfs node id, what BPF reads) of the directory fd.
 * 0, or -1 with errno set. */
int target__cgroup_id(int fd, uint64_t *id);

#endif
