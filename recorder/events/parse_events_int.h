#ifndef PREC_RECORDER_PARSE_EVENTS_INT_H
#define PREC_RECORDER_PARSE_EVENTS_INT_H
/*
 * The -e grammar's internal interface, by layer, each using only those
 * before it: the shared state (pe_state.c), then cache names (hw_cache.c),
 * modifiers (parse_mods.c), terms (parse_terms.c) and the hybrid core PMUs'
 * events (pe_hybrid.c), then one event
 * (parse_event.c); parse_events.c, the entry, is declared in
 * prec/parse_events.h.
 */
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "events/parse_events.h"
#include "prec/pmu.h"

/* An event while its -e argument is being parsed. */
struct pe_event {
	struct event_spec spec; /* leader is an index into pe_state.ev until commit */
	bool exclude_GH; /* G or H was given: a group's u/p leave exclude_guest alone */
	bool bpf_counter; /* :b (perf stat only) */
	bool uncore_alias; /* a plain alias expanded over an uncore PMU's boxes */
};

struct pe_state {
	const char *str; /* the whole -e argument, for offsets */
	const struct parse_events_ctx *ctx;
	struct prec_err *e; /* the one line of a refusal; NULL: the code only */
	struct pe_event *ev;
	int nr_ev;
	/* Looked up once, when first needed. */
	bool sysfs_done, tracefs_done, pmus_done;
	int tracefs_err, pmus_err;
	const char *sysfs, *tracefs;
	char sysfs_buf[PATH_MAX], tracefs_buf[PATH_MAX];
	struct pmus pmus;
	/* Re-parsing the EVENT of cpu_core/EVENT/: the one core PMU it is for. */
	const char *hybrid_only;
	/* The first cache event no core PMU counts (dropped, as perf drops it). */
	size_t dropped_off, dropped_len;
};

/* pe_state.c: the state, errors, the event table, the symbol names. */

/*
 * Writes "<fmt ...> at offset OFF (<hint>)" into st->err (no hint: no
 * parentheses). Always returns -EINVAL, for `return pe_error(...)`.
 */
int pe_error(struct pe_state *st, size_t off, const char *hint, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#define LIST_HINT "see 'prec --list-events'"

/* The characters that end an event: the list's ',', the group's '}', the end. */
static inline bool is_delim(char c, bool in_group)
{
	return c == '\0' || c == ',' || (in_group && c == '}');
}

/* The symbolic event named by len bytes at name, or NULL. */
const struct pe_symbol *pe_symbol__find(const char *name, size_t len);

/* Whether len bytes at name name a tool event (duration_time, ...). */
bool pe_tool__is(const char *name, size_t len);

/* Frees what a spec owns (not the spec). */
void pe_spec__free(struct event_spec *spec);

/* Drops the events from index first on. */
void pe_state__truncate(struct pe_state *st, int first);

/* The tracefs root (looked up on first use), or NULL when there is none. */
const char *pe_state__tracefs(struct pe_state *st);

/* Sets attr to perf's defaults for a new event of type/config (host only). */
void pe_attr__init(struct perf_event_attr *attr, uint32_t type, uint64_t config);

/* Appends a new event with perf's attr defaults; NULL on ENOMEM. */
struct pe_event *pe_event__new(struct pe_state *st, uint32_t type, uint64_t config);

/* The PMUs below the sysfs root (loaded on first use); NULL when there are none. */
const struct pmus *pe_state__pmus(struct pe_state *st);

/* The symbolic events: hardware, software (perf's lexer names and aliases). */
struct pe_symbol {
	const char *name;
	const char *alias; /* NULL when none */
	const char *perf_name; /* the name perf derives from the attr, when not name */
	uint32_t type;
	uint64_t config;
};

extern const struct pe_symbol pe_symbols[];
extern const size_t pe_nr_symbols;

/* perf stat's tool events; perf record opens them as software dummies. */
extern const char *const pe_tool_events[];
extern const size_t pe_nr_tool_events;

/* A NULL context: the live roots, every event listed (no probe). */
extern const struct parse_events_ctx pe_live;

/* parse_terms.c: the terms between a PMU's slashes; pmu_terms.c: a PMU's. */

/* The term keywords perf 6.1 knows (parse-events.l's config state), and cpu= (6.16). */
enum pe_term_kind {
	PE_TERM_USER = 0, /* a format/ term or an alias of the PMU */
	PE_TERM_CONFIG,
	PE_TERM_CONFIG1,
	PE_TERM_CONFIG2,
	PE_TERM_NAME,
	PE_TERM_PERIOD,
	PE_TERM_FREQ,
	PE_TERM_BRANCH_TYPE,
	PE_TERM_TIME,
	PE_TERM_CALLGRAPH,
	PE_TERM_STACKSIZE,
	PE_TERM_NOINHERIT,
	PE_TERM_INHERIT,
	PE_TERM_MAX_STACK,
	PE_TERM_MAX_EVENTS,
	PE_TERM_NOOVERWRITE,
	PE_TERM_OVERWRITE,
	PE_TERM_PERCORE,
	PE_TERM_AUX_OUTPUT,
	PE_TERM_AUX_SAMPLE_SIZE,
	PE_TERM_METRIC_ID,
	PE_TERM_CPU, /* perf 6.16 */
	PE_TERM_MAX
};

struct pe_term {
	enum pe_term_kind kind;
	char *key; /* as written */
	char *str; /* string value, or NULL for a number */
	uint64_t num; /* numeric value; 1 for a bare term */
	bool no_value; /* a bare term */
	size_t off; /* offset in the -e argument, for errors */
};

struct pe_terms {
	struct pe_term *v;
	int nr;
};

/*
 * Parses the text between a pmu's slashes (len bytes at s, which starts at
 * offset off of the -e argument). alias, when not NULL, names the PMU
 * alias whose sysfs text this is (errors then say so). Returns 0 or
 * -EINVAL/-ENOMEM with st->err set.
 */
int pe_terms__parse(struct pe_state *st, const char *s, size_t len, size_t off, const char *alias,
		    struct pe_terms *out);

void pe_terms__exit(struct pe_terms *terms);

/* Appends term (taking what it owns); 0 or -ENOMEM. */
int pe_terms__push(struct pe_terms *t, struct pe_term *term);

/*
 * Applies the terms every event takes (config=, name=, period=, ...) to ev.
 * what names the event for errors ("cpu-clock", "tracepoint 'sched:x'");
 * tracepoint limits them to perf's tracepoint subset. PMU (user) terms are
 * an error unless pmu_terms_ok. 0 or -EINVAL/-ENOMEM.
 */
int pe_terms__apply_common(struct pe_state *st, struct pe_event *ev, const struct pe_terms *t,
			   const char *what, bool tracepoint, bool pmu_terms_ok);

/* Applies a PMU event's terms as perf: aliases, hard-coded terms, formats. */
int pe_terms__apply_pmu(struct pe_state *st, struct pe_event *ev, const struct pmu *pmu,
			const struct pe_terms *t);

/*
 * perf 6.1's parse_events__inside_hybrid_pmu: in cpu_core/cycles/ the one
 * term of a hybrid core PMU that is neither event= nor one of its aliases
 * is an event to parse again for that PMU alone. Returns that term's text,
 * or NULL.
 */
const char *pe_terms__hybrid_inner(const struct pmu *pmu, const struct pe_terms *t);

/* The valid-terms list perf prints, for a PMU (its formats first) or none. */
void pe_terms__valid(char *buf, size_t size, const struct pmu *pmu, bool tracepoint);

/* hw_cache.c: hardware cache event names. */

/*
 * A hardware cache event name (L1-dcache-load-misses, LLC-loads, ...).
 * Returns 1 and sets *config when word (len bytes) is one, 0 when it is
 * not, -EINVAL (st->err set, off for the message) when it names a cache
 * with an operation the cache lacks.
 */
int hw_cache__parse(struct pe_state *st, const char *word, size_t len, size_t off,
		    uint64_t *config);

/* Calls fn for every cache event perf lists (valid type/op/result). */
void hw_cache__for_each(void (*fn)(void *arg, const char *name, uint64_t config), void *arg);

/* pe_hybrid.c: the events of a hybrid machine's core PMUs (cpu_core, cpu_atom). */

/*
 * Adds type/config (a hardware symbol, TYPE:CONFIG, rNNN, or with cache a
 * cache event) as perf 6.1 does on a hybrid machine: one event per core PMU
 * (the one of st->hybrid_only), each with its pmu_name and cpus; a cache
 * event only where the context's probe says the PMU counts it (none at
 * all: len bytes at off are remembered for pe_hybrid__none_error).
 * Returns 0, 1 when it adds nothing because the machine is not hybrid or
 * the type is software (the caller adds the plain event), -ENOMEM.
 */
int pe_hybrid__add(struct pe_state *st, uint32_t type, uint64_t config, bool cache, size_t off,
		   size_t len);

/* The error when every event of an argument or group was such a cache event. */
int pe_hybrid__none_error(struct pe_state *st);

/* perf's record__uniquify_name: "cycles" of cpu_core is "cpu_core/cycles/". */
int pe_hybrid__uniquify(struct pe_state *st);

/* parse_mods.c: modifiers. */

/*
 * Reads modifiers at *p up to the event's end and applies them to the
 * events from first on, as their own (group false) or as their group's.
 */
int parse_mods(struct pe_state *st, size_t *p, int first, size_t ev_off, bool in_group, bool group);

/*
 * Checks len bytes of modifiers at s (offset off; the event starts at
 * ev_off) as perf does: known letters, each once but p, at most ppp.
 * 0 or -EINVAL with st->err set.
 */
int pe_mods__check(struct pe_state *st, const char *m, size_t len, size_t off, size_t ev_off);

/* Whether len bytes at s are all modifier letters (so sys:name is no tracepoint). */
bool pe_mods__all_letters(const char *s, size_t len);

/* parse_event.c: one event. */

/* Parses one event (with its terms and modifiers) at *p, leaving *p at its end. */
int parse_event(struct pe_state *st, size_t *p, bool in_group);

#endif
