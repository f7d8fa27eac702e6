/* SPDX-License-Identifier: MIT */
/*
 * The NVM of a run: the memory-device service's NVM preset (core/memdev)
 * behind the controller, driven by its channel's actor (sim->drv, kicked
 * by sim_flush()); the operations the controller issues go in, their
 * completions come back to mc_nvm_done().
 */
#ifndef DL_NVM_NVMDEV_H
#define DL_NVM_NVMDEV_H

#include <stdbool.h>

#include "pmc.h"
#include "sim.h"

/* Open the NVM (page or line interleaving) and start its actor; fill the
 * controller's environment: issue, banks, bank_of, bank_pending, whose
 * `arg` is the run.  NULL after a message on failure. */
struct nvmdev *nvmdev_open(struct nvm_sim *s, bool line_interleave, struct pmc_env *env);
void nvmdev_free(struct nvmdev *d);

#endif
