#ifndef PREC_RECORD_H
#define PREC_RECORD_H
/* The one entry point that records what the (validated) options ask for. */

#include "prec/exit_status.h" /* PREC_EXIT_*, what prec_record returns */

struct record_opts;

/*
 * Records the workload as opts says (final: options__validate ran; they are
 * only read), writes the output file and the summary.
 * exe and argc/argv are prec's own (for the CMDLINE feature). Returns the exit
 * status prec should end with: the workload's status, 128+signal when a signal
 * killed it, or PREC_EXIT_* on failure (already explained on stderr). When
 * prec itself was stopped by a signal (SIGINT, SIGTERM, SIGHUP, SIGQUIT,
 * SIGALRM, SIGPIPE: recorder/signals.h), *fatal_sig is set to it so main
 * can re-raise it after cleanup, as perf does.
 */
int prec_record(const struct record_opts *opts, int argc, char **argv, int *fatal_sig);

#endif
