#ifndef PREC_RECORDER_OUTPUT_SIZE_LIMIT_H
#define PREC_RECORDER_OUTPUT_SIZE_LIMIT_H
/*
 * --max-size (and --switch-output=SIZE's cut), the one place of the
 * size-limit policy: how many ring bytes a file may take after its front,
 * the cut at a record boundary when they are spent, when the recording
 * ends for its size, and the line that says so.
 *
 * The bytes are one budget per file, taken by each stream of the engine
 * (drain/streams.h) through its share, a grain at a time: one atomic per
 * grain, so --threads' streams together stay within the limit (missed by
 * less than a grain a stream) and one stream cuts exactly where the limit
 * falls. The stream that finds the budget spent ends (DRAIN_END); the first
 * to find it says so, once.
 */
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "drain/drain.h"

struct output_config;

/* Bytes a share takes from the budget at a time. */
#define SIZE_LIMIT_GRAIN (64u << 10)

struct size_limit {
	const struct output_config *cfg;
	uint64_t limit; /* the ring bytes this file may take; 0: no limit */
	uint64_t front; /* the file's bytes before them */
	atomic_uint_fast64_t budget; /* of which not yet taken */
	/* Bytes the late side-band wrote past the budget (a side-band larger
	 * than the limit): the file is that much larger than its limit. */
	atomic_uint_fast64_t over;
	/* Side-band made but not yet written (the background walk's, told as
	 * it fills its buffers), of which fresh is not yet off the budget:
	 * the next record cut or the next file takes it, so that the rings
	 * leave room for it. */
	atomic_uint_fast64_t ahead, fresh;
	atomic_bool full; /* a share found it spent */
	atomic_bool reached; /* --max-size ended the recording (printed) */
};

/* One stream's part of the budget. */
struct size_share {
	struct size_limit *set;
	uint64_t room; /* taken from the budget, not yet used */
	bool capped; /* a record did not fit: this file is full for the stream */
};

/*
 * A new file whose front holds front bytes: the smaller of --max-size and
 * --switch-output=SIZE (not for a stream) sets what the ring data may take.
 * Side-band made and not yet taken comes off the new budget first.
 * When the front alone fills --switch-output's SIZE (the side-band of
 * every task, -a on a busy machine), the file takes whole passes until it
 * holds a sample (output_rotate.c), as perf's files hold at least one pass;
 * --max-size stays a limit. Every share starts empty.
 */
void size_limit__begin_file(struct size_limit *sl, const struct output_config *cfg, uint64_t front);

/* Whether a limit is set for this file (the cut hook is needed). */
bool size_limit__active(const struct size_limit *sl);

/* Side-band of bytes was made, to be written later (synth/background.h's
 * made; any thread): the next record cut takes it off the budget. */
void size_limit__made(struct size_limit *sl, uint64_t bytes);

/* The file grew by bytes beside the rings (the late side-band): what
 * size_limit__made did not take already comes off the budget; what the
 * budget cannot cover is counted in the size the limit line reports. */
void size_limit__spend(struct size_limit *sl, uint64_t bytes);

/* A share of sl, empty (its stream's next record takes from the budget). */
void size_share__init(struct size_share *sh, struct size_limit *sl);

/* The drain's cut hook (arg a size_share): whole records while the budget
 * lasts. */
enum drain_verdict size_share__cut(void *arg, const struct ring *r, uint64_t pos,
				   const struct perf_event_header *h);

/* Between passes, for a stream writing its own file (arg a size_share):
 * DRAIN_END once its window was cut or another share found the budget
 * spent (the line printed once), else DRAIN_GO_ON. */
int size_share__between(void *arg);

/* Between passes, for the stream that writes the file itself: whether the
 * file, size bytes now and cut (capped) or not, is full for --max-size (the
 * cut at the smaller of the two limits, or the size reached). Pure. */
bool size_limit__full(const struct output_config *cfg, uint64_t size, bool capped);

/* The recording ends for its size, size bytes written: perf's line, printed
 * by the first to call. */
void size_limit__stop(struct size_limit *sl, uint64_t size);

/* Whether --max-size ended the recording (read after the streams joined). */
bool size_limit__reached(const struct size_limit *sl);

#endif
