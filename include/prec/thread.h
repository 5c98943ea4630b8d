/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_THREAD_H
#define PREC_THREAD_H
/*
 * How prec starts a thread of its own (base/thread.c): named, so that perf
 * report shows "prec-drain-0" where it would show prec's own work as the
 * user's, with the stack it needs rather than the 8 MB default, and with
 * every signal blocked (the recording's signals stay with the main thread,
 * which sleeps in ppoll with them open).
 */
#include <pthread.h>
#include <stddef.h>

/* The kernel keeps 15 bytes of a task's name (TASK_COMM_LEN 16). */
#define THREAD_NAME_MAX 16

/*
 * Starts fn(arg) on a new thread named name (cut to 15 bytes; it names
 * itself before calling fn, so the kernel's COMM record precedes anything
 * it does) on a stack of stack_bytes (rounded up to the system's minimum;
 * 0: the default), all signals blocked. The caller's signal mask is as it
 * was on return. 0 and *th, or -errno (-EAGAIN at the process limit,
 * -ENOMEM).
 */
int thread__start(pthread_t *th, const char *name, size_t stack_bytes, void *(*fn)(void *),
		  void *arg);

#endif
