/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_RECORDER_NAMES_READER_INT_H
#define PREC_RECORDER_NAMES_READER_INT_H
/*
 * The names reader's insides (the process names_link.c forks; its protocol
 * is names_proto.h), shared by its files in one-way order: names_reader.c
 * (the loop, the process instances, whether each still lives) uses
 * names_src.c (one instance's perf map and jitdump) and names_bin.c's
 * reading half (a binary through its mapping); all use names_rd_io.c (the
 * socket, the busy page, the shared handles) and names_open.c.
 * Nothing here runs in the recorder's process.
 */
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "names/names_proto.h"
#include "names/perf_map.h"

#define NAMES_READ_CHUNK (256u * 1024)
#define NAMES_LOOK_EVERY 10 /* polls between looks for a map not there yet */
#define NAMES_TAIL 64 /* bytes before the read offset compared at each poll */
/* A map last written this long before its process started is another's. */
#define NAMES_STALE_SLACK_NS (100ull * 1000 * 1000)

/* One growing file of an instance: its perf map or its jitdump. Nothing is
 * held open between polls: each poll opens it, checks it is the same file
 * with the same bytes before the offset (a rewrite in place is seen at any
 * length), reads what it gained and closes it. */
struct names_src {
	bool found; /* seen once: dev, ino and off mean something */
	uint64_t dev, ino;
	uint64_t off; /* bytes of the file taken so far */
	char tail[NAMES_TAIL]; /* the file's bytes just before off */
	uint32_t tail_len;
	char *carry; /* a line or record cut by the end of what was read */
	size_t carry_len, carry_cap;
	bool failed; /* refused, or hostile: never read again */
	bool stale_told; /* the "predates the process" line was given */
	bool header_done; /* a jitdump's header was read */
	bool swapped; /* ... and says the other byte order */
	struct perf_map_parser mp; /* a perf map's line state */
	char *path; /* a jitdump's path in the root (NULL for the map) */
	uint64_t start, end; /* ... and where it was mapped */
};

/* One process instance, by the recorder's key. */
struct rd_proc {
	uint32_t key, pid;
	pid_t nspid; /* its pid in its own namespace: perf-NSPID.map */
	uid_t uid; /* owner of /proc/PID: files must be its or root's */
	uint64_t start; /* /proc/PID/stat's start time (ticks); 0: unknown */
	int64_t start_real_ns; /* ... on the wall clock; 0: unknown */
	int root, tmp; /* handles (names_rd.h[]), -1: none */
	bool gone; /* read a last time: nothing more comes */
	bool foreign; /* its handles turned out to be a later instance's */
	uint32_t polls;
	struct names_src map, dump;
};

/* A directory handle several instances share (one root, one /tmp). */
struct rd_handle {
	int fd; /* O_PATH; -1: free */
	uint64_t dev, ino;
	uint32_t refs;
};

struct names_rd {
	int sock; /* the recorder's end */
	struct names_busy *busy;
	int proc_fd; /* /proc */
	uint64_t max_file;
	unsigned int poll_ms;
	long hz; /* clock ticks per second of /proc's start times */
	struct rd_proc **procs; /* by key; NULL: not registered */
	size_t cap_procs;
	uint32_t max_key;
	struct rd_handle *h;
	uint32_t nr_h;
	size_t cap_h;
	char *out; /* a NAMES_SYMS packet being filled */
	size_t out_len;
	uint32_t out_key;
	struct names_counts cnt;
	bool cnt_dirty;
	/* Whether p's process still runs (names_reader.c's, for the sources:
	 * a rewrite after its end is the next process's). */
	bool (*alive)(struct names_rd *rd, struct rd_proc *p);
};

/* names_rd_io.c: the channel every file of the reader says things through */

/* Sends one packet (fd >= 0: passed along). 0 or -errno. */
int names_rd__send(struct names_rd *rd, uint32_t type, uint32_t key, uint64_t a, uint64_t b,
		   const void *payload, size_t len, int fd);

/* One warning line for the recorder to print. */
void names_rd__warn(struct names_rd *rd, uint32_t key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* A call that may block on key's file path begins / ended. */
void names_rd__busy(struct names_rd *rd, uint32_t key, const char *path);
void names_rd__idle(struct names_rd *rd);

/* A symbol of key's into the packet being filled (sent when full). */
void names_rd__sym(struct names_rd *rd, uint32_t key, uint64_t addr, uint64_t size,
		   const char *name, size_t name_len);

/* The packet being filled, sent. */
void names_rd__flush(struct names_rd *rd);

/* Shares a handle on the directory fd (taken over: closed here when a
 * handle on the same directory exists). Its index, or -1. */
int names_rd__handle(struct names_rd *rd, int fd);
void names_rd__handle_put(struct names_rd *rd, int idx);
int names_rd__handle_fd(const struct names_rd *rd, int idx);

/* names_src.c */

/* Reads what p's sources gained since the last call; look: look for a
 * map not found yet now; last: p is gone, its files end where they end
 * (a last line without its newline is whole). */
void names_src__poll(struct names_rd *rd, struct rd_proc *p, bool look, bool last);

/* The jitdump p mapped at [start, end), path in its root. */
void names_src__set_dump(struct names_rd *rd, struct rd_proc *p, const char *path, uint64_t start,
			 uint64_t end);

/* Frees p's sources' buffers. */
void names_src__free(struct rd_proc *p);

/* names_bin.c, the reading half: the build-id of the file req names (its
 * path in the process's root, name), read through the mapping; sends
 * NAMES_BID with the held descriptor. */
void names_bin__read(struct names_rd *rd, uint32_t id, const struct names_bin_req *req,
		     const char *name);

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

#endif
