/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_SYSINFO_BPF_H
#define PREC_SYSINFO_BPF_H
/*
 * The loaded BPF programs and their BTFs, as perf record keeps them for the
 * BPF_PROG_INFO and BPF_BTF features (and for the KSYMBOL/BPF_EVENT records
 * it synthesizes at start). Read from the live kernel with bpf(2) only.
 *
 * A program is kept in perf's "linear" form: struct bpf_prog_info whose array
 * fields (jited_ksyms, jited_func_lens, prog_tags, ...) hold byte offsets into
 * data instead of pointers, and data holding the arrays named by the arrays
 * mask, each padded to 8 bytes, in mask-bit order. The file stores exactly
 * that: {u32 info_len, u32 data_len, u64 arrays, info, data}.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/bpf.h>

struct sysinfo_bpf;

/* Bits of the arrays mask: perf's enum perf_bpil_array_types (bpf-utils.h). */
enum sysinfo_bpf_array {
	SYSINFO_BPF_JITED_INSNS,
	SYSINFO_BPF_XLATED_INSNS,
	SYSINFO_BPF_MAP_IDS,
	SYSINFO_BPF_JITED_KSYMS,
	SYSINFO_BPF_JITED_FUNC_LENS,
	SYSINFO_BPF_FUNC_INFO,
	SYSINFO_BPF_LINE_INFO,
	SYSINFO_BPF_JITED_LINE_INFO,
	SYSINFO_BPF_PROG_TAGS,
	SYSINFO_BPF_NR_ARRAYS,
};

/* What perf record 6.1 asks for (0x1f9): everything but xlated insns and map ids. */
#define SYSINFO_BPF_ARRAYS                                                         \
	((1ULL << SYSINFO_BPF_JITED_INSNS) | (1ULL << SYSINFO_BPF_JITED_KSYMS) |   \
	 (1ULL << SYSINFO_BPF_JITED_FUNC_LENS) | (1ULL << SYSINFO_BPF_FUNC_INFO) | \
	 (1ULL << SYSINFO_BPF_LINE_INFO) | (1ULL << SYSINFO_BPF_JITED_LINE_INFO) | \
	 (1ULL << SYSINFO_BPF_PROG_TAGS))

/*
 * info_len as the file says it: sizeof(struct bpf_prog_info) in perf 6.1's
 * build (up to attach_btf_id, padded to 8). perf rejects a larger one
 * ("detected invalid bpf_prog_info"), so this stays fixed whatever our
 * <linux/bpf.h> says; a shorter struct here is zero-padded.
 */
#define SYSINFO_BPF_INFO_LEN 232

/* One program. */
struct sysinfo_bpf_prog {
	struct bpf_prog_info info; /* array fields are offsets into data */
	uint64_t arrays; /* SYSINFO_BPF_* bits: the arrays data holds */
	uint8_t *data; /* data_len bytes (malloc'd; NULL when 0) */
	uint32_t data_len; /* a multiple of 8 */
};

/* One BTF object, the raw bytes the kernel returns (what libbpf's
 * btf__raw_data gives perf). */
struct sysinfo_btf {
	uint32_t id;
	uint32_t size;
	uint8_t *data; /* size bytes (malloc'd) */
};

struct sysinfo_bpf {
	struct sysinfo_bpf_prog *progs; /* ascending program id */
	uint32_t nr_progs;
	struct sysinfo_btf *btfs; /* ascending BTF id, no duplicates */
	uint32_t nr_btfs;
};

/*
 * Reads every loaded program (BPF_PROG_GET_NEXT_ID, BPF_PROG_GET_FD_BY_ID,
 * BPF_OBJ_GET_INFO_BY_FD) and the BTF of each one with BTF function info,
 * keeping what perf 6.1 keeps: jitted programs whose ksym, length and tag
 * counts agree. A program that vanishes or cannot be read is skipped (perf
 * stops at the first); no privilege or no bpf(2) gives an empty set.
 * Returns 0 and *out (never NULL on success; free with sysinfo_bpf__delete),
 * or -ENOMEM with *out NULL.
 */
int sysinfo__read_bpf(struct sysinfo_bpf **out);

/* Whether the kernel says no BPF program is loaded (ENOENT from the first
 * BPF_PROG_GET_NEXT_ID); unknown (EPERM, no bpf(2)) counts as loaded. */
bool sysinfo__bpf_none_loaded(void);

/* Frees bpf, its programs and BTFs. Accepts NULL. */
void sysinfo_bpf__delete(struct sysinfo_bpf *bpf);

/*
 * Drops the programs and keeps the BTFs: what perf 6.1 writes with
 * --no-bpf-event (BPF_PROG_INFO count 0, BPF_BTF still filled). Accepts NULL.
 */
void sysinfo_bpf__clear_progs(struct sysinfo_bpf *bpf);

/* The BTF with this id, or NULL. */
const struct sysinfo_btf *sysinfo_bpf__find_btf(const struct sysinfo_bpf *bpf, uint32_t id);

/*
 * Points at n elements of elem_size bytes at offset off of prog->data, or
 * NULL when they do not fit inside data_len (or n is 0).
 */
const void *sysinfo_bpf_prog__array(const struct sysinfo_bpf_prog *prog, uint64_t off, uint32_t n,
				    size_t elem_size);

/*
 * The kernel symbol name of sub-program sub, as perf names it in KSYMBOL
 * records and "# bpf_prog_info" lines: "bpf_prog_<tag hex>" then "_<name>",
 * where name is the BTF function name when btf (the program's BTF, may be
 * NULL) has it, else info.name for a program without sub-programs, else "F".
 * Writes at most size bytes, NUL-terminated. Returns the length, or -EINVAL
 * when sub is not a sub-program or its tag is missing.
 */
int sysinfo_bpf_prog__ksym_name(const struct sysinfo_bpf_prog *prog, const struct sysinfo_btf *btf,
				uint32_t sub, char *buf, size_t size);

/*
 * The name of BTF type id in a raw BTF blob (header, types, strings), or NULL
 * when the blob is malformed, the id is absent or the type has no name.
 * The string points into data.
 */
const char *sysinfo_btf__type_name(const void *data, size_t size, uint32_t id);

#endif
