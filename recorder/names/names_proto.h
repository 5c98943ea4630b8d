/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_RECORDER_NAMES_PROTO_H
#define PREC_RECORDER_NAMES_PROTO_H
/*
 * What the recorder and its names reader say to each other (names_link.c,
 * the recorder's side; names_reader.c, the reader process's). The reader is
 * a process of its own because the files it reads belong to the traced
 * processes: a FUSE or NFS /tmp that stops answering leaves the reading
 * task in an uninterruptible wait, and only a task outside prec's thread
 * group can be left there while prec exits (and SIGKILL still ends prec).
 *
 * One SOCK_SEQPACKET pair: every message is one packet, a header and its
 * payload, at most NAMES_MSG_MAX bytes. Both ends are this binary, so the
 * structs go as they are (host order, no versioning). The reader also marks
 * every call that may block in a shared page (struct names_busy), so the
 * recorder can tell a reader stuck on a file from one with nothing to say.
 */
#include <stdint.h>

#define NAMES_MSG_MAX 65536
#define NAMES_BUSY_PATH 200

enum names_msg_type {
	/* recorder -> reader */
	NAMES_REG = 1, /* key, b = pid: a process instance to follow (a: names_reg_mode) */
	NAMES_EXIT, /* key: one of its threads exited: is it gone? */
	NAMES_GONE, /* key: a new process took its pid: read it a last time */
	NAMES_DUMP, /* key, a..b: the jitdump it mapped there; payload: its path */
	NAMES_BIN, /* key: a request id; payload: struct names_bin_req + path */
	NAMES_SYNC, /* a: a sequence: read everything now, then answer it */
	/* reader -> recorder */
	NAMES_SYMS, /* key: symbols added; payload: struct names_sym_rec... */
	NAMES_MOVE, /* key: a = old address, b = new address; payload: u64 size */
	NAMES_RESET, /* key: its symbols are void (a rewritten map): drop them */
	NAMES_WARN, /* key (0: none): payload: one line, without "prec: " */
	NAMES_REGGED, /* key: a = its start time (0: gone), b = its pid inside its namespace */
	NAMES_BID, /* key: a request id; a: 0 or -errno; payload: the build-id (a held fd with it) */
	NAMES_SYNCED, /* a: the sequence answered */
	NAMES_COUNT, /* payload: struct names_counts, added to the recorder's */
};

/* How NAMES_REG takes an instance. */
enum names_reg_mode {
	NAMES_REG_NEW, /* first seen: followed if alive, else its map read once where perf looks */
	NAMES_REG_RESUME, /* followed by a reader since given up: read again from the start
			   * (its symbols reset) if alive, else left as they are */
};

struct names_msg {
	uint32_t type;
	uint32_t key;
	uint64_t a, b;
	uint32_t len; /* payload bytes after the header */
	uint32_t pad;
};

/* One symbol in a NAMES_SYMS payload: the name follows, name_len bytes,
 * then padding to 8. */
struct names_sym_rec {
	uint64_t addr, size;
	uint32_t name_len;
	uint32_t pad;
};

struct names_bin_req {
	uint32_t pid, maj, min, pad;
	uint64_t start, end, ino, ino_generation;
};

/* Counters the reader adds to the recorder's names_stats. */
struct names_counts {
	uint32_t maps, dumps, refused, bins;
	uint64_t malformed;
};

/*
 * The shared page. since_ns: CLOCK_MONOTONIC when the call now running
 * began, 0 when none is (the reader waits for work or writes to the
 * socket); key and path: whose file, for the warning that gives it up.
 * Written by the reader only; the recorder reads it without a lock (a torn
 * path only garbles a warning). bin: the binary request it reads (0: none).
 */
struct names_busy {
	volatile uint64_t since_ns;
	volatile uint32_t key, bin;
	char path[NAMES_BUSY_PATH];
};

#endif
