/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_OUTPUT_CONFIG_H
#define PREC_OUTPUT_CONFIG_H
/*
 * The part of the command line the output is configured from: filled once
 * from the final options (output_config__init, recorder/record_prepare.c),
 * read by output/ alone, so the output never sees the whole options struct.
 * Zero is "not asked for". --tail-synthesize is the side-band's
 * (synth_config.tail, output_src.synth).
 */
#include <stdbool.h>
#include <stdint.h>

struct output_config {
	/* Where. */
	const char *path; /* -o: the file or directory; "-" with pipe */
	bool pipe; /* a stream on standard output (-o -, or stdout a FIFO) */
	bool kcore; /* --kcore: a perf.data directory with kcore_dir/ */
	/* How the data goes in. */
	int comp_level; /* -z: zstd level 1..22 */
	int nr_cblocks; /* --aio: data writes in flight at once */
	/* When a file ends. */
	bool switch_output; /* --switch-output given (any mode) */
	uint64_t switch_size; /* --switch-output=SIZE: rotate at this many bytes */
	uint64_t switch_time_ms; /* --switch-output=TIME: rotate this often */
	int switch_max_files; /* --switch-max-files: rotated files kept; 0 all */
	bool timestamp_filename; /* --timestamp-filename (implied by --switch-output) */
	uint64_t max_size; /* --max-size: stop at this many output bytes */
	/* What the files say besides the records. */
	bool branch_stack; /* -b / -j: the BRANCH_STACK feature */
	const char *vmlinux; /* --vmlinux: the kernel's DSO name */
	/* Build-ids and names. */
	bool no_buildid; /* -B: no HEADER_BUILD_ID, no build-id cache */
	bool no_buildid_cache; /* -N: HEADER_BUILD_ID but no build-id cache */
	bool buildid_all; /* --buildid-all: every mapped DSO's build-id */
	bool buildid_mmap; /* --buildid-mmap: the ids travel in MMAP2 instead */
	bool keep_names; /* --keep-names (the default for files): names/ kept */
	uint64_t names_cache_max; /* --names-cache-max: prec's JIT ELFs in the cache; 0 unbounded */
	const char *buildid_dir; /* buildid.dir: the build-id cache; NULL: $HOME/.debug */
	const char *debuginfod_urls; /* --debuginfod's servers; NULL: not asked */
};

#endif
