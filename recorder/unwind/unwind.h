/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_RECORDER_UNWIND_H
#define PREC_RECORDER_UNWIND_H
/*
 * --unwind=record: DWARF call graphs unwound while recording.
 *
 * perf record --call-graph dwarf copies the user registers and 8 KiB of user
 * stack into every sample and leaves the unwinding to perf report. With
 * --unwind=record prec unwinds each such sample right after the drain pass
 * that read it (libunwind's remote API over the sample's registers and stack
 * copy, and the .eh_frame_hdr tables of the files the process has mapped, as
 * the build-id tracker's maps say) and writes it with the user frames
 * appended to its callchain (PERF_CONTEXT_USER, the sample IP, then each
 * caller's return address - 1, as perf's own unwinder reports them) and
 * without the registers and stack copy. The attrs written to the file say so:
 * no REGS_USER/STACK_USER, exclude_callchain_user off, so every reader takes
 * the callchain as it is.
 *
 * A sample whose unwind stops early keeps the frames found (at least its IP)
 * and is counted. Other records pass through unchanged, in order.
 *
 * Lifecycle: unwinder__new (from the events the file lists) ->
 * unwinder__file_attrs (before the attrs are written) -> unwinder__set_track
 * -> (unwinder__hold while the side-band is late) -> unwinder__rewrite per
 * drain pass -> (unwinder__release) -> unwinder__summary ->
 * unwinder__delete. One thread.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

struct prec_err;
struct drain_stats;
struct dso_track;
struct ring;
struct unwinder;
struct writer_event;

/* User frames written at most per sample: perf's default max stack. */
#define UNWIND_MAX_FRAMES 127

struct unwind_stats {
	uint64_t samples; /* samples of the DWARF events rewritten */
	uint64_t partial; /* of which the unwind stopped early */
	uint64_t frames; /* user frames written, sample IPs included */
	uint64_t no_map; /* partial: a frame's IP in no file the process mapped */
	uint64_t no_table; /* partial: a file without a usable .eh_frame_hdr */
	uint64_t short_stack; /* partial: the caller's frame is past the stack copy */
	uint64_t other; /* partial: libunwind gave up for another reason */
	uint64_t bytes_in, bytes_out; /* record bytes before and after */
	uint32_t files, bad_files; /* ELF files opened; of which unusable */
};

/*
 * An unwinder for the nr events the file lists (attrs and ids as
 * fill_events makes them); those sampling CALLCHAIN, REGS_USER and
 * STACK_USER are the DWARF events it rewrites. 0 and *out (owned by the
 * caller), -EINVAL when no event samples a stack copy or one lacks the user
 * IP/SP registers, -EOPNOTSUPP off x86-64, -ENOMEM.
 */
int unwinder__new(struct unwinder **out, const struct writer_event *events, uint32_t nr);

/* unwinder__new, then unwinder__file_attrs; on failure returns the error
 * with its line (the fix) in e. */
int unwinder__setup(struct unwinder **out, struct writer_event *events, uint32_t nr,
		    struct prec_err *e);

/* --threads: a new unwinder for the same events as u (one per drain
 * stream: each has its own files, caches and buffers, and no lock). 0 and
 * *out (owned by the caller), or -ENOMEM. */
int unwinder__clone(struct unwinder **out, const struct unwinder *u);

/* Process pid exec'd (a COMM seen by another stream): the unwind rules
 * cached for its old code go. Accepts NULL u. */
void unwinder__exec(struct unwinder *u, uint32_t pid);

/* Frees u and its files and buffers. Accepts NULL. */
void unwinder__delete(struct unwinder *u);

/* Points each DWARF event's attr in events (the array given to
 * unwinder__new) at u's copy, as the rewritten samples need it. */
void unwinder__file_attrs(struct unwinder *u, struct writer_event *events, uint32_t nr);

/* The maps the unwinder finds files through (NULL: none, every unwind stops
 * at the sample IP). Accepts NULL u. */
void unwinder__set_track(struct unwinder *u, struct dso_track *track);

/*
 * The drain's copy path: the windows of the nr rings marked pending, record
 * by record in ring order, with the DWARF samples rewritten, into u's buffer;
 * iov[0] is set to it. Returns 1, 0 when no window has bytes, or -ENOMEM.
 * The buffer stays valid until the next call.
 */
int unwinder__rewrite(struct unwinder *u, struct ring *rings, const bool *pending, int nr,
		      struct iovec *iov);

/*
 * One whole record of h.size bytes at rec, written to dst as the file gets
 * it: at most h.size + (UNWIND_MAX_FRAMES + 1) * 8 bytes. Returns the bytes
 * written: 0 for a sample held (unwinder__hold).
 */
size_t unwinder__record(struct unwinder *u, const void *rec, void *dst);

/* Held samples take at most this many bytes (unwinder__hold); 64 MiB is
 * some 8,000 samples of perf's default 8 KiB stack copy, a few seconds of
 * a busy machine's samples, while the background side-band takes well under
 * one. */
#define UNWIND_HOLD_MAX (64u << 20)

/*
 * on: the side-band of the processes that existed before the recording is
 * still to come (synthesized in the background). A DWARF sample whose user
 * IP is in no map known yet is then held (its raw record copied, up to
 * UNWIND_HOLD_MAX bytes; past that it is unwound at once) instead of being
 * unwound, and unwinder__record writes nothing for it. Accepts NULL u.
 */
void unwinder__hold(struct unwinder *u, bool on);

/*
 * The side-band is in (the tracker has the maps): holding stops, and the
 * held samples are unwound, in the order read, into u's buffer, iov[0] set
 * to it (valid until the next call that writes the buffer). Returns 1, 0
 * when none was held (or u is NULL), or -ENOMEM.
 */
int unwinder__release(struct unwinder *u, struct iovec *iov);

/* What was done so far. */
void unwinder__stats(const struct unwinder *u, struct unwind_stats *st);

/* Adds the counts the summary prints to st and prints the -v details. */
void unwinder__summary(const struct unwinder *u, struct drain_stats *st);

#endif
