#ifndef PREC_RECORDER_OUTPUT_INT_H
#define PREC_RECORDER_OUTPUT_INT_H
/* What output_rotate.c takes from output.c (output.h); not for the rest
 * of the recorder. */
#include <stdbool.h>

#include "output.h"
#include "synth/sideband.h"

/* After the writer is open: begin, a stream's features, the tracker, the
 * side-band, compression, the size cut. 0 or -errno. */
int output__begin_file(struct output *o, enum synth_when when);

/* Overwrite rings, tail side-band, (at exit) lost samples, then the features
 * and the timestamped name; o->w is finished and gone. 0 or -errno. */
int output__end_file(struct output *o, bool at_exit);

/* The hooks of a drain writing into o's files (the size cut, the tracker,
 * the side-band log, the unwinder, the counts); d's writer is o's. 0 or
 * -ENOSPC. */
int output__add_hooks(struct output *o, struct drain *d);

#endif
