/* SPDX-License-Identifier: MIT */
#include "version.h"

#include <xbt/base.h>	/* simgrid/version.h needs it first */
#include <simgrid/version.h>

#ifndef DLASIM_VERSION
#define DLASIM_VERSION "unknown"
#endif

const char *dl_version(void)
{
	return DLASIM_VERSION;
}

void dl_version_print(FILE *f)
{
	int major, minor, patch;

	sg_version_get(&major, &minor, &patch);
	fprintf(f, "dlasim %s (SimGrid %d.%d.%d)\n", DLASIM_VERSION, major, minor, patch);
}
