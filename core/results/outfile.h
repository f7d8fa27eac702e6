/* SPDX-License-Identifier: MIT */
/*
 * Result files that appear whole or not at all.  A regular file (or a new
 * one) is written to a temporary file beside it, synced and renamed into
 * place on commit: the old contents stay until the new are complete, and
 * an interrupted or failed run leaves neither a half-written file nor the
 * temporary one (it is on lib/cleanup.h's list).  The new file has the
 * mode of the one it replaces, or 0666 less the umask.  A symbolic link
 * to a regular file is followed: the file it names is replaced, the link
 * stays.
 *
 * Anything else (/dev/null, a FIFO, a terminal, a link to one) is written
 * in place, as a shell's redirection would: renaming over it would
 * replace a device or a pipe with a regular file.  "-" means standard
 * output, which main() checks at exit.
 */
#ifndef DL_OUTFILE_H
#define DL_OUTFILE_H

#include <stdbool.h>
#include <stdio.h>

struct dl_outfile {
	char *path;	/* the file written, NULL for stdout */
	char *tmp;	/* temporary name while open, NULL when in place */
	FILE *f;
	int fd;
	const char *what;	/* option or role, for messages */
	int err;	/* errno of the first write or close that failed */
};

/*
 * `what` names the option the path came from (e.g. "--link-stats").  A
 * run never writes onto a file it reads: the file is refused (one line)
 * when it is, by device and inode, a file named by another word of the
 * command line (an option's value, "--opt=value" or an operand) or one
 * given to dl_outfile_reads().
 */
int dl_outfile_open(struct dl_outfile *o, const char *path, const char *what);
int dl_outfile_commit(struct dl_outfile *o);
void dl_outfile_abort(struct dl_outfile *o);
/* A study's saved results, DIR/results.json beside the figures `--plot
 * DIR` draws (read back by `dlasim plot`). */
int dl_outfile_open_results(struct dl_outfile *o, const char *dir);

/* `path` is read by this run, though no word of the command line names
 * it (a file of a directory operand, a shipped file found by name).
 * 0, or -1 out of memory (reported); a file that is not there is no
 * input. */
int dl_outfile_reads(const char *path);

#endif
