// SPDX-License-Identifier: GPL-2.0-only
/* The records perf record synthesizes before the kernel's (synthesize.h). */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "prec/buildid.h"
#include "prec/cpu_map.h"
#include "prec/event.h"
#include "prec/evlist.h"
#include "prec/thread_map.h"
#include "prec/writer.h"
#include "../sysinfo/bpf.h"
#include "synthesize.h"

#define ALIGN8(x) (((x) + 7) & ~(size_t)7)

/* The largest sample_id trailer: TID, TIME, ID, STREAM_ID, CPU, IDENTIFIER
 * is 48 bytes; room for more costs nothing. */
#define SYNTH_ID_HDR_MAX 64

/* The layouts perf's reader expects (tools/lib/perf/include/perf/event.h). */
_Static_assert(sizeof(struct prec_fork_event) == 32, "FORK");
_Static_assert(offsetof(struct prec_mmap2_event, filename) == 72, "MMAP2");
_Static_assert(sizeof(struct prec_namespaces_event) == 24, "NAMESPACES");
_Static_assert(sizeof(struct prec_cgroup_event) == 16, "CGROUP");
_Static_assert(offsetof(struct prec_ksymbol_event, name) == 24, "KSYMBOL");
_Static_assert(sizeof(struct prec_bpf_event) == 24, "BPF_EVENT");
_Static_assert(sizeof(struct prec_time_conv_event) == 56, "TIME_CONV");
_Static_assert(offsetof(struct prec_cpu_map_mask64_event, mask) == 18, "CPU_MAP mask64");
_Static_assert(offsetof(struct prec_cpu_map_mask32_event, mask) == 14, "CPU_MAP mask32");
_Static_assert(sizeof(struct prec_cpu_map_range_event) == 16, "CPU_MAP range");
_Static_assert(sizeof(struct prec_thread_map_entry) == 24, "THREAD_MAP");

int kallsyms__parse_line(char *line, struct ksym *sym)
{
	char *end;
	char *p = line;

	sym->addr = strtoull(p, &end, 16);
	if (end == p || *end != ' ')
		return -EINVAL;
	p = end + 1;
	if (!*p || p[1] != ' ')
		return -EINVAL;
	sym->type = *p;
	p += 2;
	sym->name = p;
	sym->name_len = strcspn(p, "\t\n ");
	if (!sym->name_len)
		return -EINVAL;
	p[sym->name_len] = '\0';
	return 0;
}

int modules__parse_line(const char *line, char *name, size_t name_len, uint64_t *size,
			uint64_t *addr)
{
	/* "ext4 1015808 3 - Live 0xffffffffc0400000" */
	char state[16];
	char nm[64];
	unsigned long long sz, ad;

	if (sscanf(line, "%63s %llu %*s %*s %15s 0x%llx", nm, &sz, state, &ad) != 4)
		return -EINVAL;
	if ((size_t)snprintf(name, name_len, "%s", nm) >= name_len)
		return -EINVAL;
	*size = sz;
	*addr = ad;
	return 0;
}

static int write_mmap(struct writer *w, const char *filename, uint64_t start, uint64_t len,
		      uint64_t pgoff, size_t id_hdr_size)
{
	char buf[sizeof(struct prec_mmap_event) + 4096 + 64];
	struct prec_mmap_event *ev = (void *)buf;
	size_t name_len = strlen(filename) + 1;
	size_t size = sizeof(*ev) + ALIGN8(name_len) + id_hdr_size;

	if (size > sizeof(buf))
		return -ENAMETOOLONG;
	memset(buf, 0, size);
	ev->header.type = PERF_RECORD_MMAP;
	ev->header.misc = PERF_RECORD_MISC_KERNEL;
	ev->header.size = (uint16_t)size;
	ev->pid = (uint32_t)-1; /* the host kernel */
	ev->tid = 0;
	ev->start = start;
	ev->len = len;
	ev->pgoff = pgoff;
	memcpy(ev->filename, filename, name_len);
	return writer__write(w, buf, size);
}

/* write_mmap's MMAP2 form (--buildid-mmap): prot and flags 0 as perf's, the
 * build-id when there is one (bid NULL: device and inode 0). */
static int write_mmap2(struct writer *w, const char *filename, uint64_t start, uint64_t len,
		       uint64_t pgoff, const struct build_id *bid, size_t id_hdr_size)
{
	char buf[sizeof(struct prec_mmap2_event) + 4096 + 64];
	struct prec_mmap2_event *ev = (void *)buf;
	size_t name_len = strlen(filename) + 1;
	size_t size = sizeof(*ev) + ALIGN8(name_len) + id_hdr_size;

	if (size > sizeof(buf))
		return -ENAMETOOLONG;
	memset(buf, 0, size);
	ev->header.type = PERF_RECORD_MMAP2;
	ev->header.misc = PERF_RECORD_MISC_KERNEL;
	ev->header.size = (uint16_t)size;
	ev->pid = (uint32_t)-1;
	ev->start = start;
	ev->len = len;
	ev->pgoff = pgoff;
	memcpy(ev->filename, filename, name_len);
	if (bid)
		synth__mmap2_set_build_id(ev, bid);
	return writer__write(w, buf, size);
}

/* "bpf_trampoline_<number>" or "bpf_dispatcher_<name>": the BPF images perf
 * names from kallsyms. */
static int is_bpf_image(const char *name)
{
	static const char tramp[] = "bpf_trampoline_", disp[] = "bpf_dispatcher_";

	if (!strncmp(name, tramp, sizeof(tramp) - 1)) {
		const char *p = name + sizeof(tramp) - 1;

		return *p >= '0' && *p <= '9';
	}
	return !strncmp(name, disp, sizeof(disp) - 1) && name[sizeof(disp) - 1];
}

int kallsyms__scan(const char *proc_dir, struct kallsyms_scan *ks)
{
	char path[4096];
	char line[1024];
	FILE *f;
	int ret = 0;

	memset(ks, 0, sizeof(*ks));
	snprintf(path, sizeof(path), "%s/kallsyms", proc_dir);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	/* One pass for everything synthesis needs: the kernel's text range and
	 * the BPF images (at the end, in the "[bpf]" module). */
	while (!ret && fgets(line, sizeof(line), f)) {
		char *mod = strchr(line, '\t');
		struct ksym sym;

		if (mod) {
			struct kallsyms_image *img;

			if (strncmp(mod + 1, "[bpf]", 5) || (mod[6] && mod[6] != '\n'))
				continue;
			if (kallsyms__parse_line(line, &sym) || !sym.addr || !is_bpf_image(sym.name))
				continue;
			img = realloc(ks->images, (ks->nr_images + 1) * sizeof(*img));
			if (!img) {
				ret = -ENOMEM;
				break;
			}
			ks->images = img;
			img[ks->nr_images].addr = sym.addr;
			snprintf(img[ks->nr_images].name, sizeof(img->name), "%s", sym.name);
			ks->nr_images++;
			continue;
		}
		if ((ks->have_text && ks->have_etext) || kallsyms__parse_line(line, &sym))
			continue;
		if (!ks->have_text && !strcmp(sym.name, "_text")) {
			ks->text = sym.addr;
			ks->have_text = 1;
		} else if (!ks->have_etext && !strcmp(sym.name, "_etext")) {
			ks->etext = sym.addr;
			ks->have_etext = 1;
		}
	}
	fclose(f);
	if (ret)
		kallsyms_scan__exit(ks);
	return ret;
}

void kallsyms_scan__exit(struct kallsyms_scan *ks)
{
	free(ks->images);
	ks->images = NULL;
	ks->nr_images = 0;
}

/* The kernel map from a scan: MMAP, or MMAP2 with the kernel's build-id. */
static int kernel_map(struct writer *w, const struct kallsyms_scan *ks, bool mmap2,
		      const char *sys_dir, size_t id_hdr_size)
{
	struct build_id bid;
	uint64_t len;

	if (!ks->have_text)
		return -ENOENT;
	if (ks->text == 0)
		return -EACCES; /* kptr_restrict shows every address as zero */
	/* Without _etext perf's map runs to the end of the address space. */
	len = ks->have_etext && ks->etext > ks->text ? ks->etext - ks->text : ~0ULL - ks->text;
	if (!mmap2)
		return write_mmap(w, "[kernel.kallsyms]_text", ks->text, len, ks->text, id_hdr_size);
	return write_mmap2(w, "[kernel.kallsyms]_text", ks->text, len, ks->text,
			   buildid__read_kernel(sys_dir, &bid) ? NULL : &bid, id_hdr_size);
}

int synth__kernel_mmap_scan(struct writer *w, const struct kallsyms_scan *ks, size_t id_hdr_size)
{
	return kernel_map(w, ks, false, NULL, id_hdr_size);
}

int synth__kernel_mmap2_scan(struct writer *w, const struct kallsyms_scan *ks,
			     const char *sys_dir, size_t id_hdr_size)
{
	return kernel_map(w, ks, true, sys_dir, id_hdr_size);
}

int synth__kernel_mmap(struct writer *w, const char *proc_dir, size_t id_hdr_size)
{
	struct kallsyms_scan ks;
	int ret = kallsyms__scan(proc_dir, &ks);

	if (ret)
		return ret;
	ret = synth__kernel_mmap_scan(w, &ks, id_hdr_size);
	kallsyms_scan__exit(&ks);
	return ret;
}

/* One map per module: MMAP, or MMAP2 with the module's build-id. */
static int module_maps(struct writer *w, const char *proc_dir, bool mmap2, const char *sys_dir,
		       size_t id_hdr_size)
{
	char path[4096];
	char line[1024];
	int ret = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/modules", proc_dir);
	f = fopen(path, "re");
	if (!f)
		return errno == ENOENT ? 0 : -errno; /* a kernel without modules */
	while (!ret && fgets(line, sizeof(line), f)) {
		char name[64], dso[72];
		uint64_t size, addr;

		if (modules__parse_line(line, name, sizeof(name), &size, &addr) || !addr)
			continue;
		snprintf(dso, sizeof(dso), "[%s]", name);
		if (mmap2) {
			struct build_id bid;

			ret = write_mmap2(w, dso, addr, size, 0,
					  buildid__read_module(sys_dir, name, &bid) ? NULL : &bid,
					  id_hdr_size);
		} else {
			ret = write_mmap(w, dso, addr, size, 0, id_hdr_size);
		}
	}
	fclose(f);
	return ret;
}

int synth__module_mmaps(struct writer *w, const char *proc_dir, size_t id_hdr_size)
{
	return module_maps(w, proc_dir, false, NULL, id_hdr_size);
}

int synth__module_mmap2s(struct writer *w, const char *proc_dir, const char *sys_dir,
			 size_t id_hdr_size)
{
	return module_maps(w, proc_dir, true, sys_dir, id_hdr_size);
}

int synth__id_index_entries(struct writer *w, const struct synth_id *ids, size_t nr)
{
	_Static_assert(sizeof(struct synth_id) == sizeof(struct prec_id_index_entry), "id");

	while (nr) {
		size_t n = nr < SYNTH_ID_INDEX_MAX ? nr : SYNTH_ID_INDEX_MAX;
		struct prec_id_index_event head;
		int ret;

		memset(&head, 0, sizeof(head));
		head.header.type = PERF_RECORD_ID_INDEX;
		head.header.size = (uint16_t)(sizeof(head) + n * sizeof(*ids));
		head.nr = n;
		ret = writer__write(w, &head, sizeof(head));
		if (!ret)
			ret = writer__write(w, ids, n * sizeof(*ids));
		if (ret)
			return ret;
		ids += n;
		nr -= n;
	}
	return 0;
}

int synth__id_index(struct writer *w, const struct evlist *evlist, pid_t tid)
{
	const struct cpu_map *cpus = evlist->cpus;
	const struct thread_map *threads = evlist->threads;
	/* --per-thread: one ring per thread, so the ring index is the thread's */
	int per_thread = cpus->nr == 1 && cpus->cpu[0] == -1;
	struct synth_id *ids;
	size_t cap = 0, n = 0;
	int ret;

	for (int e = 0; e < evlist->nr; e++) {
		int nt = evlist->evsel[e].nr_threads > 0 ? evlist->evsel[e].nr_threads : 1;

		cap += (size_t)cpus->nr * (size_t)nt;
	}
	ids = calloc(cap ? cap : 1, sizeof(*ids));
	if (!ids)
		return -ENOMEM;
	for (int e = 0; e < evlist->nr; e++) {
		const struct evsel *evsel = &evlist->evsel[e];
		int nt = evsel->nr_threads > 0 ? evsel->nr_threads : 1;

		for (int c = 0; c < cpus->nr; c++) {
			for (int t = 0; t < nt; t++) {
				uint64_t id = evsel->id[(size_t)c * (size_t)nt + (size_t)t];
				pid_t thr = threads && t < threads->nr ? threads->pid[t] : tid;

				if (!id)
					continue; /* not open: the thread had gone */
				ids[n].id = id;
				ids[n].idx = (uint64_t)(per_thread ? t : c);
				ids[n].cpu = (uint64_t)(int64_t)cpus->cpu[c];
				ids[n].tid = (uint64_t)(int64_t)thr;
				n++;
			}
		}
	}
	ret = synth__id_index_entries(w, ids, n);
	free(ids);
	return ret;
}

int synth__thread_map(struct writer *w, pid_t tid)
{
	return synth__thread_map_n(w, &tid, NULL, 1);
}

int synth__thread_map_n(struct writer *w, const pid_t *tids, const char *const *comms, size_t nr)
{
	size_t size =
		sizeof(struct prec_thread_map_event) + nr * sizeof(struct prec_thread_map_entry);
	struct prec_thread_map_event *ev;
	int ret;

	if (!nr)
		return -EINVAL;
	if (size > PERF_RECORD_MAX_SIZE)
		return -E2BIG;
	ev = calloc(1, size);
	if (!ev)
		return -ENOMEM;
	ev->header.type = PERF_RECORD_THREAD_MAP;
	ev->header.size = (uint16_t)size;
	ev->nr = nr;
	for (size_t i = 0; i < nr; i++) {
		ev->entries[i].pid = (uint64_t)(int64_t)tids[i];
		if (comms && comms[i])
			memcpy(ev->entries[i].comm, comms[i],
			       strnlen(comms[i], sizeof(ev->entries[i].comm) - 1));
	}
	ret = writer__write(w, ev, size);
	free(ev);
	return ret;
}

/* The three encodings; each fills a zeroed record of exactly size bytes. */
static void cpu_map_list(void *rec, const int *cpus, size_t nr)
{
	struct prec_cpu_map_event *ev = rec;

	ev->type = PREC_CPU_MAP_CPUS;
	ev->nr = (uint16_t)nr;
	for (size_t i = 0; i < nr; i++)
		ev->cpu[i] = (uint16_t)cpus[i]; /* -1 becomes 0xffff, as perf writes it */
}

static void cpu_map_mask(void *rec, const int *cpus, size_t nr, size_t words, int long_size)
{
	struct prec_cpu_map_mask64_event *m64 = rec;
	struct prec_cpu_map_mask32_event *m32 = rec;

	m64->type = PREC_CPU_MAP_MASK;
	m64->nr = (uint16_t)words;
	m64->long_size = (uint16_t)long_size;
	for (size_t i = 0; i < nr; i++) {
		unsigned int cpu = (unsigned int)cpus[i];

		if (long_size == 8) {
			uint64_t v;

			memcpy(&v, &m64->mask[cpu / 64], sizeof(v));
			v |= 1ULL << (cpu % 64);
			memcpy(&m64->mask[cpu / 64], &v, sizeof(v));
		} else {
			uint32_t v;

			memcpy(&v, &m32->mask[cpu / 32], sizeof(v));
			v |= 1U << (cpu % 32);
			memcpy(&m32->mask[cpu / 32], &v, sizeof(v));
		}
	}
}

int synth__cpu_map_cpus(struct writer *w, const int *cpus, size_t nr, enum synth_cpu_map_form form)
{
	size_t any, real, size, list_bytes, mask_bytes, words;
	int type, long_size = 8, min, max;
	uint8_t *rec;
	int ret;

	if (!nr)
		return -EINVAL;
	any = cpus[0] == -1;
	for (size_t i = any; i < nr; i++)
		if (cpus[i] < 0 || cpus[i] > 0xffff || (i > any && cpus[i] <= cpus[i - 1]))
			return -EINVAL;
	real = nr - any;
	min = real ? cpus[any] : -1;
	max = real ? cpus[nr - 1] : -1;

	/* Sizes as each perf compares them (type and entries, unpadded). */
	list_bytes = 2 + 2 + 2 * nr;
	if (form == SYNTH_CPU_MAP_PERF61) {
		words = (size_t)(max + 1 + 31) / 32;
		mask_bytes = 2 + 4 + 4 * words;
		long_size = 4;
	} else {
		/* perf 5.x compares {nr, cpu[]} against {nr, long_size, pad, longs} */
		words = (size_t)(max + 1 + 63) / 64;
		mask_bytes = 8 + 8 * words;
		list_bytes = 2 + 2 * nr;
	}

	if (form == SYNTH_CPU_MAP_PERF61 && real && (size_t)(max - min + 1) == real) {
		type = PREC_CPU_MAP_RANGE;
		size = sizeof(struct prec_cpu_map_range_event);
	} else if (any || !real || list_bytes < mask_bytes) {
		type = PREC_CPU_MAP_CPUS;
		size = ALIGN8(sizeof(struct prec_cpu_map_event) + 2 * nr);
	} else {
		type = PREC_CPU_MAP_MASK;
		size = ALIGN8((long_size == 8 ? sizeof(struct prec_cpu_map_mask64_event) :
						sizeof(struct prec_cpu_map_mask32_event)) +
			      (size_t)long_size * words);
	}
	if (size > PERF_RECORD_MAX_SIZE)
		return -E2BIG;
	rec = calloc(1, size);
	if (!rec)
		return -ENOMEM;
	((struct perf_event_header *)rec)->type = PERF_RECORD_CPU_MAP;
	((struct perf_event_header *)rec)->size = (uint16_t)size;
	if (type == PREC_CPU_MAP_RANGE) {
		struct prec_cpu_map_range_event *ev = (void *)rec;

		ev->type = PREC_CPU_MAP_RANGE;
		ev->any_cpu = (uint8_t)any;
		ev->start_cpu = (uint16_t)min;
		ev->end_cpu = (uint16_t)max;
	} else if (type == PREC_CPU_MAP_CPUS) {
		cpu_map_list(rec, cpus, nr);
	} else {
		cpu_map_mask(rec, cpus, nr, words, long_size);
	}
	ret = writer__write(w, rec, size);
	free(rec);
	return ret;
}

int synth__cpu_map(struct writer *w, const struct evlist *evlist)
{
	return synth__cpu_map_cpus(w, evlist->cpus->cpu, (size_t)evlist->cpus->nr,
				   SYNTH_CPU_MAP_COMPAT);
}

int synth__time_conv(struct writer *w, const struct perf_event_mmap_page *pc)
{
	const volatile struct perf_event_mmap_page *p = pc;
	struct prec_time_conv_event ev;
	int zero = 0, shrt = 0;

	if (!pc)
		return 0;
	memset(&ev, 0, sizeof(ev));
	/* The kernel updates the page under a sequence count; an odd or moved
	 * count means the copy may be torn (perf tries 10000 times). */
	for (int i = 0;; i++) {
		uint32_t seq = p->lock;

		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		ev.time_mult = p->time_mult;
		ev.time_shift = p->time_shift;
		ev.time_zero = p->time_zero;
		ev.time_cycles = p->time_cycles;
		ev.time_mask = p->time_mask;
		zero = p->cap_user_time_zero;
		shrt = p->cap_user_time_short;
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (p->lock == seq && !(seq & 1))
			break;
		if (i >= 10000)
			return -EBUSY;
	}
	if (!zero)
		return 0;
	ev.header.type = PERF_RECORD_TIME_CONV;
	ev.header.size = sizeof(ev);
	ev.cap_user_time_zero = (uint8_t)zero;
	ev.cap_user_time_short = (uint8_t)shrt;
	return writer__write(w, &ev, sizeof(ev));
}

int synth__comm(struct writer *w, pid_t pid, pid_t tid, const char *comm, size_t id_hdr_size)
{
	char buf[sizeof(struct prec_comm_event) + 24 + SYNTH_ID_HDR_MAX];
	struct prec_comm_event *ev = (void *)buf;
	size_t len = strnlen(comm, 15) + 1;
	size_t size = sizeof(*ev) + ALIGN8(len) + id_hdr_size;

	if (size > sizeof(buf))
		return -E2BIG;
	memset(buf, 0, size);
	ev->header.type = PERF_RECORD_COMM;
	ev->header.size = (uint16_t)size;
	ev->pid = (uint32_t)pid;
	ev->tid = (uint32_t)tid;
	memcpy(ev->comm, comm, len - 1);
	return writer__write(w, buf, size);
}

int synth__fork(struct writer *w, pid_t pid, pid_t ppid, pid_t tid, pid_t ptid, size_t id_hdr_size)
{
	char buf[sizeof(struct prec_fork_event) + SYNTH_ID_HDR_MAX];
	struct prec_fork_event *ev = (void *)buf;
	size_t size = sizeof(*ev) + id_hdr_size;

	if (id_hdr_size > SYNTH_ID_HDR_MAX)
		return -E2BIG;
	memset(buf, 0, size);
	ev->header.type = PERF_RECORD_FORK;
	/* perf marks its synthesized forks so that report keeps the comm */
	ev->header.misc = PERF_RECORD_MISC_FORK_EXEC;
	ev->header.size = (uint16_t)size;
	ev->pid = (uint32_t)pid;
	ev->ppid = (uint32_t)ppid;
	ev->tid = (uint32_t)tid;
	ev->ptid = (uint32_t)ptid;
	return writer__write(w, buf, size);
}

/* perf's KSYM_NAME_LEN: the longest name it reads back, NUL included. */
#define KSYM_NAME_MAX 512

int synth__ksymbol(struct writer *w, uint64_t addr, uint32_t len, uint16_t ksym_type,
		   uint16_t flags, const char *name, size_t id_hdr_size)
{
	char buf[sizeof(struct prec_ksymbol_event) + KSYM_NAME_MAX + SYNTH_ID_HDR_MAX];
	struct prec_ksymbol_event *ev = (void *)buf;
	size_t nlen = strnlen(name, KSYM_NAME_MAX - 1);
	size_t size = sizeof(*ev) + ALIGN8(nlen + 1) + id_hdr_size;

	if (id_hdr_size > SYNTH_ID_HDR_MAX)
		return -E2BIG;
	memset(buf, 0, size);
	ev->header.type = PERF_RECORD_KSYMBOL;
	ev->header.size = (uint16_t)size;
	ev->addr = addr;
	ev->len = len;
	ev->ksym_type = ksym_type;
	ev->flags = flags;
	memcpy(ev->name, name, nlen);
	return writer__write(w, buf, size);
}

int synth__bpf_event(struct writer *w, uint16_t type, uint16_t flags, uint32_t id,
		     const uint8_t tag[8], size_t id_hdr_size)
{
	char buf[sizeof(struct prec_bpf_event) + SYNTH_ID_HDR_MAX];
	struct prec_bpf_event *ev = (void *)buf;
	size_t size = sizeof(*ev) + id_hdr_size;

	if (id_hdr_size > SYNTH_ID_HDR_MAX)
		return -E2BIG;
	memset(buf, 0, size);
	ev->header.type = PERF_RECORD_BPF_EVENT;
	ev->header.size = (uint16_t)size;
	ev->type = type;
	ev->flags = flags;
	ev->id = id;
	memcpy(ev->tag, tag, sizeof(ev->tag));
	return writer__write(w, buf, size);
}

/* KSYMBOLs then the PROG_LOAD of one program; a program whose arrays do not
 * add up is skipped (sysinfo already keeps only those perf keeps). */
static int synth_bpf_prog(struct writer *w, const struct sysinfo_bpf *bpf,
			  const struct sysinfo_bpf_prog *prog, size_t id_hdr_size)
{
	const struct bpf_prog_info *info = &prog->info;
	const struct sysinfo_btf *btf = NULL;
	const uint8_t *addrs, *lens;
	uint32_t n = info->nr_jited_ksyms;
	char name[KSYM_NAME_MAX];
	int ret;

	if (!n || n != info->nr_jited_func_lens || n != info->nr_prog_tags ||
	    !(prog->arrays & (1ULL << SYSINFO_BPF_JITED_KSYMS)) ||
	    !(prog->arrays & (1ULL << SYSINFO_BPF_JITED_FUNC_LENS)))
		return 0;
	addrs = sysinfo_bpf_prog__array(prog, info->jited_ksyms, n, sizeof(uint64_t));
	lens = sysinfo_bpf_prog__array(prog, info->jited_func_lens, n, sizeof(uint32_t));
	if (!addrs || !lens)
		return 0;
	/* perf names sub-programs from BTF only when the program has func info */
	if (info->btf_id && info->nr_func_info && info->func_info_rec_size)
		btf = sysinfo_bpf__find_btf(bpf, info->btf_id);
	for (uint32_t i = 0; i < n; i++) {
		uint64_t addr;
		uint32_t len;

		if (sysinfo_bpf_prog__ksym_name(prog, btf, i, name, sizeof(name)) < 0)
			return 0;
		memcpy(&addr, addrs + 8 * (size_t)i, sizeof(addr));
		memcpy(&len, lens + 4 * (size_t)i, sizeof(len));
		ret = synth__ksymbol(w, addr, len, PERF_RECORD_KSYMBOL_TYPE_BPF, 0, name,
				     id_hdr_size);
		if (ret)
			return ret;
	}
	return synth__bpf_event(w, PERF_BPF_EVENT_PROG_LOAD, 0, info->id, info->tag, id_hdr_size);
}

int synth__bpf_scan(struct writer *w, const struct sysinfo_bpf *bpf,
		    const struct kallsyms_scan *ks, size_t id_hdr_size)
{
	long page = sysconf(_SC_PAGESIZE);
	int ret = 0;

	for (uint32_t i = 0; bpf && i < bpf->nr_progs; i++) {
		ret = synth_bpf_prog(w, bpf, &bpf->progs[i], id_hdr_size);
		if (ret)
			return ret;
	}
	for (size_t i = 0; !ret && ks && i < ks->nr_images; i++)
		ret = synth__ksymbol(w, ks->images[i].addr, (uint32_t)(page > 0 ? page : 4096),
				     PERF_RECORD_KSYMBOL_TYPE_BPF, 0, ks->images[i].name, id_hdr_size);
	return ret;
}

int synth__bpf(struct writer *w, const struct sysinfo_bpf *bpf, const char *proc_dir,
	       size_t id_hdr_size)
{
	struct kallsyms_scan ks;
	/* perf only complains when kallsyms cannot be read; the programs matter. */
	int have = !kallsyms__scan(proc_dir, &ks);
	int ret = synth__bpf_scan(w, bpf, have ? &ks : NULL, id_hdr_size);

	if (have)
		kallsyms_scan__exit(&ks);
	return ret;
}

int synth__marker(struct writer *w, uint32_t type)
{
	struct perf_event_header h = { .type = type, .misc = 0, .size = sizeof(h) };

	return writer__write(w, &h, sizeof(h));
}

/* The sample_id trailer in the attr's field order, for a record about one fd. */
static size_t put_id_trailer(uint64_t *t, uint64_t sample_type, pid_t pid, pid_t tid, int cpu,
			     uint64_t id)
{
	size_t n = 0;

	if (sample_type & PERF_SAMPLE_TID)
		t[n++] = (uint64_t)(uint32_t)pid | ((uint64_t)(uint32_t)tid << 32);
	if (sample_type & PERF_SAMPLE_TIME)
		t[n++] = 0;
	if (sample_type & PERF_SAMPLE_ID)
		t[n++] = id;
	if (sample_type & PERF_SAMPLE_STREAM_ID)
		t[n++] = 0;
	if (sample_type & PERF_SAMPLE_CPU)
		t[n++] = (uint64_t)(uint32_t)cpu;
	if (sample_type & PERF_SAMPLE_IDENTIFIER)
		t[n++] = id;
	return n * sizeof(uint64_t);
}

int synth__lost_samples(struct writer *w, const struct evlist *evlist, pid_t pid, uint64_t *total)
{
	const struct thread_map *threads = evlist->threads;

	*total = 0;
	for (int e = 0; e < evlist->nr; e++) {
		const struct evsel *evsel = &evlist->evsel[e];
		uint64_t rf = evsel->attr.read_format;
		int nt = evsel->nr_threads > 0 ? evsel->nr_threads : 1;

		if (!(rf & PERF_FORMAT_LOST) || (rf & PERF_FORMAT_GROUP))
			continue;
		for (int i = 0; i < evsel->nr_cpus * nt; i++) {
			int c = i / nt, t = i % nt;
			pid_t tid = threads && t < threads->nr && threads->pid[t] != -1 ?
					    threads->pid[t] :
					    pid;
			/* value, [enabled], [running], [id], lost */
			uint64_t vals[5];
			int idx = 1, ret;
			ssize_t n;
			struct {
				struct perf_event_header header;
				uint64_t lost;
				uint64_t trailer[6];
			} rec;

			if (evsel->fd[i] < 0)
				continue;
			n = read(evsel->fd[i], vals, sizeof(vals));
			if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
				idx++;
			if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
				idx++;
			if (rf & PERF_FORMAT_ID)
				idx++;
			if (n < (ssize_t)((idx + 1) * sizeof(uint64_t)) || !vals[idx])
				continue;
			memset(&rec, 0, sizeof(rec));
			rec.header.type = PERF_RECORD_LOST_SAMPLES;
			rec.lost = vals[idx];
			rec.header.size =
				(uint16_t)(sizeof(rec.header) + sizeof(rec.lost) +
					   put_id_trailer(rec.trailer, evsel->attr.sample_type, pid,
							  tid, evlist->cpus->cpu[c], evsel->id[i]));
			*total += rec.lost;
			ret = writer__write(w, &rec, rec.header.size);
			if (ret)
				return ret;
		}
	}
	return 0;
}
