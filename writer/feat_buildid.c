// SPDX-License-Identifier: GPL-2.0-only
/*
 * BUILD_ID: one perf_record_header_build_id per DSO a sample hit, back to
 * back, as perf 6.1's write_buildid() lays them out:
 *
 *   u32 type   0 in a file (perf never sets it there), 67 in a pipe
 *   u16 misc   PERF_RECORD_MISC_KERNEL or _USER, | PERF_RECORD_MISC_BUILD_ID_SIZE
 *   u16 size   36 + the padded name
 *   s32 pid    the machine's pid: -1 for the host
 *   u8  data[20], u8 size, u8 reserved, u16 reserved
 *   char filename[]  NUL-padded to a multiple of 64 (NAME_ALIGN)
 *
 * Records are 4-byte sized, not 8: perf reads them with their own size.
 */
#include <errno.h>
#include <string.h>

#include "prec/buildid.h"
#include "features.h"

struct buildid_record {
	uint32_t type;
	uint16_t misc;
	uint16_t size;
	int32_t pid;
	uint8_t data[BUILD_ID_MAX];
	uint8_t id_size;
	uint8_t reserved1;
	uint16_t reserved2;
};

_Static_assert(sizeof(struct buildid_record) == 36, "perf_record_header_build_id");

#define BUILDID_NAME_ALIGN 64

int feat_buildid__put_record(struct feat_sink *s, const struct writer_buildid *b, uint32_t type)
{
	struct buildid_record r;
	size_t len, padded;

	if (!b->filename || b->size == 0 || b->size > BUILD_ID_MAX)
		return -EINVAL;
	len = strlen(b->filename) + 1;
	padded = (len + BUILDID_NAME_ALIGN - 1) / BUILDID_NAME_ALIGN * BUILDID_NAME_ALIGN;
	if (sizeof(r) + padded > UINT16_MAX)
		return -EINVAL;
	memset(&r, 0, sizeof(r));
	r.type = type;
	r.misc = (uint16_t)(b->misc | PREC_RECORD_MISC_BUILD_ID_SIZE);
	r.size = (uint16_t)(sizeof(r) + padded);
	r.pid = b->pid;
	memcpy(r.data, b->id, b->size);
	r.id_size = b->size;
	feat_sink__put_bytes(s, &r, sizeof(r));
	feat_sink__put_bytes(s, b->filename, len);
	feat_sink__put_zeros(s, padded - len);
	return feat_sink__err(s);
}

int feat__write_build_id(struct feat_sink *s, const struct writer_meta *meta)
{
	if (!meta->nr_buildids || !meta->buildids)
		return -ENOENT;
	for (uint32_t i = 0; i < meta->nr_buildids; i++) {
		int err = feat_buildid__put_record(s, &meta->buildids[i], 0);

		if (err)
			return err;
	}
	return 0;
}
