/* SPDX-License-Identifier: MIT */
/*
 * The one progress line of a long run, redrawn in place on stderr.  It is
 * drawn only when stderr is a terminal and --quiet was not given, so logs,
 * pipes and CI see nothing of it; DLASIM_PROGRESS=1 draws it anyway (for
 * the tests, which run without a terminal), DLASIM_PROGRESS=0 never.
 */
#ifndef DL_PROGRESS_H
#define DL_PROGRESS_H

#include <stdbool.h>

/* --quiet: no progress line for the rest of the process (a line already
 * drawn is left as it is). */
void dl_progress_quiet(void);

/* Whether a progress line is drawn. */
bool dl_progress_on(void);

/* Redraw the line (printf format, no newline); nothing when it is off. */
void dl_progress_draw(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Remove the line, so that a message or the result starts on a clean line. */
void dl_progress_clear(void);

/* Monotonic wall-clock seconds, for elapsed times and estimates. */
double dl_progress_wall(void);

/* Seconds as "42s", "3m05s" or "1h02m", for elapsed and remaining times. */
void dl_progress_duration(double s, char *buf, unsigned long len);

#endif
