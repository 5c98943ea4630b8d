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
#include "targets/cpu_map.h"
#include "prec/event.h"
#include "evlist/evlist.h"
#include "targets/thread_map.h"
#include "prec/writer.h"
#include "prec/bpf.h"
#include "bpf/filter.h"
#include "synth/synthesize.h"

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

/*
 * A kernel or module map: MMAP, or its MMAP2 form (--buildid-mmap: prot and
 * flags 0 as perf's, the build-id when there is one; bid NULL: device and
 * inode 0). The two share their first fields, up to pgoff.
 */
static int write_kernel_map(struct synth_out *w, bool mmap2, const char *filename, uint64_t start,
			    uint64_t len, uint64_t pgoff, const struct build_id *bid,
			    size_t id_hdr_size)
{
	char buf[sizeof(struct prec_mmap2_event) + 4096 + 64];
	struct prec_mmap_event *ev = (void *)buf;
	struct prec_mmap2_event *ev2 = (void *)buf;
	size_t head = mmap2 ? sizeof(*ev2) : sizeof(*ev);
	size_t name_len = strlen(filename) + 1;
	size_t size = head + ALIGN8(name_len) + id_hdr_size;

	if (size > head + 4096 + 64)
		return -ENAMETOOLONG;
	synth_record__init(buf, size, mmap2 ? PERF_RECORD_MMAP2 : PERF_RECORD_MMAP,
			   PERF_RECORD_MISC_KERNEL);
	ev->pid = (uint32_t)-1; /* the host kernel */
	ev->tid = 0;
	ev->start = start;
	ev->len = len;
	ev->pgoff = pgoff;
	memcpy(mmap2 ? ev2->filename : ev->filename, filename, name_len);
	if (mmap2 && bid)
		synth__mmap2_set_build_id(ev2, bid);
	return synth_out__write(w, buf, size);
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
			if (kallsyms__parse_line(line, &sym) || !sym.addr ||
			    !is_bpf_image(sym.name))
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
		if ((ks->have_text && ks->have_etext && ks->have_edata) ||
		    kallsyms__parse_line(line, &sym))
			continue;
		if (!ks->have_text && !strcmp(sym.name, "_text")) {
			ks->text = sym.addr;
			ks->have_text = 1;
		} else if (!ks->have_etext && !strcmp(sym.name, "_etext")) {
			ks->etext = sym.addr;
			ks->have_etext = 1;
		} else if (!ks->have_edata && !strcmp(sym.name, "_edata")) {
			ks->edata = sym.addr;
			ks->have_edata = 1;
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
static int kernel_map(struct synth_out *w, const struct kallsyms_scan *ks, bool mmap2,
		      const char *sys_dir, size_t id_hdr_size)
{
	struct build_id bid;
	uint64_t len;

	if (!ks->have_text)
		return -ENOENT;
	if (ks->text == 0)
		return -EACCES; /* kptr_restrict shows every address as zero */
	/* Since 6.6 perf's map ends at _edata, so that samples' data addresses in
	 * the kernel image resolve; kallsyms shows _edata only with
	 * KALLSYMS_ALL, else the map ends at _etext as before. Without either
	 * it runs to the end of the address space. */
	if (ks->have_edata && ks->edata > ks->text)
		len = ks->edata - ks->text;
	else if (ks->have_etext && ks->etext > ks->text)
		len = ks->etext - ks->text;
	else
		len = ~0ULL - ks->text;
	return write_kernel_map(w, mmap2, "[kernel.kallsyms]_text", ks->text, len, ks->text,
				mmap2 && !buildid__read_kernel(sys_dir, &bid) ? &bid : NULL,
				id_hdr_size);
}

int synth__kernel_mmap_scan(struct synth_out *w, const struct kallsyms_scan *ks, size_t id_hdr_size)
{
	return kernel_map(w, ks, false, NULL, id_hdr_size);
}

int synth__kernel_mmap2_scan(struct synth_out *w, const struct kallsyms_scan *ks,
			     const char *sys_dir, size_t id_hdr_size)
{
	return kernel_map(w, ks, true, sys_dir, id_hdr_size);
}

int synth__kernel_mmap(struct synth_out *w, const char *proc_dir, size_t id_hdr_size)
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
static int module_maps(struct synth_out *w, const char *proc_dir, bool mmap2, const char *sys_dir,
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
		struct build_id bid;
		uint64_t size, addr;

		if (modules__parse_line(line, name, sizeof(name), &size, &addr) || !addr)
			continue;
		snprintf(dso, sizeof(dso), "[%s]", name);
		ret = write_kernel_map(w, mmap2, dso, addr, size, 0,
				       mmap2 && !buildid__read_module(sys_dir, name, &bid) ? &bid :
											     NULL,
				       id_hdr_size);
	}
	fclose(f);
	return ret;
}

int synth__module_mmaps(struct synth_out *w, const char *proc_dir, size_t id_hdr_size)
{
	return module_maps(w, proc_dir, false, NULL, id_hdr_size);
}

int synth__module_mmap2s(struct synth_out *w, const char *proc_dir, const char *sys_dir,
			 size_t id_hdr_size)
{
	return module_maps(w, proc_dir, true, sys_dir, id_hdr_size);
}

int synth__comm(struct synth_out *w, pid_t pid, pid_t tid, const char *comm, size_t id_hdr_size)
{
	char buf[sizeof(struct prec_comm_event) + 24 + SYNTH_ID_HDR_MAX];
	struct prec_comm_event *ev = (void *)buf;
	size_t len = strnlen(comm, 15) + 1;
	size_t size = sizeof(*ev) + ALIGN8(len) + id_hdr_size;

	if (size > sizeof(buf))
		return -E2BIG;
	synth_record__init(buf, size, PERF_RECORD_COMM, 0);
	ev->pid = (uint32_t)pid;
	ev->tid = (uint32_t)tid;
	memcpy(ev->comm, comm, len - 1);
	return synth_out__write(w, buf, size);
}

int synth__fork(struct synth_out *w, pid_t pid, pid_t ppid, pid_t tid, pid_t ptid,
		size_t id_hdr_size)
{
	char buf[sizeof(struct prec_fork_event) + SYNTH_ID_HDR_MAX];
	struct prec_fork_event *ev = (void *)buf;
	size_t size = sizeof(*ev) + id_hdr_size;

	if (id_hdr_size > SYNTH_ID_HDR_MAX)
		return -E2BIG;
	/* perf marks its synthesized forks so that report keeps the comm */
	synth_record__init(buf, size, PERF_RECORD_FORK, PERF_RECORD_MISC_FORK_EXEC);
	ev->pid = (uint32_t)pid;
	ev->ppid = (uint32_t)ppid;
	ev->tid = (uint32_t)tid;
	ev->ptid = (uint32_t)ptid;
	return synth_out__write(w, buf, size);
}

/* perf's KSYM_NAME_LEN: the longest name it reads back, NUL included. */
#define KSYM_NAME_MAX 512

int synth__ksymbol(struct synth_out *w, uint64_t addr, uint32_t len, uint16_t ksym_type,
		   uint16_t flags, const char *name, size_t id_hdr_size)
{
	char buf[sizeof(struct prec_ksymbol_event) + KSYM_NAME_MAX + SYNTH_ID_HDR_MAX];
	struct prec_ksymbol_event *ev = (void *)buf;
	size_t nlen = strnlen(name, KSYM_NAME_MAX - 1);
	size_t size = sizeof(*ev) + ALIGN8(nlen + 1) + id_hdr_size;

	if (id_hdr_size > SYNTH_ID_HDR_MAX)
		return -E2BIG;
	synth_record__init(buf, size, PERF_RECORD_KSYMBOL, 0);
	ev->addr = addr;
	ev->len = len;
	ev->ksym_type = ksym_type;
	ev->flags = flags;
	memcpy(ev->name, name, nlen);
	return synth_out__write(w, buf, size);
}

int synth__bpf_event(struct synth_out *w, uint16_t type, uint16_t flags, uint32_t id,
		     const uint8_t tag[8], size_t id_hdr_size)
{
	char buf[sizeof(struct prec_bpf_event) + SYNTH_ID_HDR_MAX];
	struct prec_bpf_event *ev = (void *)buf;
	size_t size = sizeof(*ev) + id_hdr_size;

	if (id_hdr_size > SYNTH_ID_HDR_MAX)
		return -E2BIG;
	synth_record__init(buf, size, PERF_RECORD_BPF_EVENT, 0);
	ev->type = type;
	ev->flags = flags;
	ev->id = id;
	memcpy(ev->tag, tag, sizeof(ev->tag));
	return synth_out__write(w, buf, size);
}

/* KSYMBOLs then the PROG_LOAD of one program; a program whose arrays do not
 * add up is skipped (sysinfo already keeps only those perf keeps). */
static int synth_bpf_prog(struct synth_out *w, const struct sysinfo_bpf *bpf,
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

int synth__bpf_scan(struct synth_out *w, const struct sysinfo_bpf *bpf,
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
				     PERF_RECORD_KSYMBOL_TYPE_BPF, 0, ks->images[i].name,
				     id_hdr_size);
	return ret;
}

int synth__bpf(struct synth_out *w, const struct sysinfo_bpf *bpf, const char *proc_dir,
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

int synth__marker(struct synth_out *w, uint32_t type)
{
	struct perf_event_header h = { .type = type, .misc = 0, .size = sizeof(h) };

	return synth_out__write(w, &h, sizeof(h));
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

/*
 * The samples an event's BPF --filter dropped: one LOST_SAMPLES record
 * marked PERF_RECORD_MISC_LOST_SAMPLES_BPF, for the id of its first fd and
 * with nothing else in the trailer (perf 6.4's record__read_lost_samples).
 */
static int bpf_filter_drops(struct synth_out *w, const struct evsel *evsel)
{
	uint64_t dropped = bpf_filter__dropped(evsel->bpf_filter);
	struct {
		struct perf_event_header header;
		uint64_t lost;
		uint64_t trailer[6];
	} rec;
	uint64_t id = 0;

	if (!dropped)
		return 0;
	for (int i = 0; i < evsel->nr_cpus * evsel->nr_threads && !id; i++)
		id = evsel->fd[i] >= 0 ? evsel->id[i] : 0;
	memset(&rec, 0, sizeof(rec));
	rec.header.type = PERF_RECORD_LOST_SAMPLES;
	rec.header.misc = PERF_RECORD_MISC_LOST_SAMPLES_BPF;
	rec.lost = dropped;
	rec.header.size =
		(uint16_t)(sizeof(rec.header) + sizeof(rec.lost) +
			   put_id_trailer(rec.trailer, evsel->attr.sample_type, 0, 0, 0, id));
	return synth_out__write(w, &rec, rec.header.size);
}

int synth__lost_samples(struct synth_out *w, const struct evlist *evlist, pid_t pid,
			uint64_t *total)
{
	for (int e = 0; e < evlist->nr; e++) {
		int ret = bpf_filter_drops(w, &evlist->evsel[e]);

		if (ret)
			return ret;
	}
	*total = 0;
	for (int e = 0; e < evlist->nr; e++) {
		const struct evsel *evsel = &evlist->evsel[e];
		uint64_t rf = evsel->attr.read_format;
		int nt = evsel->nr_threads > 0 ? evsel->nr_threads : 1;

		if (!(rf & PERF_FORMAT_LOST) || (rf & PERF_FORMAT_GROUP))
			continue;
		for (int i = 0; i < evsel->nr_cpus * nt; i++) {
			int c = i / nt, t = i % nt;
			/* The evsel's own threads and CPUs (it was opened): a
			 * system-wide one has any thread on every CPU. */
			pid_t tid = evsel->open_tids[t] != -1 ? evsel->open_tids[t] : pid;
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
							  tid, evsel->open_cpus[c], evsel->id[i]));
			*total += rec.lost;
			ret = synth_out__write(w, &rec, rec.header.size);
			if (ret)
				return ret;
		}
	}
	return 0;
}
