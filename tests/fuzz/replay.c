// SPDX-License-Identifier: GPL-2.0-only
/*
 * The main() of a fuzz harness where no libFuzzer is installed: feeds every
 * file named on the command line (a directory: each regular file in it, in
 * name order) to LLVMFuzzerTestOneInput once. The harness's own checks
 * abort() on a broken contract, so a crash or abort fails the test; with the
 * corpus holding every crash ever found, this keeps them fixed on any
 * compiler.
 */
#include <dirent.h>
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Reads path whole into a buffer of exactly its size; 0 or a negative errno. */
static int replay__read(const char *path, uint8_t **bufp, size_t *sizep)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t size = 0, cap = 0, n;
	int err = 0;

	if (!f)
		return -errno;
	for (;;) {
		if (size == cap) {
			uint8_t *nbuf = realloc(buf, cap ? cap * 2 : 4096);

			if (!nbuf) {
				err = -ENOMEM;
				break;
			}
			buf = nbuf;
			cap = cap ? cap * 2 : 4096;
		}
		n = fread(buf + size, 1, cap - size, f);
		size += n;
		if (n == 0) {
			if (ferror(f))
				err = -EIO;
			break;
		}
	}
	fclose(f);
	if (err) {
		free(buf);
		return err;
	}
	/* Exactly size bytes, so the harness sees where the input ends. */
	*bufp = size ? realloc(buf, size) : buf;
	if (!*bufp)
		*bufp = buf;
	*sizep = size;
	return 0;
}

static int replay__file(const char *path)
{
	uint8_t *buf = NULL;
	size_t size = 0;
	int err = replay__read(path, &buf, &size);

	if (err) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(-err));
		return err;
	}
	LLVMFuzzerTestOneInput(buf, size);
	free(buf);
	return 0;
}

static int replay__dir(const char *dir, int *count)
{
	struct dirent **names;
	char path[4096];
	struct stat st;
	int n = scandir(dir, &names, NULL, alphasort), err = 0;

	if (n < 0) {
		err = -errno;
		fprintf(stderr, "replay: %s: %s\n", dir, strerror(-err));
		return err;
	}
	for (int i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]->d_name);
		if (!err && stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
			err = replay__file(path);
			(*count)++;
		}
		free(names[i]);
	}
	free(names);
	return err;
}

int main(int argc, char **argv)
{
	int count = 0;
	struct stat st;

	for (int i = 1; i < argc; i++) {
		int err;

		if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode)) {
			err = replay__dir(argv[i], &count);
		} else {
			err = replay__file(argv[i]);
			count++;
		}
		if (err)
			return 1;
	}
	printf("replay: %d inputs, no crash\n", count);
	return count ? 0 : 1;
}
