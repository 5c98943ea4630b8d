/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_RECORDER_NAMES_INT_H
#define PREC_RECORDER_NAMES_INT_H
/*
 * The names layer's insides on the recorder's side, shared by its files in
 * one-way order: names.c (the registry of process instances, their symbol
 * tables, the ELFs) uses names_link.c (the reader process and the thread
 * that talks to it) and names_bin.c's recorder half (binaries' build-ids
 * and held descriptors). What reads the traced processes' files runs in
 * the reader (names_reader_int.h), never here.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "prec/buildid.h"
#include "names/jit_syms.h"
#include "names/names.h"
#include "names/names_proto.h"

#define NAMES_BUCKETS 1024
#define NAMES_BINS_MAX 4096 /* binaries remembered (build-id and handle) */
#define NAMES_STALL_MS 1000 /* one call asleep this long: the file does not answer */
#define NAMES_SYNC_MS 1500 /* a file's end waits this long for the reader at most */

/* One process instance: a pid from one fork to its end. */
struct names_proc {
	struct names_proc *next; /* hash chain, newest first */
	uint32_t key; /* the reader's name for it: its index + 1 */
	uint32_t pid;
	uint32_t inst; /* 1 for the first process of this pid seen, then 2... */
	int32_t nspid; /* its pid in its own namespace, as the reader found */
	uint64_t first_time; /* the earliest time its code was seen mapped; 0: unknown */
	bool superseded; /* a new process took its pid */
	bool done; /* the reader read it a last time */
	bool given_up; /* its file stalled the reader */
	bool dropped_told; /* the bound's line was given */
	char *dump_path; /* the jitdump it mapped, for a new reader */
	uint64_t dump_start, dump_end;
	char *elf_name;
	/* Under names.tables: */
	struct jit_syms syms;
	uint64_t gen, written_gen; /* symbol changes, and the last written */
};

struct names_bin {
	uint32_t maj, min;
	uint64_t ino, ino_generation;
	struct names_bin_req req; /* what the reader was asked */
	char *name; /* the path the mapping named */
	int err; /* 0: bid is the file's; -EINPROGRESS: asked; else why not */
	struct build_id bid;
	int fd; /* the mapped file, held for the build-id cache; -1: none */
	char source[32]; /* "/proc/self/fd/N" */
};

struct names;

/* What the link hands the registry (names.c), on the link thread: the link
 * calls nothing of the registry's by name. */
struct names_link_ops {
	/* One packet from the reader (fd: one it passed, to keep or close). */
	void (*packet)(struct names *n, const char *buf, size_t len, int fd);
	/* The reader was given up, stuck on key's (or binary request bin's)
	 * file at path. */
	void (*stalled)(struct names *n, uint32_t key, uint32_t bin, const char *path);
	/* A new reader runs (ok), or none will. */
	void (*restarted)(struct names *n, bool ok);
};

struct names {
	struct names_config cfg;
	char *jit_dir;
	pthread_mutex_t lock; /* the registry, the bins, the queue, the counters */
	pthread_mutex_t tables; /* every instance's symbols */
	pthread_cond_t cond; /* a sync answered, or the reader dead */
	struct names_proc *b[NAMES_BUCKETS];
	struct names_proc **procs; /* by key - 1 */
	uint32_t nr_procs;
	size_t cap_procs;
	struct names_bin *bins; /* by request id - 1 */
	uint32_t nr_bins;
	size_t cap_bins;
	uint32_t fds_max; /* binaries held open at most */
	uint32_t fd_limit; /* RLIMIT_NOFILE's soft limit at the start */
	uint32_t fds_held;
	struct names_stats st;
	/* names_link.c */
	struct names_link_ops ops;
	pid_t reader;
	int sock, wake_fd, busy_fd;
	struct names_busy *busy;
	pthread_t th;
	bool started, stop, dead;
	char *out; /* packets queued for the reader: u32 length, packet */
	size_t out_len, out_cap, sent;
	uint64_t sync_seq, synced;
	uint32_t respawns;
};

/* names_link.c */

/* Starts the reader and the link thread, which hands what the reader says
 * to ops (on the link thread). 0 or -errno. */
int names_link__start(struct names *n, const struct names_link_ops *ops);

/* Stops the thread, ends the reader (never waiting on one the kernel
 * holds), frees the link's resources. */
void names_link__stop(struct names *n);

/* Queues one packet for the reader (str, when not NULL, follows payload
 * with its NUL). Never blocks on the reader. */
void names_link__send(struct names *n, uint32_t type, uint32_t key, uint64_t a, uint64_t b,
		      const void *payload, size_t len, const char *str);

/* Asks the reader to read everything now and waits for its answer, at
 * most wait_ms. Whether it answered. */
bool names_link__sync(struct names *n, unsigned int wait_ms);

/* names_bin.c, the recorder's half */

/* The build-id of the file mapped by m: known (0), asked of the reader
 * (-EAGAIN: by the file's end, names_bin__by_name answers), or -errno. */
int names_bin__bid(struct names *n, const struct dso_track_mapping *m, struct build_id *bid);

/* The reader's answer to request id (fd: the file, kept or closed). */
void names_bin__answer(struct names *n, uint32_t id, int err, const struct build_id *bid, int fd);

/* Request id fails with -ETIMEDOUT (its file stalled the reader; it is not
 * to be read by its path either; 0: every request not answered). */
void names_bin__fail_pending(struct names *n, uint32_t id);

/* Every request not answered, asked of a new reader. */
void names_bin__resend(struct names *n);

/* The build-id read of a file mapped by the path name. 0, -ETIMEDOUT (its
 * file stalled the reader), or -ENOENT. */
int names_bin__by_name(struct names *n, const char *name, struct build_id *bid);

/* "/proc/self/fd/N" of a held file of build-id bid, or NULL. */
const char *names_bin__source(struct names *n, const struct build_id *bid);

/* Closes every held file. */
void names_bin__exit(struct names *n);

#endif
