// SPDX-License-Identifier: GPL-2.0-only
/*
 * --threads output (output_dir.h, output.h): a perf.data directory whose
 * data file is the output's usual file (header, side-band, features with
 * DIR_FORMAT) and whose data.N files take each drain stream's records,
 * written by that stream's thread alone. The streams' counts join the
 * output's when each ends, and their samples reach the one build-id
 * tracker by reading the files back at the end, as perf's own build-id
 * pass reads the recording: a tracker per stream would miss every sample
 * whose process mapped the DSO on another stream's CPU.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "prec/dso_track.h"
#include "prec/event.h"
#include "prec/log.h"
#include "prec/options.h"
#include "prec/writer.h"
#include "prec/writer_dir.h"
#include "output.h"
#include "output_dir.h"

int output_dir__open(struct output *o)
{
	int ret = writer_dir__create(&o->dir, o->path);

	if (!ret)
		ret = writer__open(&o->w, writer_dir__header_path(o->dir));
	if (ret)
		pr_err("cannot create the output directory '%s': %s (%s)", o->path, strerror(-ret),
		       ret == -EEXIST ? "move what is there, or give -o another name" :
					output__hint(o->path, ret));
	return ret;
}

int output__open_streams(struct output *o, int nr)
{
	int ret = 0;

	o->streams = calloc((size_t)nr, sizeof(*o->streams));
	o->stream_stats = calloc((size_t)nr, sizeof(*o->stream_stats));
	if (!o->streams || !o->stream_stats)
		return -ENOMEM;
	o->nr_streams = nr;
	for (int i = 0; i < nr && !ret; i++) {
		ret = writer_dir__open_stream(o->dir, i, &o->streams[i]);
		/* -z: each stream compresses on its own thread, its own context. */
		if (!ret && o->src.opts->comp_level)
			ret = writer__set_compression(o->streams[i], o->src.opts->comp_level);
	}
	return ret;
}

struct writer *output__stream_writer(struct output *o, int i)
{
	return o->streams[i];
}

int output__end_stream(struct output *o, int i, const struct drain_stats *st)
{
	struct writer *w = o->streams[i];
	uint64_t in = 0, out = 0;

	o->stream_stats[i] = *st;
	drain_stats__add(&o->file, st);
	drain_stats__add(&o->total, st);
	o->streams_bytes += writer__data_size(w);
	if (o->src.opts->comp_level) {
		writer__compression_stats(w, &in, &out);
		o->streams_in += in;
		o->streams_out += out;
	}
	pr_verbose("stream %d (data.%d): %llu samples, %llu wakeups, %llu events lost in %llu chunks, %llu bytes\n",
		   i, i, (unsigned long long)st->samples, (unsigned long long)st->wakeups,
		   (unsigned long long)st->lost, (unsigned long long)st->lost_records,
		   (unsigned long long)writer__data_size(w));
	o->streams[i] = NULL;
	return writer__finish(w, NULL);
}

/* Feeds the records of stream file idx to t: the side-band the tracker
 * follows, or the samples. */
static void output_dir__feed(struct output *o, int idx, bool samples)
{
	char path[PATH_MAX];
	struct stat st;
	uint8_t *p;
	int fd;

	snprintf(path, sizeof(path), "%s/data.%d", o->path, idx);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) || !st.st_size) {
		if (fd >= 0)
			close(fd);
		return;
	}
	p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return;
	for (size_t off = 0; off + sizeof(struct perf_event_header) <= (size_t)st.st_size;) {
		const struct perf_event_header *h = (const void *)(p + off);

		if (h->size < sizeof(*h) || off + h->size > (size_t)st.st_size)
			break;
		/* EXIT is left out: a process's maps must outlive its samples,
		 * which come in the second walk. */
		if (samples ? h->type == PERF_RECORD_SAMPLE :
			      (h->type != PERF_RECORD_SAMPLE && h->type != PERF_RECORD_EXIT))
			dso_track__event(o->track, h, h->size);
		off += h->size;
	}
	munmap(p, (size_t)st.st_size);
}

void output_dir__track(struct output *o)
{
	if (!o->track || !o->nr_streams)
		return;
	if (o->src.opts->comp_level) {
		pr_verbose("--threads with -z: the build-ids of DSOs hit only in compressed streams are not collected\n");
		return;
	}
	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0; i < o->nr_streams; i++)
			output_dir__feed(o, i, pass == 1);
		dso_track__end_pass(o->track);
	}
}

void output_dir__abort(struct output *o)
{
	for (int i = 0; i < o->nr_streams; i++) {
		writer__abort(o->streams[i]);
		o->streams[i] = NULL;
	}
	writer_dir__abort(o->dir);
	o->dir = NULL;
}

void output_dir__exit(struct output *o)
{
	if (o->w)
		output_dir__abort(o);
	for (int i = 0; i < o->nr_streams; i++)
		writer__abort(o->streams[i]);
	writer_dir__delete(o->dir);
	o->dir = NULL;
	free(o->streams);
	free(o->stream_stats);
	o->streams = NULL;
	o->stream_stats = NULL;
	o->nr_streams = 0;
}
