#ifndef PREC_RECORDER_SYNTH_BACKGROUND_H
#define PREC_RECORDER_SYNTH_BACKGROUND_H
/*
 * The slow part of the first file's side-band, synthesized beside the
 * recording (background.c) so that the command starts as soon as the events
 * are open: the kernel and module maps, BPF programs, CGROUPs, and the walk
 * over /proc of the targets' existing tasks, spread over worker threads,
 * each writing into its own memory buffer. The output writes the buffers,
 * in perf's order, from the drain's thread (the writer stays
 * single-threaded) and holds FINISHED_ROUND back until then, so that readers
 * have the side-band before they flush a sample of those tasks.
 *
 *   synth_bg__start -> (synth_bg__done between passes) -> synth_bg__finish
 *   -> synth_bg__delete; synth_bg__delete alone cancels.
 */
#include <stdbool.h>
#include <stdint.h>

struct evlist;
struct synth_config;
struct sysinfo;
struct wake;
struct synth_bg;
struct synth_out;
struct synth_buf;
struct synth_hints;

/* What the synthesis tells, and reads, beside its records. */
struct synth_bg_links {
	/* Poked when the synthesis is done (drain/wake.h; NULL: none), so
	 * the main loop leaves its ppoll. */
	struct wake *wake;
	/* The system-wide walk reads first the processes added to it
	 * (synth/hints.h; NULL: /proc's order only). */
	struct synth_hints *hints;
	/* Told, from a worker's thread, of each chunk's bytes as soon as
	 * they are made, long before synth_bg__finish writes them: a size
	 * limit counts them while the rings fill (NULL: none). */
	void (*made)(void *arg, uint64_t bytes);
	void *made_arg;
};

/* Starts the synthesis; evlist, si, cfg and what links names must outlive
 * it. The records name JIT code as like does (its anon_name; NULL:
 * "//anon"). 0 and *out (the caller's, synth_bg__delete), or -errno
 * (-ENOMEM, pthread_create's): nothing runs then. */
int synth_bg__start(struct synth_bg **out, const struct evlist *evlist, const struct sysinfo *si,
		    const struct synth_config *cfg, const struct synth_out *like,
		    const struct synth_bg_links *links);

/* Whether every worker is done (synth_bg__finish will not wait). */
bool synth_bg__done(const struct synth_bg *bg);

/* Waits for the workers (each process bounded by --proc-map-timeout), then
 * writes what they made to w in perf's order: kernel, modules, BPF,
 * CGROUP, tasks in /proc's order. 0, or the first error of a worker or of
 * w (the caller explains it). Once only. */
int synth_bg__finish(struct synth_bg *bg, struct synth_out *w);

/* What a file cut short must keep of the side-band when it cannot take it
 * all (output.h's abort): waits for the workers, then appends to out the
 * kernel's part whole and, of the tasks' records, those of the pids
 * keep(arg, pid) answers true for. Any time before synth_bg__delete, also
 * after a synth_bg__finish that failed (all of it again: the cut may have
 * taken what went in). 0 or -ENOMEM. */
int synth_bg__keep(struct synth_bg *bg, bool (*keep)(void *arg, uint32_t pid), void *arg,
		   struct synth_buf *out);

/* Cancels what still runs (between processes), joins and frees. Accepts
 * NULL. */
void synth_bg__delete(struct synth_bg *bg);

#endif
