/* SPDX-License-Identifier: MIT */
/*
 * One iteration of a Chakra execution trace on a platform (`dlasim train
 * --workload FILE.et|DIR`, docs/chakra.md), with the configuration and
 * the results of `train`.
 */
#ifndef MC_CHAKRA_RUN_H
#define MC_CHAKRA_RUN_H

#include "chakra.h"
#include "device.h"
#include "train.h"

/* Run the trace cfg->workload; reports every problem itself.  One per
 * process.  cfg->batch and cfg->mode do not apply (the trace fixes them);
 * cfg->device_memory = INFINITY skips the memory nodes (the oracle). */
int mc_chakra_run(const struct mc_train_cfg *cfg, struct mc_train_result *r);

/* Device time of a compute node, seconds (docs/chakra.md). */
double mc_et_compute_time(const struct mc_device *d, const struct mc_et_node *n);

#endif
