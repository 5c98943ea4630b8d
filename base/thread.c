// SPDX-License-Identifier: GPL-2.0-only
/* prec's own threads, named and sized (prec/thread.h). */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

#include "prec/thread.h"

/* What the new thread needs before it runs fn: freed by it. */
struct thread_start {
	void *(*fn)(void *);
	void *arg;
	char name[THREAD_NAME_MAX];
};

static void *thread__trampoline(void *p)
{
	struct thread_start s = *(struct thread_start *)p;

	free(p);
	/* Its own name, before any work: a name given from outside could come
	 * after the thread's first samples, or after a short thread ended. */
	pthread_setname_np(pthread_self(), s.name);
	return s.fn(s.arg);
}

int thread__start(pthread_t *th, const char *name, size_t stack_bytes, void *(*fn)(void *),
		  void *arg)
{
	struct thread_start *s = malloc(sizeof(*s));
	sigset_t all, old;
	pthread_attr_t attr;
	int ret;

	if (!s)
		return -ENOMEM;
	s->fn = fn;
	s->arg = arg;
	snprintf(s->name, sizeof(s->name), "%s", name);
	ret = pthread_attr_init(&attr);
	if (ret) {
		free(s);
		return -ret;
	}
	if (stack_bytes) {
		size_t min = (size_t)PTHREAD_STACK_MIN;

		pthread_attr_setstacksize(&attr, stack_bytes < min ? min : stack_bytes);
	}
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	ret = pthread_create(th, &attr, thread__trampoline, s);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&attr);
	if (ret)
		free(s);
	return -ret;
}
