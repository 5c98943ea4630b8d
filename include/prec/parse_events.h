#ifndef PREC_PARSE_EVENTS_H
#define PREC_PARSE_EVENTS_H
/*
 * The -e grammar -> event specs. Pure: no syscalls, no globals, so it can be
 * unit-tested and fuzzed.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

struct event_spec {
	char *name; /* as the user wrote it (perf keeps that as the event name) */
	struct perf_event_attr attr; /* type, config and the modifier bits */
	bool precise_max; /* :P, or the default event: highest precise_ip that opens */
	bool name_from_attr; /* recompute the name from the attr (default event) */
};

struct event_specs {
	struct event_spec *v;
	int nr;
};

/*
 * Parses one -e argument (a comma list of name[:modifiers]) and appends its
 * events to specs. Returns 0, or -EINVAL with one line in err naming the bad
 * token and what is accepted there. specs owns the names; free with
 * event_specs__exit.
 */
int parse_events(struct event_specs *specs, const char *str, char *err, size_t errlen);

/* Appends the default event (cycles:P as perf 6.1 chooses it). 0 or -ENOMEM. */
int parse_events__add_default(struct event_specs *specs);

/* Frees every spec. */
void event_specs__exit(struct event_specs *specs);

/*
 * Writes perf's name for an event from its attr: base name plus modifiers
 * (":u", ":pppH", ...) exactly as perf prints them. Returns the length.
 */
int event_name__from_attr(char *buf, size_t size, const char *base,
			  const struct perf_event_attr *attr);

/* The symbolic name of a software or hardware config ("cpu-clock"), or NULL. */
const char *event_name__symbol(uint32_t type, uint64_t config);

/* Prints the symbolic events this version accepts, for --help. */
void parse_events__print_known(void *stream);

#endif
