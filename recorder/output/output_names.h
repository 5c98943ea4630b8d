#ifndef PREC_RECORDER_OUTPUT_NAMES_H
#define PREC_RECORDER_OUTPUT_NAMES_H
/*
 * The names layer (names/names.h) as the output uses it: made from the
 * options, its JIT ELFs in a directory of their own below the build-id
 * cache's root ("jit/prec-PID-TIME", as perf inject's jitted files sit in
 * the cache's jit/ directory).
 */
#include <stdbool.h>

struct names;
struct output_config;

/* The names of this recording: off (*out NULL) for a stream (its reader
 * resolves while it records, before the ELFs exist) and with
 * --no-keep-names, and (with a warning) where the descriptors they need
 * are not to be had. 0, or -ECANCELED (printed: the fix named). */
int output_names__new(struct names **out, const struct output_config *cfg);

/* At a file's end: n's JIT ELFs written (a failure printed in one line), and
 * at the recording's end (at_exit) its counts under -v. n NULL: nothing. */
void output_names__write(struct names *n, bool at_exit);

#endif
