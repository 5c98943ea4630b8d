// SPDX-License-Identifier: GPL-2.0-only
/*
 * The side-band a recording's file starts (or, with --tail-synthesize, ends)
 * with: which records, in perf's order, from the synthesize*.c writers; and
 * the process tree a later file names. The output (output.c) calls it at
 * each file's front and end.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prec/event.h"
#include "prec/grow.h"
#include "evlist/evlist.h"
#include "prec/log.h"
#include "prec/sysinfo.h"
#include "targets/thread_map.h"
#include "prec/writer.h"
#include "synth/sideband.h"
#include "synth/synth_config.h"
#include "synth/synthesize.h"

int proc_stat__ppid(const char *buf)
{
	const char *p = strrchr(buf, ')');
	char *end;
	long v;

	/* ") S PPID": the comm may hold ')' and spaces, the state is one letter. */
	if (!p || strlen(p) < 5 || p[1] != ' ' || p[3] != ' ')
		return -EINVAL;
	v = strtol(p + 4, &end, 10);
	if (end == p + 4 || v < 0 || v > INT_MAX)
		return -EINVAL;
	return (int)v;
}

/* The parent pid in /proc/PID/stat, or -errno (never a pid: the caller
 * compares it with pids). */
static pid_t proc__ppid(const char *proc_dir, pid_t pid)
{
	char path[96], buf[512];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/%d/stat", proc_dir, (int)pid);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	return proc_stat__ppid(buf);
}

static int tids__add(pid_t **tids, size_t *nr, size_t *cap, pid_t tid)
{
	/* Distinct tids, each below the kernel's pid limit. */
	if (grow__array(tids, cap, *nr + 1, sizeof(**tids), 64, GROW_PIDS_MAX))
		return -ENOMEM;
	(*tids)[(*nr)++] = tid;
	return 0;
}

int proc__pids(const char *proc_dir, pid_t **pids, size_t *nr)
{
	DIR *d = opendir(proc_dir);
	struct dirent *de;
	size_t cap = 0;
	int ret = 0;

	*pids = NULL;
	*nr = 0;
	if (!d)
		return -errno;
	while (!ret && (de = readdir(d)))
		if (isdigit((unsigned char)de->d_name[0]))
			ret = tids__add(pids, nr, &cap, (pid_t)atoi(de->d_name));
	closedir(d);
	return ret;
}

/* Every thread of root and of its descendants in proc_dir, each process's
 * leader before its threads. 0 and *out (caller frees), or -errno. */
static int proc__tree_tids(const char *proc_dir, pid_t root, pid_t **out, size_t *nr_out)
{
	pid_t *pids, *ppids = NULL, *tids = NULL;
	size_t nr, nt = 0, cap = 0;
	bool *in;
	int ret = proc__pids(proc_dir, &pids, &nr);

	*out = NULL;
	*nr_out = 0;
	if (ret)
		return ret;
	ppids = calloc(nr ? nr : 1, sizeof(*ppids));
	in = calloc(nr ? nr : 1, sizeof(*in));
	if (!ppids || !in) {
		ret = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < nr; i++) {
		ppids[i] = proc__ppid(proc_dir, pids[i]);
		in[i] = pids[i] == root;
	}
	/* Parents may come after children in readdir order: repeat until
	 * nothing joins (depth passes at most). */
	for (bool grew = true; grew;) {
		grew = false;
		for (size_t i = 0; i < nr; i++) {
			if (in[i])
				continue;
			for (size_t k = 0; k < nr; k++) {
				if (in[k] && pids[k] == ppids[i]) {
					in[i] = grew = true;
					break;
				}
			}
		}
	}
	for (size_t i = 0; !ret && i < nr; i++) {
		char path[96];
		DIR *d;
		struct dirent *de;

		if (!in[i])
			continue;
		snprintf(path, sizeof(path), "%s/%d/task", proc_dir, (int)pids[i]);
		d = opendir(path);
		if (!d)
			continue; /* gone meanwhile */
		/* The leader first: synth__threads writes its maps with it. */
		ret = tids__add(&tids, &nt, &cap, pids[i]);
		while (!ret && (de = readdir(d))) {
			pid_t t = (pid_t)atoi(de->d_name);

			if (isdigit((unsigned char)de->d_name[0]) && t != pids[i])
				ret = tids__add(&tids, &nt, &cap, t);
		}
		closedir(d);
	}
out:
	free(pids);
	free(ppids);
	free(in);
	if (ret) {
		free(tids);
		return ret;
	}
	*out = tids;
	*nr_out = nt;
	return 0;
}

/* TIME_CONV and ID_INDEX: how to read the file's times and ids. */
static int sb_ids(struct synth_out *w, const struct evlist *evlist)
{
	int ret = 0;

	if (evlist->nr_rings) {
		ret = synth__time_conv(w, evlist->rings[0].ctl);
		if (ret && ret != -EBUSY)
			return ret;
	}
	return synth__id_index(w, evlist, evlist->threads->pid[0]);
}

/* A stream's event names, THREAD_MAP and CPU_MAP. */
static int sb_maps(struct synth_out *w, const struct evlist *evlist)
{
	const struct thread_map *threads = evlist->threads;
	int ret = 0;

	/* A stream names its events here; a file does in EVENT_DESC. */
	if (w->writer && writer__is_pipe(w->writer))
		ret = synth__event_update_names(w, evlist);
	if (!ret)
		ret = synth__thread_map_n(w, threads->pid, NULL, (size_t)threads->nr);
	return ret ? ret : synth__cpu_map(w, evlist);
}

/* The kernel and module maps from one kallsyms scan (*have_ks: ks is to
 * be freed); a hidden or missing kallsyms is warned about once and costs only the
 * kernel's records. */
static int sb_kernel(struct synth_out *w, const struct evlist *evlist,
		     const struct synth_config *cfg, struct kallsyms_scan *ks, int *have_ks)
{
	/* /proc/kallsyms is the costliest file synthesis reads: once, and only
	 * when the build-id cache and bpf() cannot stand in for it. */
	int ret = kallsyms__scan_cached("/proc", "/sys", cfg->buildid_dir, ks);

	if (ret)
		ret = kallsyms__scan("/proc", ks);

	*have_ks = !ret;
	if (!*have_ks && ret != -EACCES && ret != -EPERM) {
		/* Not kptr_restrict: a limit (EMFILE) or no /proc; say which. */
		if (!evlist__exclude_kernel(evlist))
			pr_warn("cannot read /proc/kallsyms: %s, kernel samples will not resolve (%s)",
				strerror(-ret),
				ret == -EMFILE ? "raise the open-file limit, e.g. ulimit -n 4096" :
				ret == -ENOENT ? "is /proc mounted?" :
						 "check /proc");
		ret = -ECANCELED; /* warned */
	} else if (!*have_ks)
		ret = -EACCES;
	else if (cfg->buildid_mmap) /* perf: MMAP2 with build-ids, kernel and modules too */
		ret = synth__kernel_mmap2_scan(w, ks, NULL, evlist->id_hdr_size);
	else
		ret = synth__kernel_mmap_scan(w, ks, evlist->id_hdr_size);
	if (ret == -ECANCELED) {
		ret = 0;
	} else if ((ret == -EACCES || ret == -ENOENT) && evlist__exclude_kernel(evlist)) {
		ret = 0; /* no kernel samples to resolve: nothing to warn about */
	} else if (ret == -EACCES || ret == -ENOENT) {
		pr_warn("kernel addresses are hidden, kernel samples will not resolve (check /proc/sys/kernel/kptr_restrict and /proc/kallsyms permission)");
		ret = 0; /* warned once; the recording goes on */
	}
	if (!ret && (cfg->buildid_mmap ?
			     synth__module_mmap2s(w, "/proc", NULL, evlist->id_hdr_size) :
			     synth__module_mmaps(w, "/proc", evlist->id_hdr_size)))
		pr_verbose("Problems creating module maps, continuing anyway...\n");
	return ret;
}

/* Loaded BPF programs (none with --no-bpf-event, as perf). */
static int sb_bpf(struct synth_out *w, const struct evlist *evlist, const struct sysinfo *si,
		  const struct synth_config *cfg, const struct kallsyms_scan *ks)
{
	if (cfg->no_bpf_event)
		return 0;
	return synth__bpf_scan(w, si->bpf, ks, evlist->id_hdr_size);
}

void synth__task_opts(const struct evlist *evlist, const struct synth_config *cfg,
		      struct synth_task_opts *t)
{
	memset(t, 0, sizeof(*t));
	t->so = (struct synth_opts){
		.id_hdr_size = evlist->id_hdr_size,
		.data_mmaps = cfg->data_mmap,
		.no_mmaps = !cfg->mmaps,
		.namespaces = cfg->namespaces,
		.cgroups = cfg->cgroups,
		.build_ids = cfg->buildid_mmap,
		.proc_map_timeout_ns = (uint64_t)cfg->proc_map_timeout_ms * 1000000ULL,
	};
	if (t->so.cgroups && !synth__cgroup_mount("/proc", t->cgroup_mnt, sizeof(t->cgroup_mnt)))
		t->so.cgroup_mnt = t->cgroup_mnt;
	if (!synth__hugetlbfs_mount("/proc", t->huge_mnt, sizeof(t->huge_mnt)))
		t->so.hugetlbfs_mnt = t->huge_mnt;
}

int synth__sideband_front(struct synth_out *w, const struct evlist *evlist,
			  const struct synth_config *cfg, pid_t pid)
{
	int ret = sb_ids(w, evlist);

	if (!ret)
		ret = sb_maps(w, evlist);
	/* The forked command, named until its exec renames it. */
	if (!ret && pid > 0)
		ret = synth__comm(w, pid, pid, "prec-exec", evlist->id_hdr_size);
	if (!ret && pid > 0 && cfg->namespaces)
		ret = synth__namespaces(w, "/proc", pid, pid, evlist->id_hdr_size);
	return ret;
}

int synth__sideband_kernel(struct synth_out *w, const struct evlist *evlist,
			   const struct sysinfo *si, const struct synth_config *cfg)
{
	struct kallsyms_scan ks;
	int have_ks;
	int ret = sb_kernel(w, evlist, cfg, &ks, &have_ks);

	if (!ret)
		ret = sb_bpf(w, evlist, si, cfg, have_ks ? &ks : NULL);
	if (have_ks)
		kallsyms_scan__exit(&ks);
	return ret;
}

/* The existing tasks of the targets, as synth__sideband writes them. */
static int sb_tasks(struct synth_out *w, const struct evlist *evlist,
		    const struct synth_config *cfg, pid_t pid, enum synth_when when)
{
	const struct thread_map *threads = evlist->threads;
	struct synth_task_opts t;
	int ret = 0;

	synth__task_opts(evlist, cfg, &t);
	/* Later on, a forked command is its process tree as it is now. */
	if (evlist->workload_only && when != SYNTH_START && pid > 0) {
		pid_t *tids = NULL;
		size_t nr = 0;

		ret = proc__tree_tids("/proc", pid, &tids, &nr);
		if (!ret && nr)
			ret = synth__threads(w, "/proc", tids, nr, &t.so);
		free(tids);
		return ret == -ENOENT ? 0 : ret;
	}
	/* Threads that existed before the recording: all of them for -a/-C, the
	 * targets for -p/-t/-u; a forked command has none yet. --synth=no or
	 * cgroup leaves them out, as perf. */
	if (!evlist->workload_only && cfg->tasks) {
		bool any = threads->nr == 1 && threads->pid[0] == -1;

		ret = synth__threads(w, "/proc", any ? NULL : threads->pid,
				     any ? 0 : (size_t)threads->nr, &t.so);
		if (ret == -ENOENT || ret == -EACCES) {
			pr_warn("cannot list /proc: existing processes will not resolve (is /proc mounted?)");
			ret = 0;
		}
	} else if (!evlist->workload_only && t.so.cgroups && t.so.cgroup_mnt) {
		ret = synth__cgroups(w, t.so.cgroup_mnt, t.so.id_hdr_size);
		if (ret == -ENOENT || ret == -EACCES)
			ret = 0;
	}
	return ret;
}

/*
 * The side-band perf record writes before the kernel's records, in perf's
 * order: time conversion, ids, kernel and module maps, thread and cpu maps,
 * loaded BPF programs, the target's existing threads (COMM, FORK, MMAP2 from
 * /proc), the forked command's COMM, FINISHED_INIT.
 *
 * With --tail-synthesize the start writes only FINISHED_INIT, and the rest
 * comes at the end (SYNTH_TAIL), as perf does. A file that --switch-output
 * starts gets it all again (SYNTH_NEW_FILE), so it resolves on its own: a
 * forked command's side-band is then its process tree as /proc shows it.
 */
int synth__sideband(struct synth_out *w, const struct evlist *evlist, const struct sysinfo *si,
		    const struct synth_config *cfg, pid_t pid, enum synth_when when)
{
	struct kallsyms_scan ks;
	int have_ks;
	int ret;

	if (when != SYNTH_TAIL && cfg->tail)
		return synth__marker(w, PERF_RECORD_FINISHED_INIT);

	ret = sb_ids(w, evlist);
	if (ret)
		return ret;
	ret = sb_kernel(w, evlist, cfg, &ks, &have_ks);
	if (!ret)
		ret = sb_maps(w, evlist);
	if (!ret)
		ret = sb_bpf(w, evlist, si, cfg, have_ks ? &ks : NULL);
	if (have_ks)
		kallsyms_scan__exit(&ks);
	if (!ret)
		ret = sb_tasks(w, evlist, cfg, pid, when);
	if (ret)
		return ret;
	/* The forked command, named until its exec renames it. */
	if (pid > 0 && when == SYNTH_START) {
		ret = synth__comm(w, pid, pid, "prec-exec", evlist->id_hdr_size);
		if (!ret && cfg->namespaces)
			ret = synth__namespaces(w, "/proc", pid, pid, evlist->id_hdr_size);
		if (ret)
			return ret;
	}
	return when == SYNTH_TAIL ? 0 : synth__marker(w, PERF_RECORD_FINISHED_INIT);
}
