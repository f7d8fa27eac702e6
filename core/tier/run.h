/* SPDX-License-Identifier: MIT */
/*
 * One simulated training iteration of a workload on one NPU chip with a
 * tier-placement plugin: its configuration and its entry point.  The run
 * owns the state of the iteration (state.h) and starts the services below
 * it: the chip's actors (chip.h), the placement manager (manager.h), the
 * request timing monitor (monitor.h) and the two tiers (mem.h).
 */
#ifndef DL_TIER_RUN_H
#define DL_TIER_RUN_H

#include <stdbool.h>

#include "result.h"

struct tier_config {
	const char *workload;		/* file */
	const char *policy;		/* plugin name or path, ":options" */
	double tier1_ratio;		/* R of R:1; tier 1 = R/200 of 32 GiB */
	double batch_scale;		/* batch and address space x K */
	double tier2_bw_scale;		/* flash bandwidth x F */
	const char *platform;		/* NULL: the generated npu platform */
	const char *npu_device;		/* its NPU from this device description
					 * (docs/devices.md); NULL: Table 1's */
	bool online_only;		/* hide the future from online policies */
	const char *monitor;		/* file for the monitor's records, or NULL */
};

/* Run one iteration; reports errors itself.  One per process. */
int tier_run(const struct tier_config *cfg, struct tier_result *res);

/* Tier-1 capacity of ratio R:1 (TM-Training's 25:1 = 12.5%, 100:1 = 50%). */
double tier_ratio_bytes(double ratio);

#endif
