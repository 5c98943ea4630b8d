#ifndef PREC_RECORDER_DRAIN_H
#define PREC_RECORDER_DRAIN_H
/*
 * The hot path: wait on the rings, hand every new byte to the writer as
 * spans of the ring mappings (no copy, no allocation per record), and close
 * each pass that wrote data with FINISHED_ROUND. The drain knows nothing of
 * files: what else must see the records (the build-id tracker, the size
 * cut, record-time unwinding) is one list of hooks, and between passes it
 * asks a list of between-pass steps (the output's: whether to go on, where
 * it rotates) in the order they were added. Its state is all in struct
 * drain, configured in one call (drain__init with a struct drain_config)
 * and changed after it only through the functions below: several loops can
 * run side by side, each with its own rings and output.
 */
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/uio.h>

struct perf_event_header;
struct pollfd;
struct ring;
struct wake;
struct writer;

struct drain_stats {
	uint64_t samples;
	uint64_t lost; /* events the kernel dropped (sum of PERF_RECORD_LOST.lost) */
	uint64_t lost_records; /* PERF_RECORD_LOST records ("chunks") */
	uint64_t lost_samples; /* read_format LOST counts, read at the end */
	uint64_t wakeups; /* poll() returns with data ready */
	uint64_t first_time; /* smallest sample time; 0 when none */
	uint64_t last_time; /* largest sample time */
	uint64_t bytes; /* ring bytes written */
	uint64_t unwound; /* --unwind=record: samples unwound (unwinder__summary) */
	uint64_t unwind_partial; /* of which the unwind stopped early */
	uint64_t held; /* rings a pass left data in, under --mmap-flush's mark */
};

/* What a hook's on_record answers. */
enum drain_verdict {
	DRAIN_KEEP, /* the record is written */
	DRAIN_CUT, /* the ring's window ends before it: it and the rest stay */
};

/*
 * One per-record hook. Every member may be NULL. Hooks run in the order
 * added, so a cut hook added first keeps the records it cuts from the
 * others. No hook may allocate per record: this is the drain's hot path.
 */
struct drain_hook {
	/* Each record of a window about to be written (h at window position
	 * pos of r; read its body with ring__peek_u64): DRAIN_KEEP or DRAIN_CUT. */
	enum drain_verdict (*on_record)(void *arg, const struct ring *r, uint64_t pos,
					const struct perf_event_header *h);
	/* At the end of every pass, with what that pass wrote and counted
	 * (bytes 0 when it found nothing); wakeups are those before it. */
	void (*on_pass)(void *arg, const struct drain_stats *pass);
	/* A hook that needs to change the records (record-time unwinding): as
	 * unwinder__rewrite, the pending windows copied into one span at
	 * iov[0]. 1, 0 (nothing) or -errno. Without one the write is zero-copy. */
	int (*rewrite)(void *arg, struct ring *rings, const bool *pending, int nr,
		       struct iovec *iov);
	/* A hook with records of its own (--off-cpu's direct samples): at the
	 * start of every pass, before the rings' records, it writes them to
	 * w. 0 or -errno (the pass stops with it). */
	int (*produce)(void *arg, struct writer *w);
	/* A hook with records made from this pass's (the names of JIT code,
	 * names/names_hook.c): at the end of a pass that wrote, after the
	 * rings' records and before FINISHED_ROUND, the hook points *iov at
	 * them (valid until its on_pass) and returns true; false: none. */
	bool (*append)(void *arg, struct iovec *iov);
	void *arg;
};

/* A drain has room for this many hooks: the size cut, the build-id
 * tracker, the unwinder, the side-band log, the counts, --off-cpu's, the
 * JIT names' and the background walk's sampled pids. */
#define DRAIN_MAX_HOOKS 8

/* What a between-pass step answers. */
enum drain_next {
	DRAIN_GO_ON,
	DRAIN_STOP, /* stop; the tail is still drained (drain__tail) */
	DRAIN_END, /* stop, and leave what the rings hold (a full output) */
};

/* One between-pass step: a drain_next, or -errno to stop with that error. */
struct drain_between {
	int (*fn)(void *arg);
	void *arg;
};

/* Room for the between-pass steps: the output's rotation or its stream's
 * size share, the background side-band's join, --control's acks. */
#define DRAIN_MAX_BETWEEN 4

/* Room for the ticks asked for: the output's, the status line's, the
 * background walk's hints (one per stream), with margin. */
#define DRAIN_MAX_TICKS 6

/* Everything a drain is given at its start (drain__init). */
struct drain_config {
	int nr_rings;
	struct writer *writer; /* where the spans go; NULL until drain__set_writer */
	int time_off; /* TIME's offset in a sample body, -1 without TIME */
	uint64_t flush; /* --mmap-flush: a ring with fewer bytes waits (not at the end) */
	/* No FINISHED_ROUND: a stream of a perf.data directory (--threads),
	 * whose reader orders the streams' records itself, as perf writes them. */
	bool no_round;
	/* --buildid-mmap: the events ask for MMAP2 records with build-ids.
	 * Without it a MMAP2 with PERF_RECORD_MISC_MMAP_BUILD_ID is the
	 * kernel's leak of another session's flag (6.1's
	 * perf_event_mmap_output sets it on the shared record and never
	 * clears it): the drain clears it, or perf would read the device
	 * numbers as a build-id size and abort. */
	bool mmap2_build_ids;
	/* Called before a ring with data is read (--affinity moves the thread
	 * near it, affinity.h); NULL: nothing. */
	void (*before_ring)(void *arg, const struct ring *r);
	void *ring_arg;
};

struct drain {
	struct ring *rings;
	int nr_rings;
	struct writer *w; /* where the spans go (drain__set_writer: a new file at a rotation) */
	int time_off;
	struct iovec *iov; /* 2 per ring + the FINISHED_ROUND */
	bool *pending; /* rings with a window to release after the write */
	struct drain_stats stats; /* totals of every pass */
	struct drain_stats pass; /* the pass under way (handed to on_pass) */
	struct drain_hook hooks[DRAIN_MAX_HOOKS];
	int nr_hooks;
	int rewriter; /* index of the hook with rewrite, -1: zero-copy */
	/* Asked by drain__run after every pass, in the order added (the
	 * output's limits and rotation first, --control's acks after it).
	 * Every step runs; the first -errno wins, else the strongest answer
	 * (DRAIN_END over DRAIN_STOP over DRAIN_GO_ON). */
	struct drain_between between[DRAIN_MAX_BETWEEN];
	int nr_between;
	/* The ticks asked for (drain__want_tick), 0 free: the loop sleeps at
	 * most the smallest between passes; none: until data or a signal. */
	int ticks[DRAIN_MAX_TICKS];
	/* Index in drain__run's pfd of the output stream's fd, watched for its
	 * reader going away (POLLERR); -1 (drain__init's) when not watched. */
	int out_pfd;
	/* Index in drain__run's pfd of one fd that is not a ring's (--control's
	 * command channel), -1 (drain__init's) none: on_side runs on this
	 * thread when it is ready, before the next pass, and returns false to
	 * stop polling it. It never counts as a target for stop_on_hup. */
	int side_pfd;
	bool (*on_side)(void *arg, short revents);
	void *side_arg;
	/* Index in drain__run's pfd of the main loop's wake eventfd (wake.h),
	 * -1 (drain__init's) none: cleared when it is readable, and the
	 * loop goes on to its next pass (the between-pass steps read the news). */
	int wake_pfd;
	struct wake *wake;
	/* Index in drain__run's pfd of the streams' stop eventfd (streams.h),
	 * -1 (drain__init's) none: readable from the stop on, never cleared;
	 * it only ends the sleep, stop() decides. */
	int stop_pfd;
	/* The fds of the rings' targets still polled (not hung up), as the last
	 * drain__run left them. */
	int live;
	void (*before_ring)(void *arg, const struct ring *r);
	void *ring_arg;
	uint64_t flush;
	bool no_tail; /* a between-pass step answered DRAIN_END: do not drain what is left */
	bool no_round; /* drain_config's; drain__hold_rounds changes it */
	uint64_t batch_bytes; /* DRAIN_BATCH_BYTES (drain__init's); tests lower it */
	/* The last pass found a ring at least 1/DRAIN_BACKLOG_SHARE full: the
	 * next pass starts at once. Otherwise the loop sleeps until a ring's
	 * wake-up mark (half of it) or a signal, and takes the next bite whole. */
	bool backlog;
	bool mmap2_build_ids; /* drain_config's */
};

/* A ring this full (its share of the data area) after a pass means the
 * drain is behind: pass again without sleeping. */
#define DRAIN_BACKLOG_SHARE 4

/* A pass writes the rings' windows in batches of at least this many bytes
 * (one writev each), releasing each batch's rings as soon as it is written;
 * rings with little data share one write. */
#define DRAIN_BATCH_BYTES (128u * 1024)

/* Prepares a loop over rings (c->nr_rings of them) as c says. 0 or -ENOMEM. */
int drain__init(struct drain *d, struct ring *rings, const struct drain_config *c);

/* The writer the next passes write to (the output's next file at a
 * rotation, NULL once it ended). Between passes only. */
void drain__set_writer(struct drain *d, struct writer *w);

/* hold: no FINISHED_ROUND after the passes from now on (the file's rounds
 * held back until the background side-band is in); false: rounds again,
 * unless drain_config's no_round. */
void drain__hold_rounds(struct drain *d, bool hold);

/* Whether d closes its passes with FINISHED_ROUND. */
bool drain__rounds(const struct drain *d);

/* Asks that d sleep at most ms (> 0) between passes; the smallest asked
 * wins, whoever asked. The request's handle (for drain__drop_tick), or
 * -ENOSPC when DRAIN_MAX_TICKS are standing. */
int drain__want_tick(struct drain *d, int ms);

/* Withdraws the request drain__want_tick answered with handle; a handle
 * below 0 does nothing. */
void drain__drop_tick(struct drain *d, int handle);

/* The longest d sleeps between passes now: the smallest tick asked for,
 * 0 (until data or a signal) when none. */
int drain__tick_ms(const struct drain *d);

/* Adds fn(arg) to the steps drain__run takes between passes, after those
 * added before it. 0, or -ENOSPC when DRAIN_MAX_BETWEEN are there. */
int drain__add_between(struct drain *d, int (*fn)(void *arg), void *arg);

/* Adds from's counts to to's (times: the smaller first, the larger last). */
void drain_stats__add(struct drain_stats *to, const struct drain_stats *from);

/* Adds hook h (copied) to d's list. 0, -ENOSPC when the list is full, or
 * -EBUSY for a second hook with rewrite. */
int drain__add_hook(struct drain *d, const struct drain_hook *h);

/* One pass over every ring. Returns bytes written (0: nothing new) or -errno. */
int64_t drain__pass(struct drain *d);

/*
 * The one loop every stream runs (streams.h). Passes and sleeps (ppoll on
 * pfd with sigmask, so the flags the signal handlers set are never missed)
 * until a between-pass step says stop, stop(arg) is
 * true, or, with stop_on_hup, every fd has hung up (all target threads
 * gone; d->live counts those left). What is left in the rings then is
 * drain__tail's, once the events are disabled. Returns 0, the writer's or
 * a between-pass step's negative errno;
 * -EPIPE as soon as the reader of the watched output (out_pfd) is gone.
 */
int drain__run(struct drain *d, struct pollfd *pfd, int nfds, bool stop_on_hup,
	       bool (*stop)(void *arg), void *arg, const sigset_t *sigmask);

/* At most this many passes take the tail: with the events disabled a ring
 * only empties, so the first pass takes nearly all of it and the next ones
 * what the kernel was still writing while the disable took effect. */
#define DRAIN_TAIL_PASSES 4

/*
 * Drains what is left in the rings after the events were disabled: passes
 * until one finds nothing, at most DRAIN_TAIL_PASSES, and no more once
 * give_up(arg) is true (a second SIGINT). Nothing after DRAIN_END (no_tail).
 * Returns the number of passes that wrote data, or the writer's -errno.
 */
int drain__tail(struct drain *d, bool (*give_up)(void *arg), void *arg);

/* Frees the loop's arrays (not the rings or the writer). */
void drain__exit(struct drain *d);

#endif
