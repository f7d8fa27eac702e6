/* SPDX-License-Identifier: MIT */
/* Sub-commands of the dlasim executable and the helpers they share. */
#ifndef DL_CLI_H
#define DL_CLI_H

#include <getopt.h>
#include <stddef.h>
#include <stdbool.h>

/* Exit statuses. */
#define DL_EXIT_OK 0
#define DL_EXIT_ERROR 1	/* bad input or failed run */
#define DL_EXIT_USAGE 2	/* bad command line */

struct dl_command {
	const char *name;
	const char *summary;
	int (*run)(int argc, char **argv);	/* returns an exit status */
};

/* Each sub-command, defined in its cmd_*.c file. */
int cmd_platform(int argc, char **argv);
int cmd_coll(int argc, char **argv);
int cmd_plugins(int argc, char **argv);
int cmd_train(int argc, char **argv) __attribute__((weak));
int cmd_study(int argc, char **argv);
int cmd_tier(int argc, char **argv) __attribute__((weak));

/*
 * getopt_long() wrapper for sub-commands (-h is always accepted, more short
 * options in `shortopts`): reports an unknown option or a missing argument
 * as "dlasim CMD: ..." and returns '?'.
 */
int dl_getopt(int argc, char **argv, const char *cmd, const char *shortopts,
	      const struct option *opts);

/* After option parsing: report an operand left over ("unexpected
 * argument"); returns -1 if there was one, else 0. */
int dl_no_operands(int argc, char **argv, const char *cmd);

/*
 * Run the entry of `cmds` named by argv[1] with argv shifted by one; `what`
 * names the level in messages ("command", "study").  Handles --help / -h
 * (prints `usage` on stdout) and no name (on stderr).  Entries whose run
 * is NULL (not built) are treated as unknown.
 */
int dl_dispatch(const char *prefix, const char *what, const struct dl_command *cmds,
		size_t n, int argc, char **argv);

/* Report a bad option value: "dlasim CMD: --opt 'value': why". Returns DL_EXIT_USAGE. */
int dl_bad_option(const char *cmd, const char *opt, const char *value, const char *why);

#endif
