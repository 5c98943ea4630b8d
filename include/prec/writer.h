/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_WRITER_H
#define PREC_WRITER_H
/*
 * Bytes out: a seekable perf.data. Knows nothing of perf_event_open; the
 * recorder hands it attrs with their ids, record bytes, and at the end the
 * metadata the feature sections are made of.
 *
 * Lifecycle: writer__open -> writer__begin -> writer__write/writev ... ->
 * writer__finish (valid file) or writer__abort (the file it created removed).
 *
 * A file is readable at every instant: while the data grows, its header
 * says the size of the data up to a recent whole record (rewritten about
 * every second or 4 MB), and a failed write or end keeps what was written
 * (writer__finish).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>
#include <linux/perf_event.h>

struct sysinfo;
struct writer;

/* One event as the file describes it. The writer copies nothing: the pointers
 * must stay valid until writer__finish/abort returns. */
struct writer_event {
	const struct perf_event_attr *attr; /* written as PREC_ATTR_SIZE bytes */
	const char *name;
	const uint64_t *ids;
	uint32_t nr_ids;
};

/* Everything the feature sections are built from, gathered by the recorder. */
struct writer_meta {
	const struct sysinfo *si;
	const struct writer_event *events; /* NULL: those given to writer__begin */
	uint32_t nr_events;
	const char *exe; /* first CMDLINE string: the recorder's own path */
	int argc; /* then argv[1..argc-1] */
	char *const *argv;
	const char *version; /* VERSION feature */
	uint64_t first_sample_time; /* SAMPLE_TIME; both 0 when no sample had a time
				     * (written as zeros all the same, as perf does) */
	uint64_t last_sample_time;

	/* CLOCKID and CLOCK_DATA: written only when use_clockid (-k). */
	bool use_clockid;
	int32_t clockid;
	uint64_t clockid_res_ns; /* clock_getres; CLOCKID is left out when 0 */
	uint64_t clock_tod_ns; /* gettimeofday and the clock, read back to back */
	uint64_t clock_clockid_ns;

	/* GROUP_DESC: written only when nr_groups > 0 (event groups). */
	const struct writer_group *groups;
	uint32_t nr_groups;

	/* BRANCH_STACK: an empty section, written only with -b/-j. */
	bool branch_stack;

	/* COMPRESSED: written only when compressed (-z). */
	bool compressed;
	uint32_t comp_level;
	uint32_t comp_ratio; /* original bytes / compressed bytes, rounded */
	uint32_t comp_mmap_len; /* ring bytes per CPU the reader must be ready for */

	/* DIR_FORMAT: written only for directory output (dir_version > 0). */
	uint64_t dir_version;

	/* TRACING_DATA: perf's tracing-data blob (tracefs headers, the formats
	 * of the recorded tracepoints, kallsyms, printk formats, saved cmdlines);
	 * written only when tracing_data_len > 0 (tracepoint events). */
	const void *tracing_data;
	size_t tracing_data_len;

	/* AUXTRACE: the file offsets and sizes of AUXTRACE records, when any. */
	const struct writer_auxtrace_entry *auxtrace;
	uint32_t nr_auxtrace;

	/* BUILD_ID: the DSOs samples hit, in the order written; the feature is
	 * left out when there are none (as perf when it finds no build-id). */
	const struct writer_buildid *buildids;
	uint32_t nr_buildids;
};

/* One event group for GROUP_DESC. */
struct writer_group {
	const char *name; /* NULL: perf's "{anon_group}" */
	uint32_t leader_idx; /* index of the leader in the events */
	uint32_t nr_members;
};

/* One HEADER_BUILD_ID record: a DSO and its build-id. */
struct writer_buildid {
	int32_t pid; /* the machine's pid: -1 for every DSO of the host */
	uint16_t misc; /* PERF_RECORD_MISC_KERNEL (kernel, modules) or _USER; the
			* size bit is added by the writer */
	uint8_t size; /* 1..20 */
	uint8_t id[20];
	const char *filename; /* "[kernel.kallsyms]", "[vdso]", a path */
	/* Where the build-id cache reads the file's bytes when filename may
	 * not hold them (a container's file, one deleted or replaced since it
	 * was mapped: "/proc/self/fd/N"); NULL: filename. Not in the file. */
	const char *source;
};

/* One entry of the AUXTRACE index. */
struct writer_auxtrace_entry {
	uint64_t file_offset;
	uint64_t size;
};

/*
 * Creates the output file at path with mode 0600. An existing non-empty
 * regular file is first renamed to "<path>.old" (replacing an older
 * recording there, never a directory, FIFO or device: -EISDIR, -EEXIST), as
 * perf does; -EBUSY when another prec holds the file at path, which is then
 * left as it is. The new file is locked (flock) for as long as it is open.
 * A character device that can seek (/dev/null) is written as it is. Returns 0 and *out, or a negative errno: -ESPIPE for a FIFO, a socket
 * or a device that cannot seek (a perf.data file is patched at the end; -o -
 * is the stream), -ENOTSUP for a block device; on error nothing was created
 * or renamed. The caller owns *out until writer__finish or writer__abort.
 */
int writer__open(struct writer **out, const char *path);

/*
 * --timestamp-filename: the file w writes moves to final while w still has
 * it open and locked (so a second prec given the same -o is refused until
 * the name is free, and never has its own file renamed); writer__path says
 * final from then on. 0 or -errno (nothing moved); -EINVAL for a stream.
 */
int writer__rename(struct writer *w, const char *final);

/*
 * --switch-output: as writer__rename, then *next is a new file at w's old
 * path (writer__open), both under one claim of the directory, so that no
 * other prec can take the path between the two. 0, or -errno with *next
 * NULL: w is at final already when writer__path(w) says so (the new file
 * failed), else the move failed and nothing changed.
 */
int writer__rotate(struct writer *w, const char *final, struct writer **next);

/*
 * Pipe mode (`-o -`): a stream on fd, laid out as perf record's pipe output.
 * Nothing is renamed, patched or removed; writer__finish closes fd. 0 and
 * *out, or -EBADF for a closed fd, -ENOMEM.
 */
int writer__open_pipe(struct writer **out, int fd);

/* Whether w writes a stream (writer__open_pipe). */
bool writer__is_pipe(const struct writer *w);

/*
 * Pipe mode, right after writer__begin: the HEADER_FEATURE records for the
 * features perf sends in a pipe (built from meta, so from what is known at
 * the start), the end marker, then the tracing data. A feature too large
 * for one record is split or reduced (reported under -v). 0 or -errno; -EINVAL
 * in file mode, where features come at writer__finish.
 */
int writer__send_features(struct writer *w, const struct writer_meta *meta);

/*
 * Writes the provisional header, every event's ids and the attr section; the
 * data section starts right after. Returns 0 or a negative errno.
 */
int writer__begin(struct writer *w, const struct writer_event *events, uint32_t nr_events);

/* Appends len bytes of records to the data section (buffered). 0 or -errno
 * (-EINVAL before writer__begin). After a write error every later write and
 * writer__finish return that error: the data section is torn. */
int writer__write(struct writer *w, const void *buf, size_t len);

/*
 * Appends cnt spans of records with as few syscalls as possible, straight from
 * the caller's memory (the ring mapping): nothing is copied. Returns 0 when all
 * bytes are written, or a negative errno.
 */
int writer__writev(struct writer *w, const struct iovec *iov, int cnt);

/*
 * Ring data for the data section (compressed into PERF_RECORD_COMPRESSED
 * records after writer__set_compression); with marker, the last span is not
 * ring data but a record written as it is (FINISHED_ROUND). Otherwise as
 * writer__writev. 0 or -errno.
 */
int writer__writev_ring(struct writer *w, const struct iovec *iov, int cnt, bool marker);

/*
 * -z: compress the ring data from now on, at zstd level 1..22; mmap_len is
 * the COMPRESSED feature's buffer size (ring bytes + a page), which a file
 * also carries in its data from now on (a HEADER_FEATURE record) so that it
 * reads when it is cut short. 0, or -EINVAL for a bad level or a second
 * call (-ENOMEM folds into it), or the write's -errno.
 */
int writer__set_compression(struct writer *w, int level, uint32_t mmap_len);

/*
 * --aio: from now on the data section's spans (ring data, COMPRESSED
 * records) are copied into nr blocks and written asynchronously; finish and
 * abort wait for them. A file only. 0, -EINVAL (a pipe, a second call, nr
 * < 1) or -ENOMEM.
 */
int writer__set_aio(struct writer *w, int nr);

/* -z: ring bytes compressed so far, and the bytes of COMPRESSED records they made. */
void writer__compression_stats(const struct writer *w, uint64_t *in, uint64_t *out);

/* Writes out what is buffered and rewrites the header with the data size
 * now (no features), as the writes do now and then by themselves: a file
 * whose front is written reads from here on. 0 or -errno; nothing for a
 * stream. */
int writer__commit(struct writer *w);

/*
 * Writes the features after the data as finish would, from meta as it is
 * now, and the header with their bits, keeping w open: for a file that
 * takes no more data for a long time (--threads' data file while the
 * streams record), so that it reads whole if the recording dies meanwhile.
 * The next write goes over them; writer__finish writes them again. 0 or
 * -errno; nothing for a stream.
 */
int writer__checkpoint(struct writer *w, const struct writer_meta *meta);

/* Whether a write of w failed (a full disk, the file size limit): the data
 * section ends early and writer__finish keeps what it holds. */
bool writer__failed(const struct writer *w);

/* For a file whose write failed (writer__failed): records that
 * writer__finish's salvage puts right after the data it keeps, before the
 * features, cutting the data back further to make room for them (the
 * side-band its samples need, which the failure kept out). Copied; a
 * second call replaces the first. 0, -EINVAL (not such a file) or
 * -ENOMEM. */
int writer__keep_tail(struct writer *w, const void *buf, size_t len);

/* Bytes in the data section so far, buffered ones included. */
uint64_t writer__data_size(const struct writer *w);

/* Bytes of the whole file so far (header, attrs, data). */
uint64_t writer__file_size(const struct writer *w);

/*
 * Pipe mode: writes a HEADER_BUILD_ID record per meta build-id, flushes and
 * closes the stream. File mode:
 * Flushes the data, writes the feature sections perf record writes for this
 * recording (a feature whose data is missing is left out, its bit cleared),
 * rewrites the header with the final sizes and bits, closes and frees w.
 * meta may be NULL (HOSTNAME is then written empty; it is always written).
 * Returns 0 or a negative errno. On error after writer__begin, what was
 * written is kept and made readable: the data cut at the last whole record,
 * the features after it when they fit (the data cut back a little to make
 * room, else none), the header rewritten; a stream into a regular file is
 * cut at its last whole record. Before writer__begin, or for a device, it
 * is undone as writer__abort does. w is freed in all cases.
 */
int writer__finish(struct writer *w, const struct writer_meta *meta);

/*
 * Closes the file and frees w. A regular file that writer__open created is
 * removed (by its name, only while the name still holds it); an existing
 * empty one it wrote into is emptied again; a device (/dev/null) or a stream
 * is left alone. Accepts NULL.
 */
void writer__abort(struct writer *w);

/* The output path the writer was opened with (owned by w). */
const char *writer__path(const struct writer *w);

#endif
