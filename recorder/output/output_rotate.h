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

struct output_config;
struct writer;

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
enum output_step output_rotate__check(struct output_rotate *r, const struct output_config *cfg,
				      uint64_t size, bool capped, bool requested, bool sampled);

/*
 * The file w writes at path ends: its final name in final (len bytes),
 * path itself unless the file is rotated (next given) or ends with
 * --timestamp-filename (which --switch-output implies), when it moves to
 * perf's timestamped name while still open and locked, before its end is
 * written: a second prec given the same -o is refused all along and never
 * finds the name free, or has its own file renamed. With next, the next
 * file is opened at path under the same claim (writer__rotate). 0, or
 * -ECANCELED when the rotation cannot be made (printed; the current file is
 * still w's, to keep); at exit a rename that fails is printed and the file
 * keeps path.
 */
int output_rotate__name(struct output_rotate *r, const struct output_config *cfg, struct writer *w,
			const char *path, struct writer **next, char *final, size_t len);

/* After the file that ended at final (output_rotate__name) is finished:
 * counted, perf's "Dump" printed when it was renamed, the oldest removed
 * past --switch-max-files. */
void output_rotate__ended(struct output_rotate *r, const struct output_config *cfg, bool at_exit,
			  const char *path, const char *final);

/* Frees the list of kept files. Accepts a zeroed r. */
void output_rotate__exit(struct output_rotate *r);

#endif
