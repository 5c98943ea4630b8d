// SPDX-License-Identifier: GPL-2.0-only
/*
 * Records only a pipe needs: a file names its events in EVENT_DESC at the
 * end, a stream in an EVENT_UPDATE per event (perf's extra attr).
 */
#include <errno.h>
#include <string.h>

#include "prec/event.h"
#include "evlist/evlist.h"
#include "prec/writer.h"
#include "synth/synthesize.h"

/* perf 6.1's layout: header, u64 type, u64 id, then the name in a buffer
 * of 16 bytes more than its padded length (its union's size). */
#define EVENT_UPDATE_FIXED 40

/* One EVENT_UPDATE of type NAME, as perf sends it in a pipe. 0 or -errno
 * (-ENAMETOOLONG for a name over 500 bytes). */
static int synth__event_update_name(struct synth_out *w, uint64_t id, const char *name)
{
	uint8_t rec[EVENT_UPDATE_FIXED + 512] = { 0 };
	struct perf_event_header *h = (struct perf_event_header *)rec;
	size_t len = strlen(name);
	size_t size = EVENT_UPDATE_FIXED + ((len + 2 + 7) & ~(size_t)7);
	uint64_t type = PERF_EVENT_UPDATE__NAME;

	if (size > sizeof(rec))
		return -ENAMETOOLONG;
	h->type = PERF_RECORD_EVENT_UPDATE;
	h->size = (uint16_t)size;
	memcpy(rec + 8, &type, 8);
	memcpy(rec + 16, &id, 8);
	memcpy(rec + 24, name, len);
	return synth_out__write(w, rec, size);
}

int synth__event_update_names(struct synth_out *w, const struct evlist *evlist)
{
	for (int i = 0; i < evlist->nr; i++) {
		const struct evsel *evsel = &evlist->evsel[i];
		int ret;

		/* Named by its first id; an event none of whose fds opened has no
		 * record a reader could match it with. */
		for (int k = 0; k < evsel->nr_cpus * evsel->nr_threads; k++) {
			if (evsel->fd[k] < 0)
				continue;
			ret = synth__event_update_name(w, evsel->id[k], evsel->name);
			if (ret == -ENAMETOOLONG)
				break; /* perf's reader keeps the attr's name */
			if (ret)
				return ret;
			break;
		}
	}
	return 0;
}
