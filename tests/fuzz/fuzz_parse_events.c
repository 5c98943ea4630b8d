// SPDX-License-Identifier: GPL-2.0-only
// Build: clang -g -O1 -fsanitize=fuzzer,address,undefined -D_GNU_SOURCE -Iinclude tests/fuzz/fuzz_parse_events.c recorder/parse_events.c -o /tmp/fuzz_parse_events
/*
 * libFuzzer harness for the -e grammar (not built by CMake). Beyond "no
 * crash, no leak" it checks the contract: all or nothing on failure with a
 * non-empty err, sane attrs on success, names that always fit.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "prec/parse_events.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct event_specs specs = { 0 };
	char err[256];
	char name[128];
	char *str = malloc(size + 1);
	int ret;

	if (!str)
		return 0;
	memcpy(str, data, size);
	str[size] = '\0';

	/* A spec from an earlier -e that any failure must leave alone. */
	if (parse_events(&specs, "task-clock:u", err, sizeof(err)) || specs.nr != 1)
		abort();
	err[0] = '\0';
	ret = parse_events(&specs, str, err, sizeof(err));
	if (ret) {
		if (ret != -EINVAL && ret != -ENOMEM)
			abort();
		if (ret == -EINVAL && !err[0])
			abort();
		if (specs.nr != 1 || strcmp(specs.v[0].name, "task-clock:u"))
			abort();
	} else {
		if (specs.nr < 2)
			abort();
		for (int i = 1; i < specs.nr; i++) {
			const struct event_spec *s = &specs.v[i];
			const char *base = event_name__symbol(s->attr.type, s->attr.config);
			int n;

			if (!s->name || !base || s->attr.precise_ip > 3 || s->name_from_attr)
				abort();
			if (s->attr.size != sizeof(s->attr))
				abort();
			n = event_name__from_attr(name, sizeof(name), base, &s->attr);
			if (n <= 0 || (size_t)n >= sizeof(name) || strlen(name) != (size_t)n)
				abort();
			if (strncmp(name, base, strlen(base)))
				abort();
		}
	}
	event_specs__exit(&specs);
	free(str);
	return 0;
}
