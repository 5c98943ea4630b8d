// SPDX-License-Identifier: GPL-2.0-only
/*
 * The side-band of tasks that existed before recording started, from /proc
 * (synthesize.h): FORK, NAMESPACES, COMM and MMAP2 as perf record 6.1 writes
 * them, the CGROUP tree, and the mount lookups they need. Every /proc file
 * is read once; a task that is gone by the time we look is skipped.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "prec/event.h"
#include "prec/log.h"
#include "prec/mono_clock.h"
#include "prec/mounts.h"
#include "prec/writer.h"
#include "synth/proc_maps.h"
#include "synth/synthesize.h"
#include "targets/proc_status.h"

#define ALIGN8(x) (((x) + 7) & ~(size_t)7)
#define ID_HDR_MAX 64
/* perf reads map names into a PATH_MAX buffer: longer ones are cut there. */
#define MAP_NAME_MAX (PATH_MAX - 1)

/* /proc/PID/ns entries in the kernel's NAMESPACES index order. */
static const char *const ns_names[NR_NAMESPACES] = {
	[NET_NS_INDEX] = "net",	      [UTS_NS_INDEX] = "uts",	[IPC_NS_INDEX] = "ipc",
	[PID_NS_INDEX] = "pid",	      [USER_NS_INDEX] = "user", [MNT_NS_INDEX] = "mnt",
	[CGROUP_NS_INDEX] = "cgroup",
};

struct synth_ctx {
	struct synth_out *w;
	int procfd;
	const struct synth_opts *o;
	size_t huge_len;
	uint64_t timeout_ns;
	char *line; /* getline buffer, reused for every maps file */
	size_t line_cap;
	struct synth_bids bids; /* --buildid-mmap */
	/* one MMAP2 at a time: header, PATH_MAX name, trailer */
	union {
		struct prec_mmap2_event ev;
		char bytes[sizeof(struct prec_mmap2_event) + PATH_MAX + ID_HDR_MAX];
	} mmap;
};

static uint64_t now_ns(void)
{
	return mono_clock__ns(false);
}

/* NAMESPACES from the ns links in procfd/dir (zeros where stat fails). */
static int write_namespaces(struct synth_out *w, int procfd, const char *dir, pid_t pid, pid_t tid,
			    size_t id_hdr_size)
{
	char buf[sizeof(struct prec_namespaces_event) +
		 NR_NAMESPACES * sizeof(struct prec_ns_link_info) + ID_HDR_MAX];
	struct prec_namespaces_event *ev = (void *)buf;
	size_t size = sizeof(*ev) + NR_NAMESPACES * sizeof(ev->link_info[0]) + id_hdr_size;

	if (id_hdr_size > ID_HDR_MAX)
		return -E2BIG;
	synth_record__init(buf, size, PERF_RECORD_NAMESPACES, 0);
	ev->pid = (uint32_t)pid;
	ev->tid = (uint32_t)tid;
	ev->nr_namespaces = NR_NAMESPACES;
	for (int i = 0; i < NR_NAMESPACES; i++) {
		char rel[64];
		struct stat st;

		snprintf(rel, sizeof(rel), "%s/%s", dir, ns_names[i]);
		if (fstatat(procfd, rel, &st, 0) == 0) {
			ev->link_info[i].dev = (uint64_t)st.st_dev;
			ev->link_info[i].ino = (uint64_t)st.st_ino;
		}
	}
	return synth_out__write(w, buf, size);
}

int synth__namespaces(struct synth_out *w, const char *proc_dir, pid_t pid, pid_t tid,
		      size_t id_hdr_size)
{
	char dir[32];
	int procfd, ret;

	procfd = open(proc_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (procfd < 0)
		return -errno;
	snprintf(dir, sizeof(dir), "%d/ns", (int)tid);
	ret = write_namespaces(w, procfd, dir, pid, tid, id_hdr_size);
	close(procfd);
	return ret;
}

/*
 * The MMAP2 records of one process (perf_event__synthesize_mmap_events):
 * executable maps, readable data maps with -d. Stops at perf's per-process
 * timeout, marking the last record PROC_MAP_PARSE_TIMEOUT as perf does.
 */
static int synth_maps(struct synth_ctx *c, pid_t pid, pid_t tgid)
{
	char rel[64];
	uint64_t t0;
	ssize_t n;
	FILE *f;
	int fd, ret = 0;

	snprintf(rel, sizeof(rel), "%d/task/%d/maps", (int)pid, (int)pid);
	fd = openat(c->procfd, rel, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0; /* gone, or not ours to read: nothing to say */
	f = fdopen(fd, "r");
	if (!f) {
		close(fd);
		return -ENOMEM;
	}
	t0 = now_ns();
	while (!ret && (n = getline(&c->line, &c->line_cap, f)) > 0) {
		struct prec_mmap2_event *ev = &c->mmap.ev;
		uint16_t misc = PERF_RECORD_MISC_USER;
		struct proc_map m;
		bool timeout;
		const char *name;
		size_t nlen, size;
		uint32_t flags;

		if (proc_maps__parse_line(c->line, (size_t)n, &m))
			continue;
		timeout = now_ns() - t0 > c->timeout_ns;
		if (timeout) {
			pr_warn("Reading /proc/%d/task/%d/maps time out. You may want to increase the time limit by --proc-map-timeout",
				(int)pid, (int)pid);
			misc |= PERF_RECORD_MISC_PROC_MAP_PARSE_TIMEOUT;
		} else if (!(m.prot & PROT_EXEC)) {
			if (!c->o->data_mmaps || !(m.prot & PROT_READ))
				continue;
			misc |= PERF_RECORD_MISC_MMAP_DATA;
		}

		name = m.name;
		nlen = m.name_len < MAP_NAME_MAX ? m.name_len : MAP_NAME_MAX;
		flags = m.flags;
		if (c->huge_len && nlen >= c->huge_len &&
		    !memcmp(name, c->o->hugetlbfs_mnt, c->huge_len)) {
			flags |= MAP_HUGETLB;
			nlen = 0;
		}
		if (!nlen && (m.prot & PROT_EXEC) && c->w->anon_name &&
		    (name = c->w->anon_name(c->w->anon_arg, (uint32_t)tgid))) {
			nlen = strnlen(name, MAP_NAME_MAX);
			m.pgoff = m.start; /* its JIT ELF's symbols are absolute */
		} else if (!nlen) { /* perf's name for anonymous and hugetlbfs memory */
			name = "//anon";
			nlen = 6;
		}
		size = sizeof(*ev) + ALIGN8(nlen + 1) + c->o->id_hdr_size;
		synth_record__init(ev, size, PERF_RECORD_MMAP2, misc);
		ev->pid = (uint32_t)tgid;
		ev->tid = (uint32_t)pid;
		ev->start = m.start;
		ev->len = m.end - m.start;
		ev->pgoff = m.pgoff;
		ev->maj = m.maj;
		ev->min = m.min;
		ev->ino = m.ino;
		ev->prot = m.prot;
		ev->flags = flags;
		memcpy(ev->filename, name, nlen);
		if (c->o->build_ids)
			synth_bids__fill(&c->bids, c->procfd, ev);
		ret = synth_out__write(c->w, ev, size);
		if (timeout)
			break;
	}
	fclose(f);
	return ret;
}

/* One process of the system-wide walk (perf's "full" mode). */
static int synth_process(struct synth_ctx *c, pid_t pid)
{
	size_t idh = c->o->id_hdr_size;
	struct dirent *de;
	char rel[64];
	DIR *d;
	int fd, ret = 0;

	snprintf(rel, sizeof(rel), "%d/task", (int)pid);
	fd = openat(c->procfd, rel, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return 0; /* exited since the listing */
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return -ENOMEM;
	}
	while (!ret && (de = readdir(d))) {
		struct proc_status st;
		char *end;
		long tid = strtol(de->d_name, &end, 10);

		if (de->d_name[0] < '0' || de->d_name[0] > '9' || *end || tid <= 0 || tid > INT_MAX)
			continue;
		snprintf(rel, sizeof(rel), "%d/task/%ld/status", (int)pid, tid);
		if (proc_status__read(c->procfd, rel, &st))
			continue; /* this thread has gone */
		/* The leader's parent is PPid; perf makes every other thread a child
		 * of its leader. */
		if (tid == st.tgid)
			ret = synth__fork(c->w, st.tgid, st.ppid, (pid_t)tid, st.ppid, idh);
		else
			ret = synth__fork(c->w, st.tgid, st.tgid, (pid_t)tid, st.tgid, idh);
		if (!ret && c->o->namespaces) {
			snprintf(rel, sizeof(rel), "%d/task/%ld/ns", (int)pid, tid);
			ret = write_namespaces(c->w, c->procfd, rel, st.tgid, (pid_t)tid, idh);
		}
		if (!ret)
			ret = synth__comm(c->w, st.tgid, (pid_t)tid, st.comm, idh);
		if (!ret && tid == pid && !st.kernel && !c->o->no_mmaps)
			ret = synth_maps(c, pid, st.tgid);
	}
	closedir(d);
	return ret;
}

/* One listed thread (perf's thread-map mode); *tgid its process, or -1. */
static int synth_thread(struct synth_ctx *c, pid_t tid, pid_t *tgid)
{
	size_t idh = c->o->id_hdr_size;
	struct proc_status st;
	char rel[64];
	int ret;

	*tgid = -1;
	snprintf(rel, sizeof(rel), "%d/status", (int)tid);
	if (proc_status__read(c->procfd, rel, &st))
		return 0; /* gone: the others still count */
	*tgid = st.tgid;
	ret = synth__comm(c->w, st.tgid, tid, st.comm, idh);
	if (!ret && c->o->namespaces) {
		snprintf(rel, sizeof(rel), "%d/ns", (int)tid);
		ret = write_namespaces(c->w, c->procfd, rel, st.tgid, tid, idh);
	}
	if (!ret && tid == st.tgid && !c->o->no_mmaps)
		ret = synth_maps(c, tid, st.tgid);
	return ret;
}

static int synth_thread_list(struct synth_ctx *c, const pid_t *tids, size_t nr)
{
	int ret = 0;

	for (size_t i = 0; !ret && i < nr; i++) {
		bool listed = false;
		pid_t tgid;

		if (tids[i] <= 0)
			continue; /* "any thread" has no task of its own */
		ret = synth_thread(c, tids[i], &tgid);
		if (ret || tgid <= 0 || tgid == tids[i])
			continue;
		/* A thread without its leader in the list brings the leader's
		 * records (its maps), as perf: every time, like perf. */
		for (size_t j = 0; j < nr && !listed; j++)
			listed = tids[j] == tgid;
		if (!listed)
			ret = synth_thread(c, tgid, &tgid);
	}
	return ret;
}

/* A context over proc_dir for one synthesis. 0 and *out, or -errno. */
static int synth_ctx__new(struct synth_ctx **out, struct synth_out *w, const char *proc_dir,
			  const struct synth_opts *opts)
{
	struct synth_ctx *c;

	if (opts->id_hdr_size > ID_HDR_MAX)
		return -E2BIG;
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->w = w;
	c->o = opts;
	c->huge_len = opts->hugetlbfs_mnt ? strlen(opts->hugetlbfs_mnt) : 0;
	c->timeout_ns = opts->proc_map_timeout_ns ? opts->proc_map_timeout_ns : 500000000ULL;
	c->procfd = open(proc_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (c->procfd < 0) {
		int ret = -errno;

		free(c);
		return ret;
	}
	*out = c;
	return 0;
}

static void synth_ctx__delete(struct synth_ctx *c)
{
	close(c->procfd);
	synth_bids__exit(&c->bids);
	free(c->line);
	free(c);
}

int synth_walk__new(struct synth_walk **out, struct synth_out *w, const char *proc_dir,
		    const struct synth_opts *opts)
{
	return synth_ctx__new((struct synth_ctx **)out, w, proc_dir, opts);
}

int synth_walk__process(struct synth_walk *wk, pid_t pid)
{
	return synth_process((struct synth_ctx *)wk, pid);
}

void synth_walk__delete(struct synth_walk *wk)
{
	if (wk)
		synth_ctx__delete((struct synth_ctx *)wk);
}

int synth__threads(struct synth_out *w, const char *proc_dir, const pid_t *tids, size_t nr,
		   const struct synth_opts *opts)
{
	struct synth_ctx *c;
	int ret = 0;

	if (opts->id_hdr_size > ID_HDR_MAX)
		return -E2BIG;
	if (opts->cgroups && opts->cgroup_mnt) {
		ret = synth__cgroups(w, opts->cgroup_mnt, opts->id_hdr_size);
		if (ret && ret != -ENOENT && ret != -EACCES)
			return ret; /* a missing cgroup tree only costs its records */
		ret = 0;
	}
	ret = synth_ctx__new(&c, w, proc_dir, opts);
	if (ret)
		return ret;
	if (tids) {
		ret = synth_thread_list(c, tids, nr);
	} else {
		int dfd = openat(c->procfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		struct dirent *de;
		DIR *d = dfd < 0 ? NULL : fdopendir(dfd);

		if (!d) {
			ret = dfd < 0 ? -errno : -ENOMEM;
			if (dfd >= 0)
				close(dfd);
			goto out_close;
		}
		while (!ret && (de = readdir(d))) {
			char *end;
			long pid = strtol(de->d_name, &end, 10);

			if (de->d_name[0] < '0' || de->d_name[0] > '9' || *end || pid <= 0 ||
			    pid > INT_MAX)
				continue;
			ret = synth_process(c, (pid_t)pid);
		}
		closedir(d);
	}
out_close:
	synth_ctx__delete(c);
	return ret;
}

/* ---- cgroups ---- */

static int write_cgroup(struct synth_out *w, uint64_t id, const char *path, size_t id_hdr_size)
{
	char buf[sizeof(struct prec_cgroup_event) + PATH_MAX + ID_HDR_MAX];
	struct prec_cgroup_event *ev = (void *)buf;
	size_t len = strlen(path);
	size_t size = sizeof(*ev) + ALIGN8(len + 1) + id_hdr_size;

	if (len >= PATH_MAX)
		return 0; /* perf's buffer is PATH_MAX too: no sane cgroup is longer */
	synth_record__init(buf, size, PERF_RECORD_CGROUP, 0);
	ev->id = id;
	memcpy(ev->path, path, len);
	return synth_out__write(w, buf, size);
}

/* path holds the directory (PATH_MAX bytes of room); mnt_len its mount part. */
static int walk_cgroup(struct synth_out *w, char *path, size_t mnt_len, size_t id_hdr_size,
		       bool root)
{
	size_t pos = strlen(path);
	struct dirent *de;
	struct stat st;
	DIR *d;
	int ret;

	if (stat(path, &st))
		return root ? -errno : 0; /* removed while we walked */
	ret = write_cgroup(w, (uint64_t)st.st_ino, pos > mnt_len ? path + mnt_len : "/",
			   id_hdr_size);
	if (ret)
		return ret;
	d = opendir(path);
	if (!d)
		return 0;
	while (!ret && (de = readdir(d))) {
		size_t nl = strlen(de->d_name);

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (de->d_type == DT_UNKNOWN) {
			struct stat cst;

			if (fstatat(dirfd(d), de->d_name, &cst, AT_SYMLINK_NOFOLLOW) ||
			    !S_ISDIR(cst.st_mode))
				continue;
		} else if (de->d_type != DT_DIR) {
			continue;
		}
		if (pos + 1 + nl >= PATH_MAX)
			continue;
		path[pos] = '/';
		memcpy(path + pos + 1, de->d_name, nl + 1);
		ret = walk_cgroup(w, path, mnt_len, id_hdr_size, false);
		path[pos] = '\0';
	}
	closedir(d);
	return ret;
}

int synth__cgroups(struct synth_out *w, const char *mnt, size_t id_hdr_size)
{
	char *path;
	size_t len = strlen(mnt);
	int ret;

	if (id_hdr_size > ID_HDR_MAX)
		return -E2BIG;
	while (len > 1 && mnt[len - 1] == '/')
		len--;
	if (len >= PATH_MAX)
		return -ENAMETOOLONG;
	path = malloc(PATH_MAX);
	if (!path)
		return -ENOMEM;
	memcpy(path, mnt, len);
	path[len] = '\0';
	ret = walk_cgroup(w, path, len, id_hdr_size, true);
	free(path);
	return ret;
}

/* ---- mount points ---- */

/*
 * The mount point of the first line of proc_dir/mounts with fstype (and the
 * option opt, when not NULL); with fallback_type, the first of that type when
 * none matched (base's mounts reader, prec/mounts.h).
 */
static int find_mount(const char *proc_dir, const char *fstype, const char *opt,
		      const char *fallback_type, char *buf, size_t len)
{
	char path[4096], *text;
	int ret;

	snprintf(path, sizeof(path), "%s/mounts", proc_dir);
	ret = mounts__read(path, &text);
	if (ret)
		return ret;
	ret = mounts__find_opt(text, fstype, opt, fallback_type, buf, len);
	free(text);
	return ret;
}

int synth__cgroup_mount(const char *proc_dir, char *buf, size_t len)
{
	return find_mount(proc_dir, "cgroup", "perf_event", "cgroup2", buf, len);
}

int synth__hugetlbfs_mount(const char *proc_dir, char *buf, size_t len)
{
	return find_mount(proc_dir, "hugetlbfs", NULL, NULL, buf, len);
}
