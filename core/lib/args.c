/* SPDX-License-Identifier: MIT */
#include "args.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"
#include "version.h"

/* Is `arg` one of the command's long options (--name or --name=...), or
 * --help or --version, which every command answers?  A value given as one
 * ("--workload --json") is a forgotten value. */
static bool is_long_option(const char *arg, const struct option *opts)
{
	size_t n;

	if (strncmp(arg, "--", 2) != 0)
		return false;
	arg += 2;
	n = strcspn(arg, "=");
	if ((n == 4 && strncmp(arg, "help", 4) == 0) ||
	    (n == 7 && strncmp(arg, "version", 7) == 0))
		return true;
	for (; opts && opts->name; opts++)
		if (strlen(opts->name) == n && strncmp(arg, opts->name, n) == 0)
			return true;
	return false;
}

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
	} else if (optarg && optind >= 2 && optarg == argv[optind - 1] &&
		   is_long_option(optarg, opts)) {
		dl_err("%s: option '%s' needs a value (got the option '%s')", cmd,
		       argv[optind - 2], optarg);
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

void dl_reserve_std_fds(void)
{
	for (int fd = 0; fd <= 2; fd++) {
		int got;

		if (fcntl(fd, F_GETFD) != -1 || errno != EBADF)
			continue;
		got = open("/dev/null", fd == 0 ? O_WRONLY : O_RDONLY);
		if (got >= 0 && got != fd) {
			dup2(got, fd);
			close(got);
		}
	}
}

int dl_close_stdout(int status)
{
	bool pending = __fpending(stdout) > 0, failed = ferror(stdout);
	int err = 0;

	errno = 0;
	if (fflush(stdout) != 0 || failed)
		err = errno ? errno : EIO;
	/* A closed stdout a command never wrote to is no lost output. */
	if (fclose(stdout) != 0 && !err && (pending || errno != EBADF))
		err = errno;
	if (!err)
		return status;
	/* Not dl_err(): it flushes stdout, which is closed now. */
	fprintf(stderr, "%s: writing standard output: %s\n", dl_progname, strerror(err));
	return DL_EXIT_ERROR;
}
