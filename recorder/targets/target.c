// SPDX-License-Identifier: GPL-2.0-only
/* The CPUs and threads of a recording (target.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "targets/cpu_map.h"
#include "prec/error.h"
#include "prec/mounts.h"
#include "prec/sysinfo.h"
#include "targets/thread_map.h"
#include "targets/caps.h"
#include "targets/target.h"

static int cpu_map__online_has(const struct cpu_map *online, int cpu)
{
	for (int i = 0; i < online->nr; i++)
		if (online->cpu[i] == cpu)
			return 1;
	return 0;
}

bool target__ends_with_threads(const struct target_config *t)
{
	return !t->command && !t->system_wide && !t->cpu_list;
}

/* -C names a CPU that is not online: bring it up when it is there, else
 * name the CPUs that are. -EINVAL. */
static int cpu_offline_error(int cpu, struct prec_err *e)
{
	char path[96], *text = NULL;
	const char *online = sysinfo__cpus_online(&text) ? "0" : text;
	int ret;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpu);
	if (!access(path, F_OK))
		ret = prec_err__set(
			e, -EINVAL,
			"CPU %d in -C/--cpu is offline (bring it online with '%ssh -c \"echo 1 > %s\"', or record the online CPUs with -C %s)",
			cpu, geteuid() ? "sudo " : "", path, online);
	else
		ret = prec_err__set(
			e, -EINVAL,
			"CPU %d in -C/--cpu is not on this machine (record the online CPUs with -C %s)",
			cpu, online);
	free(text);
	return ret;
}

int target__cpus(const struct target_config *t, struct cpu_map **out, struct prec_err *e)
{
	struct cpu_map *online = NULL, *list = NULL;
	int ret;

	if (t->per_thread) {
		list = malloc(sizeof(*list) + sizeof(int));
		if (!list)
			return -ENOMEM;
		list->nr = 1;
		list->cpu[0] = -1;
		*out = list;
		return 0;
	}
	ret = cpu_map__online(&online);
	if (ret)
		return prec_err__set(e, ret, "cannot read the online CPUs: %s (%s)", strerror(-ret),
				     ret == -EMFILE ?
					     "raise the open-file limit with 'ulimit -n 4096'" :
					     "is sysfs mounted? 'mount -t sysfs sysfs /sys'");
	if (!t->cpu_list) {
		*out = online;
		return 0;
	}
	ret = cpu_map__parse(&list, t->cpu_list);
	if (ret) {
		cpu_map__delete(online);
		return prec_err__set(e, ret, "invalid -C/--cpu list '%s' (give CPUs like 0-2,5)",
				     t->cpu_list);
	}
	for (int i = 0; i < list->nr; i++) {
		if (!cpu_map__online_has(online, list->cpu[i])) {
			ret = cpu_offline_error(list->cpu[i], e);
			cpu_map__delete(online);
			cpu_map__delete(list);
			return ret;
		}
	}
	cpu_map__delete(online);
	*out = list;
	return 0;
}

static int resolve_uid(const char *str, uid_t *uid)
{
	struct passwd *pw = getpwnam(str);
	char *end;
	long v;

	if (pw) {
		*uid = pw->pw_uid;
		return 0;
	}
	errno = 0;
	v = strtol(str, &end, 10);
	if (*str && !*end && !errno && v >= 0) {
		*uid = (uid_t)v;
		return 0;
	}
	return -ENOENT;
}

/*
 * perf reads /proc/TID/maps of each thread it is given and fails without a
 * word when it cannot; a recording without the maps cannot name any user
 * symbol. Refused here with the reason instead. A thread that exited since it
 * was listed is no error. 0, or -EACCES (in e).
 */
static int check_maps_readable(const struct thread_map *threads, const char *opt,
			       struct prec_err *e)
{
	char path[64];

	for (int i = 0; i < threads->nr; i++) {
		int fd, err;

		snprintf(path, sizeof(path), "/proc/%d/maps", (int)threads->pid[i]);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd >= 0) {
			close(fd);
			continue;
		}
		err = errno;
		if (err == ENOENT || err == ESRCH)
			continue;
		if (err == EACCES || err == EPERM) {
			char exe[PATH_MAX];

			/* The kernel's ptrace_may_access, as for perf_event_open on it. */
			return prec_err__set(
				e, -err,
				"cannot read %s for %s: %s (prec may not trace another user's or a non-dumpable process: grant it with '%ssetcap cap_sys_ptrace+ep %s', or record it as its user)",
				path, opt, strerror(err), geteuid() ? "sudo " : "",
				caps__exe(exe, sizeof(exe)));
		}
		return prec_err__set(e, -err, "cannot read %s for %s: %s (%s)", path, opt,
				     strerror(err),
				     err == EMFILE ?
					     "raise the open-file limit with 'ulimit -n 4096'" :
					     "is /proc mounted? 'mount -t proc proc /proc'");
	}
	return 0;
}

/*
 * -p/-t naming prec itself: its events would sample its own drain, which
 * reads those samples, and its threads started later would be missed or
 * followed by chance. Refused; 0 or -EINVAL (in e).
 */
static int check_not_self(const struct thread_map *threads, const char *opt, struct prec_err *e)
{
	pid_t self = getpid(), tid = thread_map__task_of(threads, "/proc", self);

	if (!tid)
		return 0;
	if (tid == self)
		return prec_err__set(
			e, -EINVAL,
			"%s names %d, this prec itself: prec does not record its own threads (give the process to record, or run the command under prec)",
			opt, (int)tid);
	return prec_err__set(
		e, -EINVAL,
		"%s names %d, a thread of this prec (pid %d): prec does not record its own threads (give the process to record, or run the command under prec)",
		opt, (int)tid, (int)self);
}

/* -p or -t: the threads listed, each checked. */
static int threads_listed(const struct target_config *t, struct thread_map **out,
			  struct prec_err *e)
{
	const char *list = t->pid_list ? t->pid_list : t->tid_list;
	const char *opt = t->pid_list ? "-p/--pid" : "-t/--tid";
	pid_t bad = 0;
	int ret = t->pid_list ? thread_map__new_pids(out, list, "/proc", &bad) :
				thread_map__new_tids(out, list, "/proc", &bad);

	if (ret == -EINVAL)
		return prec_err__set(e, ret,
				     "invalid %s list '%s' (give ids like 1234 or 1234,5678)", opt,
				     list);
	if (ret == -ESRCH)
		return prec_err__set(e, ret,
				     "no such %s %d for %s (list the live ones with 'ps -eLf')",
				     t->pid_list ? "process" : "thread", (int)bad, opt);
	if (ret)
		return prec_err__set(e, ret, "cannot list the threads of %s: %s", list,
				     strerror(-ret));
	ret = check_not_self(*out, opt, e);
	if (!ret)
		ret = check_maps_readable(*out, opt, e);
	if (ret) {
		thread_map__delete(*out);
		*out = NULL;
	}
	return ret;
}

/* -u: the processes of the user. */
static int threads_of_user(const char *user, struct thread_map **out, struct prec_err *e)
{
	uid_t uid;
	int ret;

	if (resolve_uid(user, &uid))
		return prec_err__set(
			e, -EINVAL,
			"unknown user '%s' for -u/--uid (give a user name or a numeric uid; 'getent passwd' lists them)",
			user);
	ret = thread_map__new_uid(out, uid, "/proc", getpid());
	if (ret == -ESRCH)
		return prec_err__set(
			e, ret,
			"user '%s' runs no process to record (start one first; 'ps -u %s' lists them)",
			user, user);
	if (ret)
		return prec_err__set(e, ret, "cannot list the processes of user '%s': %s", user,
				     strerror(-ret));
	return 0;
}

int target__threads(const struct target_config *t, pid_t workload_pid, struct thread_map **out,
		    struct prec_err *e)
{
	if (t->pid_list || t->tid_list)
		return threads_listed(t, out, e);
	if (t->uid_str)
		return threads_of_user(t->uid_str, out, e);
	*out = thread_map__new_one(t->system_wide || t->cpu_list ? -1 : workload_pid);
	return *out ? 0 : -ENOMEM;
}

void target__cgroup_root(char *buf, size_t len)
{
	char *text;

	if (!mounts__read("/proc/mounts", &text)) {
		int ret = mounts__find(text, "cgroup2", buf, len);

		free(text);
		if (!ret)
			return;
	}
	snprintf(buf, len, "/sys/fs/cgroup");
}

int target__cgroup_id(int fd, uint64_t *id)
{
	struct {
		struct file_handle fh;
		uint64_t id;
	} h = { .fh.handle_bytes = sizeof(uint64_t) };
	int mount_id;

	if (name_to_handle_at(fd, "", &h.fh, &mount_id, AT_EMPTY_PATH) < 0)
		return -1;
	*id = h.id;
	return 0;
}

int target__cgroup_fd(const char *name, struct prec_err *e)
{
	char root[512], path[1024];
	int fd;

	target__cgroup_root(root, sizeof(root));
	snprintf(path, sizeof(path), "%s/%s", root, name[0] == '/' ? name + 1 : name);
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		int err = -errno;

		return prec_err__set(
			e, err,
			"cannot open cgroup '%s' (%s): %s (give a cgroup path relative to %s; 'ls %s' lists them)",
			name, path, strerror(-err), root, root);
	}
	return fd;
}
