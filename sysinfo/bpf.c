// SPDX-License-Identifier: GPL-2.0-only
/*
 * The loaded BPF programs and their BTFs, read with bpf(2) the way perf
 * record 6.1 reads them at start (util/bpf-event.c, util/bpf-utils.c), so
 * BPF_PROG_INFO and BPF_BTF say what perf's would. No libbpf: the steps are
 *   1. BPF_PROG_GET_NEXT_ID from 0 until ENOENT, BPF_PROG_GET_FD_BY_ID each;
 *   2. BPF_OBJ_GET_INFO_BY_FD once for the array sizes, once more with one
 *      zeroed buffer that holds every array perf asks for (the "linear"
 *      form), then the array pointers turned into offsets into that buffer;
 *   3. for a program with BTF function info, BPF_BTF_GET_FD_BY_ID and
 *      BPF_OBJ_GET_INFO_BY_FD for the raw BTF bytes, each BTF kept once.
 * The one caller of bpf(2) in prec (sys_bpf).
 */
#include "prec/bpf.h"
#include "prec/grow.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/btf.h>

/* A program or BTF we leave out: gone, unreadable, or not what perf keeps. */
#define SKIP 1

/* No sane program has this much jitted code and line info. */
#define MAX_DATA_LEN (256U << 20)

static int sys_bpf(int cmd, union bpf_attr *attr)
{
	return (int)syscall(__NR_bpf, cmd, attr, sizeof(*attr));
}

bool sysinfo__bpf_none_loaded(void)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.start_id = 0;
	return sys_bpf(BPF_PROG_GET_NEXT_ID, &attr) < 0 && errno == ENOENT;
}

static uint64_t ptr_u64(const void *p)
{
	return (uint64_t)(uintptr_t)p;
}

/*
 * Where each array of the linear form lives in struct bpf_prog_info: its
 * pointer, its element count, and either the field holding the record size
 * (rec) or a fixed element size (elem).
 */
struct array_desc {
	uint16_t ptr;
	uint16_t count;
	uint16_t rec; /* 0: fixed size (offset 0 is 'type', never a size) */
	uint16_t elem;
};

#define INFO_OFF(f) ((uint16_t)offsetof(struct bpf_prog_info, f))

static const struct array_desc array_desc[SYSINFO_BPF_NR_ARRAYS] = {
	[SYSINFO_BPF_JITED_INSNS] = { INFO_OFF(jited_prog_insns), INFO_OFF(jited_prog_len), 0, 1 },
	[SYSINFO_BPF_XLATED_INSNS] = { INFO_OFF(xlated_prog_insns), INFO_OFF(xlated_prog_len), 0,
				       1 },
	[SYSINFO_BPF_MAP_IDS] = { INFO_OFF(map_ids), INFO_OFF(nr_map_ids), 0, 4 },
	[SYSINFO_BPF_JITED_KSYMS] = { INFO_OFF(jited_ksyms), INFO_OFF(nr_jited_ksyms), 0, 8 },
	[SYSINFO_BPF_JITED_FUNC_LENS] = { INFO_OFF(jited_func_lens), INFO_OFF(nr_jited_func_lens),
					  0, 4 },
	[SYSINFO_BPF_FUNC_INFO] = { INFO_OFF(func_info), INFO_OFF(nr_func_info),
				    INFO_OFF(func_info_rec_size), 0 },
	[SYSINFO_BPF_LINE_INFO] = { INFO_OFF(line_info), INFO_OFF(nr_line_info),
				    INFO_OFF(line_info_rec_size), 0 },
	[SYSINFO_BPF_JITED_LINE_INFO] = { INFO_OFF(jited_line_info), INFO_OFF(nr_jited_line_info),
					  INFO_OFF(jited_line_info_rec_size), 0 },
	[SYSINFO_BPF_PROG_TAGS] = { INFO_OFF(prog_tags), INFO_OFF(nr_prog_tags), 0, BPF_TAG_SIZE },
};

/* The bpf_prog_info fields the array table names: u32 counts/sizes, u64 pointers. */
static uint64_t info_get(const struct bpf_prog_info *info, uint16_t off, size_t size)
{
	uint64_t v64 = 0;
	uint32_t v32 = 0;

	memcpy(size == 8 ? (void *)&v64 : (void *)&v32, (const uint8_t *)info + off, size);
	return size == 8 ? v64 : v32;
}

static void info_set(struct bpf_prog_info *info, uint16_t off, size_t size, uint64_t v)
{
	uint32_t v32 = (uint32_t)v;

	memcpy((uint8_t *)info + off, size == 8 ? (const void *)&v : (const void *)&v32, size);
}

static uint32_t info_u32(const struct bpf_prog_info *info, uint16_t off)
{
	return (uint32_t)info_get(info, off, 4);
}

static uint32_t elem_size(const struct bpf_prog_info *info, const struct array_desc *d)
{
	return d->rec ? info_u32(info, d->rec) : d->elem;
}

/* The kernel's bpf_prog_info (len bytes of it) has every field of d. */
static bool array_fits(uint32_t len, const struct array_desc *d)
{
	return len >= d->ptr + 8U && len >= d->count + 4U && (!d->rec || len >= d->rec + 4U);
}

static int obj_info(int fd, void *info, uint32_t *len)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.info.bpf_fd = (uint32_t)fd;
	attr.info.info_len = *len;
	attr.info.info = ptr_u64(info);
	if (sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr))
		return -errno;
	*len = attr.info.info_len;
	return 0;
}

/*
 * Fills p with the linear form of the program behind fd. Returns 0, SKIP
 * (p left empty) or -ENOMEM.
 */
static int read_prog(int fd, struct sysinfo_bpf_prog *p)
{
	struct bpf_prog_info sizes;
	uint64_t off[SYSINFO_BPF_NR_ARRAYS] = { 0 };
	uint64_t arrays = SYSINFO_BPF_ARRAYS, data_len = 0;
	uint32_t len = sizeof(sizes), len2;
	uint32_t nr_subs;

	memset(p, 0, sizeof(*p));
	memset(&sizes, 0, sizeof(sizes));
	if (obj_info(fd, &sizes, &len))
		return SKIP;

	for (int i = 0; i < SYSINFO_BPF_NR_ARRAYS; i++) {
		const struct array_desc *d = &array_desc[i];

		if (!(arrays & (1ULL << i)))
			continue;
		if (!array_fits(len, d)) { /* older kernel: perf drops the array too */
			arrays &= ~(1ULL << i);
			continue;
		}
		off[i] = data_len;
		data_len += ((uint64_t)info_u32(&sizes, d->count) * elem_size(&sizes, d) + 7) &
			    ~7ULL;
	}
	if (data_len > MAX_DATA_LEN)
		return SKIP;

	if (data_len) {
		p->data = calloc(1, data_len); /* zeroed: the padding goes to the file */
		if (!p->data)
			return -ENOMEM;
	}
	for (int i = 0; i < SYSINFO_BPF_NR_ARRAYS; i++) {
		const struct array_desc *d = &array_desc[i];

		if (!(arrays & (1ULL << i)))
			continue;
		info_set(&p->info, d->count, 4, info_u32(&sizes, d->count));
		if (d->rec)
			info_set(&p->info, d->rec, 4, info_u32(&sizes, d->rec));
		info_set(&p->info, d->ptr, 8, ptr_u64(p->data) + off[i]);
	}
	len2 = len;
	if (obj_info(fd, &p->info, &len2))
		goto skip;

	for (int i = 0; i < SYSINFO_BPF_NR_ARRAYS; i++) {
		const struct array_desc *d = &array_desc[i];

		if (!(arrays & (1ULL << i)))
			continue;
		/* A count that grew would leave the arrays short. */
		if (info_u32(&p->info, d->count) != info_u32(&sizes, d->count) ||
		    elem_size(&p->info, d) != elem_size(&sizes, d))
			goto skip;
	}

	/*
	 * perf keeps only programs whose addresses the kernel showed (it hides
	 * them from a reader without the right to raw dumps) and whose ksym,
	 * length and tag counts agree: the ones it can name.
	 */
	nr_subs = p->info.nr_jited_ksyms;
	if (!p->info.jited_ksyms || nr_subs != p->info.nr_prog_tags ||
	    nr_subs != p->info.nr_jited_func_lens)
		goto skip;

	for (int i = 0; i < SYSINFO_BPF_NR_ARRAYS; i++) {
		const struct array_desc *d = &array_desc[i];
		uint64_t addr;

		if (!(arrays & (1ULL << i)))
			continue;
		addr = info_get(&p->info, d->ptr, 8);
		info_set(&p->info, d->ptr, 8, addr ? addr - ptr_u64(p->data) : 0);
	}
	p->arrays = arrays;
	p->data_len = (uint32_t)data_len;
	return 0;
skip:
	free(p->data);
	memset(p, 0, sizeof(*p));
	return SKIP;
}

/* Fills b with the raw bytes of BTF id. Returns 0, SKIP or -ENOMEM. */
static int read_btf(uint32_t id, struct sysinfo_btf *b)
{
	union bpf_attr attr;
	uint8_t *buf = NULL;
	uint32_t cap = 0;
	int fd, ret = SKIP;

	memset(&attr, 0, sizeof(attr));
	attr.btf_id = id;
	fd = sys_bpf(BPF_BTF_GET_FD_BY_ID, &attr);
	if (fd < 0)
		return SKIP;

	/* The first pass asks the size; a BTF never changes, so the second fits. */
	for (int pass = 0; pass < 3; pass++) {
		struct bpf_btf_info info;
		uint32_t len = sizeof(info);
		uint8_t *nbuf;

		memset(&info, 0, sizeof(info));
		info.btf = ptr_u64(buf);
		info.btf_size = cap;
		if (obj_info(fd, &info, &len))
			break;
		if (buf && info.btf_size <= cap) {
			b->id = id;
			b->size = info.btf_size;
			b->data = buf;
			buf = NULL;
			ret = 0;
			break;
		}
		if (!info.btf_size || info.btf_size > MAX_DATA_LEN)
			break;
		nbuf = realloc(buf, info.btf_size);
		if (!nbuf) {
			ret = -ENOMEM;
			break;
		}
		buf = nbuf;
		cap = info.btf_size;
		/* The kernel fills it all; zeroed so tools that cannot see that
		 * (valgrind) see defined bytes. */
		memset(buf, 0, cap);
	}
	free(buf);
	close(fd);
	return ret;
}

const struct sysinfo_btf *sysinfo_bpf__find_btf(const struct sysinfo_bpf *bpf, uint32_t id)
{
	if (!bpf)
		return NULL;
	for (uint32_t i = 0; i < bpf->nr_btfs; i++) {
		if (bpf->btfs[i].id == id)
			return &bpf->btfs[i];
	}
	return NULL;
}

/* Adds BTF id in id order unless it is there. Returns 0, SKIP or -ENOMEM. */
static int add_btf(struct sysinfo_bpf *bpf, uint32_t id)
{
	struct sysinfo_btf b, *nb;
	uint32_t at = 0;
	int err;

	if (sysinfo_bpf__find_btf(bpf, id))
		return 0;
	err = read_btf(id, &b);
	if (err)
		return err;
	nb = realloc(bpf->btfs, (bpf->nr_btfs + 1) * sizeof(*nb));
	if (!nb) {
		free(b.data);
		return -ENOMEM;
	}
	bpf->btfs = nb;
	while (at < bpf->nr_btfs && nb[at].id < id)
		at++;
	memmove(&nb[at + 1], &nb[at], (bpf->nr_btfs - at) * sizeof(*nb));
	nb[at] = b;
	bpf->nr_btfs++;
	return 0;
}

/*
 * Reads program id into p, with its BTF added to bpf when it has BTF
 * function info. Returns 0, SKIP or -ENOMEM.
 */
static int read_one(struct sysinfo_bpf *bpf, uint32_t id, struct sysinfo_bpf_prog *p)
{
	const struct bpf_prog_info *info = &p->info;
	union bpf_attr attr;
	int fd, err;

	memset(&attr, 0, sizeof(attr));
	attr.prog_id = id;
	fd = sys_bpf(BPF_PROG_GET_FD_BY_ID, &attr);
	if (fd < 0)
		return SKIP; /* unloaded since GET_NEXT_ID, or not ours to open */
	err = read_prog(fd, p);
	close(fd);
	if (err)
		return err;

	/* As perf: one function info per sub-program, else no BTF and no program. */
	if (info->btf_id && info->nr_func_info && info->func_info_rec_size) {
		err = info->nr_func_info == info->nr_jited_ksyms ? add_btf(bpf, info->btf_id) :
								   SKIP;
		if (err) {
			free(p->data);
			memset(p, 0, sizeof(*p));
		}
	}
	return err;
}

int sysinfo__read_bpf(struct sysinfo_bpf **out)
{
	struct sysinfo_bpf *bpf;
	uint32_t id = 0;
	size_t cap = 0;

	*out = NULL;
	bpf = calloc(1, sizeof(*bpf));
	if (!bpf)
		return -ENOMEM;

	for (;;) {
		struct sysinfo_bpf_prog p;
		union bpf_attr attr;
		int err;

		memset(&attr, 0, sizeof(attr));
		attr.start_id = id;
		/* ENOENT: the last one. EPERM (no CAP_SYS_ADMIN), EINVAL/ENOSYS (no
		 * bpf(2)): nothing we may see, which is no error for perf either. */
		if (sys_bpf(BPF_PROG_GET_NEXT_ID, &attr))
			break;
		id = attr.next_id;

		/* Program ids are u32s: fewer programs than that. */
		if (grow__array(&bpf->progs, &cap, (size_t)bpf->nr_progs + 1, sizeof(*bpf->progs),
				16, UINT32_MAX))
			goto nomem;
		err = read_one(bpf, id, &p);
		if (err == -ENOMEM)
			goto nomem;
		if (err)
			continue; /* perf stops at the first such program; the rest still count */
		bpf->progs[bpf->nr_progs++] = p;
	}
	*out = bpf;
	return 0;
nomem:
	sysinfo_bpf__delete(bpf);
	return -ENOMEM;
}

void sysinfo_bpf__clear_progs(struct sysinfo_bpf *bpf)
{
	if (!bpf)
		return;
	for (uint32_t i = 0; i < bpf->nr_progs; i++)
		free(bpf->progs[i].data);
	free(bpf->progs);
	bpf->progs = NULL;
	bpf->nr_progs = 0;
}

void sysinfo_bpf__delete(struct sysinfo_bpf *bpf)
{
	if (!bpf)
		return;
	sysinfo_bpf__clear_progs(bpf);
	for (uint32_t i = 0; i < bpf->nr_btfs; i++)
		free(bpf->btfs[i].data);
	free(bpf->btfs);
	free(bpf);
}

const void *sysinfo_bpf_prog__array(const struct sysinfo_bpf_prog *prog, uint64_t off, uint32_t n,
				    size_t elem_size)
{
	uint64_t bytes = (uint64_t)n * elem_size;

	if (!n || !elem_size || !prog->data || off > prog->data_len || bytes > prog->data_len - off)
		return NULL;
	return prog->data + off;
}

/* Bytes that follow a struct btf_type of this kind, or -EINVAL for a kind we do not know. */
static int64_t btf_extra(uint32_t kind, uint32_t vlen)
{
	switch (kind) {
	case BTF_KIND_INT:
		return 4;
	case BTF_KIND_ARRAY:
		return 12; /* struct btf_array */
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		return 12LL * vlen; /* struct btf_member */
	case BTF_KIND_ENUM:
		return 8LL * vlen; /* struct btf_enum */
	case BTF_KIND_FUNC_PROTO:
		return 8LL * vlen; /* struct btf_param */
	case BTF_KIND_VAR:
		return 4;
	case BTF_KIND_DATASEC:
		return 12LL * vlen; /* struct btf_var_secinfo */
	case 17: /* BTF_KIND_DECL_TAG: struct btf_decl_tag */
		return 4;
	case 19: /* BTF_KIND_ENUM64: struct btf_enum64 */
		return 12LL * vlen;
	case BTF_KIND_PTR:
	case BTF_KIND_FWD:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_FUNC:
	case 16: /* BTF_KIND_FLOAT */
	case 18: /* BTF_KIND_TYPE_TAG */
		return 0;
	default:
		return -EINVAL;
	}
}

const char *sysinfo_btf__type_name(const void *data, size_t size, uint32_t id)
{
	const uint8_t *base = data;
	struct btf_header h;
	uint64_t types, strs, pos = 0;
	uint32_t cur = 1;

	if (!data || size < sizeof(h) || !id)
		return NULL;
	memcpy(&h, base, sizeof(h));
	if (h.magic != BTF_MAGIC || h.hdr_len < sizeof(h) || h.hdr_len > size)
		return NULL;
	types = (uint64_t)h.hdr_len + h.type_off;
	strs = (uint64_t)h.hdr_len + h.str_off;
	if (types + h.type_len > size || strs + h.str_len > size)
		return NULL;

	while (pos + sizeof(struct btf_type) <= h.type_len) {
		struct btf_type t;
		int64_t extra;

		memcpy(&t, base + types + pos, sizeof(t));
		extra = btf_extra(BTF_INFO_KIND(t.info), BTF_INFO_VLEN(t.info));
		if (extra < 0)
			return NULL;
		if (cur == id) {
			const char *s = (const char *)base + strs + t.name_off;

			if (!t.name_off || t.name_off >= h.str_len ||
			    !memchr(s, '\0', h.str_len - t.name_off))
				return NULL;
			return s;
		}
		pos += sizeof(t) + (uint64_t)extra;
		cur++;
	}
	return NULL;
}

int sysinfo_bpf_prog__ksym_name(const struct sysinfo_bpf_prog *prog, const struct sysinfo_btf *btf,
				uint32_t sub, char *buf, size_t size)
{
	const struct bpf_prog_info *info = &prog->info;
	const uint8_t *tags, *finfo = NULL;
	const char *name = NULL;
	char hex[2 * BPF_TAG_SIZE + 1];
	int namelen = -1, n;

	if (!size || sub >= info->nr_jited_ksyms ||
	    !(prog->arrays & (1ULL << SYSINFO_BPF_PROG_TAGS)))
		return -EINVAL;
	tags = sysinfo_bpf_prog__array(prog, info->prog_tags, info->nr_prog_tags, BPF_TAG_SIZE);
	if (!tags || sub >= info->nr_prog_tags)
		return -EINVAL;
	for (int i = 0; i < BPF_TAG_SIZE; i++)
		snprintf(hex + 2 * i, 3, "%02x", tags[sub * BPF_TAG_SIZE + i]);

	if (btf && (prog->arrays & (1ULL << SYSINFO_BPF_FUNC_INFO)) &&
	    info->func_info_rec_size >= sizeof(struct bpf_func_info))
		finfo = sysinfo_bpf_prog__array(prog, info->func_info, info->nr_func_info,
						info->func_info_rec_size);
	if (finfo && sub < info->nr_func_info) {
		struct bpf_func_info fi;

		memcpy(&fi, finfo + (size_t)sub * info->func_info_rec_size, sizeof(fi));
		name = sysinfo_btf__type_name(btf->data, btf->size, fi.type_id);
		if (!name)
			name = ""; /* perf's btf__name_by_offset of no name */
	} else if (sub == 0 && info->nr_jited_ksyms == 1) {
		/* No sub-programs: the program's own name, when it has one. */
		if (info->name[0]) {
			name = info->name;
			namelen = (int)strnlen(info->name, sizeof(info->name));
		}
	} else {
		name = "F";
	}

	if (!name)
		n = snprintf(buf, size, "bpf_prog_%s", hex);
	else if (namelen >= 0)
		n = snprintf(buf, size, "bpf_prog_%s_%.*s", hex, namelen, name);
	else
		n = snprintf(buf, size, "bpf_prog_%s_%s", hex, name);
	if (n < 0)
		return -EINVAL;
	return (size_t)n < size ? n : (int)size - 1;
}
