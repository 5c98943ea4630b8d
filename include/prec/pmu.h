#ifndef PREC_PMU_H
#define PREC_PMU_H
/*
 * sysfs PMUs as perf 6.1 reads them for -e: <sysfs>/bus/event_source/devices/
 * <pmu>/type, format/<term> ("config1:0-7,32") and events/<alias> (a term
 * list such as "event=0x3c,in_tx=1", with NAME.unit/.scale/.per-pkg/.snapshot
 * beside it). Plain reads of small files; no perf_event_open. Read by
 * sysinfo (sysinfo/pmu_events.c), the layer that owns machine facts, with the
 * same PMU directory reader as the PMU_MAPPINGS/PMU_CAPS features.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Where the PMUs live below the sysfs mount point. */
#define PMU_DEVICES_DIR "bus/event_source/devices"

/* The attr field a format term writes into. */
enum pmu_config_field { PMU_CONFIG = 0, PMU_CONFIG1, PMU_CONFIG2 };

struct pmu_format {
	char *name;
	enum pmu_config_field field;
	uint64_t bits; /* the field's bits the term's value is spread over, low first */
};

struct pmu_alias {
	char *name; /* as the file is named (lookups ignore case, as perf's) */
	char *terms; /* the file's text, trimmed */
	char *unit; /* NAME.unit, or NULL */
	char *scale; /* NAME.scale, or NULL */
	bool per_pkg; /* NAME.per-pkg says 1 */
	bool snapshot; /* NAME.snapshot says 1 */
};

struct pmu {
	char *name;
	uint32_t type; /* perf_event_attr.type */
	struct pmu_format *formats; /* sorted by name */
	int nr_formats;
	struct pmu_alias *aliases; /* sorted by name */
	int nr_aliases;
	bool is_core; /* "cpu", or a core PMU that names its CPUs (hybrid, arm) */
	bool is_uncore; /* exports a cpumask: counters per socket or die, not per CPU */
	/*
	 * The PMU cannot sample, only count: an uncore-style PMU (it exports a
	 * cpumask) or msr. The kernel does not say so in sysfs, so this is the
	 * heuristic; the open still has the last word.
	 */
	bool counting_only;
	/*
	 * A hybrid core PMU's CPUs (perf 6.1: a "cpu_*" PMU whose cpus file
	 * starts with a CPU number; cpu_core, cpu_atom): that file's first
	 * line, e.g. "0-15". NULL for every other PMU.
	 */
	char *cpus;
	int dir_index; /* its place in the devices directory (readdir order) */
};

/* Every PMU of a sysfs tree, in natural name order (uncore_imc_2 before _10). */
struct pmus {
	struct pmu *v;
	int nr;
};

/*
 * Reads PMU name below sysfs (the mount point, e.g. "/sys"). Returns 0,
 * -ENOENT when there is no such PMU (or name is not a plain file name),
 * -EINVAL when its type file is unreadable, -ENOMEM. Format and alias files
 * that cannot be read or parsed are skipped, as perf skips them. Free with
 * pmu__exit.
 */
int pmu__load(struct pmu *pmu, const char *sysfs, const char *name);

/* Whether PMU name is below sysfs (the mount point): its directory exists.
 * Reads nothing else. */
bool pmu__exists(const char *sysfs, const char *name);

/* Frees what pmu__load allocated; accepts a zeroed or already freed pmu. */
void pmu__exit(struct pmu *pmu);

/*
 * Reads every PMU below sysfs. Returns 0 (PMUs that cannot be read are
 * left out), -ENOENT when the devices directory is missing, -ENOMEM. Free
 * with pmus__exit.
 */
int pmus__load(struct pmus *pmus, const char *sysfs);

/* Frees every PMU; accepts an empty set. */
void pmus__exit(struct pmus *pmus);

/* The PMU named name, or NULL. */
const struct pmu *pmus__find(const struct pmus *pmus, const char *name);

/*
 * The hybrid core PMUs (cpus set) in perf 6.1's order, the devices
 * directory's: the first one after prev (NULL: the first of all), or NULL
 * when there is none left.
 */
const struct pmu *pmus__next_hybrid(const struct pmus *pmus, const struct pmu *prev);

/* The format term named name (exact, as perf), or NULL. */
const struct pmu_format *pmu__format(const struct pmu *pmu, const char *name);

/* The alias named name, ignoring case as perf does, or NULL. */
const struct pmu_alias *pmu__alias(const struct pmu *pmu, const char *name);

/*
 * Parses a format file's text ("config:0-7", "config1:0-15,32-35",
 * "config2:5"; surrounding white space allowed). Returns 0 or -EINVAL.
 */
int pmu_format__parse(const char *text, enum pmu_config_field *field, uint64_t *bits);

/* The largest value a format with these bits holds (perf's check). */
uint64_t pmu_format__max(uint64_t bits);

/*
 * ORs value into *config over the format's bits, low value bit into the
 * lowest format bit, as perf 6.1 does (it never clears bits another term set).
 */
void pmu_format__apply(uint64_t bits, uint64_t value, uint64_t *config);

/*
 * perf's PMU-name shorthand: true when pmu_name is tok followed by nothing
 * or by an optional '_' and digits only ("imc" -> "imc_0"); an "uncore_"
 * prefix of pmu_name is ignored unless tok has it too.
 */
bool pmu__name_matches(const char *pmu_name, const char *tok);

#endif
