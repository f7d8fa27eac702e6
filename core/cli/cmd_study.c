/* SPDX-License-Identifier: MIT */
/* dlasim study NAME: the studies built into dlasim. */
#include "cli.h"

/* Each study lives with its models (core/mcdla/, core/tier/). */
int study_mcdla(int argc, char **argv) __attribute__((weak));
int study_tm(int argc, char **argv) __attribute__((weak));

static const struct dl_command studies[] = {
	{ "mcdla", "memory-centric systems: DC/HC/MC-DLA x 8 benchmarks (Figures 11-13)", study_mcdla },
	{ "tm", "tiered HBM + flash placement on an NPU (Figures 2-15 of TM-Training)", study_tm },
};

int cmd_study(int argc, char **argv)
{
	return dl_dispatch("dlasim study", "study", studies,
			   sizeof(studies) / sizeof(studies[0]), argc, argv);
}
