#ifndef PREC_RECORDER_SYNTH_HINTS_H
#define PREC_RECORDER_SYNTH_HINTS_H
/*
 * Which processes the recording has samples of, told by the drains to the
 * background side-band's workers (hints.c), so that the /proc walk reads
 * their maps first: a process that existed before prec and exits while the
 * walk is still on its way to it would otherwise leave samples no map
 * resolves. Also the one place that knows, for each pid, whether the walk
 * listed it and whether a worker has taken it, so that no process is
 * synthesized twice, and which pids a cut file's side-band must keep.
 *
 * Any thread may call synth_hints__add (the drains: one per stream) while
 * the workers call synth_hints__take and synth_hints__claim; nothing here
 * allocates after synth_hints__new.
 */
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct synth_hints;

/* The kernel's PID_MAX_LIMIT on 64-bit machines: every pid is below it. */
#define SYNTH_HINTS_PID_LIMIT (1u << 22)
/* Pids queued for the workers at most; later ones wait for the walk. */
#define SYNTH_HINTS_QUEUE 4096

/* A set with nothing in it. 0 and *out (synth_hints__delete), or -ENOMEM. */
int synth_hints__new(struct synth_hints **out);

/* Frees h. Accepts NULL. */
void synth_hints__delete(struct synth_hints *h);

/* pid has samples: queued for the workers the first time (pids <= 0 or past
 * the limit are ignored). Thread-safe; cheap when pid was seen before. */
void synth_hints__add(struct synth_hints *h, pid_t pid);

/* Whether pid was added. */
bool synth_hints__has(const struct synth_hints *h, pid_t pid);

/* The walk's pids: only these are ever taken. Before any worker runs. */
void synth_hints__list(struct synth_hints *h, const pid_t *pids, size_t nr);

/* The next queued pid that the walk listed and no worker has claimed,
 * claimed now; 0 when there is none. Thread-safe. */
pid_t synth_hints__take(struct synth_hints *h);

/* Claims pid for the caller: true the first time only. Thread-safe. */
bool synth_hints__claim(struct synth_hints *h, pid_t pid);

/* The samples need no more hints (the side-band is in the file): the
 * drains' hooks stop looking. */
void synth_hints__close(struct synth_hints *h);
bool synth_hints__closed(const struct synth_hints *h);

#endif
