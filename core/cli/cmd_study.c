/* SPDX-License-Identifier: MIT */
/* dlasim study NAME: the studies built into dlasim. */
#include "llm/commands.h"
#include "mcdla/commands.h"
#include "nna/commands.h"
#include "nvm/commands.h"
#include "tier/commands.h"
#include "cli.h"

static const struct dl_command studies[] = {
	{ "mcdla", "memory-centric systems: DC/HC/MC-DLA x 8 benchmarks (Figures 11-13)", study_mcdla },
	{ "tm", "tiered HBM + flash placement on an NPU (Figures 2-15 of TM-Training)", study_tm },
	{ "nna", "edge NNA inference: DWS/ARAI dataflows x ROMA/LAP DRAM placement (Chapter 5)", study_nna },
	{ "llm", "transformer training: DC/HC/MC/CXL backing stores and an oracle, 64-16,384 devices", study_llm },
	{ "nvm", "NVM crash consistency: LAD, TSTE, VADR, REDU, LALEA, BLOM (dissertation Chapters 3-4)", study_nvm },
};

int cmd_study(int argc, char **argv)
{
	return dl_dispatch("dlasim study", "study", studies,
			   sizeof(studies) / sizeof(studies[0]), argc, argv);
}
