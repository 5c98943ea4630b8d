#ifndef PREC_RECORDER_ENTRY_H
#define PREC_RECORDER_ENTRY_H
/*
 * The recorder's entry points, and its only readers of the whole options
 * struct below main.c: prec_record (record.c), which records what the
 * validated options ask for, and what record_prepare.c derives from them,
 * the narrow config of each module among it. A header of its own, not
 * record.h: record_prepare.c, below record.c, includes it.
 */
#include <stddef.h>
#include <stdint.h>

#include "prec/exit_status.h" /* PREC_EXIT_*, what prec_record returns */

struct event_specs;
struct evlist_config;
struct off_cpu_config;
struct output_config;
struct prec_err;
struct record_opts;
struct status_line_config;
struct synth_config;
struct target_config;

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

/* record_prepare.c: what the final options become once the machine is known. */

/* Every -e with its filters, then perf's checks. 0, or -errno with one line in e. */
int event_specs__parse_options(struct event_specs *specs, const struct record_opts *opts,
			       struct prec_err *e);

/* -F as the kernel will take it, in *freq (perf's warning when lowered);
 * read once. 0, or -EINVAL with the line in e when --strict-freq refuses to
 * lower it. */
int prepare__freq(const struct record_opts *opts, uint64_t *freq, struct prec_err *e);

/* Ring data bytes per CPU for -m (rounded as perf, with its message); 0
 * without -m. */
size_t prepare__ring_bytes(const struct record_opts *opts);

/* The events' narrow config from the final options, the effective -F and
 * -G's directory fd (-1 none); the one place the evlist's settings come from. */
void evlist_config__init(struct evlist_config *cfg, const struct record_opts *opts, uint64_t freq,
			 int cgroup_fd);

/* The target's (targets/target.h), the side-band's (synth/synth_config.h)
 * and --off-cpu's (bpf/off_cpu.h) narrow configs from the final options. */
void target_config__init(struct target_config *cfg, const struct record_opts *opts);
void synth_config__init(struct synth_config *cfg, const struct record_opts *opts);
void off_cpu_config__init(struct off_cpu_config *cfg, const struct record_opts *opts);

/* The output's narrow config from the final options (output/output_config.h). */
void output_config__init(struct output_config *cfg, const struct record_opts *opts);

/* The status line's narrow config from the final options (live/status_line.h). */
void status_line_config__init(struct status_line_config *c, const struct record_opts *opts);

#endif
