/* SPDX-License-Identifier: MIT */
/* dlasim study NAME: the studies built into dlasim. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "diag.h"

/* Each study lives with its models (core/mcdla/, core/tier/). */
int study_mcdla(int argc, char **argv) __attribute__((weak));
int study_tm(int argc, char **argv) __attribute__((weak));

static const struct dl_command studies[] = {
	{ "mcdla", "memory-centric systems: DC/HC/MC-DLA x 8 benchmarks (Figures 11-13)", study_mcdla },
	{ "tm", "tiered HBM + flash placement on an NPU (Figures 2-15 of TM-Training)", study_tm },
};

#define NSTUDIES (sizeof(studies) / sizeof(studies[0]))

static void usage(FILE *f)
{
	fprintf(f, "usage: dlasim study NAME [OPTIONS]\n\nstudies:\n");
	for (size_t i = 0; i < NSTUDIES; i++)
		if (studies[i].run)
			fprintf(f, "  %-7s %s\n", studies[i].name, studies[i].summary);
	fprintf(f, "\n'dlasim study NAME --help' describes a study's options.\n");
}

int cmd_study(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return DL_EXIT_USAGE;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		usage(stdout);
		return DL_EXIT_OK;
	}
	for (size_t i = 0; i < NSTUDIES; i++)
		if (strcmp(argv[1], studies[i].name) == 0 && studies[i].run)
			return studies[i].run(argc - 1, argv + 1);
	dl_err("study: unknown study '%s' (try 'dlasim study --help')", argv[1]);
	return DL_EXIT_USAGE;
}
