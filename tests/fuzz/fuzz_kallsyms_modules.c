// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer harness for the two /proc line parsers behind the kernel and
 * module MMAPs (recorder/synth): kallsyms__parse_line and
 * modules__parse_line, any bytes in as one NUL-terminated line. Beyond "no
 * crash, no read outside the line" it checks the contract: an accepted
 * kallsyms line gives a non-empty name inside the line with no blank in it;
 * an accepted modules line gives a name that fits its buffer, NUL-terminated.
 * Built and run by the suite: see CMakeLists.txt here.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "recorder/synth/synthesize.h"

static void check_kallsyms(const uint8_t *data, size_t size)
{
	char *line = malloc(size + 1);
	struct ksym sym;

	if (!line)
		return;
	memcpy(line, data, size);
	line[size] = '\0';
	if (kallsyms__parse_line(line, &sym) == 0) {
		if (!sym.name || sym.name < line || sym.name + sym.name_len > line + size ||
		    !sym.name_len || strlen(sym.name) != sym.name_len ||
		    strpbrk(sym.name, " \t\n") || sym.type == '\0')
			abort();
	}
	free(line);
}

static void check_modules(const uint8_t *data, size_t size)
{
	char *line = malloc(size + 1);
	char name[32];
	uint64_t msize, addr;

	if (!line)
		return;
	memcpy(line, data, size);
	line[size] = '\0';
	memset(name, 'x', sizeof(name));
	if (modules__parse_line(line, name, sizeof(name), &msize, &addr) == 0) {
		if (!memchr(name, '\0', sizeof(name)) || !name[0] || strpbrk(name, " \t\n"))
			abort();
	}
	free(line);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	check_kallsyms(data, size);
	check_modules(data, size);
	return 0;
}
