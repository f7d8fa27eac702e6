/* SPDX-License-Identifier: MIT */
/*
 * The one version string of dlasim: the VERSION file of the source tree,
 * followed by "+g<commit>" (and ".dirty") when built from a git checkout;
 * the Makefile puts it in.  `--version` prints it and every JSON result
 * carries it as "dlasim_version".
 */
#ifndef DL_VERSION_H
#define DL_VERSION_H

#include <stdio.h>

const char *dl_version(void);
/* "dlasim VERSION (SimGrid X.Y.Z)" and a newline, on f. */
void dl_version_print(FILE *f);

#endif
