/* SPDX-License-Identifier: MIT */
/* User-facing diagnostics: one clear line on stderr, prefixed "dlasim: ". */
#ifndef DL_DIAG_H
#define DL_DIAG_H

#include <stdarg.h>

/* Print "dlasim: <message>" and return -1, so that `return dl_err(...)`
 * both reports and fails. */
int dl_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void dl_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void dl_verr(const char *fmt, va_list ap);

/* Program name used in messages ("dlasim" unless changed). */
extern const char *dl_progname;
/* Non-zero: plugins' debug and info messages are shown ($DLASIM_VERBOSE). */
extern int dl_verbose;

#endif
