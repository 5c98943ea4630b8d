#ifndef PREC_RECORDER_STREAM_TRACK_H
#define PREC_RECORDER_STREAM_TRACK_H
/*
 * What each drain stream follows besides writing, on its own thread: a
 * build-id tracker and a record-time unwinder over it. The one stream of a
 * recording without --threads borrows the file's tracker and unwinder
 * (stream_tracks__borrow), following the file through rotations; with
 * --threads each stream owns its own (stream_tracks__open).
 *
 * A stream's samples are looked up in its own tracker only, so the sample
 * path takes no lock. The low-rate side-band each stream drains (MMAP,
 * MMAP2, COMM, FORK, EXIT) is also pushed to every other stream's inbox
 * (dso_inbox.h, a lock only there), which that stream takes at the start of
 * its next pass (its first record) and at the end of each pass; the
 * synthesized side-band is fed to every tracker at the start. When the side-band
 * of the processes that existed before is synthesized in the background
 * (late), each stream's unwinder holds what it cannot unwind yet
 * (unwinder__hold); stream_tracks__publish hands the late side-band, kept
 * by the same tap, to every stream, which takes it at the end of its next
 * pass: its tracker reads it, its unwinder writes the held samples into its
 * file, and the buffer is freed by the last stream to take it. A sample whose
 * map is still in another stream's ring waits in its tracker's pending set
 * (dso_track.h) until the inbox brings it. At the end the trackers' hit sets
 * join the file's tracker, whose build-id list the features get.
 *
 *   stream_tracks__keep (the synthesized side-band's tap) ->
 *   stream_tracks__open -> stream_tracks__attach (each stream's drain) ->
 *   the loops (stream_tracks__publish when late) -> stream_tracks__end
 *   (each) -> stream_tracks__merge ->
 *   stream_tracks__exit
 */
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dsos/dso_inbox.h"
#include "dsos/dso_track.h"

struct drain;
struct drain_stats;
struct stream_tracks;
struct unwinder;

struct stream_track {
	struct stream_tracks *set;
	int idx;
	struct dso_track *t; /* this stream's hit set (owned) */
	struct unwinder *unw; /* --unwind=record: this stream's (owned), or NULL */
	struct dso_inbox inbox; /* side-band the other streams drained */
	bool took; /* the inbox was taken in this pass */
	bool has_rings; /* a stream without rings gets no side-band */
	uint8_t *scratch; /* a side-band record that wraps its ring */
	struct drain *d; /* this stream's drain (its writer gets held samples) */
	bool late_taken; /* the late side-band was read */
};

struct stream_tracks {
	struct stream_track *s;
	int nr;
	uint8_t *synth; /* the synthesized side-band, until the trackers exist */
	size_t synth_len, synth_cap;
	bool synth_lost; /* it could not be kept whole (out of memory) */
	bool borrowed; /* one stream with the file's tracker and unwinder */
	bool late; /* set before open: more side-band comes (publish) */
	uint8_t *late_buf; /* the late side-band, once published */
	size_t late_len;
	atomic_bool late_ready;
	atomic_int late_left; /* streams that have not taken it yet */
	struct dso_track_namer namer; /* every tracker's (names/names.h) */
};

/* The synthesized side-band's tap (a synth_out tap, arg the stream_tracks):
 * kept until stream_tracks__open feeds it to each stream's tracker. */
void stream_tracks__keep(void *arg, const void *buf, size_t len);

/*
 * nr stream trackers for events of layout l, each fed what
 * stream_tracks__keep kept; with unw (--unwind=record) a clone of it each.
 * 0 or -ENOMEM (stream_tracks__exit in both cases).
 */
int stream_tracks__open(struct stream_tracks *ts, int nr, const struct dso_track_layout *l,
			enum dso_track_buildids which, const struct unwinder *unw);

/* One stream that writes the file itself: its tracker is the file's t and
 * its unwinder unw (either may be NULL), not owned. 0 or -ENOMEM. */
int stream_tracks__borrow(struct stream_tracks *ts, struct dso_track *t, struct unwinder *unw);

/* A borrowing stream follows the file's new tracker t (a rotation). */
void stream_tracks__follow(struct stream_tracks *ts, struct dso_track *t);

/* The side-band the tap kept since stream_tracks__open goes to every stream
 * (each takes it at the end of its next pass). Once, after open. */
void stream_tracks__publish(struct stream_tracks *ts);

/* Stream i's drain d gets its hooks: the tracker and the unwinder.
 * 0 or -ENOSPC. */
int stream_tracks__attach(struct stream_tracks *ts, int i, struct drain *d);

/* --unwind=record: d's records go through unw (unwinder__rewrite), the
 * one way a drain unwinds (each stream's, and the --overwrite snapshot's).
 * unw NULL: nothing. 0, -ENOSPC or -EBUSY (drain__add_hook's). */
int stream_track__add_unwinder(struct drain *d, struct unwinder *unw);

/* Stream i ended: it takes the late side-band if it has not (its held
 * samples written to its drain's writer), and its unwinder's counts go
 * into st (printed under -v). 0 or the write's -errno. */
int stream_tracks__end(struct stream_tracks *ts, int i, struct drain_stats *st);

/* After every stream ended: each takes its inbox a last time, and every
 * hit set joins into (nothing for a borrowing stream). 0 or -ENOMEM (hits lost, counted). */
int stream_tracks__merge(struct stream_tracks *ts, struct dso_track *into);

/* Frees the trackers, unwinders and inboxes. Accepts a zeroed set. */
void stream_tracks__exit(struct stream_tracks *ts);

#endif
