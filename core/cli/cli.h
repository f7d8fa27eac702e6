/* SPDX-License-Identifier: MIT */
/*
 * The dlasim executable's command table: each command is defined by the
 * layer that owns it (core/coll, core/mcdla, core/tier, here) and listed
 * in main.c; `dlasim study NAME` dispatches the same way one level down.
 */
#ifndef DL_CLI_H
#define DL_CLI_H

#include <stddef.h>

#include "lib/args.h"

struct dl_command {
	const char *name;
	const char *summary;
	int (*run)(int argc, char **argv);	/* returns an exit status */
};

/* Commands of this folder. */
int cmd_platform(int argc, char **argv);
int cmd_plugins(int argc, char **argv);
int cmd_plot(int argc, char **argv);
int cmd_study(int argc, char **argv);

/*
 * Run the entry of `cmds` named by argv[1] with argv shifted by one; `what`
 * names the level in messages ("command", "study").  Handles --help / -h
 * (prints the list on stdout), --version and no name (on stderr).
 */
int dl_dispatch(const char *prefix, const char *what, const struct dl_command *cmds,
		size_t n, int argc, char **argv);

#endif
