/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_RECORDER_NAMES_INT_H
#define PREC_RECORDER_NAMES_INT_H
/*
 * The names layer's insides, shared by its files in one-way order:
 * names.c (the registry, the worker, the ELFs) uses names_src.c (one
 * process's sources: its root, its perf map, its jitdump) and names_bin.c
 * (binaries through their mappings); all use names_open.c (opening what a
 * process offers, inside its root, under the ownership rule).
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "prec/buildid.h"
#include "names/jit_syms.h"
#include "names/names.h"
#include "names/perf_map.h"

#define NAMES_BUCKETS 1024
#define NAMES_BINS_MAX 4096 /* binaries remembered (build-id and handle) */
#define NAMES_READ_CHUNK (256u * 1024)
#define NAMES_LOOK_EVERY 10 /* polls between looks for a map not there yet */

/* One growing file of a process: its perf map or its jitdump. */
struct names_src {
	int fd; /* -1: not open (not found yet, or done) */
	uint64_t off; /* bytes of the file taken so far */
	char *carry; /* a line or record cut by the end of what was read */
	size_t carry_len, carry_cap;
	bool failed; /* refused, or hostile: never read again */
	bool header_done; /* a jitdump's header was read */
	bool swapped; /* ... and says the other byte order */
	uint32_t header_size;
	struct perf_map_parser mp; /* a perf map's line state */
};

struct names_proc {
	struct names_proc *next; /* hash chain */
	uint32_t pid;
	pid_t nspid; /* its pid in its own namespace: perf-NSPID.map */
	uid_t uid; /* owner of /proc/PID: files must be its or root's */
	int root_fd, tmp_fd; /* O_PATH: its root and its /tmp (-1: none) */
	struct names_src map, dump;
	struct jit_syms syms;
	uint64_t gen, written_gen; /* symbol changes, and the last written */
	uint32_t polls; /* looks for its map so far */
	bool exited; /* its EXIT was seen: read a last time */
	bool done; /* read after its exit: nothing more comes */
	char *elf_name;
};

struct names_bin {
	uint32_t maj, min;
	uint64_t ino, ino_generation;
	int err; /* 0: bid is the file's; else why it could not be read */
	struct build_id bid;
	int fd; /* the mapped file, held for the build-id cache; -1: none */
	char source[32]; /* "/proc/self/fd/N" */
};

struct names {
	struct names_config cfg;
	char *jit_dir;
	int proc_fd; /* /proc */
	pthread_mutex_t lock; /* the tables below and the counters */
	pthread_mutex_t io; /* reading sources, writing ELFs */
	pthread_cond_t cond; /* the worker's sleep */
	pthread_t th;
	bool started, stop, poke;
	struct names_proc *b[NAMES_BUCKETS];
	struct names_proc **procs; /* every process, registration order */
	uint32_t nr_procs;
	size_t cap_procs;
	struct names_bin *bins;
	uint32_t nr_bins;
	size_t cap_bins;
	uint32_t fds_max; /* binaries held open at most */
	uint32_t fd_limit; /* RLIMIT_NOFILE's soft limit at the start */
	uint32_t fds_held;
	struct names_stats st;
};

/* names_open.c */

/* Opens the regular file rel beneath dir_fd for reading, following no link
 * (symbolic or magic), without blocking (a FIFO is refused), owned by root
 * or uid, at most max bytes long (0: no bound). The fd, or -errno:
 * -ENOENT (not there yet), -ELOOP (a link), -EPERM (foreign owner),
 * -EFBIG, -EINVAL (not a regular file). */
int names_open__beneath(int dir_fd, const char *rel, uid_t uid, uint64_t max);

/* Whether fd is a regular file of at most max bytes (0: any), owned by
 * root or uid (uid -1: anyone). 0 or -errno, as names_open__beneath. */
int names_open__check(int fd, uid_t uid, uint64_t max);

/* The file process pid mapped at [start, end), through /proc/PID/map_files
 * below proc_fd (root, or CAP_CHECKPOINT_RESTORE), checked as
 * names_open__beneath before it is opened. The fd, or -errno. */
int names_open__mapped(int proc_fd, uint32_t pid, uint64_t start, uint64_t end, uid_t uid,
		       uint64_t max);

/* An O_PATH handle on the directory path inside the root root_fd, or
 * -errno. */
int names_open__dir_in_root(int root_fd, const char *path);

/* Opens path inside the root root_fd (its links resolved in that root,
 * never out of it, no magic links) for reading; a regular file only. */
int names_open__in_root(int root_fd, const char *path);

/* names_src.c */

/* Takes pid's root, its /tmp and its namespace pid. 0 or -errno (gone). */
int names_src__open_proc(struct names *n, struct names_proc *p);

/* Reads what p's sources gained since the last call into p->syms (under
 * n->io); look: look for a map not found yet now. */
void names_src__poll(struct names *n, struct names_proc *p, bool look);

/* A jitdump p mapped, at path in its root (the record's name), or through
 * the mapping [start, end). 0 or -errno. */
int names_src__open_dump(struct names *n, struct names_proc *p, const char *path, uint64_t start,
			 uint64_t end);

/* Closes p's handles and frees its buffers. */
void names_src__close(struct names_proc *p);

/* Whether name is a jitdump's: ".../jit-DIGITS.dump". */
bool names_src__is_dump(const char *name);

/* names_bin.c */

/* The build-id of the file mapped by m, read through the mapping (once per
 * device and inode). 0 or -errno. */
int names_bin__bid(struct names *n, const struct dso_track_mapping *m, struct build_id *bid);

/* "/proc/self/fd/N" of a held file of build-id bid, or NULL. */
const char *names_bin__source(struct names *n, const struct build_id *bid);

/* Closes every held file. */
void names_bin__exit(struct names *n);

#endif
