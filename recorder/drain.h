#ifndef PREC_RECORDER_DRAIN_H
#define PREC_RECORDER_DRAIN_H
/*
 * The hot path: wait on the rings, hand every new byte to the writer as
 * spans of the ring mappings (no copy, no allocation per record), and close
 * each pass that wrote data with FINISHED_ROUND.
 */
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/uio.h>

struct pollfd;
struct ring;
struct writer;
struct dso_track;
struct sideband_log;
struct unwinder;

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
};

struct drain {
	struct ring *rings;
	int nr_rings;
	struct writer *w;
	int time_off; /* TIME's offset in a sample body, -1 without TIME */
	struct iovec *iov; /* 2 per ring + the FINISHED_ROUND */
	bool *pending; /* rings with a window to release after the write */
	struct drain_stats stats;
	struct dso_track *track; /* build-id hit set fed from the rings, or NULL */
	struct unwinder *unwind; /* --unwind=record: a copy pass rewrites the DWARF
				  * samples (unwind.h); NULL: zero-copy */
	/* Index in drain__run's pfd of the output stream's fd, watched for its
	 * reader going away (POLLERR); -1 (drain__init's) when not watched. */
	int out_pfd;
	uint64_t flush; /* --mmap-flush: a ring with fewer bytes waits (not at the end) */
	int timeout_ms; /* the longest sleep between passes; 0: until data or a signal */
	bool no_tail; /* set by stop(): do not drain what is left (--max-size) */
	uint64_t max_bytes; /* --max-size: ring bytes this drain may write; 0 no cap */
	bool capped; /* the cap was reached: what is left in the rings stays */
	struct sideband_log *sblog; /* --switch-output: the side-band kept, or NULL */
	uint64_t batch_bytes; /* DRAIN_BATCH_BYTES (drain__init's); tests lower it */
};

/* A pass writes the rings' windows in batches of at least this many bytes
 * (one writev each), releasing each batch's rings as soon as it is written;
 * rings with little data share one write. */
#define DRAIN_BATCH_BYTES (128u * 1024)

/* Prepares a loop over rings writing to w. 0 or -ENOMEM. */
int drain__init(struct drain *d, struct ring *rings, int nr_rings, struct writer *w, int time_off);

/* One pass over every ring. Returns bytes written (0: nothing new) or -errno. */
int64_t drain__pass(struct drain *d);

/*
 * Passes and sleeps (ppoll on pfd with sigmask, so the flags the signal
 * handlers set are never missed) until stop(arg) is true, or, with
 * stop_on_hup, until every fd has hung up (all target threads gone). What
 * is left in the rings then is drain__tail's, once the events are disabled.
 * Returns 0 or the writer's negative errno; -EPIPE as soon as the reader of
 * the watched output (out_pfd) is gone.
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
 * give_up(arg) is true (a second SIGINT). Nothing with --max-size's no_tail.
 * Returns the number of passes that wrote data, or the writer's -errno.
 */
int drain__tail(struct drain *d, bool (*give_up)(void *arg), void *arg);

/* Frees the loop's arrays (not the rings or the writer). */
void drain__exit(struct drain *d);

#endif
