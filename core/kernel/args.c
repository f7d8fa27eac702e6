/* SPDX-License-Identifier: MIT */
#include "args.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "version.h"

int dl_getopt(int argc, char **argv, const char *cmd, const char *shortopts,
	      const struct option *opts)
{
	char optstring[64];
	int c;

	opterr = 0;
	snprintf(optstring, sizeof(optstring), ":h%s", shortopts ? shortopts : "");
	c = getopt_long(argc, argv, optstring, opts, NULL);
	if (c == '?') {
		const char *bad = argv[optind - 1];

		/* Every command answers --version the same way, so that no
		 * command's option table has to list it. */
		if (!optopt && strcmp(bad, "--version") == 0) {
			dl_version_print(stdout);
			exit(fflush(stdout) ? DL_EXIT_ERROR : DL_EXIT_OK);
		}
		if (optopt && optopt != '?')
			dl_err("%s: unknown option '-%c' (see 'dlasim %s --help')", cmd, optopt, cmd);
		else
			dl_err("%s: unknown option '%s' (see 'dlasim %s --help')", cmd, bad, cmd);
	} else if (c == ':') {
		dl_err("%s: option '%s' needs a value", cmd, argv[optind - 1]);
		c = '?';
	}
	return c;
}

int dl_bad_option(const char *cmd, const char *opt, const char *value, const char *why)
{
	dl_err("%s: %s '%s': %s", cmd, opt, value, why);
	return DL_EXIT_USAGE;
}

int dl_no_operands(int argc, char **argv, const char *cmd)
{
	if (optind >= argc)
		return 0;
	return dl_err("%s: unexpected argument '%s'", cmd, argv[optind]);
}
