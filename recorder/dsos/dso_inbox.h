/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_RECORDER_DSO_INBOX_H
#define PREC_RECORDER_DSO_INBOX_H
/*
 * One drain stream's inbound side-band (--threads): the MMAP, MMAP2, COMM,
 * FORK and EXIT records the other streams drained, which this stream's
 * build-id tracker and unwinder need (a process maps its libraries on one
 * CPU and is sampled on another). Many threads push, one takes.
 *
 * The lock is taken only here, by pushes (side-band: a low rate) and by a
 * take that found something; the stream's sample path never takes it: an
 * empty inbox is one relaxed atomic load. A take swaps the filled buffer
 * for the taker's empty one, so the records are read outside the lock.
 *
 *   dso_inbox__init -> dso_inbox__push (any thread) / dso_inbox__take (the
 *   owner) -> dso_inbox__exit
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Bytes an inbox holds at most; a push beyond is dropped and counted (a
 * stream that never passes must not hold the machine's memory). */
#define DSO_INBOX_MAX (64u << 20)

struct dso_inbox {
	pthread_mutex_t lock;
	uint8_t *buf; /* pushed records, whole, back to back (under lock) */
	size_t len, cap;
	uint8_t *spare; /* the taker's: the last take's buffer, emptied */
	size_t spare_cap;
	atomic_size_t queued; /* len as the taker may peek at it without the lock */
	atomic_uint_fast64_t dropped; /* records refused: full, or out of memory */
};

/* An empty inbox. 0 or pthread's -errno. */
int dso_inbox__init(struct dso_inbox *in);

/* Frees what in holds. Accepts a zeroed inbox. */
void dso_inbox__exit(struct dso_inbox *in);

/* Appends the whole record rec (its header's size, at least 8 bytes, at
 * most 64 KiB), copied. Any thread. 0, -EINVAL (a record too short or
 * cut), or -ENOSPC/-ENOMEM (dropped, counted). */
int dso_inbox__push(struct dso_inbox *in, const void *rec);

/* Hands every record pushed so far, in push order, to fn, on the calling
 * thread (the owner's, one at a time), outside the lock. Returns the
 * number of records handed (0 at the cost of one atomic load when empty). */
uint64_t dso_inbox__take(struct dso_inbox *in, void (*fn)(void *arg, const void *rec, size_t len),
			 void *arg);

#endif
