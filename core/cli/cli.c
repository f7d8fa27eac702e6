/* SPDX-License-Identifier: MIT */
#include "cli.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "lib/diag.h"
#include "lib/version.h"

static void list_commands(FILE *f, const char *prefix, const char *what,
			  const struct dl_command *cmds, size_t n)
{
	char name[32];
	size_t i;

	for (i = 0; what[i] && i + 1 < sizeof(name); i++)
		name[i] = (char)toupper((unsigned char)what[i]);
	name[i] = '\0';
	fprintf(f, "usage: %s %s [OPTIONS]\n\n", prefix, name);
	for (i = 0; i < n; i++)
		fprintf(f, "  %-9s %s\n", cmds[i].name, cmds[i].summary);
	fprintf(f, "\n'%s %s --help' describes a %s's options.\n", prefix, name, what);
}

int dl_dispatch(const char *prefix, const char *what, const struct dl_command *cmds,
		size_t n, int argc, char **argv)
{
	if (argc < 2) {
		list_commands(stderr, prefix, what, cmds, n);
		return DL_EXIT_USAGE;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		list_commands(stdout, prefix, what, cmds, n);
		return DL_EXIT_OK;
	}
	if (strcmp(argv[1], "--version") == 0) {
		dl_version_print(stdout);
		return fflush(stdout) ? DL_EXIT_ERROR : DL_EXIT_OK;
	}
	for (size_t i = 0; i < n; i++)
		if (strcmp(argv[1], cmds[i].name) == 0)
			return cmds[i].run(argc - 1, argv + 1);
	dl_err("unknown %s '%s' (try '%s --help')", what, argv[1], prefix);
	return DL_EXIT_USAGE;
}
