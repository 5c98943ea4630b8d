/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_RECORDER_NAMES_READER_H
#define PREC_RECORDER_NAMES_READER_H
/*
 * The names reader's entry (names_reader.c): prec runs itself as the
 * reader of the traced processes' files (names_proto.h says why it is a
 * process of its own). names_link.c starts /proc/self/exe with
 * NAMES_READER_ENV set and the socket and the busy page as fds 3 and 4;
 * main() hands such a start here before anything else.
 */
#include <stdint.h>

#include "names/names_proto.h"

#define NAMES_READER_ENV "PREC_NAMES_READER" /* "PARENT_PID MAX_FILE POLL_MS" */
#define NAMES_READER_SOCK_FD 3
#define NAMES_READER_BUSY_FD 4

/* When this process was started as the names reader: runs it and never
 * returns. Else returns at once. */
void names_reader__run_if_asked(void);

/* The reader's loop over its socket; never returns (_exit). */
void names_reader__main(int sock, struct names_busy *busy, uint64_t max_file, unsigned int poll_ms)
	__attribute__((noreturn));

#endif
