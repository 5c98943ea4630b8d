#ifndef PREC_LOG_H
#define PREC_LOG_H
/*
 * The one message channel. Errors are one line on stderr:
 *   prec: <what failed>: <why> (<how to fix>)
 * Only the caller that can explain an error prints it, once.
 */
#include <stdarg.h>

/*
 * Room for an error message that quotes what the user typed, whole, so its
 * reason and fix are never cut off: an argument is at most 128 KiB (the
 * kernel's MAX_ARG_STRLEN), and a message quotes at most two. Buffers this
 * big are static, used by the main thread while it starts; only the pages
 * a message fills are ever touched.
 */
#define LOG_MSG_MAX (2 * 128 * 1024 + 4096)

enum log_level { LOG_QUIET = -1, LOG_NORMAL = 0, LOG_VERBOSE = 1, LOG_DEBUG = 2 };

/* Sets the threshold: messages above it are dropped. Not thread-safe; call from main. */
void log__set_level(int level);
/* Returns the current threshold. */
int log__level(void);

/* "prec: " + message + newline on stderr; always printed. */
void pr_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "prec: warning: " + message; dropped under -q. */
void pr_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The message as given (no prefix); dropped under -q. For perf's own texts. */
void pr_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The message as given, only with -v. */
void pr_verbose(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The message as given, only with -vv. */
void pr_debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
