#ifndef PREC_RECORDER_OUTPUT_HINT_H
#define PREC_RECORDER_OUTPUT_HINT_H
/* The fix named when the output cannot be created or written (output_hint.c). */

/* The fix to suggest when output cannot be created or written, one per
 * errno; a static buffer, valid until the next call. */
const char *output__hint(const char *output, int err);

#endif
