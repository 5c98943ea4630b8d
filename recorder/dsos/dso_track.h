/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_DSO_TRACK_H
#define PREC_DSO_TRACK_H
/*
 * The build-id hit set, kept while draining: which DSOs (kernel, modules,
 * mapped files, the vdso) a sample's IP fell in. perf record finds the same
 * set by reading its file a second time at the end; prec follows the records
 * as they pass, so -z, pipes and --switch-output need no second pass.
 *
 * It rebuilds each process's maps from MMAP/MMAP2 (the synthesized kernel
 * and module maps with pid -1 included), COMM with the exec bit (the maps
 * from before the exec go), FORK (a new process copies its parent's maps,
 * unless perf's FORK_EXEC bit says it is about to exec; a thread shares its
 * process's) and EXIT (the process is dropped one drain pass later).
 *
 * Rings are drained one after another, so records of different CPUs arrive
 * out of time order. Two things make up for it:
 *  - maps carry the time of the record that made them (the sample_id TIME,
 *    when the events have one): an older map never covers a newer one, and an
 *    exec removes only maps older than itself;
 *  - a sample whose process or map is not known yet is kept (at most
 *    DSO_TRACK_PENDING_MAX, one per process and page) and looked up again at
 *    the end of each pass that changed maps, and at the end.
 * Nothing is allocated per sample; processes, maps and DSO names grow
 * amortized. An allocation failure only loses hits (counted in the stats).
 *
 * Lifecycle: dso_track__new -> (dso_track__stream for the synthesized
 * records, as the tap of the output's synth_out; dso_track__ring_record (a
 * drain hook) or dso_track__event / dso_track__sample for the ring's;
 * dso_track__end_pass after each pass that wrote)
 * -> dso_track__finish -> dso_track__delete. One thread; t is never NULL
 * except where a function says it accepts NULL.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

struct build_id;
struct dso_track;
struct ring;
struct writer_buildid;

/* Unresolved samples kept at most (distinct process and page). */
#define DSO_TRACK_PENDING_MAX 4096

/* Where the tracker finds its fields: offsets into a SAMPLE's body (the
 * bytes after the header), and the TIME of other records' sample_id. */
struct dso_track_layout {
	int ip_off; /* PERF_SAMPLE_IP; -1: samples carry no IP (nothing is hit) */
	int tid_off; /* PERF_SAMPLE_TID (u32 pid, u32 tid); -1: none */
	int id_time_back; /* TIME sits this many bytes before a non-sample
			   * record's end; 0: no sample_id TIME */
};

/* The layout for events of this sample_type and sample_id_all. 0, or
 * -EINVAL when l is NULL. */
int dso_track__layout(uint64_t sample_type, bool sample_id_all, struct dso_track_layout *l);

struct dso_track_stats {
	uint64_t samples; /* seen by dso_track__sample */
	uint64_t unresolved; /* in no known map at the end (kept or not) */
	uint64_t pending_full; /* not kept: the pending set was full */
	uint64_t nomem; /* records or samples lost to allocation failure */
	uint32_t dsos; /* distinct DSOs seen in maps */
	uint32_t hit; /* of which hit */
};

/* A tracker for events of layout l. 0 and *out (owned by the caller), or
 * -ENOMEM / -EINVAL. */
int dso_track__new(struct dso_track **out, const struct dso_track_layout *l);

/* Frees t and everything dso_track__finish returned. Accepts NULL. */
void dso_track__delete(struct dso_track *t);

/* Where sysfs is ("/sys" by default): the kernel's and modules' notes are
 * read below it. The string is copied. 0 or -ENOMEM. */
int dso_track__set_sys_dir(struct dso_track *t, const char *sys_dir);

/* What dso_track__finish lists. */
enum dso_track_buildids {
	DSO_TRACK_BUILDIDS_HIT, /* the default: the DSOs samples hit */
	DSO_TRACK_BUILDIDS_ALL, /* --buildid-all (perf's dsos__hit_all): every
				 * DSO a record mapped */
	DSO_TRACK_BUILDIDS_NONE, /* -B, --buildid-mmap: none (the maps are still
				  * followed for dso_track__find_map) */
};

void dso_track__set_buildids(struct dso_track *t, enum dso_track_buildids which);

/* --vmlinux: dso_track__finish names the kernel name (not owned; must
 * outlive t) instead of "[kernel.kallsyms]", as perf record does. */
void dso_track__set_kernel_name(struct dso_track *t, const char *name);

/*
 * One whole record of len bytes (len >= header.size): MMAP, MMAP2, COMM,
 * FORK, EXIT and SAMPLE are followed, every other type is ignored, as is a
 * record too short for its type. Accepts NULL t or rec (nothing happens).
 */
void dso_track__event(struct dso_track *t, const void *rec, size_t len);

/* One sample: its header misc (the cpumode), pid and IP. The hot path. */
void dso_track__sample(struct dso_track *t, uint16_t misc, uint32_t pid, uint64_t ip);

/*
 * A stream of whole records cut anywhere (the tap of synthesize.h's
 * synth_out); a record split over calls is put back together (up to 64 KiB,
 * the largest record). arg is the dso_track.
 */
void dso_track__stream(void *arg, const void *buf, size_t len);

/*
 * The record at window position pos of ring r, whose header is h (what
 * ring__read_event returned for it): samples are read in place with
 * ring__peek_u64; other followed records are used in place, or copied once
 * when they wrap around the ring's end.
 */
void dso_track__ring_record(struct dso_track *t, const struct ring *r, uint64_t pos,
			    const struct perf_event_header *h);

/* A mapping as its MMAP or MMAP2 record gave it. */
struct dso_track_mapping {
	uint32_t pid;
	uint64_t start, len, pgoff;
	bool has_ino; /* an MMAP2 with device and inode (not a build-id) */
	uint32_t maj, min;
	uint64_t ino, ino_generation;
	bool exec; /* PROT_EXEC (MMAP2), or not MMAP_DATA (MMAP) */
	const char *name;
};

/*
 * What the tracker asks the names layer (names/names.h) so that samples keep
 * their names after the process is gone. Every member may be NULL; each is
 * called on the tracker's thread and must be safe from several trackers.
 */
struct dso_track_namer {
	/* The DSO name of pid's anonymous executable memory mapped at time
	 * (0: unknown) (JIT code: an ELF of its symbols, written before
	 * dso_track__finish), or NULL to leave it anonymous. The string lives
	 * until dso_track__delete. */
	const char *(*anon_name)(void *arg, uint32_t pid, uint64_t time);
	/* A DSO file mapped for the first time: the build-id of the mapped
	 * file itself (0), read through the mapping, not the path; or -errno
	 * (it is read by its path at the end, as before). */
	int (*file_bid)(void *arg, const struct dso_track_mapping *m, struct build_id *bid);
	/* At dso_track__finish, for a file whose build-id file_bid did not
	 * give: the build-id read through its first mapping since (0); or
	 * -ETIMEDOUT: its file does not answer, not to be read by its path;
	 * else -errno: read by its path. */
	int (*late_bid)(void *arg, const char *name, struct build_id *bid);
	/* At dso_track__finish: a path the bytes of the file of this id can be
	 * read from when its own path may not hold them (a container's, a
	 * deleted or replaced file: "/proc/self/fd/N"), or NULL. */
	const char *(*source)(void *arg, const struct build_id *bid);
	void *arg;
};

/* Sets (copies) the namer; NULL: none. */
void dso_track__set_namer(struct dso_track *t, const struct dso_track_namer *n);

/* Whether name is memory without a file that perf names by the process's
 * /tmp/perf-PID.map when executable (perf 6.1's is_anon_memory and
 * is_no_dso_memory). */
bool dso_track__is_anon_name(const char *name);

/* The end of one drain pass: pending samples are looked up again if maps
 * changed, and processes whose EXIT came in an earlier pass are dropped.
 * Accepts NULL. */
void dso_track__end_pass(struct dso_track *t);

/*
 * Looks the pending samples up a last time, reads the build-id of every hit
 * DSO (as dso_track__set_buildids chose; with HIT and ALL "[vdso]" whenever
 * a process mapped it, hit or not, as perf does), and returns them in the order the DSOs were first mapped, for
 * writer_meta.buildids: *out stays valid until dso_track__delete. DSOs
 * without a readable build-id (anonymous memory, [heap], deleted files) are
 * left out. Returns 0, or -ENOMEM (with *nr 0).
 */
int dso_track__finish(struct dso_track *t, const struct writer_buildid **out, uint32_t *nr);

/*
 * --threads: the DSOs src knows (each stream's tracker) join dst's (the
 * file's), hit where src's samples hit them, after src's pending samples
 * were looked up a last time; src's counters are added to dst's. src is
 * spent (only dso_track__delete is left to it). 0, or -ENOMEM when some
 * DSOs could not be added (counted in dst's nomem).
 */
int dso_track__merge(struct dso_track *dst, struct dso_track *src);

/* Counters for -v. */
void dso_track__stats(const struct dso_track *t, struct dso_track_stats *st);

/* One user-space map, as dso_track__find_map returns it. */
struct dso_track_map {
	uint64_t start, end; /* [start, end) in the process */
	uint64_t pgoff; /* file offset of start */
	const char *name; /* the DSO: a path, "[vdso]", "[heap]"...; one address per
			   * DSO until dso_track__delete, so it can key a cache */
};

/* The map holding addr in process pid as the records seen so far left it
 * (the record-time unwinder's address -> file lookup). 0, or -ENOENT. */
int dso_track__find_map(struct dso_track *t, uint32_t pid, uint64_t addr,
			struct dso_track_map *out);

#endif
