// SPDX-License-Identifier: GPL-2.0-only
/*
 * --threads and --kcore output (output_dir.h): a perf.data directory whose
 * data file is the output's usual file (header, side-band, features with
 * DIR_FORMAT) and whose data.N files take each drain stream's records,
 * written by that stream's thread alone. The streams' counts join the
 * output's when each ends. Each stream follows its build-ids and unwinds
 * as it drains (stream_track.h, kept by the output): nothing is read back.
 * --kcore adds kcore_dir/ (writer/kcore.c) before the side-band is written.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "prec/kcore.h"
#include "prec/log.h"
#include "prec/writer.h"
#include "prec/writer_dir.h"
#include "output/output_dir.h"
#include "output/output_hint.h"

int output_dir__open(struct output_dir *od, const char *path, struct writer **w)
{
	int ret = writer_dir__create(&od->dir, path);

	od->path = path;
	if (!ret)
		ret = writer_dir__open_header(od->dir, w);
	if (ret)
		pr_err("cannot create the output directory '%s': %s (%s)", path, strerror(-ret),
		       output__hint(path, ret));
	return ret;
}

int output_dir__copy_kcore(struct output_dir *od, const char *proc_dir)
{
	char to[PATH_MAX];
	int ret = writer_dir__make_kcore_dir(od->dir, to, sizeof(to));

	if (!ret)
		ret = kcore__copy(proc_dir, to);
	if (ret)
		pr_err("cannot copy %s/kcore into '%s/kcore_dir': %s (%s)", proc_dir, od->path,
		       strerror(-ret),
		       ret == -EAGAIN ?
			       "a kernel module was loaded or unloaded meanwhile: record again" :
		       ret == -EADDRNOTAVAIL ?
			       "kallsyms hides the kernel's addresses: run as root with sysctl kernel.kptr_restrict=0" :
		       ret == -EINVAL ?
			       "kcore is not an ELF64 core of this machine's byte order with the kernel's text" :
			       output__hint(od->path, ret));
	else
		pr_verbose("--kcore: kernel and module text copied into %s/kcore_dir\n", od->path);
	return ret;
}

int output_dir__open_streams(struct output_dir *od, int nr, int comp_level, uint32_t mmap_len)
{
	int ret = 0;

	od->streams = calloc((size_t)nr, sizeof(*od->streams));
	od->stats = calloc((size_t)nr, sizeof(*od->stats));
	if (!od->streams || !od->stats)
		return -ENOMEM;
	od->nr = nr;
	for (int i = 0; i < nr && !ret; i++) {
		ret = writer_dir__open_stream(od->dir, i, &od->streams[i]);
		/* -z: each stream compresses on its own thread, its own context. */
		if (!ret && comp_level)
			ret = writer__set_compression(od->streams[i], comp_level, mmap_len);
	}
	return ret;
}

struct writer *output_dir__stream(struct output_dir *od, int i)
{
	return od->streams[i];
}

int output_dir__end_stream(struct output_dir *od, int i, const struct drain_stats *st,
			   bool compressed)
{
	struct writer *w = od->streams[i];
	uint64_t in = 0, out = 0;

	od->stats[i] = *st;
	od->bytes += writer__data_size(w);
	if (compressed) {
		writer__compression_stats(w, &in, &out);
		od->in += in;
		od->out += out;
	}
	pr_verbose(
		"stream %d (data.%d): %llu samples, %llu wakeups, %llu events lost in %llu chunks, %llu bytes\n",
		i, i, (unsigned long long)st->samples, (unsigned long long)st->wakeups,
		(unsigned long long)st->lost, (unsigned long long)st->lost_records,
		(unsigned long long)writer__data_size(w));
	od->streams[i] = NULL;
	return writer__finish(w, NULL);
}

bool output_dir__has_data(const struct output_dir *od)
{
	for (int i = 0; i < od->nr; i++)
		if (od->streams[i] &&
		    (writer__failed(od->streams[i]) || writer__data_size(od->streams[i])))
			return true;
	return false;
}

void output_dir__keep(struct output_dir *od)
{
	for (int i = 0; i < od->nr; i++) {
		/* A write that failed is cut back to the last whole record. */
		if (od->streams[i])
			writer__finish(od->streams[i], NULL);
		od->streams[i] = NULL;
	}
	writer_dir__delete(od->dir);
	od->dir = NULL;
}

void output_dir__abort(struct output_dir *od)
{
	for (int i = 0; i < od->nr; i++) {
		writer__abort(od->streams[i]);
		od->streams[i] = NULL;
	}
	writer_dir__abort(od->dir);
	od->dir = NULL;
}

void output_dir__exit(struct output_dir *od)
{
	for (int i = 0; i < od->nr; i++)
		writer__abort(od->streams[i]);
	writer_dir__delete(od->dir);
	free(od->streams);
	free(od->stats);
	*od = (struct output_dir){ 0 };
}
