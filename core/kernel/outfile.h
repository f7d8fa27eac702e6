/* SPDX-License-Identifier: MIT */
/*
 * Result files that appear whole or not at all: written to a temporary
 * file beside the target and renamed into place on commit.  "-" means
 * standard output.  Every open file is removed if the process fails first.
 */
#ifndef DL_OUTFILE_H
#define DL_OUTFILE_H

#include <stdio.h>

struct dl_outfile {
	char *path;	/* target, NULL for stdout */
	char *tmp;	/* temporary name while open */
	FILE *f;
	const char *what;	/* option or role, for messages */
};

/* `what` names the option the path came from (e.g. "--link-stats"). */
int dl_outfile_open(struct dl_outfile *o, const char *path, const char *what);
int dl_outfile_commit(struct dl_outfile *o);
void dl_outfile_abort(struct dl_outfile *o);
/* Remove every uncommitted temporary file (for fatal exits). */
void dl_outfile_abort_all(void);

#endif
