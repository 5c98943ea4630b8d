// SPDX-License-Identifier: GPL-2.0-only
/*
 * The pipe-mode stream (`-o -`), laid out as perf 6.1's record sends it:
 *
 *   {u64 magic "PERFILE2", u64 16}          the pipe header
 *   HEADER_ATTR per event                    attr + its ids
 *   HEADER_FEATURE per pipe feature          u64 feat_id + the section's bytes
 *   HEADER_FEATURE with HEADER_LAST_FEATURE  the end marker
 *   HEADER_TRACING_DATA + blob               with tracepoint events
 *   ... the records, as in a file's data section ...
 *   HEADER_BUILD_ID per hit DSO              at the end (perf sends none)
 *
 * Nothing can be patched later, so every feature is sent up front from what is
 * known at the start. A record's size is a u16: a feature too large for one
 * record is split where perf's reader adds the parts up (EVENT_DESC names the
 * events of each part) or reduced where it keeps only the last (CMDLINE
 * drops arguments), and reported under -v; perf itself would send the size
 * truncated to 16 bits and break the stream.
 */
#include <errno.h>
#include <string.h>

#include "prec/event.h"
#include "prec/log.h"
#include "features.h"
#include "feat_sink.h"
#include "file_header.h"
#include "pipe.h"
#include "sink.h"

#define PIPE_REC_MAX 0xffffu

struct pipe_header {
	uint64_t magic;
	uint64_t size;
};

struct feature_rec_hdr {
	struct perf_event_header header;
	uint64_t feat_id;
};

int pipe__begin(struct sink *out, const struct writer_event *events, uint32_t nr_events)
{
	struct pipe_header ph = { PERF_MAGIC2, sizeof(ph) };
	struct perf_event_header h = { .type = PERF_RECORD_HEADER_ATTR };
	uint8_t attr[PREC_ATTR_SIZE];
	int err;

	for (uint32_t i = 0; i < nr_events; i++) {
		if (!events[i].attr || (events[i].nr_ids && !events[i].ids))
			return -EINVAL;
		/* One attr per record: ids that do not fit cannot be sent. */
		if (events[i].nr_ids > (PIPE_REC_MAX - sizeof(h) - PREC_ATTR_SIZE) / 8)
			return -E2BIG;
	}
	err = sink__append(out, &ph, sizeof(ph));
	for (uint32_t i = 0; !err && i < nr_events; i++) {
		h.size = (uint16_t)(sizeof(h) + PREC_ATTR_SIZE + events[i].nr_ids * 8);
		file_header__attr_bytes(attr, events[i].attr);
		err = sink__append(out, &h, sizeof(h));
		if (!err)
			err = sink__append(out, attr, sizeof(attr));
		if (!err)
			err = sink__append(out, events[i].ids, events[i].nr_ids * sizeof(uint64_t));
	}
	return err;
}

/* One HEADER_FEATURE record around len payload bytes (len fits). */
static int pipe__feature_record(struct sink *out, int id, const void *payload, size_t len)
{
	struct feature_rec_hdr fh = {
		.header = { .type = PERF_RECORD_HEADER_FEATURE,
			    .size = (uint16_t)(sizeof(fh) + len) },
		.feat_id = (uint64_t)id,
	};
	int err = sink__append(out, &fh, sizeof(fh));

	return err ? err : sink__append(out, payload, len);
}

static bool fits(const struct feat_sink *s)
{
	return feat_sink__len(s) <= PIPE_REC_MAX - sizeof(struct feature_rec_hdr);
}

/*
 * EVENT_DESC too large: the events in as many records as it takes, each a
 * complete EVENT_DESC of its own; perf's reader names the events of each.
 * An event that does not fit alone is left out (its name only is lost).
 */
static int pipe__split_events(struct sink *out, const struct writer_meta *meta)
{
	struct writer_meta part = *meta;
	struct feat_sink s;
	uint32_t i = 0, parts = 0;
	int err = 0;

	feat_sink__init(&s);
	while (!err && i < meta->nr_events) {
		uint32_t n = meta->nr_events - i;

		for (;;) {
			part.events = meta->events + i;
			part.nr_events = n;
			feat_sink__truncate(&s, 0);
			err = features__encode_one(HEADER_EVENT_DESC, &part, &s);
			if (err || fits(&s) || n == 1)
				break;
			n = (n + 1) / 2;
		}
		if (!err && fits(&s)) {
			err = pipe__feature_record(out, HEADER_EVENT_DESC, feat_sink__data(&s),
						   feat_sink__len(&s));
			parts++;
		} else if (!err) {
			pr_verbose("prec: warning: event '%s' left out of EVENT_DESC: too large for a pipe record\n",
				   meta->events[i].name ? meta->events[i].name : "?");
		}
		i += n;
	}
	feat_sink__exit(&s);
	if (!err)
		pr_verbose("prec: EVENT_DESC sent in %u records: too large for one pipe record\n",
			   parts);
	return err;
}

/* CMDLINE too large: perf's reader keeps one, so arguments go from the end. */
static int pipe__reduce_cmdline(struct sink *out, const struct writer_meta *meta)
{
	struct writer_meta part = *meta;
	struct feat_sink s;
	int err = 0;

	feat_sink__init(&s);
	while (part.argc > 1) {
		part.argc--;
		feat_sink__truncate(&s, 0);
		err = features__encode_one(HEADER_CMDLINE, &part, &s);
		if (err || fits(&s))
			break;
	}
	if (!err && fits(&s) && feat_sink__len(&s)) {
		pr_verbose("prec: CMDLINE sent with %d of %d arguments: too large for a pipe record\n",
			   part.argc, meta->argc);
		err = pipe__feature_record(out, HEADER_CMDLINE, feat_sink__data(&s),
					   feat_sink__len(&s));
	} else if (!err) {
		pr_verbose("prec: warning: feature CMDLINE left out: too large for a pipe record\n");
	}
	feat_sink__exit(&s);
	return err;
}

int pipe__feature(struct sink *out, int id, const struct writer_meta *meta)
{
	struct feat_sink s;
	int err;

	feat_sink__init(&s);
	err = features__encode_one(id, meta, &s);
	if (!err)
		err = fits(&s) ? pipe__feature_record(out, id, feat_sink__data(&s),
						      feat_sink__len(&s)) :
				 -E2BIG;
	feat_sink__exit(&s);
	return err;
}

/* HEADER_TRACING_DATA and the blob after it, padded to 8 bytes. 0 or -errno. */
static int pipe__tracing_data(struct sink *out, const void *blob, size_t len)
{
	static const uint8_t zeros[8];
	size_t padded = (len + 7) & ~(size_t)7;
	struct {
		struct perf_event_header header;
		uint32_t size;
		uint32_t pad;
	} rec = {
		.header = { .type = PERF_RECORD_HEADER_TRACING_DATA, .size = sizeof(rec) },
	};
	int err;

	if (padded > UINT32_MAX)
		return -E2BIG;
	/* The blob follows the record, outside its size: readers read size more. */
	rec.size = (uint32_t)padded;
	err = sink__append(out, &rec, sizeof(rec));
	if (!err)
		err = sink__append(out, blob, len);
	if (!err && padded > len)
		err = sink__append(out, zeros, padded - len);
	return err;
}

int pipe__features(struct sink *out, const struct writer_meta *meta)
{
	struct feature_rec_hdr end = {
		.header = { .type = PERF_RECORD_HEADER_FEATURE, .size = sizeof(end) },
		.feat_id = HEADER_LAST_FEATURE,
	};
	struct feat_sink s;
	int err = 0;

	feat_sink__init(&s);
	for (int id = HEADER_RESERVED + 1; !err && id < HEADER_LAST_FEATURE; id++) {
		if (!feat_ops[id].synth)
			continue;
		feat_sink__truncate(&s, 0);
		err = features__encode_one(id, meta, &s);
		if (err) {
			if (err != -ENOENT)
				pr_verbose("prec: warning: feature %s left out: %s\n",
					   feat_ops[id].name, strerror(-err));
			err = 0;
			continue;
		}
		if (fits(&s))
			err = pipe__feature_record(out, id, feat_sink__data(&s),
						   feat_sink__len(&s));
		else if (id == HEADER_EVENT_DESC)
			err = pipe__split_events(out, meta);
		else if (id == HEADER_CMDLINE)
			err = pipe__reduce_cmdline(out, meta);
		else
			pr_verbose("prec: warning: feature %s left out: %zu bytes do not fit a pipe record\n",
				   feat_ops[id].name, feat_sink__len(&s));
	}
	feat_sink__exit(&s);
	if (!err)
		err = sink__append(out, &end, sizeof(end));
	if (!err && meta->tracing_data_len)
		err = pipe__tracing_data(out, meta->tracing_data, meta->tracing_data_len);
	return err;
}

int pipe__finish(struct sink *out, const struct writer_meta *meta)
{
	struct feat_sink s;
	int err = 0;

	if (!meta || !meta->nr_buildids)
		return 0;
	feat_sink__init(&s);
	for (uint32_t i = 0; !err && i < meta->nr_buildids; i++) {
		feat_sink__truncate(&s, 0);
		err = feat_buildid__put_record(&s, &meta->buildids[i], PERF_RECORD_HEADER_BUILD_ID);
		if (err == -EINVAL) {
			err = 0; /* one bad entry costs only itself */
			continue;
		}
		if (!err)
			err = feat_sink__err(&s);
		if (!err)
			err = sink__append(out, feat_sink__data(&s), feat_sink__len(&s));
	}
	feat_sink__exit(&s);
	return err;
}
