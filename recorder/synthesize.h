#ifndef PREC_RECORDER_SYNTHESIZE_H
#define PREC_RECORDER_SYNTHESIZE_H
/*
 * Records perf record writes before the kernel's own: kernel and module
 * maps, the id index, thread and cpu maps, the workload's COMM, FINISHED_INIT.
 * Each appends to the writer; 0 or a negative errno.
 */
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct writer;
struct evlist;

/* One parsed /proc/kallsyms line. */
struct ksym {
	uint64_t addr;
	char type;
	const char *name; /* points into the line; NUL-terminated by the parser */
	size_t name_len;
};

/* Parses "ffffffff81000000 T _text\t[mod]" in place (the line is modified). Pure.
 * Returns 0 or -EINVAL. */
int kallsyms__parse_line(char *line, struct ksym *sym);

/* One parsed /proc/modules line: name, size and load address. Pure. */
int modules__parse_line(const char *line, char *name, size_t name_len, uint64_t *size,
			uint64_t *addr);

/*
 * MMAP "[kernel.kallsyms]_text" from _text to _etext, pgoff _text, as perf
 * does; proc_dir is "/proc" (tests pass a fixture). Returns 0, -ENOENT when
 * the symbols are missing, -EACCES when kptr_restrict hides the addresses.
 */
int synth__kernel_mmap(struct writer *w, const char *proc_dir, size_t id_hdr_size);

/* One MMAP per module in proc_dir/modules; 0 when there are none. */
int synth__module_mmaps(struct writer *w, const char *proc_dir, size_t id_hdr_size);

/* PERF_RECORD_ID_INDEX: every id with its cpu index, cpu and thread. */
int synth__id_index(struct writer *w, const struct evlist *evlist, pid_t tid);

/* PERF_RECORD_THREAD_MAP of one thread (comm left empty, as perf writes it). */
int synth__thread_map(struct writer *w, pid_t tid);

/* PERF_RECORD_CPU_MAP of the evlist's CPUs. */
int synth__cpu_map(struct writer *w, const struct evlist *evlist);

/* PERF_RECORD_COMM for pid/tid with a zeroed sample_id trailer. */
int synth__comm(struct writer *w, pid_t pid, pid_t tid, const char *comm, size_t id_hdr_size);

/*
 * PERF_RECORD_LOST_SAMPLES for every fd whose read_format LOST count is not
 * zero (samples the kernel dropped), as perf 6.1 writes them at the end.
 * *total is their sum.
 */
int synth__lost_samples(struct writer *w, const struct evlist *evlist, pid_t pid,
			uint64_t *total);

/* A payload-less user record (FINISHED_INIT, FINISHED_ROUND). */
int synth__marker(struct writer *w, uint32_t type);

#endif
