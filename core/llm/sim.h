/* SPDX-License-Identifier: MIT */
/*
 * One training iteration of a transformer as SimGrid actors (docs/llm.md,
 * "Simulation"): the devices of `ep` data-parallel replicas run the 1F1B
 * schedule with their tensor-parallel all-reduces and expert all-to-alls
 * through the collective plugins, the stages' data-parallel groups (the
 * first tensor rank's) reduce the gradients, and every other device is
 * taken to be its representative's copy.
 */
#ifndef LLM_SIM_H
#define LLM_SIM_H

#include "machine/platform.h"
#include "config.h"
#include "cost.h"

struct llm_result {
	double iteration_s;
	/* The last device's time, by what it waited on (they add up). */
	double compute_s, tp_s, ep_s, pp_s, bubble_s, dp_s;
	double offload_s;		/* waiting on the backing store */
	double offloaded_bytes;		/* the fullest stage's device: kept in the backing store */
	double offload_traffic_bytes;	/* that device's backing-store traffic per iteration */
	double device_memory;		/* what a stage had to fit: bytes; INFINITY: no
					 * limit; 0: the device gives no capacity */
	double model_flops;		/* per iteration, all devices */
	double flops_per_device_s, mfu, tokens_s;
	struct llm_memory mem;		/* the fullest stage's device */
	double class_bytes[DL_LINK_CLASSES];	/* the whole machine's, by symmetry */
	int devices, simulated;		/* devices of the run, devices with actors */
	char coll_tp[64], coll_dp[64];
	char device[64];		/* the description computed with */
};

int llm_run(const struct llm_cfg *cfg, const struct llm_model *m, struct llm_result *r);

#endif
