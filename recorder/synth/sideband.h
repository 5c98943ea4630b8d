#ifndef PREC_RECORDER_SYNTH_SIDEBAND_H
#define PREC_RECORDER_SYNTH_SIDEBAND_H
/*
 * The side-band of what already runs, as one call per file (sideband.c):
 * which of synthesize.h's records, in perf record's order, for the front of
 * the first file, of a file --switch-output starts, or the tail.
 */
#include <stddef.h>
#include <sys/types.h>

struct evlist;
struct record_opts;
struct sysinfo;
struct synth_out;

/* When the side-band is synthesized. */
enum synth_when {
	SYNTH_START, /* the first file's front */
	SYNTH_NEW_FILE, /* the front of a file --switch-output starts */
	SYNTH_TAIL, /* --tail-synthesize: after the data */
};

/* The side-band in perf's order (see sideband.c) for pid, the forked
 * command (0 or -1: none), to w. 0 or the writer's -errno. */
int synth__sideband(struct synth_out *w, const struct evlist *evlist, const struct sysinfo *si,
		    const struct record_opts *opts, pid_t pid, enum synth_when when);

/* Every thread of root and of its descendants in proc_dir, each process's
 * leader before its threads. 0 and *out (caller frees), or -errno. */
int proc__tree_tids(const char *proc_dir, pid_t root, pid_t **out, size_t *nr);

/* The parent pid in a /proc/PID/stat line (buf, NUL-terminated): the third
 * field, after the ")" that ends the comm. Pure. The pid (>= 0) or -EINVAL. */
int proc_stat__ppid(const char *buf);

#endif
