/* SPDX-License-Identifier: MIT */
/* dlasim: entry point and sub-command dispatch. */
#include <stdlib.h>

#include "lib/cleanup.h"
#include "plugin/crash.h"
#include "lib/diag.h"
#include "machine/engine.h"
#include "lib/oom.h"
#include "coll/commands.h"
#include "llm/commands.h"
#include "mcdla/commands.h"
#include "memdev/commands.h"
#include "nna/commands.h"
#include "nvm/commands.h"
#include "sweep/commands.h"
#include "tier/commands.h"
#include "cli.h"

static const struct dl_command commands[] = {
	{ "platform", "generate a SimGrid platform (dc, dc-gen4, hc, hc-ring, mc-star, mc-ring, switch; nvswitch, nvl72, gh200, cxl, mc-nvswitch)", cmd_platform },
	{ "coll", "simulate one collective operation on a platform", cmd_coll },
	{ "plugins", "list the plugins found on the search path", cmd_plugins },
	{ "train", "simulate one training iteration of a workload on a platform", cmd_train },
	{ "llm", "simulate one training iteration of a transformer (tensor, pipeline, data, expert parallelism)", cmd_llm },
	{ "study", "run a study: mcdla (memory-centric systems), tm (tiered memory), nna (NNA DRAM) or nvm (NVM logging)", cmd_study },
	{ "tier", "simulate tier placement of a workload on an NPU with HBM and flash", cmd_tier },
	{ "nna", "simulate one inference of a network on an edge accelerator and its DRAM", cmd_nna },
	{ "dram", "replay a request trace on a DRAM or NVM device model", cmd_dram },
	{ "nvm", "simulate crash-consistent transactions on NVM under persistence-logging plugins", cmd_nvm },
	{ "sweep", "expand a parameter grid into a run list for GNU parallel or Slurm", cmd_sweep },
	{ "merge", "gather the JSON results of a sweep into one CSV or JSON table", cmd_merge },
	{ "plot", "draw a study's figures again from its saved JSON results", cmd_plot },
};

int main(int argc, char **argv)
{
	int status;

	if (getenv("DLASIM_VERBOSE"))
		dl_verbose = 1;
	dl_reserve_std_fds();
	dl_cleanup_install();
	dl_crash_install();
	dl_oom_install();
	status = dl_close_stdout(dl_dispatch("dlasim", "command", commands,
					     sizeof(commands) / sizeof(commands[0]), argc, argv));
	dl_engine_exit(status);
	return status;
}
