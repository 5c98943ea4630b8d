#ifndef PREC_RECORDER_SYNTHESIZE_H
#define PREC_RECORDER_SYNTHESIZE_H
/*
 * Records perf record writes before the kernel's. Each function appends to
 * a synth_out (the writer, and what else must see the records) and returns
 * 0 or a negative errno (the writer's own errors pass through). Records
 * that describe a task carry a zeroed sample_id trailer of id_hdr_size
 * bytes, as perf's do.
 *
 * perf record 6.1 writes them in this order (its record__synthesize; ours is
 * synth__sideband, sideband.h), file mode:
 *   TIME_CONV            synth__time_conv
 *   ID_INDEX             synth__id_index / synth__id_index_entries
 *   kernel MMAP          synth__kernel_mmap   (unless the kernel is excluded)
 *   module MMAPs         synth__module_mmaps
 *   THREAD_MAP           synth__thread_map / synth__thread_map_n
 *   CPU_MAP              synth__cpu_map / synth__cpu_map_cpus
 *   KSYMBOL + BPF_EVENT  synth__bpf          (unless --no-bpf-event)
 *   CGROUP               synth__cgroups      (--all-cgroups)
 *   FORK/NAMESPACES/COMM/MMAP2 of existing tasks   synth__threads
 *   COMM (+NAMESPACES) of a forked workload         synth__comm / synth__namespaces
 *   FINISHED_INIT        synth__marker
 * Paths are relative to a proc directory ("/proc"; tests pass fixture trees).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct writer;

/*
 * Where synthesized records go: appended to writer, then shown to tap when
 * set (the output's build-id tracker: the records of a file's front tell it
 * what runs). A buffer may hold several records or part of one; they come
 * in file order. The writer itself calls nothing back.
 */
struct synth_out {
	struct writer *writer;
	void (*tap)(void *arg, const void *buf, size_t len);
	void *tap_arg;
	struct synth_buf *buf; /* set: records go here instead (no writer, no tap) */
	/* The DSO name of pid's anonymous executable memory (its JIT ELF,
	 * names/names.h), mapped with pgoff = start; NULL (or a NULL answer):
	 * perf's "//anon". */
	const char *(*anon_name)(void *arg, uint32_t pid);
	void *anon_arg;
};

/* Records kept in memory (a background synthesis worker's share), written
 * out later in one piece. Zeroed to start; synth_buf__exit frees it. */
struct synth_buf {
	char *data;
	size_t len, cap;
};

void synth_buf__exit(struct synth_buf *b);

/* A synth_out on w without a tap, for a caller that needs no other reader
 * (tests, tools); valid in the enclosing block. */
#define SYNTH_OUT(w) (&(struct synth_out){ .writer = (w) })

/* Appends len bytes of records (writer__write), then shows them to the
 * tap; with out->buf, appends them there. 0, -ENOMEM, or the writer's
 * -errno (the tap then sees nothing). */
int synth_out__write(struct synth_out *out, const void *buf, size_t len);

/* Zeroes the first size bytes of buf and fills in its record header (type,
 * misc, size): the start of every synthesized record. Returns buf. */
void *synth_record__init(void *buf, size_t size, uint32_t type, uint16_t misc);
struct evlist;
struct perf_event_mmap_page;
struct sysinfo_bpf;

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
 * MMAP "[kernel.kallsyms]_text" from _text to _edata (else _etext), pgoff
 * _text, as perf 6.6 and later do; proc_dir is "/proc" (tests pass a fixture). Returns 0, -ENOENT when
 * the symbols are missing, -EACCES when kptr_restrict hides the addresses.
 */
int synth__kernel_mmap(struct synth_out *w, const char *proc_dir, size_t id_hdr_size);

/* What synthesis needs from proc_dir/kallsyms, read in one pass. */
struct kallsyms_image {
	uint64_t addr;
	char name[128];
};

struct kallsyms_scan {
	uint64_t text, etext, edata;
	int have_text, have_etext, have_edata; /* _edata: only with KALLSYMS_ALL */
	struct kallsyms_image *images; /* BPF trampolines and dispatchers */
	size_t nr_images;
};

/* Reads proc_dir/kallsyms once. 0, -errno when it cannot be read, -ENOMEM. */
int kallsyms__scan(const char *proc_dir, struct kallsyms_scan *ks);

/*
 * The scan without reading all of proc_dir/kallsyms (kallsyms_cached.c): when
 * no BPF program is loaded and the build-id cache holds a kallsyms copy of
 * this kernel (sys_dir/kernel/notes), _etext and _edata come from the copy's
 * distances to _text. buildid_dir: perf's configured buildid.dir (NULL: none), for
 * buildid_cache__root. 0, or -EAGAIN: do the full kallsyms__scan.
 */
int kallsyms__scan_cached(const char *proc_dir, const char *sys_dir, const char *buildid_dir,
			  struct kallsyms_scan *ks);

/* _text, _etext and _edata in a kallsyms text (len bytes): 0, or -ENOENT when
 * _text or _etext is missing or zero. *edata is 0 when missing. */
int kallsyms__text_range(const char *buf, size_t len, uint64_t *text, uint64_t *etext,
			 uint64_t *edata);

/* kallsyms__text_range over the file at fd, read a window at a time (the
 * whole copy, ~5 MB, would be that much more resident for a moment). 0,
 * -ENOENT as kallsyms__text_range, or -errno of a read. */
int kallsyms__text_range_fd(int fd, uint64_t *text, uint64_t *etext, uint64_t *edata);

/* Frees the scan's images. */
void kallsyms_scan__exit(struct kallsyms_scan *ks);

/* synth__kernel_mmap from a scan. */
int synth__kernel_mmap_scan(struct synth_out *w, const struct kallsyms_scan *ks,
			    size_t id_hdr_size);

/* One MMAP per module in proc_dir/modules; 0 when there are none. */
int synth__module_mmaps(struct synth_out *w, const char *proc_dir, size_t id_hdr_size);

/* ---- index, maps of threads and CPUs, time conversion ---- */

/* One ID_INDEX entry: a sample id, its ring index, CPU and thread. */
struct synth_id {
	uint64_t id, idx, cpu, tid; /* cpu/tid (uint64_t)-1 for "any" */
};

/* Entries per ID_INDEX record: perf 6.1 leaves room for its guest entries,
 * (65535 - 16) / (32 + 16); any reader takes any count. */
#define SYNTH_ID_INDEX_MAX 1364

/*
 * PERF_RECORD_ID_INDEX for nr entries, split over as many records as needed
 * (SYNTH_ID_INDEX_MAX each, as perf 6.1 splits). nr 0 writes nothing.
 */
int synth__id_index_entries(struct synth_out *w, const struct synth_id *ids, size_t nr);

/*
 * ID_INDEX of every open fd of the evlist, event by event in [cpu][thread]
 * order as perf: idx is the ring index (evlist__ring_idx), cpu and tid come
 * from the CPUs and threads each evsel was opened on (a system-wide one's:
 * every online CPU, tid -1); for an evsel never opened, from evlist->cpus and
 * evlist->threads, and tid for every entry when the evlist has no thread map.
 * Ids of 0 (not open) are left out.
 */
int synth__id_index(struct synth_out *w, const struct evlist *evlist, pid_t tid);

/* PERF_RECORD_THREAD_MAP of one thread (comm left empty, as perf writes it). */
int synth__thread_map(struct synth_out *w, pid_t tid);

/*
 * PERF_RECORD_THREAD_MAP of nr threads, -1 meaning "any"; comms may be NULL
 * (empty, as perf record writes them) or nr names (15 chars kept). Past
 * 2729 threads (the u16 record size) the map is split into several
 * records, in order, each full but the last. -EINVAL for nr 0.
 */
int synth__thread_map_n(struct synth_out *w, const pid_t *tids, const char *const *comms,
			size_t nr);

/* Which PERF_RECORD_CPU_MAP encoding to choose. */
enum synth_cpu_map_form {
	/* The list, or the 64-bit mask when that is smaller (perf 5.x's choice):
	 * what every perf reads. */
	SYNTH_CPU_MAP_COMPAT,
	/* perf 6.1's choice: a range when the CPUs are consecutive, else the list
	 * or the 32-bit mask, whichever is smaller. Older perfs misread ranges. */
	SYNTH_CPU_MAP_PERF61,
};

/*
 * PERF_RECORD_CPU_MAP of nr ascending CPUs (-1, "any", only first) in the
 * given form. -EINVAL for nr 0 or CPUs not ascending / out of u16,
 * -E2BIG when no encoding fits one record.
 */
int synth__cpu_map_cpus(struct synth_out *w, const int *cpus, size_t nr,
			enum synth_cpu_map_form form);

/* PERF_RECORD_CPU_MAP of the evlist's CPUs, SYNTH_CPU_MAP_COMPAT. */
int synth__cpu_map(struct synth_out *w, const struct evlist *evlist);

/*
 * PERF_RECORD_TIME_CONV from a ring's control page, read under its seqlock
 * as perf does; time_cycles/time_mask and the cap bytes are copied as the
 * kernel set them. Writes nothing and returns 0 when the kernel does not
 * offer cap_user_time_zero (perf's rule) or pc is NULL; -EBUSY when the page
 * never held still.
 */
int synth__time_conv(struct synth_out *w, const struct perf_event_mmap_page *pc);

/* ---- task records ---- */

/* PERF_RECORD_COMM for pid/tid with a zeroed sample_id trailer. */
int synth__comm(struct synth_out *w, pid_t pid, pid_t tid, const char *comm, size_t id_hdr_size);

/* PERF_RECORD_FORK as perf synthesizes it (misc PERF_RECORD_MISC_FORK_EXEC,
 * time 0). */
int synth__fork(struct synth_out *w, pid_t pid, pid_t ppid, pid_t tid, pid_t ptid,
		size_t id_hdr_size);

/*
 * PERF_RECORD_NAMESPACES for pid/tid: dev and inode of each of
 * proc_dir/<tid>/ns/{net,uts,ipc,pid,user,mnt,cgroup}, zero where stat fails
 * (as perf). 0 or the writer's error.
 */
int synth__namespaces(struct synth_out *w, const char *proc_dir, pid_t pid, pid_t tid,
		      size_t id_hdr_size);

/* How synth__threads and synth__cgroups behave: perf record's options. */
struct synth_opts {
	size_t id_hdr_size; /* the sample_id trailer of the evlist */
	bool data_mmaps; /* -d: readable non-exec maps too, misc MMAP_DATA */
	bool no_mmaps; /* --synth=task: no MMAP2 at all */
	bool namespaces; /* --namespaces: a NAMESPACES record per thread */
	bool cgroups; /* --all-cgroups: CGROUP records of cgroup_mnt first */
	const char *cgroup_mnt; /* synth__cgroup_mount's answer; NULL: no CGROUP */
	const char *hugetlbfs_mnt; /* maps below it become "//anon" + MAP_HUGETLB */
	uint64_t proc_map_timeout_ns; /* per process; 0: perf's 500 ms */
	bool build_ids; /* --buildid-mmap: MMAP2 records carry the files' build-ids */
};

/*
 * The records of existing tasks, /proc read once, in perf's order:
 *
 * tids NULL (system-wide, perf_event__synthesize_threads): every process in
 * proc_dir, readdir order; for each thread of proc_dir/PID/task: FORK (the
 * leader's parent is PPid, a thread's is the leader), NAMESPACES, COMM; after
 * the leader's COMM the MMAP2 of its maps, except for kernel threads.
 *
 * tids given (-p/-t: the thread map, perf_event__synthesize_thread_map): for
 * each tid, COMM (pid = its Tgid), NAMESPACES, and the MMAP2s when it leads
 * its process; a thread whose leader is not listed brings the leader's
 * records after it (each time, as perf). No FORK, as perf. Entries <= 0
 * (the -1 of "any thread") are skipped.
 *
 * With opts->cgroups and a cgroup_mnt, the CGROUP tree (synth__cgroups) is
 * written first, as perf writes it just before the tasks.
 *
 * MMAP2 (perf_event__synthesize_mmap_events): executable maps of
 * proc_dir/PID/task/PID/maps, and readable data maps with data_mmaps (misc
 * PERF_RECORD_MISC_USER, | MMAP_DATA for those); filename as the file says
 * (" (deleted)" kept), "//anon" when there is none.
 *
 * A task that vanishes mid-read, or whose files cannot be read, is skipped
 * (what was written of it stays); unlike perf, an unreadable leader's maps
 * do not cost the records of its other threads, and a vanished listed
 * thread does not end the synthesis. Returns 0, -ENOENT/-EACCES when proc_dir
 * itself cannot be listed, -ENOMEM, or the writer's error.
 */
int synth__threads(struct synth_out *w, const char *proc_dir, const pid_t *tids, size_t nr,
		   const struct synth_opts *opts);

/* synth__threads' system-wide records one process at a time, as if the
 * walk of proc_dir had met only those given, for a caller that chooses the
 * next one as it goes (the background walk reads sampled processes first).
 * No CGROUP records. synth_walk__new (0, -E2BIG for an id_hdr_size over
 * the maximum, -ENOMEM, or -errno when proc_dir cannot be opened) ->
 * synth_walk__process (0 for a process gone meanwhile, -ENOMEM or the
 * writer's -errno) -> synth_walk__delete (accepts NULL). */
struct synth_walk;
int synth_walk__new(struct synth_walk **out, struct synth_out *w, const char *proc_dir,
		    const struct synth_opts *opts);
int synth_walk__process(struct synth_walk *wk, pid_t pid);
void synth_walk__delete(struct synth_walk *wk);

/*
 * Where perf looks for cgroups: the cgroup v1 hierarchy with the perf_event
 * controller, else the cgroup2 mount, from proc_dir/mounts. Returns 0 and the
 * mount point in buf, -ENOENT when there is none, -ENAMETOOLONG.
 */
int synth__cgroup_mount(const char *proc_dir, char *buf, size_t len);

/* The first hugetlbfs mount in proc_dir/mounts, as synth__cgroup_mount. */
int synth__hugetlbfs_mount(const char *proc_dir, char *buf, size_t len);

/*
 * PERF_RECORD_CGROUP for mnt and every directory below it, depth first in
 * readdir order: id the directory's inode (the kernfs id, what perf's file
 * handle holds on 64-bit), path from mnt ("/", "/a", "/a/b"). A directory
 * that vanishes is skipped. 0, -errno when mnt cannot be read, or the
 * writer's error.
 */
int synth__cgroups(struct synth_out *w, const char *mnt, size_t id_hdr_size);

/* ---- BPF ---- */

/* PERF_RECORD_KSYMBOL (name truncated to 511 chars). */
int synth__ksymbol(struct synth_out *w, uint64_t addr, uint32_t len, uint16_t ksym_type,
		   uint16_t flags, const char *name, size_t id_hdr_size);

/* PERF_RECORD_BPF_EVENT. */
int synth__bpf_event(struct synth_out *w, uint16_t type, uint16_t flags, uint32_t id,
		     const uint8_t tag[8], size_t id_hdr_size);

/*
 * What perf_event__synthesize_bpf_events writes: for every program of bpf
 * (may be NULL), one KSYMBOL per jitted sub-program named as perf names it,
 * then one BPF_EVENT PROG_LOAD with the program's id and tag; then a KSYMBOL
 * of one page for each BPF trampoline and dispatcher in proc_dir/kallsyms.
 * Programs without jitted symbols are skipped. 0 or the writer's error.
 */
/* synth__bpf from a scan (NULL: no BPF images). */
int synth__bpf_scan(struct synth_out *w, const struct sysinfo_bpf *bpf,
		    const struct kallsyms_scan *ks, size_t id_hdr_size);

int synth__bpf(struct synth_out *w, const struct sysinfo_bpf *bpf, const char *proc_dir,
	       size_t id_hdr_size);

/* ---- end ---- */

/*
 * PERF_RECORD_LOST_SAMPLES for every fd whose read_format LOST count is not
 * zero (samples the kernel dropped), as perf 6.1 writes them at the end.
 * *total is their sum.
 */
int synth__lost_samples(struct synth_out *w, const struct evlist *evlist, pid_t pid,
			uint64_t *total);

/* A payload-less user record (FINISHED_INIT, FINISHED_ROUND). */
int synth__marker(struct synth_out *w, uint32_t type);

/* synthesize_pipe.c */

/* An EVENT_UPDATE NAME for every event with an open fd, by its first id. */
int synth__event_update_names(struct synth_out *w, const struct evlist *evlist);

/* synth_buildid.c: --buildid-mmap */

struct build_id;
struct prec_mmap2_event;

/* Puts bid where ev's maj, min, ino and ino_generation are (u8 size, 3
 * reserved bytes, 20 id bytes) and sets PERF_RECORD_MISC_MMAP_BUILD_ID. */
void synth__mmap2_set_build_id(struct prec_mmap2_event *ev, const struct build_id *bid);

/* The build-ids of mapped files, read once per file (maj, min, ino). Zeroed
 * to start; synth_bids__exit frees it. */
struct synth_bids {
	struct synth_bid_slot *slots; /* allocated on the first file */
	uint32_t nr;
};

void synth_bids__exit(struct synth_bids *b);

/*
 * The build-id of the file ev maps (ev->pid's, read below procfd/PID/root,
 * and only while that path holds the mapped inode) put in ev; ev stays as it
 * is for anonymous memory, "[...]" maps and files without a readable id.
 */
void synth_bids__fill(struct synth_bids *b, int procfd, struct prec_mmap2_event *ev);

/*
 * --buildid-mmap's forms of synth__kernel_mmap_scan and synth__module_mmaps:
 * MMAP2 records with the build-ids of sys_dir/kernel/notes and of each
 * module's notes (sys_dir NULL: "/sys"), as perf 6.1 synthesizes them; a
 * kernel or module whose id cannot be read gets an MMAP2 without one.
 */
int synth__kernel_mmap2_scan(struct synth_out *w, const struct kallsyms_scan *ks,
			     const char *sys_dir, size_t id_hdr_size);
int synth__module_mmap2s(struct synth_out *w, const char *proc_dir, const char *sys_dir,
			 size_t id_hdr_size);

#endif
