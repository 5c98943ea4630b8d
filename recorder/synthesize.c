// SPDX-License-Identifier: GPL-2.0-only
/* The records perf record synthesizes before the kernel's (synthesize.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "prec/cpu_map.h"
#include "prec/event.h"
#include "prec/evlist.h"
#include "prec/writer.h"
#include "synthesize.h"

#define ALIGN8(x) (((x) + 7) & ~(size_t)7)

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

int synth__kernel_mmap(struct writer *w, const char *proc_dir, size_t id_hdr_size)
{
	char path[4096];
	char line[512];
	uint64_t text = 0, etext = 0;
	int have_text = 0, have_etext = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/kallsyms", proc_dir);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while ((!have_text || !have_etext) && fgets(line, sizeof(line), f)) {
		struct ksym sym;

		if (kallsyms__parse_line(line, &sym))
			continue;
		if (!have_text && !strcmp(sym.name, "_text")) {
			text = sym.addr;
			have_text = 1;
		} else if (!have_etext && !strcmp(sym.name, "_etext")) {
			etext = sym.addr;
			have_etext = 1;
		}
	}
	fclose(f);
	if (!have_text)
		return -ENOENT;
	if (text == 0)
		return -EACCES; /* kptr_restrict shows every address as zero */
	/* Without _etext perf's map runs to the end of the address space. */
	return write_mmap(w, "[kernel.kallsyms]_text", text,
			  have_etext && etext > text ? etext - text : ~0ULL - text, text,
			  id_hdr_size);
}

int synth__module_mmaps(struct writer *w, const char *proc_dir, size_t id_hdr_size)
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
		ret = write_mmap(w, dso, addr, size, 0, id_hdr_size);
	}
	fclose(f);
	return ret;
}

int synth__id_index(struct writer *w, const struct evlist *evlist, pid_t tid)
{
	size_t nr = (size_t)evlist->nr * evlist->cpus->nr;
	size_t size = sizeof(struct prec_id_index_event) + nr * sizeof(struct prec_id_index_entry);
	struct prec_id_index_event *ev;
	size_t n = 0;
	int ret;

	/* Larger sets are split over several records by later issues (-a on
	 * big machines); one record holds 2047 entries. */
	if (size > PERF_RECORD_MAX_SIZE)
		return -E2BIG;
	ev = calloc(1, size);
	if (!ev)
		return -ENOMEM;
	ev->header.type = PERF_RECORD_ID_INDEX;
	ev->header.size = (uint16_t)size;
	ev->nr = nr;
	for (int e = 0; e < evlist->nr; e++) {
		const struct evsel *evsel = &evlist->evsel[e];

		for (int i = 0; i < evlist->cpus->nr; i++, n++) {
			ev->entries[n].id = evsel->id[i];
			ev->entries[n].idx = (uint64_t)i;
			ev->entries[n].cpu = (uint64_t)evlist->cpus->cpu[i];
			ev->entries[n].tid = (uint64_t)tid;
		}
	}
	ret = writer__write(w, ev, size);
	free(ev);
	return ret;
}

int synth__thread_map(struct writer *w, pid_t tid)
{
	struct {
		struct prec_thread_map_event ev;
		struct prec_thread_map_entry entry;
	} rec;

	memset(&rec, 0, sizeof(rec));
	rec.ev.header.type = PERF_RECORD_THREAD_MAP;
	rec.ev.header.size = sizeof(rec);
	rec.ev.nr = 1;
	rec.entry.pid = (uint64_t)tid;
	return writer__write(w, &rec, sizeof(rec));
}

int synth__cpu_map(struct writer *w, const struct evlist *evlist)
{
	size_t nr = (size_t)evlist->cpus->nr;
	size_t size = ALIGN8(sizeof(struct prec_cpu_map_event) + nr * sizeof(uint16_t));
	struct prec_cpu_map_event *ev;
	int ret;

	if (size > PERF_RECORD_MAX_SIZE)
		return -E2BIG;
	ev = calloc(1, size);
	if (!ev)
		return -ENOMEM;
	ev->header.type = PERF_RECORD_CPU_MAP;
	ev->header.size = (uint16_t)size;
	ev->type = 0;
	ev->nr = (uint16_t)nr;
	for (size_t i = 0; i < nr; i++)
		ev->cpu[i] = (uint16_t)evlist->cpus->cpu[i];
	ret = writer__write(w, ev, size);
	free(ev);
	return ret;
}

int synth__comm(struct writer *w, pid_t pid, pid_t tid, const char *comm, size_t id_hdr_size)
{
	char buf[sizeof(struct prec_comm_event) + 24 + 64];
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

int synth__marker(struct writer *w, uint32_t type)
{
	struct perf_event_header h = { .type = type, .misc = 0, .size = sizeof(h) };

	return writer__write(w, &h, sizeof(h));
}

/* The sample_id trailer in the attr's field order, for a record about one fd. */
static size_t put_id_trailer(uint64_t *t, uint64_t sample_type, pid_t pid, int cpu, uint64_t id)
{
	size_t n = 0;

	if (sample_type & PERF_SAMPLE_TID)
		t[n++] = (uint64_t)(uint32_t)pid | ((uint64_t)(uint32_t)pid << 32);
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

int synth__lost_samples(struct writer *w, const struct evlist *evlist, pid_t pid,
			uint64_t *total)
{
	*total = 0;
	for (int e = 0; e < evlist->nr; e++) {
		const struct evsel *evsel = &evlist->evsel[e];
		uint64_t rf = evsel->attr.read_format;

		if (!(rf & PERF_FORMAT_LOST) || (rf & PERF_FORMAT_GROUP))
			continue;
		for (int i = 0; i < evsel->nr_cpus; i++) {
			/* value, [enabled], [running], [id], lost */
			uint64_t vals[5];
			int idx = 1;
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
			rec.header.size = (uint16_t)(sizeof(rec.header) + sizeof(rec.lost) +
				put_id_trailer(rec.trailer, evsel->attr.sample_type, pid,
					       evlist->cpus->cpu[i], evsel->id[i]));
			*total += rec.lost;
			int ret = writer__write(w, &rec, rec.header.size);

			if (ret)
				return ret;
		}
	}
	return 0;
}
