/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_RECORDER_OPTIONS_PERFCONFIG_H
#define PREC_RECORDER_OPTIONS_PERFCONFIG_H
/*
 * perf's configuration, read as perf 6.1 reads it for `perf record`, so the
 * settings a user made for perf hold for prec too. Read once at start-up
 * (main.c), applied before the command line (options__parse_with), which
 * wins.
 *
 * The files (perf's util/config.c): $PERF_CONFIG alone when it is set (""
 * or /dev/null: none); else /etc/perfconfig unless $PERF_CONFIG_NOSYSTEM,
 * then ~/.perfconfig unless $PERF_CONFIG_NOGLOBAL (skipped when empty, or
 * owned by someone other than the user or root; a line perf cannot read in
 * /etc/perfconfig skips it too). A later file's setting replaces an
 * earlier one's value and keeps its place: perf's set is applied in the
 * order names first appeared, grouped by section, in two passes (perf's
 * defaults, then perf record's own keys).
 *
 * The keys perf record 6.1 reads and prec honours:
 *   record.build-id          cache | no-cache (-N) | skip (-B) | mmap (--buildid-mmap)
 *   record.call-graph        what -g records, as call-graph.record-mode (wins over it)
 *   record.aio               --aio's count: <0 none, 0 one, at most 4 (perf's rules)
 *   record.debuginfod        --debuginfod's URLs ("system": $DEBUGINFOD_URLS)
 *   call-graph.record-mode   what -g records: fp, dwarf[,SIZE] or lbr
 *   call-graph.dump-size     the dwarf stack dump size for -g
 *   core.proc-map-timeout    --proc-map-timeout's milliseconds
 *   buildid.dir              the build-id cache's directory
 * and prec's own, in a section perf ignores:
 *   prec.names-cache-max     --names-cache-max's size (B/K/M/G; 0 no cap)
 * Other keys are ignored (perf's other commands read them).
 */
#include <stdbool.h>
#include <stddef.h>

#include "prec/error.h"
#include <stdint.h>

struct record_opts;

#define PERFCONFIG_SYSTEM "/etc/perfconfig" /* perf's $(sysconfdir)/perfconfig on Debian */
#define PERFCONFIG_MAX_FILES 2
#define PERFCONFIG_MAX_WARNINGS 4
#define PERFCONFIG_WARNING_LEN 512

enum perfconfig_buildid {
	PERFCONFIG_BUILDID_UNSET,
	PERFCONFIG_BUILDID_CACHE,
	PERFCONFIG_BUILDID_NO_CACHE,
	PERFCONFIG_BUILDID_SKIP,
	PERFCONFIG_BUILDID_MMAP,
};

/* One name of perf's set. */
struct perfconfig_item {
	char *var; /* "section.name" as perf spells it */
	size_t section_len; /* bytes of var before its first '.' */
	char *value;
	int file; /* the file that set it last: an index into files */
	int line; /* and on which line */
};

struct perfconfig {
	struct perfconfig_item *items; /* perf's set, in first-appearance order */
	size_t nr_items, items_cap;
	size_t *index; /* the items by name (perfconfig.c); index_cap a power of 2 */
	size_t index_cap;
	char *files[PERFCONFIG_MAX_FILES]; /* the names of the files read */
	int nr_files;
	/* What prec takes from the set (perfconfig__resolve). */
	int buildid; /* enum perfconfig_buildid */
	int callchain_mode; /* -g's enum callchain_mode; CALLCHAIN_NONE: not set (fp) */
	uint32_t callchain_dump; /* -g's dwarf dump size; 0: not set (8192) */
	/* fp,N's depth: every callchain's, whatever its mode (perf keeps it when
	 * a later key names another mode); 0: not set (the sysctl's) */
	uint32_t callchain_max_stack;
	int aio; /* record.aio: -1 not set, 0 none, else the count (1..PREC_AIO_MAX) */
	int debuginfod; /* record.debuginfod: -1 not set, 0 off (""), 1 on */
	const char *debuginfod_urls; /* on: its URLs, NULL for "system" */
	unsigned proc_map_timeout_ms; /* 0: not set */
	const char *buildid_dir; /* NULL: not set */
	uint64_t names_cache_max; /* prec.names-cache-max, when names_cache_max_set */
	bool names_cache_max_set;
	/* Lines to say once the log is set up (perf says them too): "prec: warning: " + each. */
	char warnings[PERFCONFIG_MAX_WARNINGS][PERFCONFIG_WARNING_LEN];
	int nr_warnings;
};

/* Where the files are and who reads them: the process's environment. */
struct perfconfig_env {
	const char *perf_config; /* $PERF_CONFIG; NULL unset */
	const char *nosystem; /* $PERF_CONFIG_NOSYSTEM */
	const char *noglobal; /* $PERF_CONFIG_NOGLOBAL */
	const char *home; /* $HOME */
	const char *system_path; /* PERFCONFIG_SYSTEM (the tests' fixture elsewhere) */
	unsigned euid;
};

/* An empty configuration: nothing set. */
void perfconfig__init(struct perfconfig *cfg);

/* Frees the set; cfg is empty again. */
void perfconfig__exit(struct perfconfig *cfg);

/* Reads env from this process's environment and euid. */
void perfconfig_env__read(struct perfconfig_env *env);

/*
 * Adds the settings of one file's text (name: its name, for the messages) to
 * the set, as perf collects a file. Pure. 0; -EINVAL when a line perf cannot
 * read ended it (a warning is added, the settings before the line stand);
 * -E2BIG past PERFCONFIG_MAX_FILES files, or -ENOMEM, with one line in e.
 * Any number of settings, as perf.
 */
int perfconfig__add_text(struct perfconfig *cfg, const char *name, const char *text, size_t len,
			 struct prec_err *e);

/*
 * The values prec uses from the set, in perf's order and passes. Pure. 0, or
 * -EINVAL with one line in e naming the file, line, key and the fix (a
 * value perf record refuses, or one prec cannot record with).
 */
int perfconfig__resolve(struct perfconfig *cfg, struct prec_err *e);

/*
 * Reads the files env names, with perf's rules (above), then resolves.
 * A file is opened without blocking and read only when it is a regular file
 * (or /dev/null): $PERF_CONFIG naming anything else (a FIFO, a terminal, a
 * directory) is refused, a system or user file that is not one is skipped
 * with a warning. 0, or -errno with one line in e (the caller exits).
 */
int perfconfig__load(struct perfconfig *cfg, const struct perfconfig_env *env, struct prec_err *e);

/* For the readers of the files (perfconfig_load.c): a warning line added
 * to cfg (at most PERFCONFIG_MAX_WARNINGS are kept), and an error line in
 * e; both made one line whatever the names in them hold. __error returns
 * ret. */
void perfconfig__warn(struct perfconfig *cfg, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int perfconfig__error(struct prec_err *e, int ret, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Sets opts' defaults from the resolved cfg, before the command line. */
void perfconfig__apply(const struct perfconfig *cfg, struct record_opts *opts);

#endif
