#ifndef PREC_RECORDER_OUTPUT_DIR_H
#define PREC_RECORDER_OUTPUT_DIR_H
/*
 * The output's --threads part (output_dir.c), called by output.c only: the
 * directory and its data file, the build-ids of the streams' samples, and
 * the undoing. The stream files' own calls are in output.h.
 */
struct output;

/* Makes the directory at o->path and opens its data file as o->w. 0 or
 * -errno, said. */
int output_dir__open(struct output *o);

/* Before the data file's features: the build-id tracker reads the stream
 * files back (their side-band first, then their samples, as a sample's
 * mapping may be in another stream). Nothing for compressed streams. */
void output_dir__track(struct output *o);

/* A failed recording: the stream files and the directory go. */
void output_dir__abort(struct output *o);

/* Frees the stream writers (removing unfinished files) and the directory
 * object; the directory goes too when the data file never finished. */
void output_dir__exit(struct output *o);

#endif
