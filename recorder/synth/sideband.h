#ifndef PREC_RECORDER_SYNTH_SIDEBAND_H
#define PREC_RECORDER_SYNTH_SIDEBAND_H
/*
 * The side-band of what already runs, as one call per file (sideband.c):
 * which of synthesize.h's records, in perf record's order, for the front of
 * the first file, of a file --switch-output starts, or the tail.
 */
#include <stddef.h>
#include <sys/types.h>

#include "synth/synthesize.h"

struct evlist;
struct synth_config;
struct sysinfo;

/* When the side-band is synthesized. */
enum synth_when {
	SYNTH_START, /* the first file's front */
	SYNTH_NEW_FILE, /* the front of a file --switch-output starts */
	SYNTH_TAIL, /* --tail-synthesize: after the data */
};

/* The side-band in perf's order (see sideband.c) for pid, the forked
 * command (0 or -1: none), to w. 0 or the writer's -errno. */
int synth__sideband(struct synth_out *w, const struct evlist *evlist, const struct sysinfo *si,
		    const struct synth_config *cfg, pid_t pid, enum synth_when when);

/* What synth__threads needs for the targets' tasks, from the config
 * (--synth's mmap and cgroup bits, -d, --namespaces, --proc-map-timeout)
 * and /proc/mounts (the cgroup and hugetlbfs mounts, kept here). */
struct synth_task_opts {
	struct synth_opts so;
	char cgroup_mnt[512], huge_mnt[512];
};

/* Fills t for evlist and cfg; so points into t (t must stay put). */
void synth__task_opts(const struct evlist *evlist, const struct synth_config *cfg,
		      struct synth_task_opts *t);

/* The quick part of the first file's front, what the background synthesis
 * (synth/background.h) leaves out: TIME_CONV, ID_INDEX, a stream's event
 * names, THREAD_MAP, CPU_MAP, then the forked command's COMM (pid > 0).
 * 0 or the writer's -errno. */
int synth__sideband_front(struct synth_out *w, const struct evlist *evlist,
			  const struct synth_config *cfg, pid_t pid);

/* The kernel's part: its MMAP and the modules' (from one kallsyms read),
 * then KSYMBOL/BPF_EVENT of loaded BPF programs; warnings printed. 0 or the
 * writer's -errno. */
int synth__sideband_kernel(struct synth_out *w, const struct evlist *evlist,
			   const struct sysinfo *si, const struct synth_config *cfg);

/* Every pid in proc_dir, in readdir order. 0 and *pids (caller frees), or
 * -errno. */
int proc__pids(const char *proc_dir, pid_t **pids, size_t *nr);

/* The parent pid in a /proc/PID/stat line (buf, NUL-terminated): the third
 * field, after the ")" that ends the comm. Pure. The pid (>= 0) or -EINVAL. */
int proc_stat__ppid(const char *buf);

#endif
