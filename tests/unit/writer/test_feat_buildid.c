// SPDX-License-Identifier: GPL-2.0-only
/*
 * BUILD_ID: the exact bytes of perf_record_header_build_id records (checked
 * against a section perf 6.1 wrote on the development VM for
 * `perf record -- ls`), the rules that leave the feature out or refuse an
 * entry, then a whole file written with writer__open/begin/finish and listed
 * by stock `perf buildid-list -i` (skipped when perf is not installed).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "prec/buildid.h"
#include "prec/writer.h"
#include "writer/features.h"

#define PERF_BIN "/usr/bin/perf"

static void unhex(const char *hex, uint8_t *out, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned int v;

		assert_int_equal(sscanf(hex + 2 * i, "%2x", &v), 1);
		out[i] = (uint8_t)v;
	}
}

static struct writer_buildid entry(int32_t pid, uint16_t misc, const char *hex, const char *name)
{
	struct writer_buildid b = { .pid = pid, .misc = misc, .filename = name };

	b.size = (uint8_t)(strlen(hex) / 2);
	unhex(hex, b.id, b.size);
	return b;
}

static void encode(const struct writer_meta *m, struct feat_sink *s, int want)
{
	feat_sink__init(s);
	assert_int_equal(features__encode_one(HEADER_BUILD_ID, m, s), want);
}

/* The first record of perf's own BUILD_ID section for `perf record -- ls`
 * (dumped from its perf.data): type 0, misc 0x8001, size 100, pid -1. */
static const char perf_kernel_record[] =
	"00000000"
	"0180"
	"6400"
	"ffffffff"
	"4a5a9b0affb66c437abcd455d2738af879985fa9"
	"14"
	"00"
	"0000"
	"5b6b65726e656c2e6b616c6c73796d735d00000000000000000000000000000000"
	"0000000000000000000000000000000000000000000000000000000000000000";

static void test_bytes_as_perf(void **state)
{
	struct writer_buildid b[2];
	struct writer_meta m = { .buildids = b, .nr_buildids = 2 };
	uint8_t want[100];
	const uint8_t *got;
	struct feat_sink s;
	int32_t pid;

	(void)state;
	b[0] = entry(-1, PERF_RECORD_MISC_KERNEL, "4a5a9b0affb66c437abcd455d2738af879985fa9",
		     "[kernel.kallsyms]");
	b[1] = entry(-1, PERF_RECORD_MISC_USER, "00112233445566778899aabbccddeeff",
		     "/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2"); /* md5: 16 bytes */
	encode(&m, &s, 0);
	assert_int_equal(feat_sink__len(&s), 200);
	got = feat_sink__data(&s);
	unhex(perf_kernel_record, want, 100);
	assert_memory_equal(got, want, 100);
	/* the second: misc USER | size bit, 16 bytes then zeros, size 16 */
	got += 100;
	assert_int_equal(got[0] | got[1] | got[2] | got[3], 0);
	assert_int_equal(got[4] | got[5] << 8, 0x8002);
	assert_int_equal(got[6] | got[7] << 8, 100);
	memcpy(&pid, got + 8, 4);
	assert_int_equal(pid, -1);
	assert_memory_equal(got + 12, b[1].id, 16);
	for (int i = 28; i < 32; i++)
		assert_int_equal(got[i], 0);
	assert_int_equal(got[32], 16);
	assert_int_equal(got[33] | got[34] | got[35], 0);
	assert_string_equal((const char *)got + 36, b[1].filename);
	for (size_t i = 36 + strlen(b[1].filename); i < 100; i++)
		assert_int_equal(got[i], 0);
	feat_sink__exit(&s);
}

/* The name is NUL-terminated and padded to 64: 63 chars fit in 64, 64 need 128. */
static void test_name_padding(void **state)
{
	char name[200];
	struct writer_buildid b = entry(1234, PERF_RECORD_MISC_USER, "01020304", NULL);
	struct writer_meta m = { .buildids = &b, .nr_buildids = 1 };
	static const struct {
		size_t len, size;
	} rows[] = { { 1, 100 }, { 63, 100 }, { 64, 164 }, { 127, 164 }, { 128, 228 } };
	struct feat_sink s;

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const uint8_t *got;
		int32_t pid;

		memset(name, 'x', rows[i].len);
		name[0] = '/';
		name[rows[i].len] = '\0';
		b.filename = name;
		encode(&m, &s, 0);
		assert_int_equal(feat_sink__len(&s), rows[i].size);
		got = feat_sink__data(&s);
		assert_int_equal(got[6] | got[7] << 8, rows[i].size);
		memcpy(&pid, got + 8, 4);
		assert_int_equal(pid, 1234); /* passed through: a guest's pid */
		assert_int_equal(got[32], 4);
		assert_int_equal(got[36 + rows[i].len], 0);
		assert_int_equal(got[rows[i].size - 1], 0);
		feat_sink__exit(&s);
	}
}

static void test_left_out_and_refused(void **state)
{
	struct writer_buildid b = entry(-1, PERF_RECORD_MISC_USER, "0102", "/bin/x");
	struct writer_meta m = { .buildids = &b, .nr_buildids = 0 };
	char *longname = malloc(70000);
	struct feat_sink s;

	(void)state;
	/* nothing hit: no section, as perf when it finds no build-id */
	encode(&m, &s, -ENOENT);
	encode(NULL, &s, -ENOENT);
	m.nr_buildids = 1;
	m.buildids = NULL;
	encode(&m, &s, -ENOENT);
	m.buildids = &b;
	/* sizes perf cannot hold, no name, a record over 64 KiB */
	b.size = 0;
	encode(&m, &s, -EINVAL);
	assert_int_equal(feat_sink__len(&s), 0);
	b.size = 21;
	encode(&m, &s, -EINVAL);
	b.size = 20;
	b.filename = NULL;
	encode(&m, &s, -EINVAL);
	assert_non_null(longname);
	memset(longname, 'a', 69999);
	longname[69999] = '\0';
	b.filename = longname;
	encode(&m, &s, -EINVAL);
	assert_int_equal(feat_sink__len(&s), 0); /* rolled back */
	free(longname);
	feat_sink__exit(&s);
}

/* The pipe form differs only in header.type. */
static void test_pipe_record(void **state)
{
	struct writer_buildid b = entry(-1, PERF_RECORD_MISC_KERNEL, "0102", "[kernel.kallsyms]");
	struct feat_sink s;
	const uint8_t *got;
	uint32_t type;

	(void)state;
	feat_sink__init(&s);
	assert_int_equal(feat_buildid__put_record(&s, &b, 67), 0);
	got = feat_sink__data(&s);
	memcpy(&type, got, 4);
	assert_int_equal(type, 67);
	assert_int_equal(feat_sink__len(&s), 100);
	feat_sink__exit(&s);
}

/* A whole file, read back by perf buildid-list. */
static void test_perf_buildid_list(void **state)
{
	char dir[] = "/tmp/prec-feat-bid-XXXXXX", path[128], cmd[256], line[512];
	struct perf_event_attr attr = { .type = PERF_TYPE_SOFTWARE,
					.size = sizeof(attr),
					.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID,
					.sample_period = 1000,
					.sample_id_all = 1 };
	uint64_t ids[1] = { 7 };
	struct writer_event ev = { &attr, "cpu-clock", ids, 1 };
	struct writer_buildid b[4];
	struct writer_meta m = { .buildids = b, .nr_buildids = 4 };
	static const char *const want[4] = {
		"4a5a9b0affb66c437abcd455d2738af879985fa9 [kernel.kallsyms]",
		"0123456789abcdef0123456789abcdef01234567 /usr/lib/x86_64-linux-gnu/libc.so.6",
		"e95baaeaec8534edc5df3654182ddf12b19d9b23 [vdso]",
		"00112233445566778899aabbccddeeff /opt/md5/built-with-md5",
	};
	bool seen[4] = { false };
	struct writer *w;
	FILE *p;

	(void)state;
	if (access(PERF_BIN, X_OK))
		skip();
	b[0] = entry(-1, PERF_RECORD_MISC_KERNEL, "4a5a9b0affb66c437abcd455d2738af879985fa9",
		     "[kernel.kallsyms]");
	b[1] = entry(-1, PERF_RECORD_MISC_USER, "0123456789abcdef0123456789abcdef01234567",
		     "/usr/lib/x86_64-linux-gnu/libc.so.6");
	b[2] = entry(-1, PERF_RECORD_MISC_USER, "e95baaeaec8534edc5df3654182ddf12b19d9b23",
		     "[vdso]");
	b[3] = entry(-1, PERF_RECORD_MISC_USER, "00112233445566778899aabbccddeeff",
		     "/opt/md5/built-with-md5");
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/perf.data", dir);
	assert_int_equal(writer__open(&w, path), 0);
	assert_int_equal(writer__begin(w, &ev, 1), 0);
	/* one COMM (pid, tid, "ls", then the sample_id {pid, tid}): perf
	 * warns about an empty data section */
	uint32_t comm[8] = { PERF_RECORD_COMM, 32 << 16, 42, 42, 0x736c, 0, 42, 42 };

	assert_int_equal(writer__write(w, comm, sizeof(comm)), 0);
	assert_int_equal(writer__finish(w, &m), 0);

	snprintf(cmd, sizeof(cmd), PERF_BIN " buildid-list -i '%s' 2>&1", path);
	p = popen(cmd, "r");
	assert_non_null(p);
	while (fgets(line, sizeof(line), p)) {
		bool known = false;

		char hex[64], name[256];

		/* "%-40s %s": a 16-byte id is padded with spaces */
		if (sscanf(line, "%63s %255s", hex, name) == 2)
			snprintf(line, sizeof(line), "%s %s", hex, name);
		line[strcspn(line, "\n")] = '\0';
		for (int i = 0; i < 4; i++) {
			if (!strcmp(line, want[i])) {
				seen[i] = known = true;
			}
		}
		if (!known)
			fail_msg("perf buildid-list printed \"%s\"", line);
	}
	assert_int_equal(pclose(p), 0);
	for (int i = 0; i < 4; i++)
		if (!seen[i])
			fail_msg("perf buildid-list did not list \"%s\"", want[i]);
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bytes_as_perf),	     cmocka_unit_test(test_name_padding),
		cmocka_unit_test(test_left_out_and_refused), cmocka_unit_test(test_pipe_record),
		cmocka_unit_test(test_perf_buildid_list),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
