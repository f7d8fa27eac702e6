/* SPDX-License-Identifier: MIT */
/*
 * User-facing diagnostics: one clear line on stderr, prefixed "dlasim: ".
 * Whatever the message quotes from the input, it stays one printable line:
 * control characters and bytes that are not UTF-8 are shown as \xNN.
 */
#ifndef DL_DIAG_H
#define DL_DIAG_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

/* Print "dlasim: <message>" and return -1, so that `return dl_err(...)`
 * both reports and fails. */
int dl_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void dl_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void dl_verr(const char *fmt, va_list ap);
/* "dlasim: <prefix><message>" (the prefix e.g. "warning: "). */
void dl_vmessage(const char *prefix, const char *fmt, va_list ap);

/*
 * A plugin's reason for the failure the host is about to report (its
 * error-level log line) is held back, so that the report is one line
 * ending with it: dl_hold_reason() holds "<prefix><message>" from `from`;
 * dl_take_reason() gives the message to the report of a failure of
 * `from` (false if none is held from it).  A reason nobody takes is
 * printed as it was given, before the next message or at exit.
 */
void dl_hold_reason(const char *from, const char *prefix, const char *fmt, va_list ap);
bool dl_take_reason(const char *from, char *buf, size_t len);
/* Print a held reason nobody took now (the exit handler's work, for a
 * process that ends without running its exit handlers). */
void dl_flush_held_reason(void);

/* Copy `src` into dst[len] with control characters and invalid UTF-8 as
 * \xNN, cut to fit. */
void dl_printable(char *dst, size_t len, const char *src);

/* Program name used in messages ("dlasim" unless changed). */
extern const char *dl_progname;
/* Non-zero: plugins' debug and info messages are shown ($DLASIM_VERBOSE). */
extern int dl_verbose;

#endif
