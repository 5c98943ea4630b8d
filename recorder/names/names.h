/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_RECORDER_NAMES_H
#define PREC_RECORDER_NAMES_H
/*
 * What a reader needs to name a sample after its process is gone, taken
 * while the process lives (--keep-names, on by default for files):
 *
 *  - JIT code. Each process with anonymous executable memory gets one ELF
 *    DSO, "<jit_dir>/jitted-PID.so", holding the symbols of its
 *    /tmp/perf-PID.map and of the jitdump it mmaps (jit-PID.dump), read as
 *    they grow and at its exit, inside the process's own root (a
 *    container's /tmp is reached through handles taken while it lives).
 *    Its anonymous executable mappings are placed by MMAP2 records that
 *    name the ELF (names_hook.c: in the same round as the kernel's record;
 *    the synthesized ones are named so directly). The ELF is written at
 *    each file's end, before the build-ids are read, so the file lists it
 *    with its build-id and the build-id cache keeps it: perf report finds
 *    it there when the map, the dump and the process are long gone, and
 *    `perf archive` packs it.
 *  - Binaries. The first mapping of each file is read through the mapping
 *    itself (/proc/PID/map_files, or the path inside the process's root
 *    checked against the record's device and inode), its build-id kept and
 *    the descriptor held, so a container's binary, a deleted one or one
 *    replaced during the recording reaches the build-id cache with its own
 *    bytes (names_bin.c).
 *
 * Everything a process offers is untrusted: files are opened inside its
 * root without following links, only regular files owned by root or by the
 * process's user, at most max_file bytes; the parsers are pure and fuzzed.
 * And it is read by a process of its own, the names reader (names_proto.h):
 * no thread of the recorder ever waits on a traced process's file, a file
 * that never answers costs its process's names (one warning naming it),
 * and prec ends, SIGKILL included, whatever the reader is stuck in.
 *
 * A process is an instance: a pid from its fork to its end (a pid reused
 * is a new instance, with its own ELF, "jitted-PID-N.so"); its perf map
 * must be written since it started (a stale one of another is not read);
 * a map rewritten in place voids what was read of it; it ends when its
 * last thread does, not its leader.
 *
 * Lifecycle: names__new (the reader started, a thread "prec-names" talks
 * to it) -> the trackers' namer (names__namer) and each drain's hook
 * (names_hook.h) -> names__write_elfs at each file's end -> names__delete.
 * Every function is safe from several threads and returns without waiting
 * on the reader, but names__write_elfs (at most NAMES_SYNC_MS).
 */
#include <stdbool.h>
#include <stdint.h>

#include "dsos/dso_track.h"

struct names;

struct names_config {
	const char *jit_dir; /* where the JIT ELFs go (copied); NULL: no JIT names */
	bool binaries; /* read each mapped file's build-id through the mapping */
	uint64_t max_file; /* a map or dump is read up to this many bytes */
	unsigned int poll_ms; /* how often the worker reads the sources */
};

/* Default bounds: a map or dump of 1 GiB, a poll every 100 ms. */
#define NAMES_MAX_FILE (1ULL << 30)
#define NAMES_POLL_MS 100

struct names_stats {
	uint32_t procs; /* processes with JIT code */
	uint32_t maps, dumps; /* perf maps and jitdumps read */
	uint32_t elfs; /* JIT ELFs written */
	uint64_t syms; /* symbols in them */
	uint64_t malformed; /* map lines and dump records skipped */
	uint32_t refused; /* files not read: a link, not regular, foreign, too big */
	uint32_t bins; /* binaries read through their mapping */
	uint32_t bins_kept; /* of which held open for the build-id cache */
};

/* 0 and *out (started), or -errno (-ENOMEM, the thread's). */
int names__new(struct names **out, const struct names_config *cfg);

/* Stops the worker, closes every handle. Accepts NULL. */
void names__delete(struct names *n);

/* The tracker's namer over n (dso_track.h). */
void names__namer(struct names *n, struct dso_track_namer *nm);

/* The ELF name of pid's JIT code (registering pid: its root is taken now),
 * or NULL (no JIT names, or out of memory). arg is the names. */
const char *names__anon_name(void *arg, uint32_t pid);

/* The same, for code mapped at time (a record's sample_id time; 0:
 * unknown): the instance of pid that lives then. */
const char *names__anon_name_at(struct names *n, uint32_t pid, uint64_t time);

/* A thread of pid exited: when it was the process's last, its sources are
 * read a last time soon. */
void names__proc_exit(struct names *n, uint32_t pid);

/* A new process pid was forked at time (0: unknown): an earlier one of
 * that pid is over. */
void names__proc_fork(struct names *n, uint32_t pid, uint64_t time);

/* Has the reader read every source (waiting NAMES_SYNC_MS at most, so a
 * file that never answers delays the end by that much) and writes the ELF
 * of each instance whose symbols changed since the last call. 0, or the
 * first -errno (an ELF that could not be written; the others are). */
int names__write_elfs(struct names *n);

void names__stats(struct names *n, struct names_stats *st);

#endif
