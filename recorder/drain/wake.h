#ifndef PREC_RECORDER_DRAIN_WAKE_H
#define PREC_RECORDER_DRAIN_WAKE_H
/*
 * The one way a thread wakes the recording's main loop (a drain asleep in
 * ppoll, or the main thread waiting on the --threads streams): an eventfd
 * that loop polls. The background side-band's end and a
 * --switch-output-event rotation request poke it; the loop clears it when
 * it wakes. No process signal is sent to prec itself.
 */
#include <stdbool.h>

struct wake {
	int fd; /* the eventfd; -1 none (wake__poke does nothing) */
};

/* An eventfd, non-blocking and close-on-exec. 0 or -errno. */
int wake__init(struct wake *w);

/* Makes the fd readable (from any thread). Accepts NULL. */
void wake__poke(struct wake *w);

/* Takes the pokes so far: the fd is quiet again. Whether there were any. */
bool wake__clear(struct wake *w);

/* Closes the fd. Accepts one never initialised only as { .fd = -1 }. */
void wake__exit(struct wake *w);

#endif
