/* SPDX-License-Identifier: MIT */
/* dlasim: entry point and sub-command dispatch. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "diag.h"

static const struct dl_command commands[] = {
	{ "platform", "generate a SimGrid platform (dc, dc-gen4, hc, mc-star, mc-ring, switch)", cmd_platform },
	{ "coll", "simulate one collective operation on a platform", cmd_coll },
	{ "plugins", "list the plugins found on the search path", cmd_plugins },
	{ "train", "simulate one training iteration of a workload on a platform", cmd_train },
	{ "study", "run a study: mcdla (memory-centric systems) or tm (tiered memory)", cmd_study },
	{ "tier", "simulate tier placement of a workload on an NPU with HBM and flash", cmd_tier },
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static void usage(FILE *f)
{
	fprintf(f, "usage: dlasim COMMAND [OPTIONS]\n\ncommands:\n");
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (commands[i].run)
			fprintf(f, "  %-9s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\n'dlasim COMMAND --help' describes a command's options.\n");
}

int main(int argc, char **argv)
{
	if (getenv("DLASIM_VERBOSE"))
		dl_verbose = 1;
	if (argc < 2) {
		usage(stderr);
		return DL_EXIT_USAGE;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		usage(stdout);
		return DL_EXIT_OK;
	}
	for (size_t i = 0; i < NCOMMANDS; i++) {
		if (strcmp(argv[1], commands[i].name) == 0 && commands[i].run)
			return commands[i].run(argc - 1, argv + 1);
	}
	dl_err("unknown command '%s' (try 'dlasim --help')", argv[1]);
	return DL_EXIT_USAGE;
}
