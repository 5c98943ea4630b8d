#ifndef PREC_RECORDER_TARGET_H
#define PREC_RECORDER_TARGET_H
/*
 * -a, -C, -p, -t, -u, --per-thread, -G: the CPUs and threads events are
 * opened for. Each function explains a failure on stderr in one line.
 */
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct cpu_map;
struct record_opts;
struct thread_map;

/*
 * The CPUs: -C's list (every CPU must be online), all online CPUs, or the
 * single "any CPU" of --per-thread. Returns 0 and *out, or a negative errno.
 */
int target__cpus(const struct record_opts *opts, struct cpu_map **out);

/*
 * The threads: -p, -t or -u's threads; the single "any thread" for -a/-C;
 * workload_pid for a command on its own. A -p/-t thread whose
 * /proc/TID/maps cannot be read (a process prec may not trace) is refused,
 * as perf fails on it. Returns 0 and *out, or -errno.
 */
int target__threads(const struct record_opts *opts, pid_t workload_pid, struct thread_map **out);

/* The cgroup2 mount point, from /proc/mounts; "/sys/fs/cgroup" if none is found. */
void target__cgroup_root(char *buf, size_t len);

/* -G: opens the cgroup's directory under the cgroup2 mount. fd, or -errno. */
int target__cgroup_fd(const char *name);

/* The cgroup id (its kernfs node id, what BPF reads) of the directory fd.
 * 0, or -1 with errno set. */
int target__cgroup_id(int fd, uint64_t *id);

#endif
