#ifndef PREC_RECORDER_OUTPUT_ROTATE_H
#define PREC_RECORDER_OUTPUT_ROTATE_H
/*
 * When the output ends a file, and what the ended files are called
 * (output_rotate.c): --max-size, --switch-output (SIGUSR2, a size, a
 * period), --switch-max-files, the timestamped names. A policy with no
 * records in it: output.c asks it between drain passes and does the I/O.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct record_opts;

struct output_rotate {
	char **kept; /* --switch-max-files: rotated files, oldest first */
	int nr_kept;
	uint64_t next_switch_ms; /* --switch-output=TIME: CLOCK_MONOTONIC ms */
	unsigned rotations; /* files ended before the last (the status line shows it) */
};

/* What the output does after a drain pass. */
enum output_step {
	OUTPUT_GO_ON,
	OUTPUT_ROTATE, /* end this file, begin the next */
	OUTPUT_FULL, /* --max-size: the recording ends here */
};

/* The step for a file of size bytes (header included), capped when the
 * drain's size cut was made, requested on SIGUSR2; sampled when the file
 * holds a sample (only then does its size rotate it). */
enum output_step output_rotate__check(struct output_rotate *r, const struct record_opts *opts,
				      uint64_t size, bool capped, bool requested, bool sampled);

/* The name of the file just ended at path in final (len bytes): renamed
 * with a timestamp when rotated (or at exit with --timestamp-filename,
 * which --switch-output implies), the oldest removed past
 * --switch-max-files; path itself otherwise or when the rename fails. */
void output_rotate__name(struct output_rotate *r, const struct record_opts *opts,
			 const char *path, bool at_exit, char *final, size_t len);

/* Frees the list of kept files. Accepts a zeroed r. */
void output_rotate__exit(struct output_rotate *r);

#endif
