#ifndef PREC_RECORDER_OUTPUT_HINT_H
#define PREC_RECORDER_OUTPUT_HINT_H
/* The fix named when the output cannot be created or written (output_hint.c). */

#include <limits.h>
#include <stddef.h>

/* Room for any hint output__hint_into writes. */
#define OUTPUT_HINT_MAX (PATH_MAX + 256)

/* The fix to suggest when output cannot be created or written, one per
 * errno: a constant text, or hint (len bytes, OUTPUT_HINT_MAX is enough)
 * filled with one that names the place. */
const char *output__hint_into(const char *output, int err, char *hint, size_t len);

/* output__hint_into with a buffer of the caller's block (a compound
 * literal, so no buffer is shared between calls or threads): valid until
 * that block ends, as for the message printed in the same statement. */
#define output__hint(output, err) \
	output__hint_into((output), (err), (char[OUTPUT_HINT_MAX]){ 0 }, OUTPUT_HINT_MAX)

#endif
