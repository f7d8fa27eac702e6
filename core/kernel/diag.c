/* SPDX-License-Identifier: MIT */
#include "diag.h"

#include <stdio.h>

const char *dl_progname = "dlasim";
int dl_verbose;

void dl_verr(const char *fmt, va_list ap)
{
	fflush(stdout);
	fprintf(stderr, "%s: ", dl_progname);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

int dl_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	dl_verr(fmt, ap);
	va_end(ap);
	return -1;
}

void dl_warn(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "%s: warning: ", dl_progname);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}
