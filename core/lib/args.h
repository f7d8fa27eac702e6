/* SPDX-License-Identifier: MIT */
/*
 * Command-line helpers every command uses, whichever layer it lives in:
 * exit statuses, getopt with dlasim's messages, and the one-line report of
 * a bad option value.
 */
#ifndef DL_ARGS_H
#define DL_ARGS_H

#include <getopt.h>

/* Exit statuses. */
#define DL_EXIT_OK 0
#define DL_EXIT_ERROR 1	/* bad input or failed run */
#define DL_EXIT_USAGE 2	/* bad command line */

/*
 * getopt_long() wrapper for sub-commands (-h is always accepted, more short
 * options in `shortopts`): reports an unknown option or a missing argument
 * as "dlasim CMD: ..." and returns '?'.  --version prints the version
 * (lib/version.h) and ends the process with status 0.
 */
int dl_getopt(int argc, char **argv, const char *cmd, const char *shortopts,
	      const struct option *opts);

/* After option parsing: report an operand left over ("unexpected
 * argument"); returns -1 if there was one, else 0. */
int dl_no_operands(int argc, char **argv, const char *cmd);

/* Report a bad option value: "dlasim CMD: --opt 'value': why". Returns DL_EXIT_USAGE. */
int dl_bad_option(const char *cmd, const char *opt, const char *value, const char *why);

/*
 * At start: a closed standard stream gets /dev/null opened the wrong way
 * round, so that a file opened later cannot take its place (stdout closed
 * would silently write into it) and writing to it fails as it should.
 */
void dl_reserve_std_fds(void);

/*
 * At exit: flush and close standard output, reporting a failed write
 * ("writing standard output: No space left on device") once.  Returns
 * `status`, or DL_EXIT_ERROR if the output was lost.
 */
int dl_close_stdout(int status);

#endif
