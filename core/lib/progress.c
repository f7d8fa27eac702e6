/* SPDX-License-Identifier: MIT */
#include "progress.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static bool quiet;
static bool shown;

void dl_progress_quiet(void)
{
	/* A line on the screen is not this process's to clear: a child of a
	 * study turns progress off with its parent's line still drawn. */
	quiet = true;
	shown = false;
}

bool dl_progress_on(void)
{
	const char *force = getenv("DLASIM_PROGRESS");

	if (quiet)
		return false;
	if (force && *force)
		return strcmp(force, "0") != 0;
	return isatty(STDERR_FILENO);
}

void dl_progress_draw(const char *fmt, ...)
{
	va_list ap;

	if (!dl_progress_on())
		return;
	/* Whatever the run printed on stdout goes first, not into the line. */
	fflush(stdout);
	fputs(shown ? "\r\033[K" : "", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fflush(stderr);
	/* A line ended by the caller stays on the screen. */
	shown = fmt[0] && fmt[strlen(fmt) - 1] != '\n';
}

void dl_progress_clear(void)
{
	if (!shown)
		return;
	fputs("\r\033[K", stderr);
	fflush(stderr);
	shown = false;
}

void dl_progress_duration(double s, char *buf, unsigned long len)
{
	long t = s > 0 ? (long)(s + 0.5) : 0;

	if (t < 60)
		snprintf(buf, len, "%lds", t);
	else if (t < 3600)
		snprintf(buf, len, "%ldm%02lds", t / 60, t % 60);
	else
		snprintf(buf, len, "%ldh%02ldm", t / 3600, t / 60 % 60);
}

double dl_progress_wall(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec * 1e-9;
}
